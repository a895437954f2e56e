import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, toPage } from '@/lib/api-client';

import { endpointUrl } from './get-webhooks';
import { webhooksKeys } from './query-keys';
import type { WebhookDelivery } from './types';

export type DeliveriesParams = { limit: number; offset: number };

export const getDeliveries = (endpointId: string, params: DeliveriesParams, { signal }: { signal?: AbortSignal } = {}) =>
  api
    .request<WebhookDelivery[]>('GET', `${endpointUrl(endpointId)}/deliveries`, { params, signal })
    .then(toPage);

/** While a delivery is still being tried, the page refreshes every few seconds. */
export const PENDING_REFRESH_MS = 3000;

export const getDeliveriesQueryOptions = (endpointId: string, params: DeliveriesParams) =>
  queryOptions({
    queryKey: webhooksKeys.deliveryPage(endpointId, params),
    queryFn: ({ signal }) => getDeliveries(endpointId, params, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : false,
  });

export const useWebhookDeliveries = (endpointId: string, params: DeliveriesParams) =>
  useQuery(getDeliveriesQueryOptions(endpointId, params));
