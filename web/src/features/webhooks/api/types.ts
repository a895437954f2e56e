import type {
  paths,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEventType as WebhookEventTypeView,
} from '@/types/openapi.gen';

/**
 * An endpoint as the admin's Webhooks screen reads it (`GET /api/admin/webhooks`); never its secret.
 * `disabledReason`: by an admin, after 5 failed deliveries in a row, or a 410 Gone; `failureStreak`:
 * deliveries in a row that failed all their attempts (5 disables the endpoint).
 */
export type { WebhookEndpoint };

/** The answer of create and rotate: the only time the signing secret is shown. */
export type WebhookEndpointWithSecret =
  paths['/api/admin/webhooks/{id}/rotate-secret']['post']['responses'][200]['content']['application/json'];

/** An event's name, as an endpoint subscribes to it (`eventTypes`). */
export type WebhookEventName =
  NonNullable<paths['/api/admin/webhooks']['post']['requestBody']>['content']['application/json']['eventTypes'][number];

/** One event an endpoint may subscribe to (`GET /api/admin/webhooks/event-types`). */
export type WebhookEventType = Omit<WebhookEventTypeView, 'type'> & {
  // The server lists the names `eventTypes` takes (`jobs::domain::webhooks::EVENT_TYPES`); its schema says string.
  type: WebhookEventName;
};

/** One attempt of a delivery; `response` is the first 4 KB of the receiver's answer. */
export type { WebhookAttempt };

/** A delivery: `id` is also its `webhook-id`, the same on every attempt and redelivery; `attempts` oldest first. */
export type WebhookDelivery = paths['/api/admin/webhooks/{id}/deliveries']['get']['responses'][200]['content']['application/json'][number];

export type DeliveryStatus = WebhookDelivery['status'];

/** The 202 of a test event or a redelivery. */
export type DeliveryQueued = paths['/api/admin/webhooks/{id}/test']['post']['responses'][202]['content']['application/json'];
