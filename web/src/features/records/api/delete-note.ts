import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { recordsKeys } from './query-keys';

/** `DELETE /api/notes/{id}`: 204; 403 unless the author or an admin deletes it. */
export const useDeleteNote = (options: { onSuccess?: () => void; onError?: (e: Error) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`/api/notes/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: recordsKeys.all });
      options.onSuccess?.();
    },
    onError: options.onError,
  });
};
