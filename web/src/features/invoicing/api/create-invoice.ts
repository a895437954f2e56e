import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { INVOICES_URL } from './get-invoices';
import { invoiceKeys } from './query-keys';
import type { Invoice } from './types';

/** `POST /api/invoices`; `taxRate` in percent ("" means the default 8.5), amounts in dollars, numbers or as typed. */
export type InvoiceInput = NonNullable<paths['/api/invoices']['post']['requestBody']>['content']['application/json'];

export const createInvoice = (input: InvoiceInput) => api.post<Invoice>(INVOICES_URL, input);

export const useCreateInvoice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
};
