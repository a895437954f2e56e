import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ScoreBadge } from '@/components/ui/score-badge';
import { ErrorState, Skeleton } from '@/components/ui/states';
import { CompanyLine } from '@/features/contacts/components/company-line';
import { ContactDetailDialog } from '@/features/contacts/components/contact-detail-dialog';
import { leadPriority } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import { useConvertToCustomer } from '../api/convert-to-customer';
import { useLeadBoard, type LeadStage } from '../api/get-lead-board';
import { useMoveLead, type Direction } from '../api/move-lead';

const priorityStyle = {
  high: 'border-l-4 border-l-rose-500',
  medium: 'border-l-4 border-l-orange-400',
} as const;

const fullName = (c: Contact) => `${c.firstName} ${c.lastName}`;

/**
 * The lead pipeline's columns: each lead moves back or forward a stage, the last stage converts it
 * to a customer, and its name opens its details. In bulk mode each card has a checkbox.
 */
export function LeadBoard({ bulk, selected, onToggle }: { bulk: boolean; selected: Set<string>; onToggle: (id: string) => void }) {
  const board = useLeadBoard();
  const [detail, setDetail] = useState<Contact | null>(null);

  const updateFailed = () =>
    toast({ title: 'Update Failed', description: 'Failed to update contact status.', variant: 'destructive' });
  const move = useMoveLead({ onError: updateFailed });
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

  return (
    <>
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
                                  onChange={() => onToggle(c.id)}
                                  className="mt-1"
                                />
                              ) : null}
                              <div className="min-w-0">
                                <button type="button" onClick={() => setDetail(c)} className="text-left text-sm font-semibold text-slate-900 hover:underline">
                                  {name}
                                </button>
                                <p className="truncate text-xs text-slate-500">{c.title ?? 'No title'}</p>
                                <CompanyLine contact={c} className="text-xs" />
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
    </>
  );
}
