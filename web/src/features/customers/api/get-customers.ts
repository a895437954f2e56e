import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';
import type { Contact } from '@/types/api';

import { customersKeys } from './query-keys';

export const CUSTOMERS_URL = '/api/customers';

export const getCustomers = (q: string, offset: number, limit: number, { signal }: { signal?: AbortSignal } = {}) =>
  api.request<Contact[]>('GET', CUSTOMERS_URL, { params: { q, offset, limit }, signal }).then(toPage);

export const useCustomers = (q: string, offset: number, limit: number) =>
  useQuery(
    queryOptions({
      queryKey: customersKeys.list(q, offset),
      queryFn: ({ signal }) => getCustomers(q, offset, limit, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
