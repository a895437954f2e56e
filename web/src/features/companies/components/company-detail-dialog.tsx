import { Dialog } from '@/components/ui/dialog';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { ErrorState, Skeleton } from '@/components/ui/states';
import { compatibilityLabel, contactTier, formatRevenue, isExecutive } from '@/lib/rules';

import { useCompany } from '../api/get-company';

const TIER_TITLES = {
  executive: 'Executive Leadership',
  leadership: 'Management Team',
  staff: 'Key Staff',
} as const;

function CompanyDetail({ id }: { id: string }) {
  const company = useCompany(id);
  if (company.isPending) return <Skeleton rows={3} label="Loading company" />;
  if (company.isError) {
    return <ErrorState title="Failed to load company" error={company.error} onRetry={() => void company.refetch()} />;
  }
  const c = company.data;
  const contacts = c.contacts ?? [];
  return (
    <div className="space-y-4 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <ScoreBadge score={c.score} />
        <StatusPill status={c.status} />
        {c.competitorAlignment != null ? (
          <span className="text-slate-600">Compatibility: {compatibilityLabel(c.competitorAlignment)}</span>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
        <dt className="text-slate-500">Industry</dt>
        <dd>{c.industry ?? 'Not disclosed'}</dd>
        <dt className="text-slate-500">Revenue</dt>
        <dd>{formatRevenue(c.revenue)}</dd>
        <dt className="text-slate-500">Employees</dt>
        <dd>{c.employees ?? 'Not disclosed'}</dd>
        <dt className="text-slate-500">Location</dt>
        <dd>{c.location ?? 'Not disclosed'}</dd>
        <dt className="text-slate-500">Website</dt>
        <dd className="truncate">
          {c.website ? (
            <a className="text-indigo-700 hover:underline" href={c.website} target="_blank" rel="noreferrer">
              {c.website}
            </a>
          ) : (
            'Not disclosed'
          )}
        </dd>
        <dt className="text-slate-500">Phone</dt>
        <dd>{c.phone ?? 'Not disclosed'}</dd>
      </dl>
      {c.description ? <p className="text-slate-700">{c.description}</p> : null}
      <div>
        <h3 className="font-semibold text-slate-900">Key contacts ({contacts.length})</h3>
        {contacts.length === 0 ? (
          <p className="mt-1 text-slate-500">No contacts on file.</p>
        ) : (
          (['executive', 'leadership', 'staff'] as const).map((tier) => {
            const inTier = contacts.filter((p) => contactTier(p.title) === tier);
            if (inTier.length === 0) return null;
            return (
              <section key={tier} aria-label={TIER_TITLES[tier]} className="mt-2">
                <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{TIER_TITLES[tier]}</h4>
                <ul className="mt-1 space-y-1">
                  {inTier.map((p) => (
                    <li key={p.id} className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">
                        {p.firstName} {p.lastName}
                      </span>
                      <span className="text-slate-500">{p.title}</span>
                      {isExecutive(p.title) ? (
                        <span className="rounded bg-purple-50 px-1.5 text-xs text-purple-700">Executive</span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </section>
            );
          })
        )}
      </div>
    </div>
  );
}

export function CompanyDetailDialog({ id, name, onClose }: { id: string; name: string; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={name} size="lg">
      <CompanyDetail id={id} />
    </Dialog>
  );
}
