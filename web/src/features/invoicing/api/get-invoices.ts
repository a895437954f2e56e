import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';

import { invoiceKeys } from './query-keys';
import type { Invoice, InvoiceFilters } from './types';

export const INVOICES_URL = '/api/invoices';
/** The history board shows up to the API's page maximum. */
export const HISTORY_LIMIT = 1000;

export const getInvoices = (f: InvoiceFilters, signal?: AbortSignal) =>
  api
    .request<Invoice[]>('GET', INVOICES_URL, {
      params: {
        limit: HISTORY_LIMIT,
        search: f.search || undefined,
        status: f.status || undefined,
        dateFrom: f.dateFrom || undefined,
        dateTo: f.dateTo || undefined,
      },
      signal,
    })
    .then(toPage);

export const useInvoices = (f: InvoiceFilters) =>
  useQuery(
    queryOptions({
      queryKey: invoiceKeys.list(f),
      queryFn: ({ signal }) => getInvoices(f, signal),
      placeholderData: keepPreviousData,
    }),
  );
