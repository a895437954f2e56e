import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';
import type { EnrichBody } from '@/types/openapi.gen';

import { CONTACTS_URL } from './get-contacts';

/** What a succeeded bulk contact_enrich job reports (`results` lists at most the first 100). */
export type BulkEnrichResult = { message: string; enriched: number; total: number };

/** Starts one contact_enrich job over a selection: picked contacts or all the filters match (up to 10,000). */
export const bulkEnrichContacts = (selection: EnrichBody) => api.post<EnqueueResponse>(`${CONTACTS_URL}/bulk-enrich`, selection);

export const useBulkEnrichContacts = (options: { onSuccess?: (r: EnqueueResponse) => void; onError?: (e: Error) => void }) =>
  useMutation({ mutationFn: bulkEnrichContacts, ...options });
