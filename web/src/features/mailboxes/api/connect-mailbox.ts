import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { mailboxKeys } from './query-keys';
import type { ConnectMailboxInput, MailboxConnected } from './types';

/** `POST /api/mailboxes`: stores the connection (the password sealed) and starts a connection test. */
export const connectMailbox = (input: ConnectMailboxInput) => api.post<MailboxConnected>('/api/mailboxes', input);

export const useConnectMailbox = (options: { onSuccess?: (r: MailboxConnected) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectMailbox,
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
      options.onSuccess?.(r);
    },
  });
};
