import { Dialog } from '@/components/ui/dialog';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { SourceBadges } from '@/components/ui/source-badges';
import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { formatRevenue } from '@/lib/rules';

import { useCustomerReport } from '../api/get-customer-report';

export const NOT_DISCLOSED = 'Not disclosed';

type Props = { city: string; state: string; count: number; onClose: () => void };

/** The Customer Report of a map point (seed 000 §2.6): tiles over the state's companies and their cards. */
export function CustomerReportDialog({ city, state, count, onClose }: Props) {
  const report = useCustomerReport(state);
  let body;
  if (report.isPending) body = <Skeleton rows={3} label="Loading customer data" />;
  else if (report.isError)
    body = <ErrorState title="Failed to load customer data" error={report.error} onRetry={() => void report.refetch()} />;
  else if (report.data.companies.length === 0) body = <EmptyState title="No companies found" />;
  else {
    const r = report.data;
    body = (
      <div className="space-y-4">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <StatTile label="Total Companies" value={r.totalCompanies.toLocaleString()} />
          <StatTile label="Avg Revenue" value={r.avgRevenue == null ? NOT_DISCLOSED : formatRevenue(r.avgRevenue)} />
          <StatTile label="Avg Employees" value={r.avgEmployees == null ? NOT_DISCLOSED : r.avgEmployees.toLocaleString()} />
          <StatTile label="Qualified" value={r.qualified.toLocaleString()} />
        </div>
        <ul aria-label={`Companies in ${state}`} className="grid gap-3 sm:grid-cols-2">
          {r.companies.map((c) => (
            <li key={c.id} className="rounded-lg p-3 ring-1 ring-slate-200">
              <div className="flex items-start justify-between gap-2">
                <span className="font-medium">
                  {c.name}
                  <SourceBadges sources={c.sources} />
                </span>
                <ScoreBadge score={c.score} />
              </div>
              <p className="text-sm text-slate-500">{c.location ?? NOT_DISCLOSED}</p>
              <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                <StatusPill status={c.status} />
                <span>{c.revenue ? formatRevenue(c.revenue) : NOT_DISCLOSED}</span>
                <span className="text-slate-500">{c.employees ? `${c.employees} employees` : NOT_DISCLOSED}</span>
              </div>
              {c.contacts?.length ? (
                <p className="mt-1 text-xs text-slate-600">
                  {c.contacts.map((p) => `${p.firstName} ${p.lastName}`).join(', ')}
                  {c.contactCount > c.contacts.length ? ` and ${c.contactCount - c.contacts.length} more` : ''}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Customer Report: ${city}, ${state}`} size="lg">
      <p className="mb-3 text-sm">
        <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-800">{count.toLocaleString()} companies</span>
      </p>
      {body}
    </Dialog>
  );
}
