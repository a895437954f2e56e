import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { TASKS_URL } from './get-tasks';
import { recordsKeys } from './query-keys';
import type { Task } from './types';

type TaskBody = NonNullable<paths['/api/tasks']['post']['requestBody']>['content']['application/json'];
/** The body, its record required: the mutation refreshes that record's queries. */
// The server takes one of these; its schema says string (issue 24 §2).
export type TaskInput = Omit<TaskBody, 'entityType' | 'entityId'> & { entityType: RecordType; entityId: string };

/** `POST /api/tasks` → 201 with the task. */
export const createTask = (input: TaskInput) => api.post<Task>(TASKS_URL, input);

/** Adds a task; the record's tasks, timeline and related counts are read again. */
export const useCreateTask = (options: { onSuccess?: (t: Task) => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: async (task, input) => {
      await queryClient.invalidateQueries({ queryKey: recordsKeys.record(input.entityType, input.entityId) });
      options.onSuccess?.(task);
    },
    onError: options.onError,
  });
};
