import { http, HttpResponse } from 'msw';

import { authed } from './authed';
import { db, makeJob } from './db';


/** The install's webhook token in the mock config, and the one a rotation returns. */
export const MOCK_WEBHOOK_TOKEN = 'tok_Y2p4ZS1tb2NrLXdlYmhvb2stdG9rZW4tMzItYnl0ZXM';
export const ROTATED_WEBHOOK_TOKEN = 'tok_cm90YXRlZC1tb2NrLXdlYmhvb2stdG9rZW4tMzJi';

const webhookConfig = (token: string) => ({
  webhookUrl: `https://crm.example.com/api/email/webhook?token=${token}`,
  inboundUrl: `https://crm.example.com/api/email/inbound?token=${token}`,
  signatureVerification: false,
  webhookAuth: 'token',
  inboundAuth: 'token',
  tokenVisible: true,
  events: ['delivered', 'open', 'click', 'bounce', 'dropped', 'spamreport'],
  delivery: { mode: 'outbox', relay: null, from: 'Partnerships <partners@example.com>' },
});

/** What a `sender_domain_check` job reports for the mock sender domain. */
export const MOCK_DOMAIN_CHECK = {
  domain: 'example.com',
  spf: { status: 'pass', name: 'example.com', record: 'v=spf1 include:sendgrid.net ~all', detail: 'SPF names the servers that may send for this domain.' },
  dkim: {
    status: 'not_configured',
    name: '<selector>._domainkey.example.com',
    record: null,
    detail: 'Messages are not DKIM-signed. Set DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN.',
  },
  dmarc: { status: 'warn', name: '_dmarc.example.com', record: 'v=DMARC1; p=none', detail: 'DMARC only monitors (p=none).' },
};

/** The suppression list as the api lists it (tests that lift one override the handlers). */
export const MOCK_SUPPRESSIONS = [
  { email: 'forged@example.com', reason: 'spam_reported', source: 'webhook', contactId: 'c-1', createdAt: '2026-11-20T10:00:00Z' },
  { email: 'gone@example.com', reason: 'hard_bounced', source: 'smtp', contactId: null, createdAt: '2026-11-19T09:00:00Z' },
];

/** The automation screen's reads, from the mock database where it has the data. */
export const automationHandlers = [
  http.get('/api/campaign-metrics', authed(() => HttpResponse.json({ active: 2, completed: 5, failed: 0, paused: 1 }))),
  http.get('/api/scoring-insights', authed(() => {
    const scores = db.contacts.map((c) => c.score);
    return HttpResponse.json({
      averageScore: scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : 0,
      highValueCount: scores.filter((s) => s >= 85).length,
      totalContacts: scores.length,
      scoringDistribution: [
        { range: '0-49', count: scores.filter((s) => s < 50).length },
        { range: '50-69', count: scores.filter((s) => s >= 50 && s < 70).length },
        { range: '70-84', count: scores.filter((s) => s >= 70 && s < 85).length },
        { range: '85-100', count: scores.filter((s) => s >= 85).length },
      ],
    });
  })),
  http.get('/api/payment/analytics', authed(() =>
    HttpResponse.json({ totalRevenue: 0, totalTransactions: 0, successfulPayments: 0, failedPayments: 0 }),
  )),
  http.get('/api/calendar/stats', authed(() =>
    HttpResponse.json({ totalMeetings: db.meetings.length, upcomingMeetings: db.meetings.length, completedMeetings: 0, averageMeetingDuration: 30 }),
  )),
  http.get('/api/campaign-executions', authed(() => HttpResponse.json([]))),
  http.get('/api/calendar/meetings', authed(() =>
    HttpResponse.json(db.meetings.map((m) => ({ id: m.id, title: m.title, startTime: m.scheduledDate, location: m.location, status: m.status }))),
  )),
  http.post('/api/contacts/bulk-ai-score', authed(async ({ request }) => {
    // A selection: picked ids, or every contact the list's filters match (the mock ignores the filters).
    const { contactIds, contactFilter } = (await request.json()) as { contactIds?: string[]; contactFilter?: object };
    const count = contactFilter ? db.contacts.length : (contactIds?.length ?? 0);
    if (count === 0) return HttpResponse.json({ message: 'No contacts to score. Add contacts first.' }, { status: 422 });
    const job = makeJob({ kind: 'bulk_ai_score', status: 'running', progress: { percent: 0, message: `Scored 0 of ${count} contacts` } });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  })),
  http.post('/api/calendar/send-reminders', authed(() => {
    const job = makeJob({
      kind: 'reminder_batch',
      status: 'succeeded',
      progress: { percent: 100, message: '2 of 2 meetings' },
      result: { meetings: 2, alreadyReminded: 0, emailsSent: 2, emailsQueued: 1, smsSent: 1, smsNotSent: 0 },
    });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: 'queued' }, { status: 202 });
  })),
  http.get('/api/email/webhook/config', authed(() => HttpResponse.json(webhookConfig(MOCK_WEBHOOK_TOKEN)))),
  // The sender-domain check: the latest sender_domain_check job; a new one finishes at once.
  http.get('/api/email/domain-check', authed(() => {
    const job = db.jobs.filter((j) => j.kind === 'sender_domain_check').at(-1);
    if (!job) return HttpResponse.json({ jobId: null, status: null, checkedAt: null, check: null, error: null });
    return HttpResponse.json({
      jobId: job.id,
      status: job.status,
      checkedAt: job.finishedAt,
      check: job.status === 'succeeded' ? job.result : null,
      error: job.error,
    });
  })),
  http.post('/api/email/domain-check', authed(() => {
    const job = makeJob({
      kind: 'sender_domain_check',
      status: 'succeeded',
      finishedAt: '2026-11-27T10:00:00Z',
      result: MOCK_DOMAIN_CHECK,
    });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: 'queued' }, { status: 202 });
  })),
  http.post('/api/email/webhook/rotate', authed(() => HttpResponse.json(webhookConfig(ROTATED_WEBHOOK_TOKEN)))),
  http.get('/api/email/suppressions', authed(() =>
    HttpResponse.json(MOCK_SUPPRESSIONS, { headers: { 'X-Total-Count': String(MOCK_SUPPRESSIONS.length) } }),
  )),
  http.delete('/api/email/suppressions/:email', authed(({ params }) => {
    const email = String(params.email);
    const found = MOCK_SUPPRESSIONS.find((s) => s.email === email);
    if (!found) return HttpResponse.json({ message: `${email} is not suppressed` }, { status: 404 });
    return HttpResponse.json({ success: true, email, reason: found.reason, contactId: found.contactId });
  })),
];
