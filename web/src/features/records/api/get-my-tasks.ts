import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { TASKS_URL } from './get-tasks';
import { recordsKeys } from './query-keys';
import type { Task } from './types';

/** `GET /api/tasks?status=open` without a record: the signed-in user's open tasks, soonest due first. */
export const useMyTasks = () =>
  useQuery(
    queryOptions({
      queryKey: recordsKeys.myTasks(),
      queryFn: ({ signal }) => api.get<Task[]>(TASKS_URL, { params: { status: 'open' }, signal }),
    }),
  );
