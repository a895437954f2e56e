import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import type { SortDir } from '@/components/ui/table-tools';
import { api, toPage } from '@/lib/api-client';

import { invoiceKeys } from './query-keys';
import type { Invoice, InvoiceFilters } from './types';

export const INVOICES_URL = '/api/invoices';
/** The history board shows up to the API's page maximum. */
export const HISTORY_LIMIT = 1000;

/** The api's sort keys (docs/records.md), each with the direction it starts in. */
export const INVOICE_SORTS = {
  created: 'desc',
  number: 'desc',
  customer: 'asc',
  date: 'desc',
  dueDate: 'desc',
  amount: 'desc',
  status: 'asc',
} as const satisfies Record<string, SortDir>;
export type InvoiceSortKey = keyof typeof INVOICE_SORTS;

/** Which page, in which order; no `sort` is the api's own (newest first). */
export type InvoicePaging = { limit: number; offset: number; sort?: InvoiceSortKey; dir?: SortDir };

const BOARD_PAGE: InvoicePaging = { limit: HISTORY_LIMIT, offset: 0 };

export const getInvoices = (f: InvoiceFilters, page: InvoicePaging = BOARD_PAGE, signal?: AbortSignal) =>
  api
    .request<Invoice[]>('GET', INVOICES_URL, {
      params: {
        limit: page.limit,
        offset: page.offset || undefined,
        sort: page.sort,
        dir: page.sort ? page.dir : undefined,
        search: f.search || undefined,
        status: f.status || undefined,
        dateFrom: f.dateFrom || undefined,
        dateTo: f.dateTo || undefined,
      },
      signal,
    })
    .then(toPage);

/** One page of invoices (by default the board's: the newest 1,000); `enabled` false reads nothing. */
export const useInvoices = (f: InvoiceFilters, page: InvoicePaging = BOARD_PAGE, enabled = true) =>
  useQuery(
    queryOptions({
      queryKey: invoiceKeys.list({ ...f, ...page }),
      queryFn: ({ signal }) => getInvoices(f, page, signal),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
