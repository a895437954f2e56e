import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Job, JobStatus } from '@/types/api';

import { jobsKeys } from './query-keys';

export const JOBS_URL = '/api/ops/jobs';
export const JOBS_PAGE_SIZE = 50;
export const JOBS_REFRESH_MS = 2000;

export type GetJobsParams = {
  kind?: string;
  status?: JobStatus;
  /** Text in the payload or the error. */
  q?: string;
  limit: number;
  offset: number;
};

export type JobsPage = {
  jobs: Job[];
  /** From the X-Total-Count header: how many jobs match, over all pages. */
  total: number;
};

export const getJobs = async (
  { kind, status, q, limit, offset }: GetJobsParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<JobsPage> => {
  const { data, headers } = await api.request<Job[]>('GET', JOBS_URL, {
    params: { kind, status, q, limit, offset },
    signal,
  });
  const header = headers.get('X-Total-Count');
  const total = header === null ? Number.NaN : Number.parseInt(header, 10);
  return {
    jobs: data,
    total: Number.isFinite(total) ? total : offset + data.length,
  };
};

export const getJobsQueryOptions = (params: GetJobsParams) =>
  queryOptions({
    queryKey: jobsKeys.list(params),
    queryFn: ({ signal }) => getJobs(params, { signal }),
    placeholderData: keepPreviousData,
    // Polling pauses while the tab is hidden (refetchIntervalInBackground is off).
    refetchInterval: JOBS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });

export const useJobs = (params: GetJobsParams) => useQuery(getJobsQueryOptions(params));
