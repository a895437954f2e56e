import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { TASKS_URL } from './get-tasks';
import { recordsKeys } from './query-keys';
import type { Task } from './types';

/** The task's id and the `PATCH` body. */
export type TaskChange = { id: string } & NonNullable<paths['/api/tasks/{id}']['patch']['requestBody']>['content']['application/json'];

/** `PATCH /api/tasks/{id}` → the task. */
export const updateTask = ({ id, ...change }: TaskChange) =>
  api.patch<Task>(`${TASKS_URL}/${encodeURIComponent(id)}`, change);

/** Changes a task of `record` (e.g. ticks it done); the record's tasks, timeline and counts are read again. */
export const useUpdateTask = (
  record: { entityType: RecordType; entityId: string },
  options: { onSuccess?: (t: Task) => void; onError?: (e: Error) => void },
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTask,
    onSuccess: async (task) => {
      await queryClient.invalidateQueries({ queryKey: recordsKeys.record(record.entityType, record.entityId) });
      options.onSuccess?.(task);
    },
    onError: options.onError,
  });
};

/** `DELETE /api/tasks/{id}` → 204; every record's tasks and timelines are read again. */
export const useDeleteTask = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`${TASKS_URL}/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: recordsKeys.all });
      options.onSuccess?.();
    },
    onError: options.onError,
  });
};
