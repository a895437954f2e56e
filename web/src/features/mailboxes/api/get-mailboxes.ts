import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { mailboxKeys } from './query-keys';
import type { Mailbox } from './types';

/** `GET /api/mailboxes`: the signed-in user's mailboxes. */
export const getMailboxes = ({ signal }: { signal?: AbortSignal } = {}) => api.get<Mailbox[]>('/api/mailboxes', { signal });

export const useMailboxes = () =>
  useQuery(queryOptions({ queryKey: mailboxKeys.list(), queryFn: ({ signal }) => getMailboxes({ signal }) }));
