import { http, HttpResponse } from 'msw';

import type { CompanySource } from '@/features/discovery/api/get-company-sources';
import type { DiscoverySource } from '@/features/discovery/api/get-sources';
import type { Job } from '@/types/api';

import { notSignedIn } from './authed';
import { aiHandlers } from './ai-handlers';
import { automationHandlers } from './automation-handlers';
import { campaignHandlers } from './campaign-handlers';
import { crmHandlers, leadHandlers } from './crm-handlers';
import { invoiceHandlers } from './invoice-handlers';
import { mailboxHandlers } from './mailbox-handlers';
import { mergeHandlers } from './merge-handlers';
import { recordsHandlers } from './records-handlers';
import { sequenceHandlers } from './sequence-handlers';
import { usersHandlers } from './users-handlers';
import { viewsHandlers } from './views-handlers';
import { voiceHandlers } from './voice-handlers';
import { webhooksHandlers } from './webhooks-handlers';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  NON_ADMIN_EMAIL,
  NON_ADMIN_PASSWORD,
  adminUser,
  db,
  ordinaryUser,
  makeJob,
  queueStats,
} from './db';

/** Default handlers: a small, stateful stand-in for the Prospector API contract. */

const KNOWN_KINDS = new Set(['noop']);

export const handlers = [
  http.post('/api/admin/login', async ({ request }) => {
    const body = (await request.json()) as { email?: string; password?: string };
    if (!body.email || !body.password) {
      return HttpResponse.json({ message: 'Email and password are required.' }, { status: 422 });
    }
    if (body.email === ADMIN_EMAIL && body.password === ADMIN_PASSWORD) {
      db.signedIn = true;
      return HttpResponse.json(adminUser);
    }
    if (body.email === NON_ADMIN_EMAIL && body.password === NON_ADMIN_PASSWORD) {
      return HttpResponse.json(
        { message: 'Only authorized admin accounts can access this panel.' },
        { status: 403 },
      );
    }
    return HttpResponse.json(
      { message: 'Login failed. Please check your credentials.' },
      { status: 401 },
    );
  }),

  http.post('/api/admin/logout', () => {
    db.signedIn = false;
    return new HttpResponse(null, { status: 204 });
  }),

  http.get('/api/admin/user', () =>
    !db.signedIn
      ? notSignedIn()
      : db.userSession
        ? HttpResponse.json({ message: 'Administrator access required' }, { status: 403 })
        : HttpResponse.json(adminUser),
  ),

  http.get('/api/auth/user', () =>
    db.signedIn ? HttpResponse.json(db.userSession ? ordinaryUser : adminUser) : notSignedIn(),
  ),

  http.get('/api/ops/queues', () => (db.signedIn ? HttpResponse.json(queueStats()) : notSignedIn())),

  http.get('/api/ops/jobs', ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const url = new URL(request.url);
    const kind = url.searchParams.get('kind');
    const status = url.searchParams.get('status');
    const q = url.searchParams.get('q')?.toLowerCase();
    const limit = Number(url.searchParams.get('limit') ?? '50');
    const offset = Number(url.searchParams.get('offset') ?? '0');
    const matching = db.jobs
      .filter((j) => !kind || j.kind === kind)
      .filter((j) => !status || j.status === status)
      .filter((j) => !q || `${JSON.stringify(j.result)} ${j.error ?? ''}`.toLowerCase().includes(q))
      .slice()
      .reverse();
    return HttpResponse.json(matching.slice(offset, offset + limit), {
      headers: { 'X-Total-Count': String(matching.length) },
    });
  }),

  // Nothing configured on the mock server: the catalog only, as on a fresh install.
  http.get('/api/discovery/sources', () => {
    if (!db.signedIn) return notSignedIn();
    return HttpResponse.json([
      {
        source: 'catalog',
        label: 'Demo data',
        default: true,
        verified: false,
        attribution: 'Demo data: invented companies for trying the app; websites and phones are not real.',
      },
    ] satisfies DiscoverySource[]);
  }),

  // The sources of the listed companies, from each mock company's `sources` (seen when it was made).
  http.get('/api/discovery/company-sources', ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const ids = (new URL(request.url).searchParams.get('ids') ?? '').split(',');
    const seen = Date.parse('2026-01-10T09:00:00Z');
    return HttpResponse.json(
      db.companies
        .filter((c) => ids.includes(c.id))
        .flatMap((c) =>
          c.sources.map((source): CompanySource => ({
            companyId: c.id,
            source,
            externalId: null,
            verified: source === 'osm' || source === 'google_places',
            attribution: source === 'catalog' ? 'Demo data: invented companies for trying the app; websites and phones are not real.' : null,
            openingHours: null,
            firstSeenAt: seen,
            lastSeenAt: seen,
          })),
        ),
    );
  }),

  http.get('/api/discovery/scans/active', () => {
    if (!db.signedIn) return notSignedIn();
    const active = ['running', 'retrying', 'queued']
      .map((status) => db.jobs.filter((j) => j.kind === 'discovery_scan' && j.status === status).at(-1))
      .find(Boolean);
    return HttpResponse.json(active ?? null);
  }),

  http.post('/api/ops/jobs', async ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const body = (await request.json()) as { kind: string; payload: unknown };
    if (!KNOWN_KINDS.has(body.kind)) {
      return HttpResponse.json({ message: `Unknown job kind: ${body.kind}` }, { status: 422 });
    }
    const job = makeJob({ kind: body.kind });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  }),

  // A scan is a running job the test then finishes by editing db.jobs.
  http.post('/api/discovery/scan', async ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const body = (await request.json()) as Record<string, unknown>;
    const job = makeJob({
      kind: 'discovery_scan',
      status: 'running',
      progress: { percent: 5, message: 'Searching catalog' },
      startedAt: new Date().toISOString(),
    });
    db.jobs.push(job);
    db.scans.push(body);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  }),

  http.get('/api/jobs/:id', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const job = db.jobs.find((j) => j.id === params.id);
    return job ? HttpResponse.json(job) : HttpResponse.json({ message: 'Job not found' }, { status: 404 });
  }),

  http.post('/api/ops/jobs/:id/cancel', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const job = db.jobs.find((j) => j.id === params.id);
    if (!job) return HttpResponse.json({ message: 'Job not found' }, { status: 404 });
    if (!['queued', 'scheduled', 'running', 'retrying'].includes(job.status)) {
      return HttpResponse.json({ message: `Job is ${job.status} and cannot be cancelled` }, { status: 409 });
    }
    Object.assign(job, { status: 'cancelled', finishedAt: new Date().toISOString() } satisfies Partial<Job>);
    return HttpResponse.json(job);
  }),

  http.post('/api/ops/jobs/:id/retry', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const job = db.jobs.find((j) => j.id === params.id);
    if (!job) return HttpResponse.json({ message: 'Job not found' }, { status: 404 });
    if (job.status !== 'failed' && job.status !== 'cancelled') {
      return HttpResponse.json({ message: `Job is ${job.status} and cannot be retried` }, { status: 409 });
    }
    Object.assign(job, { status: 'queued', error: null, finishedAt: null } satisfies Partial<Job>);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  }),

  http.post('/api/ops/jobs/:id/run-now', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const job = db.jobs.find((j) => j.id === params.id);
    if (!job) return HttpResponse.json({ message: 'Job not found' }, { status: 404 });
    if (!['queued', 'scheduled', 'retrying'].includes(job.status)) {
      return HttpResponse.json({ message: `Only waiting jobs can be run now; this job is ${job.status}` }, { status: 409 });
    }
    Object.assign(job, { status: 'queued', runAt: new Date().toISOString() } satisfies Partial<Job>);
    return HttpResponse.json(job);
  }),

  http.get('/api/ops/jobs/:id', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const job = db.jobs.find((j) => j.id === params.id);
    if (!job) return HttpResponse.json({ message: 'Job not found' }, { status: 404 });
    return HttpResponse.json({
      ...job,
      payload: { sleepMs: 1500 },
      idempotencyKey: null,
      lockedBy: null,
      cancelRequested: false,
      attemptHistory: db.attempts[job.id] ?? [],
    });
  }),

  http.delete('/api/ops/jobs/:id', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const job = db.jobs.find((j) => j.id === params.id);
    if (!job) return HttpResponse.json({ message: 'Job not found' }, { status: 404 });
    if (job.status === 'running') {
      return HttpResponse.json({ message: 'A running job cannot be deleted; cancel it first' }, { status: 409 });
    }
    db.jobs = db.jobs.filter((j) => j.id !== job.id);
    return new HttpResponse(null, { status: 204 });
  }),

  http.post('/api/ops/jobs/bulk', async ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const body = (await request.json()) as { action: string; kind?: string; status?: string };
    const states: Record<string, string[]> = {
      retry: ['failed', 'cancelled'],
      cancel: ['queued', 'scheduled', 'retrying', 'running'],
      delete: ['succeeded', 'failed', 'cancelled'],
      run_now: ['queued', 'scheduled', 'retrying'],
    };
    const matches = db.jobs.filter(
      (j) =>
        (states[body.action] ?? []).includes(j.status) &&
        (!body.kind || j.kind === body.kind) &&
        (!body.status || j.status === body.status),
    );
    for (const job of matches) {
      if (body.action === 'retry') Object.assign(job, { status: 'queued', error: null, finishedAt: null });
      if (body.action === 'cancel') Object.assign(job, { status: 'cancelled' });
    }
    if (body.action === 'delete') db.jobs = db.jobs.filter((j) => !matches.includes(j));
    return HttpResponse.json({ action: body.action, affected: matches.length });
  }),

  // The last `minutes`, in one-minute buckets of the jobs that finished (only non-empty buckets).
  http.get('/api/ops/history', ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const minutes = Number(new URL(request.url).searchParams.get('minutes') ?? '60');
    const now = Date.now();
    const from = Math.floor((now - minutes * 60_000) / 60_000) * 60_000;
    const buckets = new Map<string, { at: string; kind: string; succeeded: number; failed: number; cancelled: number }>();
    for (const j of db.jobs) {
      const done = j.finishedAt ? Date.parse(j.finishedAt) : NaN;
      if (!(done >= from) || !['succeeded', 'failed', 'cancelled'].includes(j.status)) continue;
      const at = new Date(Math.floor(done / 60_000) * 60_000).toISOString();
      const b = buckets.get(at + j.kind) ?? { at, kind: j.kind, succeeded: 0, failed: 0, cancelled: 0 };
      b[j.status as 'succeeded' | 'failed' | 'cancelled'] += 1;
      buckets.set(at + j.kind, b);
    }
    return HttpResponse.json({
      bucketSeconds: 60,
      from: new Date(from).toISOString(),
      until: new Date(now).toISOString(),
      buckets: [...buckets.values()].sort((a, b) => a.at.localeCompare(b.at)),
    });
  }),
  http.get('/api/ops/workers', () => (db.signedIn ? HttpResponse.json(db.workers) : notSignedIn())),
  http.get('/api/ops/audit', () => (db.signedIn ? HttpResponse.json(db.audit) : notSignedIn())),

  http.post('/api/ops/kinds/:kind/:action', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    const kind = String(params.kind);
    const pause = params.action === 'pause';
    db.audit.unshift({
      id: `au${db.audit.length + 1}`,
      actorEmail: ADMIN_EMAIL,
      action: pause ? 'kind.pause' : 'kind.resume',
      target: kind,
      detail: null,
      createdAt: new Date().toISOString(),
    });
    db.pausedKinds = pause ? [...new Set([...db.pausedKinds, kind])] : db.pausedKinds.filter((k) => k !== kind);
    return HttpResponse.json({ kind, paused: pause });
  }),

  ...crmHandlers,
  ...campaignHandlers,
  ...automationHandlers,
  ...sequenceHandlers,
  ...leadHandlers,
  ...invoiceHandlers,
  ...voiceHandlers,
  ...aiHandlers,
  ...usersHandlers,
  ...recordsHandlers,
  ...viewsHandlers,
  ...webhooksHandlers,
  ...mailboxHandlers,
  ...mergeHandlers,
];

