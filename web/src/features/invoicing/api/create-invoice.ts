import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { INVOICES_URL } from './get-invoices';
import { invoiceKeys } from './query-keys';
import type { Invoice } from './types';

export type InvoiceInput = {
  invoiceNumber: string;
  date: string;
  dueDate: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  billingAddress: string;
  notes: string;
  /** Percent, as typed ("" means the default 8.5). */
  taxRate: string;
  /** Dollars, as typed. */
  discountAmount: string;
  lineItems: { productId: string | null; description: string; quantity: string; unitPrice: string }[];
};

export const createInvoice = (input: InvoiceInput) => api.post<Invoice>(INVOICES_URL, input);

export const useCreateInvoice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
};
