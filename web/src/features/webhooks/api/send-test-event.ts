import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { endpointUrl } from './get-webhooks';
import { webhooksKeys } from './query-keys';
import type { DeliveryQueued } from './types';

/** Queues a `webhook.test` event to the endpoint. */
export const sendTestEvent = (id: string) => api.post<DeliveryQueued>(`${endpointUrl(id)}/test`);

export const useSendTestEvent = (
  options: { onSuccess?: (queued: DeliveryQueued, id: string) => void; onError?: (error: Error) => void } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEvent,
    onSuccess: async (queued, id) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(id) });
      options.onSuccess?.(queued, id);
    },
    onError: options.onError,
  });
};
