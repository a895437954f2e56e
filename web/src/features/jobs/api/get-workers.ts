import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { WorkerInfo } from '@/types/api';

import { JOBS_REFRESH_MS } from './get-jobs';
import { jobsKeys } from './query-keys';

export const WORKERS_URL = '/api/ops/workers';

/** Workers with their heartbeats, refreshed with the queues (not while the tab is hidden). */
export const useWorkers = () =>
  useQuery({
    queryKey: jobsKeys.workers(),
    queryFn: ({ signal }) => api.get<WorkerInfo[]>(WORKERS_URL, { signal }),
    refetchInterval: JOBS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
