import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EmailHistory } from '@/types/openapi.gen';

import { CONTACTS_URL } from './get-contacts';
import { contactsKeys } from './query-keys';

/** A contact's email: campaigns, recent events, its newest messages (direct, campaigns, sequences;
 * from the moment they are queued) and its counts as every screen counts them (docs/figures.md). */
export type { EmailHistory };

/** Recent email events shown in the history dialog (seed 001 §9). */
export const RECENT_EVENTS_SHOWN = 10;

export const getEmailHistory = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<EmailHistory>(`${CONTACTS_URL}/${encodeURIComponent(id)}/email-history`, { signal });

export const useEmailHistory = (id: string) =>
  useQuery(
    queryOptions({
      queryKey: contactsKeys.emailHistory(id),
      queryFn: ({ signal }) => getEmailHistory(id, { signal }),
    }),
  );
