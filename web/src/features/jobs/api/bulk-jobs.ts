import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { BulkJobAction, JobStatus } from '@/types/api';

import { jobsKeys } from './query-keys';

export const BULK_JOBS_URL = '/api/ops/jobs/bulk';

export type BulkJobsInput = { action: BulkJobAction; kind?: string; status?: JobStatus };
export type BulkJobsResponse = { action: BulkJobAction; affected: number };

export const bulkJobs = (input: BulkJobsInput): Promise<BulkJobsResponse> =>
  api.post<BulkJobsResponse>(BULK_JOBS_URL, input);

export const useBulkJobs = ({ onSuccess }: { onSuccess?: (r: BulkJobsResponse) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkJobs,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: jobsKeys.all });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(r);
    },
  });
};
