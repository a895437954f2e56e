import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { invoiceKeys } from './query-keys';

export type PaymentIntentResult = {
  demo: boolean;
  paymentIntentId?: string;
  paymentId?: string;
  clientSecret: string | null;
  status: string;
  /** Cents. */
  amount: number;
  currency: string;
  message?: string;
};

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
