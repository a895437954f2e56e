import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

import { WEBHOOKS_URL } from './get-webhooks';
import { webhooksKeys } from './query-keys';
import type { WebhookEndpointWithSecret } from './types';

export type NewWebhookInput = NonNullable<paths['/api/admin/webhooks']['post']['requestBody']>['content']['application/json'];

export const createWebhook = (input: NewWebhookInput) => api.post<WebhookEndpointWithSecret>(WEBHOOKS_URL, input);

export const useCreateWebhook = (options: { onSuccess?: (endpoint: WebhookEndpointWithSecret) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: async (endpoint) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.lists() });
      options.onSuccess?.(endpoint);
    },
  });
};
