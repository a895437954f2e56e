import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EmailWebhookConfig } from '@/types/openapi.gen';

import { emailConfigKeys } from './query-keys';

/**
 * `GET /api/email/webhook/config`: where the provider posts events and inbound replies, how each
 * call is authenticated, and how mail leaves. Admins get the URLs with the install's token
 * (`tokenVisible`); other users get them without it. `webhookAuth`: `signature`
 * (SENDGRID_WEBHOOK_PUBLIC_KEY is set) or `token` (the URL's token is the check); `inboundAuth`:
 * `configured-token` (INBOUND_PARSE_TOKEN is set) or `token`.
 */
export type WebhookConfig = EmailWebhookConfig;

export const getWebhookConfig = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<WebhookConfig>('/api/email/webhook/config', { signal });

export const useWebhookConfig = () =>
  useQuery(queryOptions({ queryKey: emailConfigKeys.webhook(), queryFn: ({ signal }) => getWebhookConfig({ signal }) }));
