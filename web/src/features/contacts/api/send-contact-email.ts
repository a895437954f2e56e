import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EmailInput, EmailQueued } from '@/types/openapi.gen';

import { CONTACTS_URL } from './get-contacts';

export type ContactEmailInput = EmailInput;

/** 202: the message is in the ledger (queued) and `jobId` sends it. */
export type ContactEmailAnswer = EmailQueued;

/** Merge fields the server fills in a contact email's subject and body. */
export const CONTACT_MERGE_FIELDS = [
  { token: '{{firstName}}', label: 'First name' },
  { token: '{{lastName}}', label: 'Last name' },
  { token: '{{companyName}}', label: 'Company name' },
  { token: '{{senderName}}', label: 'Your first name' },
] as const;

export const sendContactEmail = (input: ContactEmailInput) => api.post<ContactEmailAnswer>(`${CONTACTS_URL}/email`, input);

export const useSendContactEmail = (options: { onSuccess?: (a: ContactEmailAnswer) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: sendContactEmail, ...options });
