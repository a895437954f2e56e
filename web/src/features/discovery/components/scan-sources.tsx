import { formatMs, formatNumber } from '@/lib/format';

import type { MarketSize, ScanResult, SourceOutcome } from './scan-progress';

/** Per source: what it found, how long it took, what went wrong; then the notices the data must carry (ODbL). */
export function ScanSources({ sources }: { sources: SourceOutcome[] }) {
  if (sources.length === 0) return null;
  return (
    <section aria-label="Sources searched" className="space-y-2 rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
      <h2 className="font-semibold">Sources searched</h2>
      <ul className="space-y-1">
        {sources.map((s) => (
          <li key={s.source} className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium">{s.label}</span>
            <span className="text-slate-600">
              {formatNumber(s.found)} found ({formatNumber(s.new)} new, {formatNumber(s.updated)} updated) in {formatMs(s.elapsedMs)}
            </span>
            {s.error ? <span className="text-rose-700">— {s.error}</span> : null}
          </li>
        ))}
      </ul>
      <div className="space-y-1 border-t border-slate-100 pt-2 text-xs text-slate-500">
        {sources.map((s) => (
          <p key={s.source}>
            <Attribution text={s.attribution} />
          </p>
        ))}
      </div>
    </section>
  );
}

/** An attribution with its link (the ODbL copyright page) made clickable. */
function Attribution({ text }: { text: string }) {
  const at = text.indexOf('https://');
  if (at < 0) return <>{text}</>;
  const url = text.slice(at).trim();
  return (
    <>
      {text.slice(0, at)}
      <a href={url} target="_blank" rel="noreferrer" className="text-indigo-700 underline">
        {url.replace('https://', '')}
      </a>
    </>
  );
}

/** Territory Optimization: companies per city, and the Census count of remodelers per state. */
export function TerritoryInsight({ insight }: { insight: NonNullable<ScanResult['territoryInsights']> }) {
  const cities = insight.cities.slice(0, 8);
  return (
    <section aria-label="Territory insight" className="grid gap-4 rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200 md:grid-cols-2">
      <div>
        <h2 className="mb-1 font-semibold">Companies by city</h2>
        {cities.length === 0 ? (
          <p className="text-slate-500">No cities in these results.</p>
        ) : (
          <ul className="space-y-0.5">
            {cities.map((c) => (
              <li key={`${c.city}-${c.state}`} className="flex justify-between gap-2">
                <span>{[c.city || 'Unknown city', c.state].filter(Boolean).join(', ')}</span>
                <span className="text-slate-600">
                  {formatNumber(c.companies)} · {formatNumber(c.highQualityLeads)} high-quality
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <MarketSizeView market={insight.marketSize} />
    </section>
  );
}

function MarketSizeView({ market }: { market: MarketSize | undefined }) {
  if (!market) return null;
  if (!market.available) {
    return (
      <div>
        <h2 className="mb-1 font-semibold">Market size</h2>
        <p className="text-slate-500">
          No Census County Business Patterns figures are loaded on this server{market.note ? `: ${market.note}` : '.'}
        </p>
      </div>
    );
  }
  return (
    <div>
      <h2 className="mb-1 font-semibold">Market size (residential remodelers, NAICS {market.naics})</h2>
      <table className="w-full text-left">
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col">State</th>
            <th scope="col" className="text-right">Establishments</th>
            <th scope="col" className="text-right">Found</th>
          </tr>
        </thead>
        <tbody>
          {market.states.map((s) => (
            <tr key={s.state}>
              <td>{s.state}</td>
              <td className="text-right">{formatNumber(s.establishments)}</td>
              <td className="text-right">{formatNumber(s.found)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {market.topCounties.length > 0 ? (
        <p className="mt-2 text-xs text-slate-600">
          Largest counties: {market.topCounties.slice(0, 5).map((c) => `${c.county ?? c.countyFips}, ${c.state} (${formatNumber(c.establishments)})`).join('; ')}
        </p>
      ) : null}
      <p className="mt-1 text-xs text-slate-500">
        US Census Bureau, County Business Patterns {market.year ?? ''}
      </p>
    </div>
  );
}
