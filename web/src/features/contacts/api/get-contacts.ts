import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Contact } from '@/types/api';

import { contactsKeys } from './query-keys';

export const CONTACTS_URL = '/api/contacts';

export type ContactFilters = {
  /** Matches full name, email and title, case-insensitive. */
  q?: string;
  /** A title containing this text. */
  role?: string;
  status?: string;
  region?: string;
  limit: number;
  offset: number;
};

export const getContacts = (filters: ContactFilters, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<Contact[]>('GET', CONTACTS_URL, { params: filters, signal }).then(toPage);

export const getContactsQueryOptions = (filters: ContactFilters) =>
  queryOptions({
    queryKey: contactsKeys.list(filters),
    queryFn: ({ signal }) => getContacts(filters, { signal }),
    placeholderData: keepPreviousData,
  });

export const useContacts = (filters: ContactFilters) => useQuery(getContactsQueryOptions(filters));
