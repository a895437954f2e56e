import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { WEBHOOKS_URL } from './get-webhooks';
import { webhooksKeys } from './query-keys';
import type { WebhookEventType } from './types';

export const getEventTypes = ({ signal }: { signal?: AbortSignal } = {}) =>
  api.get<WebhookEventType[]>(`${WEBHOOKS_URL}/event-types`, { signal });

/** The catalogue never changes while the app runs. */
export const getEventTypesQueryOptions = () =>
  queryOptions({
    queryKey: webhooksKeys.eventTypes(),
    queryFn: ({ signal }) => getEventTypes({ signal }),
    staleTime: Infinity,
  });

export const useWebhookEventTypes = () => useQuery(getEventTypesQueryOptions());
