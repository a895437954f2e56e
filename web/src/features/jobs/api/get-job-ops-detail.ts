import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { JobOpsDetail } from '@/types/api';

import { JOB_POLL_MS } from './get-job';
import { jobsKeys } from './query-keys';

export const jobOpsDetailUrl = (id: string) => `/api/ops/jobs/${encodeURIComponent(id)}`;

/** Payload and every attempt of a job; refreshed with the job while it is live. */
export const useJobOpsDetail = (id: string, live: boolean) =>
  useQuery({
    queryKey: jobsKeys.opsDetail(id),
    queryFn: ({ signal }) => api.get<JobOpsDetail>(jobOpsDetailUrl(id), { signal }),
    refetchInterval: live ? JOB_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
