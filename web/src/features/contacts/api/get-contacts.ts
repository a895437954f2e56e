import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Contact } from '@/types/api';

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

/** Query keys of everything built from contacts (the list, the lead board, customers). */
export const contactsKeys = {
  all: ['contacts'] as const,
  list: (filters: ContactFilters) => ['contacts', 'list', filters] as const,
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
