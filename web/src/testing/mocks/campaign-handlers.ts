import { http, HttpResponse } from 'msw';

import type { SingleCampaign } from '@/features/campaigns/api/single-campaigns';
import type { BulkCampaign, EmailTemplate } from '@/features/campaigns/api/types';

import { authed } from './authed';
import { db, newId } from './db';


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

/** Contacts a targeting matches, as the server counts them. */
function audience(url: URL): number {
  const min = Number(url.searchParams.get('scoreMin') ?? '0');
  const max = Number(url.searchParams.get('scoreMax') ?? '100');
  const statuses = (url.searchParams.get('statuses') ?? '').split(',').filter(Boolean);
  return db.contacts.filter(
    (c) => c.email && c.score >= min && c.score <= max && (statuses.length === 0 || statuses.includes(c.status)),
  ).length;
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
      status: 'active',
      targetAudience: body.targetAudience ?? 'all-active',
      aiModel: body.aiModel ?? 'gpt-5',
      emailsSent: 0,
      opens: 0,
      openRate: 0,
      totalRecipients: db.contacts.length,
      startDate: new Date().toISOString(),
      endDate: null,
      createdAt: new Date().toISOString(),
    };
    db.singleCampaigns.unshift(c);
    return HttpResponse.json(c, { status: 201 });
  })),
  http.post('/api/email/seed-events', authed(() => HttpResponse.json({ created: 10 }, { status: 201 }))),

  http.get('/api/email-templates', authed(() => HttpResponse.json({ templates: TEMPLATES }))),
  http.get('/api/campaigns/bulk-email/performance/overview', authed(() => {
    const sent = db.bulkCampaigns.reduce((n, c) => n + c.stats.sent, 0);
    return HttpResponse.json({
      success: true,
      performance: { totalCampaigns: db.bulkCampaigns.length, totalEmailsSent: sent, averageOpenRate: 0, averageClickRate: 0, averageReplyRate: 0 },
    });
  })),
  http.get('/api/campaigns/bulk-email/audience', authed(({ request }) => HttpResponse.json({ count: audience(new URL(request.url)) }))),
  http.get('/api/campaigns/bulk-email', authed(() => HttpResponse.json({ campaigns: db.bulkCampaigns }))),
  http.post('/api/campaigns/bulk-email', authed(async ({ request }) => {
    const body = (await request.json()) as Partial<BulkCampaign>;
    if (!body.name || !body.subject || !body.templateId) {
      return HttpResponse.json({ message: 'Please provide campaign name, subject, and select a template.' }, { status: 422 });
    }
    const total = body.selectedContactIds?.length ?? db.contacts.length;
    const c = makeBulkCampaign({
      name: body.name,
      description: body.description ?? null,
      subject: body.subject,
      templateId: body.templateId,
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
    return HttpResponse.json({ success: true, successful: c.totalRecipients, totalRecipients: c.totalRecipients, jobId: newId('job') });
  })),
  http.post('/api/campaigns/bulk-email/:id/:action', authed(({ params }) => {
    const c = find(params.id);
    if (!c) return HttpResponse.json({ message: 'Campaign not found' }, { status: 404 });
    c.status = params.action === 'pause' ? 'paused' : params.action === 'resume' ? 'sending' : 'cancelled';
    return HttpResponse.json(c);
  })),
];
