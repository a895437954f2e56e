import { queryOptions, useQuery } from '@tanstack/react-query';

import { ApiError, api } from '@/lib/api-client';
import { isTerminalStatus, type Job } from '@/types/api';

import { jobsKeys } from './query-keys';

export const JOB_POLL_MS = 1000;

export const jobUrl = (id: string) => `/api/jobs/${encodeURIComponent(id)}`;

export const getJob = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Job> =>
  api.get<Job>(jobUrl(id), { signal });

/**
 * One job, polled every second until its status is terminal (succeeded, failed,
 * cancelled) or the server says it does not exist; then polling stops.
 */
export const getJobQueryOptions = (id: string) =>
  queryOptions({
    queryKey: jobsKeys.detail(id),
    queryFn: ({ signal }) => getJob(id, { signal }),
    refetchInterval: (query) => {
      const { data, error } = query.state;
      if (error instanceof ApiError && error.status === 404) return false;
      return isTerminalStatus(data?.status) ? false : JOB_POLL_MS;
    },
    refetchIntervalInBackground: false,
  });

export const useJob = (id: string) => useQuery(getJobQueryOptions(id));
