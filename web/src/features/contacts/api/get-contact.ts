import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Contact } from '@/types/api';

import { CONTACTS_URL } from './get-contacts';
import { contactsKeys } from './query-keys';

/** `GET /api/contacts/{id}`: one contact with its company's name and place. */
export const getContact = (id: string, { signal }: { signal?: AbortSignal } = {}) =>
  api.get<Contact>(`${CONTACTS_URL}/${encodeURIComponent(id)}`, { signal });

export const getContactQueryOptions = (id: string) =>
  queryOptions({ queryKey: contactsKeys.detail(id), queryFn: ({ signal }) => getContact(id, { signal }) });

export const useContact = (id: string) => useQuery(getContactQueryOptions(id));
