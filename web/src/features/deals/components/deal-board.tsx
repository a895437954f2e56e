import { useCallback, useRef, useState } from 'react';

import { Board, BoardColumn, CardList, type Follow } from '@/components/ui/board';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ShowMore } from '@/components/ui/show-more';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { serverMessageOr } from '@/lib/api-client';
import { formatThousands } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Deal } from '@/types/api';

import { useDeleteDeal } from '../api/delete-deal';
import { useDealBoard, useDealColumn, type DealColumn } from '../api/get-deal-board';
import { useMoveDeal } from '../api/move-deal';
import { nextStage, stageInfo } from '../api/stages';
import { DealCard } from './deal-card';

/** A deal card's usual height, until measured. */
const CARD_HEIGHT = 120;

type ColumnProps = {
  column: DealColumn;
  /** The deal whose move is on its way, if any. */
  movingId: string | null;
  onEdit: (deal: Deal) => void;
  onNextStage: (deal: Deal) => void;
  onDelete: (deal: Deal) => void;
};

/** One stage: the server's count and total of all its deals, the loaded deals in view, "Show more" for the rest. */
function DealStageColumn({ column, movingId, onEdit, onNextStage, onDelete }: ColumnProps) {
  const { label } = stageInfo(column.stage);
  const pages = useDealColumn(column);
  const list = useRef<HTMLUListElement>(null);
  return (
    <BoardColumn id={column.stage} title={label}>
      <h3 className="font-semibold text-slate-900">{label}</h3>
      <p className="text-xs text-slate-600">
        {formatThousands(column.value)} · {column.count} {column.count === 1 ? 'deal' : 'deals'}
      </p>
      <CardList
        items={pages.items}
        total={column.count}
        label={`Deals in ${label}`}
        list={list}
        estimate={CARD_HEIGHT}
        renderCard={(d, row) => (
          <DealCard
            key={d.id}
            deal={d}
            column={column.stage}
            row={row}
            moving={movingId === d.id}
            onEdit={() => onEdit(d)}
            onNextStage={() => onNextStage(d)}
            onDelete={() => onDelete(d)}
          />
        )}
      />
      <ShowMore label={label} pages={pages} focusAfterLast={list} />
    </BoardColumn>
  );
}

/**
 * The deals by stage, with each stage's total: edit a deal, move it to the next stage (from its
 * menu, or dragged by its handle with the pointer or the keyboard), delete it after asking.
 */
export function DealBoard({ onEdit }: { onEdit: (deal: Deal) => void }) {
  const board = useDealBoard();
  const [deleting, setDeleting] = useState<Deal | null>(null);
  const move = useMoveDeal({
    onSuccess: (deal) =>
      toast({ title: 'Deal Moved', description: `"${deal.title}" moved to ${stageInfo(deal.stage).label} stage.`, variant: 'success' }),
    onError: (error) => toast({ title: 'Failed to Move Deal', description: serverMessageOr(error, 'Unable to update deal stage.'), variant: 'destructive' }),
  });
  // Focus follows a moved deal to its new column once the board has it there.
  const [follow, setFollow] = useState<Follow | null>(null);
  const followed = useCallback(() => setFollow(null), []);
  const moveNext = (deal: Deal) => move.mutate(deal.id, { onSuccess: (moved) => setFollow({ id: moved.id, to: stageInfo(moved.stage).stage }) });
  const remove = useDeleteDeal({
    onSuccess: () => {
      toast({ title: 'Deal Deleted', description: 'The deal was removed from the pipeline.', variant: 'success' });
      setDeleting(null);
    },
    onError: (error) => toast({ title: 'Failed to Delete Deal', description: serverMessageOr(error, 'Unable to delete deal.'), variant: 'destructive' }),
  });

  return (
    <>
      {board.isPending ? (
        <Skeleton rows={3} label="Loading deals" />
      ) : board.isError ? (
        <ErrorState title="Failed to load deals" error={board.error} onRetry={() => void board.refetch()} />
      ) : board.data.every((column) => column.count === 0) ? (
        <EmptyState title="No deals yet">Add a deal or convert a prospect to start the pipeline.</EmptyState>
      ) : (
        <Board<Deal>
          columns={board.data.map((column) => ({ id: column.stage, title: stageInfo(column.stage).label }))}
          name={(d) => d.title}
          // The next stage only, as "Move to next stage" in the card's menu.
          targets={(_, from) => {
            const next = nextStage(from);
            return next === null ? [] : [next];
          }}
          refusal="A deal moves to the next stage only."
          instructions="Drag a deal by its handle to the next stage. With the keyboard: focus the handle, press Space, press → to choose the next stage, and press Space to drop it (Escape cancels)."
          onMove={moveNext}
          follow={follow}
          onFollowed={followed}
          className="auto-cols-[minmax(15rem,1fr)] xl:auto-cols-[minmax(11rem,1fr)]"
        >
          {board.data.map((column) => (
            <DealStageColumn
              key={column.stage}
              column={column}
              movingId={move.isPending ? move.variables : null}
              onEdit={onEdit}
              onNextStage={moveNext}
              onDelete={setDeleting}
            />
          ))}
        </Board>
      )}
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
    </>
  );
}
