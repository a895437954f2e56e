import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

import { CONTACTS_URL } from './get-contacts';

/** What a succeeded single-contact contact_enrich job reports. */
export type EnrichResult = { contactId: string; enrichedFields: string[]; message: string };

/** Starts a contact_enrich job for one contact (202 with its id). */
export const enrichContact = (id: string) => api.post<EnqueueResponse>(`${CONTACTS_URL}/${encodeURIComponent(id)}/enrich`);

export const useEnrichContact = (options: { onSuccess?: (r: EnqueueResponse) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: enrichContact, ...options });
