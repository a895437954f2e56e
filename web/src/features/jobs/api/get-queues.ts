import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { QueueStats } from '@/types/api';

import { JOBS_REFRESH_MS } from './get-jobs';
import { jobsKeys } from './query-keys';

export const QUEUES_URL = '/api/ops/queues';

export const getQueues = ({ signal }: { signal?: AbortSignal } = {}): Promise<QueueStats[]> =>
  api.get<QueueStats[]>(QUEUES_URL, { signal });

export const getQueuesQueryOptions = () =>
  queryOptions({
    queryKey: jobsKeys.queues,
    queryFn: ({ signal }) => getQueues({ signal }),
    refetchInterval: JOBS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });

export const useQueues = () => useQuery(getQueuesQueryOptions());
