import { useMutation, useQueryClient } from '@tanstack/react-query';

import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { serverMessageOr } from '@/lib/api-client';
import { formatDay, todayIso } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useMyTasks } from '../api/get-my-tasks';
import { recordsKeys } from '../api/query-keys';
import { updateTask } from '../api/update-task';
import { RecordLink } from './record-link';

/** The signed-in user's open tasks across every record, soonest due first; tick one to finish it. */
export function MyTasksCard() {
  const tasks = useMyTasks();
  const queryClient = useQueryClient();
  const done = useMutation({
    mutationFn: (id: string) => updateTask({ id, done: true }),
    // The record pages' tasks and timelines change too.
    onSuccess: (t) => {
      toast({ title: 'Task Completed', description: t.title, variant: 'success' });
      return queryClient.invalidateQueries({ queryKey: recordsKeys.all });
    },
    onError: (e) => toast({ title: 'Update Failed', description: serverMessageOr(e, 'Failed to complete the task'), variant: 'destructive' }),
  });
  const today = todayIso();
  return (
    <Card title="My Tasks">
      {tasks.isPending ? (
        <Skeleton rows={2} label="Loading your tasks" />
      ) : tasks.isError ? (
        <ErrorState title="Failed to load your tasks" error={tasks.error} onRetry={() => void tasks.refetch()} />
      ) : tasks.data.length === 0 ? (
        <EmptyState title="No open tasks">Add tasks from a company's, contact's or deal's page.</EmptyState>
      ) : (
        <ul aria-label="My open tasks" className="divide-y divide-slate-100">
          {tasks.data.map((t) => {
            const overdue = t.dueDate != null && t.dueDate < today;
            return (
              <li key={t.id} className="flex items-start gap-3 py-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300"
                  aria-label={`Complete ${t.title}`}
                  disabled={done.isPending}
                  onChange={() => done.mutate(t.id)}
                />
                <div className="min-w-0 flex-1">
                  <p className="break-words text-slate-900">{t.title}</p>
                  <p className="text-xs text-slate-500">
                    <RecordLink type={t.entityType} id={t.entityId} className="text-indigo-700 hover:underline">
                      {t.entityName ?? 'Open the record'}
                    </RecordLink>
                    {t.dueDate ? (
                      <span className={overdue ? 'font-medium text-rose-700' : undefined}>
                        {' · '}
                        {overdue ? 'Overdue since ' : 'Due '}
                        {formatDay(t.dueDate)}
                      </span>
                    ) : null}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
