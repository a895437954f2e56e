import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ScoreBadge, StatusPill } from '@/components/ui/score-badge';
import { Card, EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { useConvertProspect } from '@/features/deals/api/convert-prospect';
import { useDeleteDeal } from '@/features/deals/api/delete-deal';
import { useExportPipeline } from '@/features/deals/api/export-pipeline';
import { useDeals } from '@/features/deals/api/get-deals';
import { usePipelineMetrics } from '@/features/deals/api/get-pipeline-metrics';
import { useProspects } from '@/features/deals/api/get-prospects';
import { useMoveDeal } from '@/features/deals/api/move-deal';
import {
  COMPANY_PROSPECT_STATUSES,
  CONTACT_PROSPECT_STATUSES,
  useUpdateProspectStatus,
} from '@/features/deals/api/update-prospect-status';
import { BOARD_STAGES, stageInfo } from '@/features/deals/api/stages';
import { DealCard } from '@/features/deals/components/deal-card';
import { DealFormDialog } from '@/features/deals/components/deal-form-dialog';
import { serverMessageOr } from '@/lib/api-client';
import { formatDollars, formatMillions, formatPercent, formatRevenue, formatThousands } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Deal } from '@/types/api';

function Metrics() {
  const metrics = usePipelineMetrics();
  if (metrics.isPending) return <Skeleton rows={1} label="Loading pipeline metrics" />;
  if (metrics.isError) {
    return <ErrorState title="Failed to load pipeline metrics" error={metrics.error} onRetry={() => void metrics.refetch()} />;
  }
  const m = metrics.data;
  return (
    <>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-5">
        <StatTile label="Total Pipeline" value={formatMillions(m.totalPipeline)} note={`${formatPercent(m.qoqGrowth)} vs last quarter`} />
        <StatTile label="Active Deals" value={m.activeDealsCount} note={`${formatPercent(m.weeklyGrowth)} this week`} />
        <StatTile label="Close Rate" value={formatPercent(m.closeRate)} note={`Target ${formatPercent(m.targetCloseRate)}`} />
        <StatTile
          label="Days Avg Cycle"
          value={m.avgCycleDays}
          note={m.avgCycleDays < 40 ? 'faster than industry standard' : `Industry average ${m.industryAvgCycle} days`}
        />
        <StatTile label="Expected Close" value={formatMillions(m.expectedCloseValue)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatTile
          label="Conversion Rate"
          value={formatPercent(m.conversionRate)}
          note={m.conversionRate > m.industryAvgCloseRate ? 'Above industry avg' : `Industry avg ${formatPercent(m.industryAvgCloseRate)}`}
        />
        <StatTile label="Avg Deal Size" value={formatDollars(m.avgDealSize)} note={`Industry avg ${formatDollars(m.industryAvgDealSize)}`} />
        <StatTile
          label="Pipeline Velocity"
          value={m.pipelineVelocity.toFixed(1)}
          note={m.pipelineVelocity > 2 ? 'Accelerating' : 'Building momentum'}
        />
      </div>
    </>
  );
}

function StatusSelect({
  name,
  options,
  onChange,
  disabled,
}: {
  name: string;
  options: readonly (readonly [string, string])[];
  onChange: (status: string) => void;
  disabled: boolean;
}) {
  return (
    <select
      aria-label={`Set status of ${name}`}
      value=""
      disabled={disabled}
      onChange={(e) => e.target.value && onChange(e.target.value)}
      className="rounded-md py-1 pr-7 pl-2 text-xs ring-1 ring-slate-300"
    >
      <option value="">Set status…</option>
      {options.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </select>
  );
}

function Prospects() {
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
                  <Button size="sm" variant="secondary" aria-label={`Convert ${c.name} to deal`} disabled={convert.isPending} onClick={() => convert.mutate({ prospectId: c.id, type: 'company' })}>
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
                    <Button size="sm" variant="secondary" aria-label={`Convert ${name} to deal`} disabled={convert.isPending} onClick={() => convert.mutate({ prospectId: c.id, type: 'contact' })}>
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

export function PipelineRoute() {
  const deals = useDeals();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Deal | null>(null);
  const [editing, setEditing] = useState<Deal | null>(null);
  const move = useMoveDeal({
    onSuccess: (deal) =>
      toast({ title: 'Deal Moved', description: `"${deal.title}" moved to ${stageInfo(deal.stage).label} stage.`, variant: 'success' }),
    onError: (error) => toast({ title: 'Failed to Move Deal', description: serverMessageOr(error, 'Unable to update deal stage.'), variant: 'destructive' }),
  });
  const remove = useDeleteDeal({
    onSuccess: () => {
      toast({ title: 'Deal Deleted', description: 'The deal was removed from the pipeline.', variant: 'success' });
      setDeleting(null);
    },
    onError: (error) => toast({ title: 'Failed to Delete Deal', description: serverMessageOr(error, 'Unable to delete deal.'), variant: 'destructive' }),
  });
  const exportCsv = useExportPipeline({
    onSuccess: () => toast({ title: 'Export Complete', description: 'Pipeline data downloaded as CSV.', variant: 'success' }),
    onError: (error) => toast({ title: 'Export Failed', description: serverMessageOr(error, 'Unable to export pipeline data.'), variant: 'destructive' }),
  });

  return (
    <div className="space-y-6">
      <title>Sales Pipeline · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Sales Pipeline</h1>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
            {exportCsv.isPending ? 'Exporting…' : 'Export Pipeline'}
          </Button>
          <Button onClick={() => setAdding(true)}>Add Deal</Button>
        </div>
      </div>
      <Metrics />
      <section aria-labelledby="active-prospects" className="space-y-3">
        <h2 id="active-prospects" className="text-lg font-semibold">
          Active Prospects
        </h2>
        <Prospects />
      </section>
      <section aria-labelledby="stages" className="space-y-3">
        <h2 id="stages" className="text-lg font-semibold">
          Pipeline Stages
        </h2>
        {deals.isPending ? (
          <Skeleton rows={3} label="Loading deals" />
        ) : deals.isError ? (
          <ErrorState title="Failed to load deals" error={deals.error} onRetry={() => void deals.refetch()} />
        ) : deals.data.items.length === 0 ? (
          <EmptyState title="No deals yet">Add a deal or convert a prospect to start the pipeline.</EmptyState>
        ) : (
          <div className="grid gap-3 md:grid-cols-3 xl:grid-cols-5">
            {BOARD_STAGES.map((s) => {
              // Deals without a stage count as qualification.
              const inStage = deals.data.items.filter((d) => (d.stage ?? 'qualification') === s.stage);
              const total = inStage.reduce((sum, d) => sum + Number(d.value), 0);
              return (
                <section key={s.stage} aria-label={s.label} data-stage={s.stage} className="rounded-xl bg-slate-100 p-3">
                  <h3 className="font-semibold text-slate-900">{s.label}</h3>
                  <p className="text-xs text-slate-600">
                    {formatThousands(total)} · {inStage.length} {inStage.length === 1 ? 'deal' : 'deals'}
                  </p>
                  <ul className="mt-2 space-y-2">
                    {inStage.map((d) => (
                      <DealCard
                        key={d.id}
                        deal={d}
                        onEdit={() => setEditing(d)}
                        onNextStage={() => move.mutate(d.id)}
                        onDelete={() => setDeleting(d)}
                      />
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
        )}
      </section>
      {adding ? <DealFormDialog onClose={() => setAdding(false)} /> : null}
      {editing ? <DealFormDialog deal={editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <Dialog open onOpenChange={(open) => !open && setDeleting(null)} title="Delete Deal" description={`Are you sure you want to delete "${deleting.title}"?`}>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(deleting.id)}>
              Delete
            </Button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
