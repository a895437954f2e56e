import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignsKeys } from './query-keys';

/** Deletes a saved template (`DELETE /api/email-templates/{id}`); built-in ones cannot be. */
export const deleteTemplate = (id: string) => api.delete<unknown>(`/api/email-templates/${encodeURIComponent(id)}`);

export const useDeleteTemplate = ({ onSuccess, onError }: { onSuccess: () => void; onError: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.templates() });
      onSuccess();
    },
    onError,
  });
};
