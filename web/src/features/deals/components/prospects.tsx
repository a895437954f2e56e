import { Button } from '@/components/ui/button';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { Select } from '@/components/ui/select';
import { serverMessageOr } from '@/lib/api-client';
import { isOneOf } from '@/lib/guards';
import { formatRevenue } from '@/lib/rules';
import { toast } from '@/stores/toasts';

import { useConvertProspect } from '../api/convert-prospect';
import { useProspects } from '../api/get-prospects';
import { COMPANY_PROSPECT_STATUSES, CONTACT_PROSPECT_STATUSES, useUpdateProspectStatus } from '../api/update-prospect-status';

function StatusSelect<S extends string>({
  name,
  options,
  onChange,
  disabled,
}: {
  name: string;
  options: readonly (readonly [S, string])[];
  onChange: (status: S) => void;
  disabled: boolean;
}) {
  const statuses = options.map(([status]) => status);
  return (
    <Select
      aria-label={`Set status of ${name}`}
      size="sm"
      className="w-36"
      value=""
      placeholder="Set status…"
      disabled={disabled}
      onValueChange={(v) => {
        if (isOneOf(statuses, v)) onChange(v);
      }}
      options={options}
    />
  );
}

/** Company and contact prospects: set their status, or convert one to a deal. */
export function Prospects() {
  const prospects = useProspects();
  const setStatus = useUpdateProspectStatus({
    onSuccess: () => toast({ title: 'Prospect Updated', description: 'The prospect status was saved.', variant: 'success' }),
    onError: () => toast({ title: 'Update Failed', description: 'Failed to update prospect status.', variant: 'destructive' }),
  });
  const convert = useConvertProspect({
    onSuccess: (deal) => toast({ title: 'Prospect Converted', description: `"${deal.title}" is now a deal.`, variant: 'success' }),
    onError: (error) => toast({ title: 'Conversion Failed', description: serverMessageOr(error, 'Failed to convert prospect to deal.'), variant: 'destructive' }),
  });
  if (prospects.isPending) return <Skeleton rows={2} label="Loading prospects" />;
  if (prospects.isError) {
    return <ErrorState title="Failed to load prospects" error={prospects.error} onRetry={() => void prospects.refetch()} />;
  }
  const { companies, contacts } = prospects.data;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card title="Company Prospects">
        {companies.length === 0 ? (
          <p className="text-sm text-slate-500">No company prospects.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {companies.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <div className="min-w-0">
                  <p className="font-medium">{c.name}</p>
                  <p className="text-xs text-slate-500">
                    {[c.city, c.state].filter(Boolean).join(', ')} · {formatRevenue(c.revenue)}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <ScoreBadge score={c.prospectScore} />
                  <StatusSelect
                    name={c.name}
                    options={COMPANY_PROSPECT_STATUSES}
                    disabled={setStatus.isPending}
                    onChange={(status) => setStatus.mutate({ type: 'company', id: c.id, status })}
                  />
                  <Button size="sm" variant="secondary" aria-label={`Convert to Deal: ${c.name}`} disabled={convert.isPending} onClick={() => convert.mutate({ prospectId: c.id, type: 'company' })}>
                    Convert to Deal
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Contact Prospects">
        {contacts.length === 0 ? (
          <p className="text-sm text-slate-500">No contact prospects.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {contacts.map((c) => {
              const name = `${c.firstName} ${c.lastName}`;
              return (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <div className="min-w-0">
                    <p className="font-medium">{name}</p>
                    <p className="text-xs text-slate-500">{[c.title, c.companyName].filter(Boolean).join(' · ')}</p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    {c.status === 'new_lead' ? <span className="text-xs text-slate-600">New Lead</span> : <StatusPill status={c.status} />}
                    <StatusSelect
                      name={name}
                      options={CONTACT_PROSPECT_STATUSES}
                      disabled={setStatus.isPending}
                      onChange={(status) => setStatus.mutate({ type: 'contact', id: c.id, status })}
                    />
                    <Button size="sm" variant="secondary" aria-label={`Convert to Deal: ${name}`} disabled={convert.isPending} onClick={() => convert.mutate({ prospectId: c.id, type: 'contact' })}>
                      Convert to Deal
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
    </div>
  );
}
