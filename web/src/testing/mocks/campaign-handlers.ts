import { http, HttpResponse } from 'msw';

import type { Readiness } from '@/features/campaigns/api/get-readiness';
import type { RenderedEmail } from '@/features/campaigns/api/preview-email';
import type { SendResult } from '@/features/campaigns/api/send-bulk-campaign';
import type { SingleSent } from '@/features/campaigns/api/send-single-campaign';
import type { TestSent } from '@/features/campaigns/api/send-test-email';
import type { SingleCampaign } from '@/features/campaigns/api/single-campaigns';
import type { AudienceContact, BulkCampaign, EmailTemplate } from '@/features/campaigns/api/types';
import type {
  AudienceCount,
  BulkPerformanceOverview,
  BulkRetryStarted,
  BulkSendStarted,
  MergeFields,
  SampleEvents,
} from '@/types/openapi.gen';

import { authed } from './authed';
import { NO_EMAIL_FIGURES } from './crm-handlers';
import { db, makeJob, newId } from './db';

export const TEMPLATES: EmailTemplate[] = [
  {
    id: 'business-outreach',
    name: 'Business Outreach',
    category: 'outreach',
    subject: 'Partnership opportunity for {{companyName}}',
    body: '<p>Hi {{firstName}},</p><p>We help remodeling companies grow.</p>',
    isBuiltin: true,
    isActive: true,
  },
  {
    id: 'follow-up',
    name: 'Follow-up',
    category: 'follow_up',
    subject: 'Following up, {{firstName}}',
    body: '<p>Hi {{firstName}}, following up.</p>',
    isBuiltin: true,
    isActive: true,
  },
];

/** Templates users saved in this test (cleared by `resetSavedTemplates`). */
export const savedTemplates: EmailTemplate[] = [];
export const resetSavedTemplates = () => savedTemplates.splice(0, savedTemplates.length);

export const MERGE_FIELDS = [
  { key: 'firstName', label: 'First name' },
  { key: 'lastName', label: 'Last name' },
  { key: 'email', label: 'Email' },
  { key: 'title', label: 'Job title' },
  { key: 'companyName', label: 'Company name' },
  { key: 'senderName', label: 'Sender name' },
];

/** Contacts a targeting matches, as the server selects them. */
function matching(url: URL) {
  const min = Number(url.searchParams.get('scoreMin') ?? '0');
  const max = Number(url.searchParams.get('scoreMax') ?? '100');
  const statuses = (url.searchParams.get('statuses') ?? '').split(',').filter(Boolean);
  return db.contacts.filter(
    (c) => c.email && c.score >= min && c.score <= max && (statuses.length === 0 || statuses.includes(c.status)),
  );
}
const audience = (url: URL): number => matching(url).length;

/** The server's `{{field}}` / `{{field|fallback}}` rendering, for the fields tests use. */
function render(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*(?:\|\s*([^}]*?)\s*)?\}\}/g, (_, key: string, fallback?: string) => {
    const value = vars[key] ?? '';
    return value.trim() ? value : (fallback ?? '');
  });
}

export function makeBulkCampaign(overrides: Partial<BulkCampaign> = {}): BulkCampaign {
  const c: BulkCampaign = {
    id: newId('bc'),
    name: 'Spring outreach',
    description: null,
    status: 'draft',
    subject: 'Hello',
    templateId: 'follow-up',
    fromEmail: 'partnerships@prospector.app',
    targetFilters: {},
    createdAt: new Date().toISOString(),
    totalRecipients: 10,
    stats: { sent: 0, delivered: 0, opened: 0, clicked: 0, replied: 0 },
    progress: { total: 10, handled: 0, percent: 0, queued: 0, deferred: 0, failed: 0, suppressed: 0, inDoubt: 0 },
    ...overrides,
  };
  db.bulkCampaigns.unshift(c);
  return c;
}

const find = (id: unknown) => db.bulkCampaigns.find((c) => c.id === id);

export const campaignHandlers = [
  http.get('/api/campaigns', authed(() => HttpResponse.json(db.singleCampaigns))),
  http.post('/api/campaigns', authed(async ({ request }) => {
    const body = (await request.json()) as { name?: string; description?: string; targetAudience?: string; aiModel?: string };
    if (!body.name || !body.description) {
      return HttpResponse.json({ message: 'Please provide campaign name and description.' }, { status: 422 });
    }
    const c: SingleCampaign = {
      id: newId('sc'),
      name: body.name,
      description: body.description,
      status: 'draft',
      subject: null,
      targetAudience: body.targetAudience ?? 'all-active',
      aiModel: body.aiModel ?? 'gpt-5',
      emailsSent: 0,
      opens: 0,
      openTracked: 0,
      openRate: 0,
      totalRecipients: db.contacts.length,
      startDate: new Date().toISOString(),
      endDate: null,
      createdAt: new Date().toISOString(),
    };
    db.singleCampaigns.unshift(c);
    return HttpResponse.json(c, { status: 201 });
  })),
  http.post('/api/campaigns/:id/send', authed(async ({ params, request }) => {
    const c = db.singleCampaigns.find((x) => x.id === params.id);
    if (!c) return HttpResponse.json({ message: 'Campaign not found' }, { status: 404 });
    const body = (await request.json()) as { subject?: string; body?: string };
    if (!body.subject || !body.body) return HttpResponse.json({ message: 'Subject and body are required.' }, { status: 422 });
    Object.assign(c, { status: 'sending', subject: body.subject });
    const job = makeJob({ kind: 'bulk_campaign_send', status: 'running' });
    db.jobs.push(job);
    return HttpResponse.json({ success: true, totalRecipients: c.totalRecipients, jobId: job.id } satisfies SingleSent);
  })),
  http.post(
    '/api/email/seed-events',
    authed(() => HttpResponse.json({ success: true, totalEvents: 10 } satisfies SampleEvents)),
  ),

  http.get('/api/email-templates', authed(() => HttpResponse.json({ templates: [...TEMPLATES, ...savedTemplates] }))),
  http.post('/api/email-templates', authed(async ({ request }) => {
    const body = (await request.json()) as { name?: string; subject?: string; body?: string };
    if (!body.name || !body.subject || !body.body) {
      return HttpResponse.json({ message: 'Template name, subject and body are required.' }, { status: 422 });
    }
    const t: EmailTemplate = { id: newId('tpl'), name: body.name, category: 'custom', subject: body.subject, body: body.body, isBuiltin: false, isActive: true };
    savedTemplates.push(t);
    return HttpResponse.json(t, { status: 201 });
  })),
  http.put('/api/email-templates/:id', authed(async ({ params, request }) => {
    const t = savedTemplates.find((x) => x.id === params.id);
    if (!t) return HttpResponse.json({ message: 'Template not found' }, { status: 404 });
    Object.assign(t, (await request.json()) as Partial<EmailTemplate>);
    return HttpResponse.json(t);
  })),
  http.delete('/api/email-templates/:id', authed(({ params }) => {
    const i = savedTemplates.findIndex((x) => x.id === params.id);
    if (i < 0) return HttpResponse.json({ message: 'Template not found' }, { status: 404 });
    savedTemplates.splice(i, 1);
    return new HttpResponse(null, { status: 204 });
  })),
  http.get(
    '/api/email/merge-fields',
    authed(() =>
      HttpResponse.json({ fields: MERGE_FIELDS, fallbackSyntax: '{{field|fallback}}' } satisfies MergeFields),
    ),
  ),
  http.post('/api/email/preview', authed(async ({ request }) => {
    const body = (await request.json()) as { subject?: string; body?: string; contactId?: string };
    const c = db.contacts.find((x) => x.id === body.contactId);
    if (!c) return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
    const vars = { firstName: c.firstName, lastName: c.lastName, email: c.email ?? '', title: c.title ?? '' };
    const html = `<p>${render(body.body ?? '', vars)}</p>`;
    const to = c.email ?? '';
    return HttpResponse.json({ to, from: 'partners@x.test', subject: render(body.subject ?? '', vars), html, text: html } satisfies RenderedEmail);
  })),
  http.post('/api/email/send-test', authed(() => {
    const job = makeJob({ kind: 'email_send', status: 'succeeded' });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, messageId: newId('msg'), to: 'me@x.test', test: true } satisfies TestSent, { status: 202 });
  })),
  http.get('/api/email/readiness', authed(() =>
    HttpResponse.json({
      ready: false,
      sendBlocked: null,
      items: [
        { item: 'postal_address', ok: true, message: 'Your postal address is printed in every message’s footer.' },
        { item: 'delivery', ok: false, message: 'Outbox mode: messages are written to files and nothing leaves this machine. Set SMTP_URL to send for real.' },
      ],
    } satisfies Readiness),
  )),
  http.get('/api/campaigns/bulk-email/audience/contacts', authed(({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? '50');
    const offset = Number(url.searchParams.get('offset') ?? '0');
    const all = matching(url).sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName));
    const page = all.slice(offset, offset + limit).map(
      (c): AudienceContact => ({
        id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email, score: c.score, status: c.status, companyName: null,
      }),
    );
    return HttpResponse.json(page, { headers: { 'X-Total-Count': String(all.length) } });
  })),
  http.get('/api/campaigns/bulk-email/performance/overview', authed(() => {
    const sent = db.bulkCampaigns.reduce((n, c) => n + c.stats.sent, 0);
    return HttpResponse.json({
      success: true,
      performance: {
        totalCampaigns: db.bulkCampaigns.length,
        totalEmailsSent: sent,
        averageOpenRate: 0,
        averageClickRate: 0,
        averageReplyRate: 0,
        figures: { ...NO_EMAIL_FIGURES, sent },
      },
    } satisfies BulkPerformanceOverview);
  })),
  http.get(
    '/api/campaigns/bulk-email/audience',
    authed(({ request }) =>
      HttpResponse.json({ count: audience(new URL(request.url)) } satisfies AudienceCount),
    ),
  ),
  http.get('/api/campaigns/bulk-email', authed(() => HttpResponse.json({ campaigns: db.bulkCampaigns }))),
  http.post('/api/campaigns/bulk-email', authed(async ({ request }) => {
    const body = (await request.json()) as Partial<BulkCampaign> & { body?: string };
    if (!body.name || !body.subject || !(body.templateId || body.body)) {
      return HttpResponse.json({ message: 'Please provide campaign name, subject, and select a template.' }, { status: 422 });
    }
    const total = body.selectedContactIds?.length ?? db.contacts.length;
    const c = makeBulkCampaign({
      name: body.name,
      description: body.description ?? null,
      subject: body.subject,
      templateId: body.templateId ?? null,
      targetFilters: body.targetFilters ?? {},
      totalRecipients: total,
      progress: { total, handled: 0, percent: 0, queued: 0, deferred: 0, failed: 0, suppressed: 0, inDoubt: 0 },
    });
    return HttpResponse.json(c, { status: 201 });
  })),
  http.post('/api/campaigns/bulk-email/:id/send', authed(({ params }) => {
    const c = find(params.id);
    if (!c) return HttpResponse.json({ message: 'Campaign not found' }, { status: 404 });
    if (c.totalRecipients === 0) {
      return HttpResponse.json({ message: 'No contacts match this campaign.' }, { status: 422 });
    }
    c.status = 'sending';
    c.progress.queued = c.totalRecipients;
    const job = makeJob({ kind: 'bulk_campaign_send', status: 'running' });
    db.jobs.push(job);
    return HttpResponse.json({ success: true, successful: c.totalRecipients, totalRecipients: c.totalRecipients, jobId: job.id } satisfies SendResult);
  })),
  http.post('/api/campaigns/bulk-email/:id/retry', authed(({ params }) => {
    const c = find(params.id);
    if (!c) return HttpResponse.json({ message: 'Campaign not found' }, { status: 404 });
    if (c.status !== 'failed') return HttpResponse.json({ message: 'Only a campaign whose sending failed can be retried' }, { status: 409 });
    Object.assign(c, { status: 'sending', failure: undefined });
    const job = makeJob({ kind: 'bulk_campaign_send', status: 'running' });
    db.jobs.push(job);
    return HttpResponse.json({ success: true, jobId: job.id } satisfies BulkRetryStarted);
  })),
  http.post('/api/campaigns/bulk-email/:id/:action', authed(({ params }) => {
    const c = find(params.id);
    if (!c) return HttpResponse.json({ message: 'Campaign not found' }, { status: 404 });
    if (params.action === 'resume') {
      // Like the server: resuming starts a send job and answers it.
      c.status = 'sending';
      const job = makeJob({ kind: 'bulk_campaign_send', status: 'running' });
      db.jobs.push(job);
      return HttpResponse.json({ success: true, successful: c.totalRecipients, totalRecipients: c.totalRecipients, jobId: job.id } satisfies BulkSendStarted);
    }
    c.status = params.action === 'pause' ? 'paused' : 'cancelled';
    return HttpResponse.json(c);
  })),
];
