import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths, Tally as GenTally } from '@/types/openapi.gen';

import { invoiceKeys } from './query-keys';
import type { InvoiceFilters } from './types';

/** A count and an amount (dollars) of invoices. */
export type Tally = GenTally;
/** Every invoice the filters match, counted by the server (the board holds one page of them). */
export type InvoiceSummary = paths['/api/invoices/summary']['get']['responses'][200]['content']['application/json'];

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
