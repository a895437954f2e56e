import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { INVOICES_URL } from './get-invoices';
import { invoiceKeys } from './query-keys';
import type { Invoice, InvoiceStatus } from './types';

export const updateInvoiceStatus = ({ id, status }: { id: string; status: InvoiceStatus }) =>
  api.patch<Invoice>(`${INVOICES_URL}/${encodeURIComponent(id)}`, { status });

export const useUpdateInvoiceStatus = (options: { onError?: (e: Error) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvoiceStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
    onError: options.onError,
  });
};
