import { queryOptions, useQuery } from '@tanstack/react-query';

import type { RecordType } from '@/config/paths';
import { api } from '@/lib/api-client';

import { recordsKeys, type TaskStatusFilter } from './query-keys';
import type { Task } from './types';

export const TASKS_URL = '/api/tasks';

/** `GET /api/tasks?entityType=&entityId=&status=`: open ones by due date, done ones newest first. */
export const getTasks = (
  type: RecordType,
  id: string,
  status: TaskStatusFilter,
  { signal }: { signal?: AbortSignal } = {},
) => api.get<Task[]>(TASKS_URL, { params: { entityType: type, entityId: id, status }, signal });

export const getTasksQueryOptions = (type: RecordType, id: string, status: TaskStatusFilter) =>
  queryOptions({
    queryKey: recordsKeys.tasks(type, id, status),
    queryFn: ({ signal }) => getTasks(type, id, status, { signal }),
  });

export const useTasks = (type: RecordType, id: string, status: TaskStatusFilter, enabled = true) =>
  useQuery({ ...getTasksQueryOptions(type, id, status), enabled });
