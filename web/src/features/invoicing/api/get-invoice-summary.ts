import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { invoiceKeys } from './query-keys';
import type { InvoiceFilters } from './types';

export type Tally = { count: number; amount: number };
/** Every invoice the filters match, counted by the server (the board holds one page of them). */
export type InvoiceSummary = { count: number; totalAmount: number; paid: Tally; outstanding: Tally; overdue: Tally };

export const getInvoiceSummary = (f: InvoiceFilters, signal?: AbortSignal) =>
  api.get<InvoiceSummary>('/api/invoices/summary', {
    params: {
      search: f.search || undefined,
      status: f.status || undefined,
      dateFrom: f.dateFrom || undefined,
      dateTo: f.dateTo || undefined,
    },
    signal,
  });

export const useInvoiceSummary = (f: InvoiceFilters) =>
  useQuery(
    queryOptions({
      queryKey: invoiceKeys.summary(f),
      queryFn: ({ signal }) => getInvoiceSummary(f, signal),
      placeholderData: keepPreviousData,
    }),
  );
