/** An endpoint as the admin's Webhooks screen reads it (`GET /api/admin/webhooks`); never its secret. */
export type WebhookEndpoint = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  /** Why it is disabled: by an admin, after 5 failed deliveries in a row, or a 410 Gone. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** Deliveries in a row that failed all their attempts (5 disables the endpoint). */
  failureStreak: number;
  createdAt: string;
  updatedAt: string;
};

/** The answer of create and rotate: the only time the signing secret is shown. */
export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };

/** One event an endpoint may subscribe to (`GET /api/admin/webhooks/event-types`). */
export type WebhookEventType = { type: string; label: string; group: string };

export type WebhookAttempt = {
  id: string;
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** The first 4 KB of the receiver's answer. */
  response: string | null;
};

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export type WebhookDelivery = {
  /** Also its `webhook-id`, the same on every attempt and redelivery. */
  id: string;
  eventType: string;
  status: DeliveryStatus;
  payload: unknown;
  jobId: string | null;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Oldest first. */
  attempts: WebhookAttempt[];
};

/** The 202 of a test event or a redelivery. */
export type DeliveryQueued = { jobId: string; status: string; deliveryId: string };
