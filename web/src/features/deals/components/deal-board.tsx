import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { serverMessageOr } from '@/lib/api-client';
import { formatThousands } from '@/lib/rules';
import { toast } from '@/stores/toasts';
import type { Deal } from '@/types/api';

import { useDeleteDeal } from '../api/delete-deal';
import { useDeals } from '../api/get-deals';
import { useMoveDeal } from '../api/move-deal';
import { BOARD_STAGES, stageInfo } from '../api/stages';
import { DealCard } from './deal-card';

/** The deals by stage, with each stage's total: edit a deal, move it to the next stage, delete it after asking. */
export function DealBoard({ onEdit }: { onEdit: (deal: Deal) => void }) {
  const deals = useDeals();
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
                      onEdit={() => onEdit(d)}
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
