import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EnqueueResponse } from '@/types/api';

import { INVOICES_URL } from './get-invoices';
import { invoiceKeys } from './query-keys';

/**
 * `202 {jobId, status}`: the `invoice_send` job emails the invoice's PDF to its customer and marks a
 * draft sent. `422 'This invoice has no customer email'`; a paid invoice is a 409.
 */
export const sendInvoice = ({ id, message }: { id: string; message?: string }) =>
  api.post<EnqueueResponse>(`${INVOICES_URL}/${encodeURIComponent(id)}/send`, message ? { message } : undefined);

export const useSendInvoice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendInvoice,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
};
