import { useCallback, useRef, useState } from 'react';

import { Board, BoardColumn, CardList, DragHandle, useBoardCard, type CardRow, type Follow } from '@/components/ui/board';
import { Button } from '@/components/ui/button';
import { ScoreBadge } from '@/components/ui/score-badge';
import { ShowMore } from '@/components/ui/show-more';
import { ErrorState, Skeleton } from '@/components/ui/states';
import { DemoBadge } from '@/components/ui/source-badges';
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

/** A lead card's usual height (name, title, company, buttons), until measured. */
const CARD_HEIGHT = 150;

type CardProps = {
  contact: Contact;
  stage: LeadStage;
  prev: LeadStage | undefined;
  next: LeadStage | undefined;
  row: CardRow;
  bulk: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
  onOpen: (c: Contact) => void;
  onStep: (c: Contact, direction: Direction, to: LeadStage) => void;
  onConvert: (c: Contact) => void;
  /** Which lead a move is on its way for (null when none): every move waits for it. */
  movingId: string | null;
  converting: boolean;
};

/** One lead: dragged by its handle, or moved by its buttons, one stage at a time. */
function LeadCard({ contact: c, stage, prev, next, row, bulk, selected, onToggle, onOpen, onStep, onConvert, movingId, converting }: CardProps) {
  const moving = movingId !== null;
  const { item, handle, isDragging } = useBoardCard(c, stage.stage, row, moving);
  const priority = leadPriority(c.score);
  const name = fullName(c);
  return (
    <li
      {...item}
      aria-label={name}
      aria-busy={movingId === c.id || undefined}
      data-priority={priority ?? 'normal'}
      className={`rounded-lg bg-white p-3 shadow-xs ${priority ? priorityStyle[priority] : ''} ${isDragging || movingId === c.id ? 'opacity-50' : ''}`}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-2">
          <DragHandle label={`Drag ${name}`} handle={handle} />
          {bulk ? (
            <input type="checkbox" aria-label={`Select ${name}`} checked={selected} onChange={() => onToggle(c.id)} className="mt-1" />
          ) : null}
          <div className="min-w-0">
            <RecordLink type="contact" id={c.id} className="text-sm font-semibold text-slate-900 hover:underline">
              {name}
            </RecordLink>
            <DemoBadge demo={c.demo} />
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
}

type ColumnProps = Omit<CardProps, 'contact' | 'row' | 'selected'> & { selected: Set<string> };

/** One stage: its figures over every lead in it, the loaded leads in view, "Show more" for the rest. */
function LeadColumn({ stage, selected, ...cardProps }: ColumnProps) {
  const pages = useLeadColumn(stage);
  const list = useRef<HTMLUListElement>(null);
  const shown = pages.items.length;
  return (
    <BoardColumn id={stage.stage} title={stage.title}>
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
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">No leads in this stage</p>
      ) : (
        <CardList
          items={pages.items}
          total={stage.count}
          label={`Leads in ${stage.title}`}
          list={list}
          estimate={CARD_HEIGHT}
          renderCard={(c, row) => (
            <LeadCard key={c.id} contact={c} stage={stage} row={row} selected={selected.has(c.id)} {...cardProps} />
          )}
        />
      )}
      {stage.count > shown ? (
        <p className="mt-2 text-xs text-slate-600">
          Showing {shown} of {stage.count}
        </p>
      ) : null}
      <ShowMore label={stage.title} pages={pages} focusAfterLast={list} />
    </BoardColumn>
  );
}

/**
 * The lead pipeline's columns: each lead moves back or forward a stage (its buttons, or dragged by
 * its handle with the pointer or the keyboard), the last stage converts it to a customer, and its
 * name opens its details. In bulk mode each card has a checkbox.
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
  const indexOf = (stage: string) => stages.findIndex((s) => s.stage === stage);
  // Focus follows a moved lead to its new column once the board has it there.
  const [follow, setFollow] = useState<Follow | null>(null);
  const followed = useCallback(() => setFollow(null), []);

  const step = (c: Contact, direction: Direction, to: LeadStage) =>
    move.mutate(
      { id: c.id, direction },
      {
        onSuccess: () => {
          toast({ title: 'Lead Moved', description: `${fullName(c)} moved to ${to.title}.`, variant: 'success' });
          setFollow({ id: c.id, to: to.stage });
        },
      },
    );

  return (
    <>
      {board.isPending ? (
        <Skeleton rows={4} label="Loading the lead pipeline" />
      ) : board.isError ? (
        <ErrorState title="Failed to load the lead pipeline" error={board.error} onRetry={() => void board.refetch()} />
      ) : (
        <Board<Contact>
          columns={stages.map((s) => ({ id: s.stage, title: s.title }))}
          name={fullName}
          // The stage before and after, as the card's ← and → buttons.
          targets={(_, from) => [stages[indexOf(from) - 1]?.stage, stages[indexOf(from) + 1]?.stage].filter((s) => s !== undefined)}
          refusal="A lead moves one stage at a time."
          instructions="Drag a lead by its handle to the stage before or after. With the keyboard: focus the handle, press Space, choose the stage with ← or →, and press Space to drop it (Escape cancels)."
          onMove={(c, from, to) => {
            const target = stages[indexOf(to)];
            if (target) step(c, indexOf(to) > indexOf(from) ? 'forward' : 'back', target);
          }}
          follow={follow}
          onFollowed={followed}
          className="auto-cols-[minmax(14rem,1fr)]"
        >
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
              movingId={move.isPending ? move.variables.id : null}
              converting={convert.isPending}
            />
          ))}
        </Board>
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
