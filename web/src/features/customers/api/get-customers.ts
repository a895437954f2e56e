import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import type { SortDir } from '@/components/ui/table-tools';
import type { ContactSortKey } from '@/features/contacts/api/get-contacts';
import { api, toPage } from '@/lib/api-client';
import type { ApiQuery, Contact } from '@/types/api';

import { customersKeys } from './query-keys';

export const CUSTOMERS_URL = '/api/customers';

/** The customers list's search, order (the contacts' sort keys) and page. */
export type CustomerFilters = { q?: string; sort?: ContactSortKey; dir?: SortDir; offset: number; limit: number };

export const getCustomers = (filters: CustomerFilters, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<Contact[]>('GET', CUSTOMERS_URL, { params: filters satisfies ApiQuery<'/api/customers', 'get'>, signal }).then(toPage);

export const useCustomers = (filters: CustomerFilters) =>
  useQuery(
    queryOptions({
      queryKey: customersKeys.list(filters),
      queryFn: ({ signal }) => getCustomers(filters, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
