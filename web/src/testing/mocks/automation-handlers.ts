import { http, HttpResponse } from 'msw';

import { authed } from './authed';
import { db, makeJob } from './db';


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
    const { contactIds } = (await request.json()) as { contactIds: string[] };
    if (contactIds.length === 0) return HttpResponse.json({ message: 'No contacts to score. Add contacts first.' }, { status: 422 });
    const job = makeJob({ kind: 'bulk_ai_score', status: 'running', progress: { percent: 0, message: `Scored 0 of ${contactIds.length} contacts` } });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  })),
  http.post('/api/calendar/send-reminders', authed(() => HttpResponse.json({ emailsSent: 3, smsSent: 1, meetings: 2 }))),
  http.get('/api/email/webhook/config', authed(() =>
    HttpResponse.json({
      webhookUrl: 'https://crm.example.com/api/email/webhook',
      signatureVerification: false,
      events: ['delivered', 'open', 'click', 'bounce', 'dropped', 'spamreport'],
      delivery: { mode: 'outbox', relay: null, from: 'Partnerships <partners@example.com>' },
    }),
  )),
];
