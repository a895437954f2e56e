import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { emailConfigKeys } from './query-keys';

/**
 * `GET /api/email/webhook/config`: where the provider posts events and inbound replies, how each
 * call is authenticated, and how mail leaves. Admins get the URLs with the install's token
 * (`tokenVisible`); other users get them without it.
 */
export type WebhookConfig = {
  webhookUrl: string;
  inboundUrl: string;
  signatureVerification: boolean;
  /** `signature`: SENDGRID_WEBHOOK_PUBLIC_KEY is set; `token`: the URL's token is the check. */
  webhookAuth: 'signature' | 'token';
  /** `configured-token`: INBOUND_PARSE_TOKEN is set; `token`: the install's token. */
  inboundAuth: 'configured-token' | 'token';
  tokenVisible: boolean;
  events: string[];
  delivery: { mode: 'smtp' | 'outbox'; relay: string | null; from: string };
};

export const getWebhookConfig = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<WebhookConfig>('/api/email/webhook/config', { signal });

export const useWebhookConfig = () =>
  useQuery(queryOptions({ queryKey: emailConfigKeys.webhook(), queryFn: ({ signal }) => getWebhookConfig({ signal }) }));
