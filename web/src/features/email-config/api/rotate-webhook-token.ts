import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { WebhookConfig } from './get-webhook-config';
import { emailConfigKeys } from './query-keys';

/** `POST /api/email/webhook/rotate` (admin): a new token; URLs with the old one are refused at once. */
export const rotateWebhookToken = () => api.post<WebhookConfig>('/api/email/webhook/rotate');

export const useRotateWebhookToken = (options: { onSuccess?: () => void; onError?: (e: Error) => void } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookToken,
    onSuccess: (config) => {
      queryClient.setQueryData(emailConfigKeys.webhook(), config);
      options.onSuccess?.();
    },
    onError: options.onError,
  });
};
