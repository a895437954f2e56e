import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { INVOICES_URL } from './get-invoices';
import { invoiceKeys } from './query-keys';

type NextInvoiceNumber = paths['/api/invoices/next-number']['get']['responses'][200]['content']['application/json'];

/**
 * The number a blank invoice number would be given if saved now (`INV-2026-0007`), shown as the
 * field's placeholder; the server assigns the next free one when the invoice is saved.
 */
export const getNextInvoiceNumber = (date: string, signal?: AbortSignal) =>
  api.get<NextInvoiceNumber>(`${INVOICES_URL}/next-number`, { params: { date }, signal });

export const useNextInvoiceNumber = (date: string) =>
  useQuery(
    queryOptions({
      queryKey: invoiceKeys.nextNumber(date.slice(0, 4)),
      queryFn: ({ signal }) => getNextInvoiceNumber(date, signal),
      enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
    }),
  );
