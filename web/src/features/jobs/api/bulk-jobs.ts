import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { jobsKeys } from './query-keys';

export const BULK_JOBS_URL = '/api/ops/jobs/bulk';

type BulkJobsOp = paths['/api/ops/jobs/bulk']['post'];
export type BulkJobsInput = NonNullable<BulkJobsOp['requestBody']>['content']['application/json'];
export type BulkJobsResponse = BulkJobsOp['responses'][200]['content']['application/json'];

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
