import { ScoreBadge } from '@/components/ui/score-badge';
import { Card } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';
import type { ScoreFactor, WebsiteFacts } from '@/types/api';

/** Social networks as people name them. */
const NETWORKS: Record<string, string> = {
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
  instagram: 'Instagram',
  x: 'X (Twitter)',
  youtube: 'YouTube',
  houzz: 'Houzz',
  yelp: 'Yelp',
  pinterest: 'Pinterest',
};

/** Services of the website (the server's keys) as people name them. */
const SERVICES: Record<string, string> = {
  walk_in_tubs: 'Walk-in tubs',
  accessibility: 'Accessibility',
  bath: 'Bathroom remodeling',
  kitchen: 'Kitchen remodeling',
  remodeling: 'General remodeling',
  plumbing: 'Plumbing',
  roofing: 'Roofing and exteriors',
};

/**
 * "Why this score": each factor of the record's lead score with what it looked at and the points it
 * earned of its weight (docs/providers.md, "Scoring"). Scores stored before the factors were named show their reason.
 */
export function ScorePanel({ score, factors }: { score: number; factors: ScoreFactor[] | null | undefined }) {
  return (
    <Card title="Why this score" actions={<ScoreBadge score={score} label="Lead score" />}>
      {factors && factors.length > 0 ? (
        <table className="w-full text-sm">
          <caption className="sr-only">Factors of the lead score</caption>
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th scope="col" className="pb-1 font-medium">
                Factor
              </th>
              <th scope="col" className="pb-1 text-right font-medium">
                Points
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {factors.map((f) => (
              <tr key={f.factor}>
                <td className="py-1.5 pr-2 align-top">
                  <span className="font-medium text-slate-900">{f.label ?? f.factor}</span>
                  <span className="block break-words text-slate-600">{f.value ?? f.reason}</span>
                  {f.value ? <span className="block text-xs text-slate-500">{f.reason}</span> : null}
                </td>
                <td className="py-1.5 text-right align-top tabular-nums text-slate-900">
                  {f.max === undefined ? f.points : `${f.points} of ${f.max}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-slate-600">Not scored by the scorer yet: its factors appear after the next scoring.</p>
      )}
    </Card>
  );
}

/** What the company's own website showed at its last reading. */
export function WebsitePanel({ facts, enrichedAt }: { facts: WebsiteFacts | null | undefined; enrichedAt: string | null | undefined }) {
  if (!facts) {
    return (
      <Card title="From the website">
        <p className="text-sm text-slate-600">Not read yet. Use “Enrich from website” to read its home, contact and team pages.</p>
      </Card>
    );
  }
  const list = (label: string, items: string[]) =>
    items.length > 0 ? (
      <div>
        <dt className="text-xs font-medium text-slate-500">{label}</dt>
        <dd className="break-words text-slate-900">{items.join(', ')}</dd>
      </div>
    ) : null;
  const socials = Object.entries(facts.socials);
  return (
    <Card title="From the website">
      <dl className="space-y-2 text-sm">
        {list('Services', facts.services.map((s) => SERVICES[s] ?? s))}
        {list('Emails', facts.emails)}
        {list('Phones', facts.phones)}
        {socials.length > 0 ? (
          <div>
            <dt className="text-xs font-medium text-slate-500">Social profiles</dt>
            <dd className="flex flex-wrap gap-x-3">
              {socials.map(([network, href]) => (
                <a key={network} href={href} target="_blank" rel="noreferrer" className="text-indigo-700 hover:underline">
                  {NETWORKS[network] ?? network}
                </a>
              ))}
            </dd>
          </div>
        ) : null}
        {list(
          'People named',
          facts.people.map((p) => [`${p.firstName} ${p.lastName}`, p.title].filter(Boolean).join(', ')),
        )}
      </dl>
      <p className="mt-2 text-xs text-slate-500">
        {facts.pages.length} {facts.pages.length === 1 ? 'page' : 'pages'} read
        {enrichedAt ? ` on ${formatDateTime(enrichedAt)}` : ''}
        {facts.truncated ? '; a page was too long and was cut' : ''}
        {facts.skipped.length > 0 ? `; ${facts.skipped.length} skipped (${facts.skipped.map((s) => s.reason).join('; ')})` : ''}
      </p>
    </Card>
  );
}
