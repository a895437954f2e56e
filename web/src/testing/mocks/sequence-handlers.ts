import { http, HttpResponse } from 'msw';

import type { Sequence, SequenceStep } from '@/features/sequences/api/types';

import { authed } from './authed';
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
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  db.sequences.push(s);
  return s;
}

const find = (id: unknown) => db.sequences.find((s) => s.id === id);

export const sequenceHandlers = [
  http.get('/api/email-sequences', authed(() => HttpResponse.json(db.sequences))),
  http.post('/api/email-sequences', authed(async ({ request }) => {
    const body = (await request.json()) as Partial<Sequence>;
    if (db.sequences.some((s) => s.name === body.name)) {
      return HttpResponse.json({ message: 'A sequence with this name already exists' }, { status: 409 });
    }
    return HttpResponse.json(makeSequence(body), { status: 201 });
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
  http.get('/api/email-sequences/:id/steps', authed(({ params }) =>
    HttpResponse.json(db.steps.filter((s) => s.sequenceId === params.id).sort((a, b) => a.stepOrder - b.stepOrder)),
  )),
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
      stepOrder: body.stepOrder ?? 0,
      config: body.config ?? {},
      delayMinutes: body.delayMinutes ?? 0,
      totalSent: 0,
      totalOpened: 0,
      totalClicked: 0,
      totalReplied: 0,
      totalBounced: 0,
    };
    db.steps.push(step);
    return HttpResponse.json(step, { status: 201 });
  })),
  http.delete('/api/email-sequences/:id/steps/:stepId', authed(({ params }) => {
    db.steps = db.steps.filter((s) => s.id !== params.stepId);
    return new HttpResponse(null, { status: 204 });
  })),
  http.get('/api/reply-rules', authed(() => HttpResponse.json([]))),
  http.get('/api/deliverability-settings', authed(() => HttpResponse.json(db.deliverability))),
  http.put('/api/deliverability-settings', authed(async ({ request }) => {
    const body = (await request.json()) as { dailyLimit: number; hourlyLimit: number; warmupEnabled: boolean };
    if (body.hourlyLimit < 1) return HttpResponse.json({ message: 'hourlyLimit must be between 1 and 10000000' }, { status: 422 });
    Object.assign(db.deliverability, body, { effectiveDailyLimit: body.dailyLimit });
    return HttpResponse.json(db.deliverability);
  })),
];
