import { http, HttpResponse } from 'msw';

import type { Enrollment, ReplyRule, Sequence, SequenceStep } from '@/features/sequences/api/types';

import { authed } from './authed';
import { NO_EMAIL_FIGURES as NO_FIGURES } from './crm-handlers';
import { db, newId } from './db';

export function makeSequence(overrides: Partial<Sequence> = {}): Sequence {
  const s: Sequence = {
    id: newId('sq'),
    name: 'Dealer follow-up',
    description: 'Three touches over two weeks',
    status: 'draft',
    triggerType: 'manual',
    abTestingEnabled: false,
    maxDailyEnrollments: 50,
    totalEnrollments: 0,
    activeEnrollments: 0,
    completedEnrollments: 0,
    completionRate: 0,
    enrollmentRules: {},
    exitRules: {},
    triggerConfig: {},
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
  db.sequences.push(s);
  return s;
}

export function makeStep(sequenceId: string, overrides: Partial<SequenceStep> = {}): SequenceStep {
  const step: SequenceStep = {
    id: newId('st'),
    sequenceId,
    name: 'Step',
    type: 'email',
    stepOrder: db.steps.filter((s) => s.sequenceId === sequenceId).length,
    config: {},
    delayMinutes: 0,
    totalSent: 0,
    totalOpened: 0,
    totalClicked: 0,
    totalReplied: 0,
    totalBounced: 0,
    figures: NO_FIGURES,
    variants: [],
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  db.steps.push(step);
  return step;
}

export function makeReplyRule(overrides: Partial<ReplyRule> = {}): ReplyRule {
  const r: ReplyRule = {
    id: newId('rr'),
    name: 'Stop on reply',
    triggerType: 'any_reply',
    keywords: [],
    action: 'stop_sequence',
    timesTriggered: 0,
    isActive: true,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  db.replyRules.push(r);
  return r;
}

export function makeEnrollment(sequenceId: string, overrides: Partial<Enrollment> = {}): Enrollment {
  const e: Enrollment & { sequenceId: string } = {
    id: newId('en'),
    sequenceId,
    contactId: newId('c'),
    contactName: 'Dana Dealer',
    email: 'dana@example.com',
    status: 'active',
    currentStep: 0,
    currentStepName: 'Intro',
    nextActionAt: '2026-11-24T16:29:00Z',
    variant: null,
    exitReason: null,
    enrolledAt: '2026-11-20T10:00:00Z',
    completedAt: null,
    ...overrides,
  };
  db.enrollments.push(e);
  return e;
}

const find = (id: unknown) => db.sequences.find((s) => s.id === id);
const stepsOf = (id: unknown) => db.steps.filter((s) => s.sequenceId === id).sort((a, b) => a.stepOrder - b.stepOrder);

export const sequenceHandlers = [
  http.get('/api/email-sequences', authed(() => HttpResponse.json(db.sequences))),
  http.post('/api/email-sequences', authed(async ({ request }) => {
    const body = (await request.json()) as Partial<Sequence>;
    if (db.sequences.some((s) => s.name === body.name)) {
      return HttpResponse.json({ message: 'A sequence with this name already exists' }, { status: 409 });
    }
    return HttpResponse.json(makeSequence(body), { status: 201 });
  })),
  http.get('/api/email-sequences/:id', authed(({ params }) => {
    const s = find(params.id);
    return s ? HttpResponse.json(s) : HttpResponse.json({ message: 'Sequence not found' }, { status: 404 });
  })),
  http.patch('/api/email-sequences/:id', authed(async ({ params, request }) => {
    const s = find(params.id);
    if (!s) return HttpResponse.json({ message: 'Sequence not found' }, { status: 404 });
    Object.assign(s, (await request.json()) as Partial<Sequence>);
    return HttpResponse.json(s);
  })),
  http.delete('/api/email-sequences/:id', authed(({ params }) => {
    db.sequences = db.sequences.filter((s) => s.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  })),
  http.get('/api/email-sequences/:id/steps', authed(({ params }) => HttpResponse.json(stepsOf(params.id)))),
  http.post('/api/email-sequences/:id/steps/reorder', authed(async ({ params, request }) => {
    const { stepIds } = (await request.json()) as { stepIds: string[] };
    const have = stepsOf(params.id).map((s) => s.id);
    if ([...have].sort().join() !== [...stepIds].sort().join()) {
      return HttpResponse.json({ message: 'stepIds must list every step of the sequence exactly once' }, { status: 422 });
    }
    for (const s of db.steps) if (s.sequenceId === params.id) s.stepOrder = stepIds.indexOf(s.id);
    return HttpResponse.json(stepsOf(params.id));
  })),
  http.patch('/api/email-sequences/:id/steps/:stepId', authed(async ({ params, request }) => {
    const step = db.steps.find((s) => s.id === params.stepId);
    if (!step) return HttpResponse.json({ message: 'Step not found' }, { status: 404 });
    Object.assign(step, (await request.json()) as Partial<SequenceStep>);
    return HttpResponse.json(step);
  })),
  http.post('/api/email-sequences/:id/steps', authed(async ({ params, request }) => {
    const body = (await request.json()) as Partial<SequenceStep>;
    if (body.type === 'action' && !body.config?.addTag) {
      return HttpResponse.json({ message: 'An action step needs setStatus, addTag, createDeal or notify' }, { status: 422 });
    }
    const step: SequenceStep = {
      id: newId('st'),
      sequenceId: String(params.id),
      name: body.name ?? '',
      type: body.type ?? 'email',
      stepOrder: body.stepOrder ?? stepsOf(params.id).length,
      config: body.config ?? {},
      delayMinutes: body.delayMinutes ?? 0,
      totalSent: 0,
      totalOpened: 0,
      totalClicked: 0,
      totalReplied: 0,
      totalBounced: 0,
      figures: NO_FIGURES,
      variants: [],
      createdAt: new Date().toISOString(),
    };
    db.steps.push(step);
    return HttpResponse.json(step, { status: 201 });
  })),
  http.delete('/api/email-sequences/:id/steps/:stepId', authed(({ params }) => {
    db.steps = db.steps.filter((s) => s.id !== params.stepId);
    return new HttpResponse(null, { status: 204 });
  })),
  http.get('/api/email-sequences/:id/enrollments', authed(({ params, request }) => {
    const url = new URL(request.url);
    const status = url.searchParams.get('status');
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const all = db.enrollments.filter((e) => e.sequenceId === params.id && (!status || e.status === status));
    return HttpResponse.json(all.slice(offset, offset + limit), { headers: { 'X-Total-Count': String(all.length) } });
  })),
  http.post('/api/email-sequences/:id/enrollments', authed(async ({ params, request }) => {
    const body = (await request.json()) as { contactIds?: string[] };
    db.enrollRequests.push(body);
    const picked = db.contacts.filter((c) => body.contactIds?.includes(c.id));
    for (const c of picked) {
      makeEnrollment(String(params.id), { contactId: c.id, contactName: `${c.firstName} ${c.lastName}`, email: c.email });
    }
    const enrolled = body.contactIds ? picked.length : 4;
    return HttpResponse.json({ enrolled, remainingToday: 50 - enrolled, maxDailyEnrollments: 50, skipped: { noEmail: 1, alreadyEnrolled: 0 } });
  })),
  http.delete('/api/email-sequences/:id/enrollments/:enrollmentId', authed(({ params }) => {
    const e = db.enrollments.find((x) => x.id === params.enrollmentId && x.status === 'active');
    if (!e) return HttpResponse.json({ message: 'Active enrollment not found' }, { status: 404 });
    Object.assign(e, { status: 'exited', exitReason: 'unenrolled', nextActionAt: null });
    return new HttpResponse(null, { status: 204 });
  })),
  http.get('/api/reply-rules', authed(() => HttpResponse.json(db.replyRules))),
  http.post('/api/reply-rules', authed(async ({ request }) => {
    const body = (await request.json()) as Partial<ReplyRule>;
    return HttpResponse.json(makeReplyRule(body), { status: 201 });
  })),
  http.patch('/api/reply-rules/:id', authed(async ({ params, request }) => {
    const r = db.replyRules.find((x) => x.id === params.id);
    if (!r) return HttpResponse.json({ message: 'Reply rule not found' }, { status: 404 });
    Object.assign(r, (await request.json()) as Partial<ReplyRule>);
    return HttpResponse.json(r);
  })),
  http.delete('/api/reply-rules/:id', authed(({ params }) => {
    db.replyRules = db.replyRules.filter((r) => r.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  })),
  http.get('/api/deliverability-settings', authed(() => HttpResponse.json(db.deliverability))),
  http.put('/api/deliverability-settings', authed(async ({ request }) => {
    const body = (await request.json()) as { dailyLimit: number; hourlyLimit: number; warmupEnabled: boolean; trackOpens: boolean };
    if (body.hourlyLimit < 1) return HttpResponse.json({ message: 'hourlyLimit must be between 1 and 10000000' }, { status: 422 });
    Object.assign(db.deliverability, body, { effectiveDailyLimit: body.dailyLimit });
    return HttpResponse.json(db.deliverability);
  })),
];
