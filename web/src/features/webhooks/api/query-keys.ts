import type { DeliveriesParams } from './get-deliveries';

/** Query keys of the Webhooks screen (see the convention in features/jobs/api/query-keys.ts). */
export const webhooksKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhooksKeys.all, 'list'] as const,
  eventTypes: () => [...webhooksKeys.all, 'event-types'] as const,
  deliveries: (endpointId: string) => [...webhooksKeys.all, 'deliveries', endpointId] as const,
  deliveryPage: (endpointId: string, params: DeliveriesParams) =>
    [...webhooksKeys.deliveries(endpointId), params] as const,
};
