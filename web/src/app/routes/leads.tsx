import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { ScoreBadge } from '@/components/ui/score-badge';
import { ErrorState, Skeleton } from '@/components/ui/states';
import { ContactDetailDialog } from '@/features/contacts/components/contact-detail-dialog';
import { useBulkMoveLeads } from '@/features/leads/api/bulk-move-leads';
import { useConvertToCustomer } from '@/features/leads/api/convert-to-customer';
import { useLeadBoard, type LeadStage } from '@/features/leads/api/get-lead-board';
import { useMoveLead, type Direction } from '@/features/leads/api/move-lead';
import { leadPriority } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

const priorityStyle = {
  high: 'border-l-4 border-l-rose-500',
  medium: 'border-l-4 border-l-orange-400',
} as const;

const fullName = (c: Contact) => `${c.firstName} ${c.lastName}`;

export function LeadsRoute() {
  const board = useLeadBoard();
  const [bulk, setBulk] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [target, setTarget] = useState('');
  const [detail, setDetail] = useState<Contact | null>(null);

  const updateFailed = () =>
    toast({ title: 'Update Failed', description: 'Failed to update contact status.', variant: 'destructive' });
  const move = useMoveLead({ onError: updateFailed });
  const bulkMove = useBulkMoveLeads({
    onSuccess: (r) => {
      toast({ title: 'Leads Moved', description: `${r.updated} of ${r.matched} contacts moved.`, variant: 'success' });
      setSelected(new Set());
    },
    onError: () => toast({ title: 'Bulk Update Failed', description: 'Failed to update some contacts.', variant: 'destructive' }),
  });
  const convert = useConvertToCustomer({
    onSuccess: (c) => {
      toast({ title: 'Converted to Customer', description: `${fullName(c)} is now a customer.`, variant: 'success' });
      setDetail(null);
    },
    onError: updateFailed,
  });

  const stages = board.data ?? [];
  const titleOf = (stage: string) => stages.find((s) => s.stage === stage)?.title ?? stage;

  const step = (c: Contact, direction: Direction, to: LeadStage) =>
    move.mutate(
      { id: c.id, direction },
      {
        onSuccess: () =>
          toast({ title: 'Lead Moved', description: `${fullName(c)} moved to ${to.title}.`, variant: 'success' }),
      },
    );

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="space-y-6">
      <title>Lead Pipeline · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Lead Pipeline</h1>
        <Button variant={bulk ? 'primary' : 'secondary'} aria-pressed={bulk} onClick={() => { setBulk(!bulk); setSelected(new Set()); }}>
          Bulk Actions
        </Button>
      </div>
      {bulk ? (
        <form
          aria-label="Bulk move"
          className="flex flex-wrap items-end gap-3 rounded-lg bg-indigo-50 p-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (target && selected.size > 0) bulkMove.mutate({ contactIds: [...selected], status: target });
          }}
        >
          <p className="text-sm font-medium text-indigo-900">{selected.size} selected</p>
          <Field label="Move selected to">
            <select className={inputClass} value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">Choose a stage</option>
              {stages.map((s) => (
                <option key={s.stage} value={s.stage}>
                  {s.title}
                </option>
              ))}
            </select>
          </Field>
          <Button type="submit" disabled={!target || selected.size === 0 || bulkMove.isPending}>
            Move
          </Button>
        </form>
      ) : null}

      {board.isPending ? (
        <Skeleton rows={4} label="Loading the lead pipeline" />
      ) : board.isError ? (
        <ErrorState title="Failed to load the lead pipeline" error={board.error} onRetry={() => void board.refetch()} />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
          {stages.map((stage, index) => {
            const prev = stages[index - 1];
            const next = stages[index + 1];
            return (
              <section key={stage.stage} aria-label={stage.title} data-stage={stage.stage} className="rounded-xl bg-slate-100 p-3">
                <h2 className="font-semibold text-slate-900">{stage.title}</h2>
                <dl className="mt-1 grid grid-cols-3 gap-1 text-xs text-slate-600">
                  <div>
                    <dt>Count</dt>
                    <dd className="font-semibold text-slate-900">{stage.count}</dd>
                  </div>
                  <div>
                    <dt>Avg score</dt>
                    <dd className="font-semibold text-slate-900">{stage.avgScore}</dd>
                  </div>
                  <div>
                    <dt>High priority</dt>
                    <dd className="font-semibold text-slate-900">{stage.highPriority}</dd>
                  </div>
                </dl>
                {stage.contacts.length === 0 ? (
                  <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">No leads in this stage</p>
                ) : (
                  <ul className="mt-3 space-y-2">
                    {stage.contacts.map((c) => {
                      const priority = leadPriority(c.score);
                      const name = fullName(c);
                      return (
                        <li
                          key={c.id}
                          aria-label={name}
                          data-priority={priority ?? 'normal'}
                          className={`rounded-lg bg-white p-3 shadow-xs ${priority ? priorityStyle[priority] : ''}`}
                        >
                          <div className="flex items-start justify-between gap-2">
                            <div className="flex min-w-0 items-start gap-2">
                              {bulk ? (
                                <input
                                  type="checkbox"
                                  aria-label={`Select ${name}`}
                                  checked={selected.has(c.id)}
                                  onChange={() => toggle(c.id)}
                                  className="mt-1"
                                />
                              ) : null}
                              <div className="min-w-0">
                                <button type="button" onClick={() => setDetail(c)} className="text-left text-sm font-semibold text-slate-900 hover:underline">
                                  {name}
                                </button>
                                <p className="truncate text-xs text-slate-500">{c.title ?? 'No title'}</p>
                              </div>
                            </div>
                            <ScoreBadge score={c.score} />
                          </div>
                          {priority === 'high' ? <p className="mt-1 text-xs font-medium text-rose-700">High priority</p> : null}
                          <div className="mt-2 flex flex-wrap gap-1">
                            {prev ? (
                              <Button size="sm" variant="secondary" aria-label={`Move ${name} back to ${prev.title}`} disabled={move.isPending} onClick={() => step(c, 'back', prev)}>
                                ← Back
                              </Button>
                            ) : null}
                            {next ? (
                              <Button size="sm" variant="secondary" aria-label={`Move ${name} to ${next.title}`} disabled={move.isPending} onClick={() => step(c, 'forward', next)}>
                                Next →
                              </Button>
                            ) : (
                              <Button size="sm" aria-label={`Convert ${name} to customer`} disabled={convert.isPending} onClick={() => convert.mutate(c.id)}>
                                Convert to Customer
                              </Button>
                            )}
                          </div>
                        </li>
                      );
                    })}
                  </ul>
                )}
                {stage.count > stage.contacts.length ? (
                  <p className="mt-2 text-xs text-slate-500">
                    Showing {stage.contacts.length} of {stage.count}
                  </p>
                ) : null}
              </section>
            );
          })}
        </div>
      )}
      {detail ? (
        <ContactDetailDialog
          contact={detail}
          onClose={() => setDetail(null)}
          actions={
            detail.status === 'qualified' ? (
              <Button onClick={() => convert.mutate(detail.id)} disabled={convert.isPending}>
                Convert to Customer
              </Button>
            ) : (
              <span className="text-xs text-slate-500">Stage: {titleOf(detail.status)}</span>
            )
          }
        />
      ) : null}
    </div>
  );
}
