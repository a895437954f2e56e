import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { endpointUrl } from './get-webhooks';
import { webhooksKeys } from './query-keys';
import type { DeliveryQueued } from './types';

export type RedeliverInput = { endpointId: string; deliveryId: string };

/** Sends a finished delivery again: a new job, the same `webhook-id` and body. */
export const redeliver = ({ endpointId, deliveryId }: RedeliverInput) =>
  api.post<DeliveryQueued>(`${endpointUrl(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);

export const useRedeliver = (
  options: { onSuccess?: (queued: DeliveryQueued) => void; onError?: (error: Error) => void } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliver,
    onSuccess: async (queued, { endpointId }) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(endpointId) });
      options.onSuccess?.(queued);
    },
    onError: options.onError,
  });
};
