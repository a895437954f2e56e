import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { invoiceKeys } from './query-keys';

/** The payment intent (or the demo's stand-in); `amount` in cents. */
export type PaymentIntentResult = paths['/api/create-payment-intent']['post']['responses'][200]['content']['application/json'];

export const createPaymentIntent = (input: { amount: number; invoiceNumber: string; customerName: string }) =>
  api.post<PaymentIntentResult>('/api/create-payment-intent', {
    amount: input.amount,
    currency: 'usd',
    metadata: { invoiceNumber: input.invoiceNumber, customerName: input.customerName },
  });

export const useCreatePaymentIntent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPaymentIntent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
};
