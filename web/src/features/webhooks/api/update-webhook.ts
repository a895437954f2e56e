import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { endpointUrl } from './get-webhooks';
import { webhooksKeys } from './query-keys';
import type { WebhookEndpoint } from './types';

/** What to change; absent fields stay. `enabled: true` re-enables a disabled endpoint. */
export type WebhookChange = NonNullable<paths['/api/admin/webhooks/{id}']['patch']['requestBody']>['content']['application/json'];

export const updateWebhook = ({ id, change }: { id: string; change: WebhookChange }) =>
  api.patch<WebhookEndpoint>(endpointUrl(id), change);

export const useUpdateWebhook = (
  options: { onSuccess?: (endpoint: WebhookEndpoint, change: WebhookChange) => void; onError?: (error: Error) => void } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: async (endpoint, { change }) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.lists() });
      options.onSuccess?.(endpoint, change);
    },
    onError: options.onError,
  });
};
