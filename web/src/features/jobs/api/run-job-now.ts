import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Job } from '@/types/api';

import { jobsKeys } from './query-keys';

export const runJobNowUrl = (id: string) => `/api/ops/jobs/${encodeURIComponent(id)}/run-now`;

export const runJobNow = (id: string): Promise<Job> => api.post<Job>(runJobNowUrl(id));

export const useRunJobNow = ({ onSuccess }: { onSuccess?: (job: Job) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runJobNow,
    onSuccess: (job) => {
      queryClient.setQueryData(jobsKeys.detail(job.id), job);
      void queryClient.invalidateQueries({ queryKey: jobsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(job);
    },
  });
};
