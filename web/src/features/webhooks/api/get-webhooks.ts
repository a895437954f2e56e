import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { webhooksKeys } from './query-keys';
import type { WebhookEndpoint } from './types';

export const WEBHOOKS_URL = '/api/admin/webhooks';

export const endpointUrl = (id: string) => `${WEBHOOKS_URL}/${encodeURIComponent(id)}`;

export const getWebhooks = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<WebhookEndpoint[]>(WEBHOOKS_URL, { signal });

export const getWebhooksQueryOptions = () =>
  queryOptions({
    queryKey: webhooksKeys.lists(),
    queryFn: ({ signal }) => getWebhooks({ signal }),
  });

export const useWebhooks = () => useQuery(getWebhooksQueryOptions());
