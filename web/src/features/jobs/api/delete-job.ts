import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { jobsKeys } from './query-keys';

export const deleteJobUrl = (id: string) => `/api/ops/jobs/${encodeURIComponent(id)}`;

export const deleteJob = (id: string) => api.delete<undefined>(deleteJobUrl(id));

export const useDeleteJob = ({ onSuccess }: { onSuccess?: (id: string) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteJob,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: jobsKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobsKeys.queues });
      onSuccess?.(id);
    },
  });
};
