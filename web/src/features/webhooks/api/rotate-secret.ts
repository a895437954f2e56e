import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { endpointUrl } from './get-webhooks';
import type { WebhookEndpointWithSecret } from './types';

/** A new signing secret at once; the old one stops signing. */
export const rotateSecret = (id: string) => api.post<WebhookEndpointWithSecret>(`${endpointUrl(id)}/rotate-secret`);

export const useRotateSecret = (
  options: { onSuccess?: (endpoint: WebhookEndpointWithSecret) => void; onError?: (error: Error) => void } = {},
) => useMutation({ mutationFn: rotateSecret, onSuccess: options.onSuccess, onError: options.onError });
