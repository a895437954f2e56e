import { useRef, useState } from 'react';

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
import { stageInfo } from '../api/stages';
import { DealCard } from './deal-card';

type ColumnProps = {
  column: DealColumn;
  onEdit: (deal: Deal) => void;
  onNextStage: (deal: Deal) => void;
  onDelete: (deal: Deal) => void;
};

/** One stage: the server's count and total of all its deals, its newest deals, "Show more" for the rest. */
function DealStageColumn({ column, onEdit, onNextStage, onDelete }: ColumnProps) {
  const { label } = stageInfo(column.stage);
  const pages = useDealColumn(column);
  const list = useRef<HTMLUListElement>(null);
  return (
    <section aria-label={label} data-stage={column.stage} className="min-w-0 rounded-xl bg-slate-100 p-3">
      <h3 className="font-semibold text-slate-900">{label}</h3>
      <p className="text-xs text-slate-600">
        {formatThousands(column.value)} · {column.count} {column.count === 1 ? 'deal' : 'deals'}
      </p>
      {/* Each column scrolls on its own; focusable so the keyboard can scroll it too. */}
      <ul
        ref={list}
        tabIndex={0}
        aria-label={`Deals in ${label}`}
        className="mt-2 max-h-[70vh] space-y-2 overflow-y-auto rounded-lg p-0.5 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {pages.items.map((d) => (
          <DealCard key={d.id} deal={d} onEdit={() => onEdit(d)} onNextStage={() => onNextStage(d)} onDelete={() => onDelete(d)} />
        ))}
      </ul>
      <ShowMore label={label} pages={pages} focusAfterLast={list} />
    </section>
  );
}

/** The deals by stage, with each stage's total: edit a deal, move it to the next stage, delete it after asking. */
export function DealBoard({ onEdit }: { onEdit: (deal: Deal) => void }) {
  const board = useDealBoard();
  const [deleting, setDeleting] = useState<Deal | null>(null);
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

  return (
    <>
      {board.isPending ? (
        <Skeleton rows={3} label="Loading deals" />
      ) : board.isError ? (
        <ErrorState title="Failed to load deals" error={board.error} onRetry={() => void board.refetch()} />
      ) : board.data.every((column) => column.count === 0) ? (
        <EmptyState title="No deals yet">Add a deal or convert a prospect to start the pipeline.</EmptyState>
      ) : (
        <div className="grid gap-3 md:grid-cols-3 xl:grid-cols-5">
          {board.data.map((column) => (
            <DealStageColumn
              key={column.stage}
              column={column}
              onEdit={onEdit}
              onNextStage={(d) => move.mutate(d.id)}
              onDelete={setDeleting}
            />
          ))}
        </div>
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
