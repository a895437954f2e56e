import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { MailboxJobStarted } from './types';

export type MailboxAction = 'test' | 'sync';

/** `POST /api/mailboxes/{id}/test` (log in and open the folder) or `/sync` (read new mail now). */
export const startMailboxJob = ({ id, action }: { id: string; action: MailboxAction }) =>
  api.post<MailboxJobStarted>(`/api/mailboxes/${encodeURIComponent(id)}/${action}`);

export const useStartMailboxJob = (options: { onSuccess?: (r: MailboxJobStarted, v: { id: string; action: MailboxAction }) => void } = {}) =>
  useMutation({ mutationFn: startMailboxJob, onSuccess: options.onSuccess });
