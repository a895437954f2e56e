import type { GetJobsParams } from './get-jobs';

/** Query keys for the jobs feature, so invalidations stay in one place. */
export const jobsKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobsKeys.all, 'list'] as const,
  list: (params: GetJobsParams) => [...jobsKeys.lists(), params] as const,
  details: () => [...jobsKeys.all, 'detail'] as const,
  detail: (id: string) => [...jobsKeys.details(), id] as const,
  opsDetail: (id: string) => [...jobsKeys.details(), id, 'ops'] as const,
  queues: ['queues'] as const,
  workers: ['ops', 'workers'] as const,
  audit: ['ops', 'audit'] as const,
  history: (minutes: number) => ['ops', 'history', minutes] as const,
};
