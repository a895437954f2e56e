import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import type { SortDir } from '@/components/ui/table-tools';
import { api, toPage } from '@/lib/api-client';
import type { ApiQuery, Contact } from '@/types/api';

import { contactsKeys } from './query-keys';

export const CONTACTS_URL = '/api/contacts';

/**
 * The orders `GET /api/contacts` and `GET /api/customers` take (`sort`), each with the direction it
 * starts in (docs/records.md); without one the server lists newest first.
 */
export const CONTACT_SORTS = {
  created: 'desc',
  name: 'asc',
  score: 'desc',
  status: 'asc',
  company: 'asc',
  lastContacted: 'desc',
} as const satisfies Record<string, SortDir>;
export type ContactSortKey = keyof typeof CONTACT_SORTS;

export type ContactFilters = {
  /** Matches full name, email and title, case-insensitive. */
  q?: string;
  /** A title containing this text. */
  role?: string;
  status?: string;
  region?: string;
  sort?: ContactSortKey;
  dir?: SortDir;
  limit: number;
  offset: number;
};

export const getContacts = (filters: ContactFilters, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<Contact[]>('GET', CONTACTS_URL, { params: filters satisfies ApiQuery<'/api/contacts', 'get'>, signal }).then(toPage);

export const getContactsQueryOptions = (filters: ContactFilters) =>
  queryOptions({
    queryKey: contactsKeys.list(filters),
    queryFn: ({ signal }) => getContacts(filters, { signal }),
    placeholderData: keepPreviousData,
  });

export const useContacts = (filters: ContactFilters) => useQuery(getContactsQueryOptions(filters));
