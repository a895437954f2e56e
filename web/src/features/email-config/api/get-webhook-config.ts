import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `GET /api/email/webhook/config`: where the provider posts events, and how mail leaves. */
export type WebhookConfig = {
  webhookUrl: string;
  signatureVerification: boolean;
  events: string[];
  delivery: { mode: 'smtp' | 'outbox'; relay: string | null; from: string };
};

export const getWebhookConfig = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<WebhookConfig>('/api/email/webhook/config', { signal });

export const useWebhookConfig = () =>
  useQuery(queryOptions({ queryKey: ['email-config', 'webhook'], queryFn: ({ signal }) => getWebhookConfig({ signal }) }));
