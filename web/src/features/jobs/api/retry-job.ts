import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

import { jobsKeys } from './query-keys';

export const retryJobUrl = (id: string) => `/api/ops/jobs/${encodeURIComponent(id)}/retry`;

export const retryJob = (id: string): Promise<EnqueueResponse> =>
  api.post<EnqueueResponse>(retryJobUrl(id));

type UseRetryJobOptions = {
  onSuccess?: (response: EnqueueResponse, id: string) => void;
};

export const useRetryJob = ({ onSuccess }: UseRetryJobOptions = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSuccess: (response, id) => {
      // Refetching the detail brings its status back to a live one, which
      // restarts its polling.
      void queryClient.invalidateQueries({ queryKey: jobsKeys.detail(id) });
      if (response.jobId !== id) {
        void queryClient.invalidateQueries({ queryKey: jobsKeys.detail(response.jobId) });
      }
      void queryClient.invalidateQueries({ queryKey: jobsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(response, id);
    },
  });
};
