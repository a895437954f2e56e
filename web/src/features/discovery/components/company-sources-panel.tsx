import { SOURCE_LABELS } from '@/components/ui/source-badges';
import { Card } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';

import { useCompanySources } from '../api/get-company-sources';

const when = (ms: number) => formatDateTime(new Date(ms).toISOString());

/**
 * A company's record: which sources found it, whether what they say is checked, when each saw it,
 * and the notice each source's data carries. Demo data says so here too. Nothing for a company
 * added by hand or imported.
 */
export function CompanySourcesPanel({ companyId }: { companyId: string }) {
  const sources = useCompanySources(companyId);
  if (!sources.data?.length) return null;
  return (
    <Card title="Found by">
      <ul className="space-y-2 text-sm">
        {sources.data.map((s) => (
          <li key={s.source}>
            <p className="font-medium">
              {SOURCE_LABELS[s.source] ?? s.source}
              {s.verified ? null : <span className="ml-2 text-xs font-normal text-amber-800">not a verified record</span>}
            </p>
            <p className="text-xs text-slate-600">
              First seen {when(s.firstSeenAt)}
              {s.lastSeenAt !== s.firstSeenAt ? `, last seen ${when(s.lastSeenAt)}` : ''}
            </p>
            {s.openingHours ? <p className="text-xs text-slate-600">Opening hours: {s.openingHours}</p> : null}
            {s.attribution ? <p className="text-xs text-slate-500">{s.attribution}</p> : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}
