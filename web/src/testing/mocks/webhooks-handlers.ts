import { http, HttpResponse } from 'msw';

import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@/features/webhooks/api/types';

import { notSignedIn } from './authed';
import { db, newId, newJobId } from './db';

type Params = { params: Record<string, string | readonly string[] | undefined> };

/** An admin route: 401 signed out, 403 in an ordinary session. */
const adminOnly =
  <A extends unknown[]>(resolver: (...args: A) => Response | Promise<Response>) =>
  (...args: A) => {
    if (!db.signedIn) return notSignedIn();
    if (db.userSession) return HttpResponse.json({ message: 'Administrator access required' }, { status: 403 });
    return resolver(...args);
  };

/** The server's catalogue (`jobs::domain::webhooks::EVENT_TYPES`), in part. */
export const WEBHOOK_EVENT_TYPES: WebhookEventType[] = [
  { type: 'contact.created', label: 'Contact created', group: 'Contacts' },
  { type: 'contact.status_changed', label: 'Contact status changed', group: 'Contacts' },
  { type: 'deal.won', label: 'Deal won', group: 'Deals' },
  { type: 'email.bounced', label: 'Email bounced', group: 'Email' },
  { type: 'invoice.paid', label: 'Invoice paid', group: 'Meetings and invoices' },
  { type: 'job.failed', label: 'Background job failed', group: 'Operations' },
];

export const TEST_SECRET = 'whsec_dGVzdCBzZWNyZXQgdGhhdCBpcyBsb25nIGVub3VnaCE=';

export function makeEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: newId('wh'),
    url: 'https://hooks.example.com/prospector',
    description: 'CRM sync',
    eventTypes: ['contact.created', 'deal.won'],
    enabled: true,
    disabledReason: null,
    disabledAt: null,
    failureStreak: 0,
    createdAt: '2026-01-15T10:00:00Z',
    updatedAt: '2026-01-15T10:00:00Z',
    ...overrides,
  };
}

export function makeDelivery(endpointId: string, overrides: Partial<WebhookDelivery> = {}) {
  return {
    endpointId,
    id: `msg_${newId('D').toUpperCase()}`,
    eventType: 'contact.created',
    status: 'delivered' as const,
    payload: { type: 'contact.created', timestamp: '2026-01-15T10:00:00Z', data: {} },
    jobId: newJobId(),
    nextAttemptAt: null,
    lastStatusCode: 200,
    lastError: null,
    createdAt: '2026-01-15T10:00:00Z',
    finishedAt: '2026-01-15T10:00:01Z',
    attempts: [
      {
        id: newId('A'),
        attemptedAt: '2026-01-15T10:00:00Z',
        durationMs: 120,
        statusCode: 200,
        error: null,
        response: '{"ok":true}',
      },
    ],
    ...overrides,
  };
}

const notFound = () => HttpResponse.json({ message: 'Webhook endpoint not found' }, { status: 404 });
const find = (id: unknown) => db.webhooks.find((e) => e.id === id);
/** A delivery as the api lists it (without the mock's endpoint link). */
const publicView = (d: (typeof db.webhookDeliveries)[number]) =>
  Object.fromEntries(Object.entries(d).filter(([key]) => key !== 'endpointId'));

/** The Webhooks screen's calls, keeping the server's rules that the screen shows. */
export const webhooksHandlers = [
  http.get('/api/admin/webhooks', adminOnly(() => HttpResponse.json(db.webhooks))),

  http.get('/api/admin/webhooks/event-types', adminOnly(() => HttpResponse.json(WEBHOOK_EVENT_TYPES))),

  http.post(
    '/api/admin/webhooks',
    adminOnly(async ({ request }: { request: Request }) => {
      const body = (await request.json()) as { url?: string; description?: string | null; eventTypes?: string[] };
      const url = body.url ?? '';
      if (!url.startsWith('https://')) {
        return HttpResponse.json({ message: 'URL must use https', errors: { url: 'URL must use https' } }, { status: 422 });
      }
      const endpoint = makeEndpoint({ url, description: body.description ?? null, eventTypes: body.eventTypes ?? [] });
      db.webhooks.push(endpoint);
      return HttpResponse.json({ ...endpoint, secret: TEST_SECRET }, { status: 201 });
    }),
  ),

  http.patch(
    '/api/admin/webhooks/:id',
    adminOnly(async ({ request, params }: { request: Request } & Params) => {
      const endpoint = find(params.id);
      if (!endpoint) return notFound();
      const body = (await request.json()) as { enabled?: boolean };
      if (body.enabled === true) {
        Object.assign(endpoint, { enabled: true, disabledReason: null, disabledAt: null, failureStreak: 0 });
      } else if (body.enabled === false) {
        Object.assign(endpoint, { enabled: false, disabledReason: 'Disabled by admin@example.com', disabledAt: '2026-01-15T11:00:00Z' });
      }
      return HttpResponse.json(endpoint);
    }),
  ),

  http.delete(
    '/api/admin/webhooks/:id',
    adminOnly(({ params }: Params) => {
      if (!find(params.id)) return notFound();
      db.webhooks = db.webhooks.filter((e) => e.id !== params.id);
      db.webhookDeliveries = db.webhookDeliveries.filter((d) => d.endpointId !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  ),

  http.post(
    '/api/admin/webhooks/:id/rotate-secret',
    adminOnly(({ params }: Params) => {
      const endpoint = find(params.id);
      return endpoint ? HttpResponse.json({ ...endpoint, secret: `${TEST_SECRET}rotated` }) : notFound();
    }),
  ),

  http.post(
    '/api/admin/webhooks/:id/test',
    adminOnly(({ params }: Params) => {
      const endpoint = find(params.id);
      if (!endpoint) return notFound();
      if (!endpoint.enabled) return HttpResponse.json({ message: 'This endpoint is disabled: enable it first' }, { status: 409 });
      const delivery = makeDelivery(endpoint.id, {
        eventType: 'webhook.test',
        status: 'delivered',
        createdAt: '2026-01-15T12:00:00Z',
      });
      db.webhookDeliveries.unshift(delivery);
      return HttpResponse.json({ jobId: delivery.jobId, status: 'queued', deliveryId: delivery.id }, { status: 202 });
    }),
  ),

  http.get(
    '/api/admin/webhooks/:id/deliveries',
    adminOnly(({ request, params }: { request: Request } & Params) => {
      if (!find(params.id)) return notFound();
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit') ?? '100');
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const mine = db.webhookDeliveries.filter((d) => d.endpointId === params.id);
      return HttpResponse.json(mine.slice(offset, offset + limit).map(publicView), {
        headers: { 'X-Total-Count': String(mine.length) },
      });
    }),
  ),

  http.post(
    '/api/admin/webhooks/:id/deliveries/:deliveryId/redeliver',
    adminOnly(({ params }: Params) => {
      const endpoint = find(params.id);
      const delivery = db.webhookDeliveries.find((d) => d.id === params.deliveryId && d.endpointId === params.id);
      if (!endpoint || !delivery) return HttpResponse.json({ message: 'Delivery not found' }, { status: 404 });
      if (!endpoint.enabled) return HttpResponse.json({ message: 'This endpoint is disabled: enable it first' }, { status: 409 });
      if (delivery.status === 'pending') {
        return HttpResponse.json({ message: 'This delivery is still being sent: wait for its attempts to end' }, { status: 409 });
      }
      delivery.jobId = newJobId();
      delivery.attempts = [
        ...delivery.attempts,
        { id: newId('A'), attemptedAt: '2026-01-15T13:00:00Z', durationMs: 80, statusCode: 200, error: null, response: 'ok' },
      ];
      delivery.status = 'delivered';
      return HttpResponse.json({ jobId: delivery.jobId, status: 'queued', deliveryId: delivery.id }, { status: 202 });
    }),
  ),
];
