import { useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { ScoreBadge } from '@/components/ui/score-badge';
import { ShowMore } from '@/components/ui/show-more';
import { ErrorState, Skeleton } from '@/components/ui/states';
import { CompanyLine } from '@/features/contacts/components/company-line';
import { ContactDetailDialog } from '@/features/contacts/components/contact-detail-dialog';
import { RecordLink } from '@/features/records/components/record-link';
import { leadPriority } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import { useConvertToCustomer } from '../api/convert-to-customer';
import { useLeadBoard, useLeadColumn, type LeadStage } from '../api/get-lead-board';
import { useMoveLead, type Direction } from '../api/move-lead';

const priorityStyle = {
  high: 'border-l-4 border-l-rose-500',
  medium: 'border-l-4 border-l-orange-400',
} as const;

const fullName = (c: Contact) => `${c.firstName} ${c.lastName}`;

type ColumnProps = {
  stage: LeadStage;
  prev: LeadStage | undefined;
  next: LeadStage | undefined;
  bulk: boolean;
  selected: Set<string>;
  onToggle: (id: string) => void;
  onOpen: (c: Contact) => void;
  onStep: (c: Contact, direction: Direction, to: LeadStage) => void;
  onConvert: (c: Contact) => void;
  moving: boolean;
  converting: boolean;
};

/** One stage: its figures over every lead in it, its newest leads, "Show more" for the rest. */
function LeadColumn({ stage, prev, next, bulk, selected, onToggle, onOpen, onStep, onConvert, moving, converting }: ColumnProps) {
  const pages = useLeadColumn(stage);
  const list = useRef<HTMLUListElement>(null);
  const shown = pages.items.length;
  return (
    <section aria-label={stage.title} data-stage={stage.stage} className="min-w-0 rounded-xl bg-slate-100 p-3">
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
      {shown === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">No leads in this stage</p>
      ) : (
        // Each column scrolls on its own; focusable so the keyboard can scroll it too.
        <ul
          ref={list}
          tabIndex={0}
          aria-label={`Leads in ${stage.title}`}
          className="mt-3 max-h-[70vh] space-y-2 overflow-y-auto rounded-lg p-0.5 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {pages.items.map((c) => {
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
                      <RecordLink type="contact" id={c.id} className="text-sm font-semibold text-slate-900 hover:underline">
                        {name}
                      </RecordLink>
                      <p className="truncate text-xs text-slate-500">{c.title ?? 'No title'}</p>
                      <CompanyLine contact={c} className="text-xs" />
                    </div>
                  </div>
                  <ScoreBadge score={c.score} />
                </div>
                {priority === 'high' ? <p className="mt-1 text-xs font-medium text-rose-700">High priority</p> : null}
                <div className="mt-2 flex flex-wrap gap-1">
                  <Button size="sm" variant="ghost" aria-label={`Quick view ${name}`} onClick={() => onOpen(c)}>
                    Quick view
                  </Button>
                  {prev ? (
                    <Button size="sm" variant="secondary" aria-label={`Move ${name} back to ${prev.title}`} disabled={moving} onClick={() => onStep(c, 'back', prev)}>
                      {/* Names begin or hold what the button shows (WCAG 2.5.3). */}
                      <span aria-hidden="true">←</span> {prev.title}
                    </Button>
                  ) : null}
                  {next ? (
                    <Button size="sm" variant="secondary" aria-label={`Move ${name} to ${next.title}`} disabled={moving} onClick={() => onStep(c, 'forward', next)}>
                      {next.title} <span aria-hidden="true">→</span>
                    </Button>
                  ) : (
                    <Button size="sm" aria-label={`Convert to Customer: ${name}`} disabled={converting} onClick={() => onConvert(c)}>
                      Convert to Customer
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {stage.count > shown ? (
        <p className="mt-2 text-xs text-slate-500">
          Showing {shown} of {stage.count}
        </p>
      ) : null}
      <ShowMore label={stage.title} pages={pages} focusAfterLast={list} />
    </section>
  );
}

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
          {stages.map((stage, index) => (
            <LeadColumn
              key={stage.stage}
              stage={stage}
              prev={stages[index - 1]}
              next={stages[index + 1]}
              bulk={bulk}
              selected={selected}
              onToggle={onToggle}
              onOpen={setDetail}
              onStep={step}
              onConvert={(c) => convert.mutate(c.id)}
              moving={move.isPending}
              converting={convert.isPending}
            />
          ))}
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
