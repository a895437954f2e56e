import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Job } from '@/types/api';

import { jobsKeys } from './query-keys';

export const cancelJobUrl = (id: string) => `/api/ops/jobs/${encodeURIComponent(id)}/cancel`;

export const cancelJob = (id: string): Promise<Job> => api.post<Job>(cancelJobUrl(id));

type UseCancelJobOptions = {
  onSuccess?: (job: Job) => void;
};

export const useCancelJob = ({ onSuccess }: UseCancelJobOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelJob,
    onSuccess: (job) => {
      queryClient.setQueryData(jobsKeys.detail(job.id), job);
      void queryClient.invalidateQueries({ queryKey: jobsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(job);
    },
  });
};
