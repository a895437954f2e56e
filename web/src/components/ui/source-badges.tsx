/** What users read for each discovery source key; demo data and AI suggestions say what they are. */
export const SOURCE_LABELS: Record<string, string> = {
  osm: 'OpenStreetMap',
  google_places: 'Google Places',
  catalog: 'Demo data',
  llm: 'AI suggestion (unverified)',
};

const BADGE: Record<string, string> = {
  osm: 'bg-emerald-50 text-emerald-800',
  google_places: 'bg-sky-50 text-sky-800',
  catalog: 'bg-amber-100 text-amber-900',
  llm: 'bg-rose-50 text-rose-800',
};

/** A contact a scan of the demo catalog found: generated like its company, and labelled the same. */
export function DemoBadge({ demo }: { demo: boolean | undefined }) {
  return demo ? <SourceBadges sources={['catalog']} /> : null;
}

/** The sources that found a company, as small labels next to its name (discovery, lists, its page). */
export function SourceBadges({ sources }: { sources: string[] | undefined }) {
  if (!sources?.length) return null;
  return (
    <>
      {sources.map((s) => (
        <span key={s} className={`ml-2 inline-block rounded px-1.5 py-0.5 text-xs font-normal ${BADGE[s] ?? 'bg-slate-100 text-slate-700'}`}>
          {SOURCE_LABELS[s] ?? s}
        </span>
      ))}
    </>
  );
}
