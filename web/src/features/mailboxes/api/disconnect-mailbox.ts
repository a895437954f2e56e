import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { mailboxKeys } from './query-keys';

/** `DELETE /api/mailboxes/{id}`: forgets the mailbox and its password. */
export const disconnectMailbox = (id: string) => api.delete<undefined>(`/api/mailboxes/${encodeURIComponent(id)}`);

export const useDisconnectMailbox = (options: { onSuccess?: () => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectMailbox,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
      options.onSuccess?.();
    },
  });
};
