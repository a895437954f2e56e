import { http, HttpResponse } from 'msw';

import type { VoiceAgent, VoiceCall } from '@/features/voice/api/types';

import { authed } from './authed';
import { db, makeJob, newId } from './db';

/** Stand-ins for the voice endpoints (docs/voice-and-ai.md), with the api's messages. */


const NOW = '2026-01-15T10:00:00Z';
const MISSING = 'Missing Information: Please select a contact, agent, and provide a call purpose';

export function makeVoiceAgent(overrides: Partial<VoiceAgent> = {}): VoiceAgent {
  const agent: VoiceAgent = {
    id: newId('va'),
    name: 'Dealer Qualifier',
    status: 'active',
    capabilities: ['lead qualification', 'appointment setting'],
    description: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
  db.voiceAgents.push(agent);
  return agent;
}

export function makeVoiceCall(overrides: Partial<VoiceCall> = {}): VoiceCall {
  const call: VoiceCall = {
    id: newId('call'),
    contactId: 'ct-0',
    contactName: 'Ann Lee',
    toPhone: '+1 555 0100',
    agentId: 'va-0',
    agentName: 'Dealer Qualifier',
    purpose: 'Qualify interest',
    status: 'completed',
    simulated: true,
    outcome: null,
    transcript: null,
    summary: null,
    durationSeconds: null,
    suggestedMeeting: null,
    error: null,
    jobId: null,
    scheduledFor: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
  db.voiceCalls.unshift(call);
  return call;
}

type CallBody = { contactId?: string; agentId?: string; purpose?: string; scheduledFor?: string };

/** The api's checks of a call or follow-up; a Response when refused. */
function checkCall(body: CallBody): Response | { contact: string; agent: VoiceAgent } {
  if (!body.contactId || !body.agentId || !body.purpose?.trim()) return HttpResponse.json({ message: MISSING }, { status: 422 });
  const contact = db.contacts.find((c) => c.id === body.contactId);
  if (!contact) return HttpResponse.json({ message: 'Contact not found' }, { status: 404 });
  const agent = db.voiceAgents.find((a) => a.id === body.agentId);
  if (!agent) return HttpResponse.json({ message: 'Voice agent not found' }, { status: 404 });
  if (!contact.phone) return HttpResponse.json({ message: 'This contact has no phone number' }, { status: 422 });
  if (agent.status !== 'active') return HttpResponse.json({ message: 'This agent is not active' }, { status: 422 });
  return { contact: `${contact.firstName} ${contact.lastName}`, agent };
}

export const voiceHandlers = [
  http.get('/api/kojie/health', authed(() =>
    HttpResponse.json({
      status: db.voiceConnected ? 'connected' : 'demo',
      features: ['Outbound calls', 'Call transcripts', 'Meeting suggestions'],
      provider: db.voiceConnected ? 'voice.example.com' : null,
    }),
  )),
  http.get('/api/kojie/voice-agents', authed(() => HttpResponse.json(db.voiceAgents))),
  http.post('/api/kojie/voice-agents', authed(async ({ request }) => {
    const body = (await request.json()) as Partial<VoiceAgent>;
    if (!body.name?.trim()) return HttpResponse.json({ message: 'Agent name is required' }, { status: 422 });
    return HttpResponse.json(makeVoiceAgent({ ...body, name: body.name.trim() }), { status: 201 });
  })),
  http.patch('/api/kojie/voice-agents/:id', authed(async ({ params, request }) => {
    const agent = db.voiceAgents.find((a) => a.id === params.id);
    if (!agent) return HttpResponse.json({ message: 'Voice agent not found' }, { status: 404 });
    const body = (await request.json()) as Partial<VoiceAgent>;
    if (body.name !== undefined && !body.name.trim()) return HttpResponse.json({ message: 'Agent name is required' }, { status: 422 });
    Object.assign(agent, body, { updatedAt: NOW });
    return HttpResponse.json(agent);
  })),
  // The voice_call job stays queued: tests finish it and fill in the call.
  http.post('/api/kojie/voice-call', authed(async ({ request }) => {
    const body = (await request.json()) as CallBody;
    db.voiceRequests.push(body);
    const checked = checkCall(body);
    if (checked instanceof Response) return checked;
    const job = makeJob({ kind: 'voice_call' });
    db.jobs.push(job);
    const call = makeVoiceCall({
      contactId: body.contactId,
      contactName: checked.contact,
      agentId: checked.agent.id,
      agentName: checked.agent.name,
      purpose: body.purpose,
      status: 'queued',
      simulated: !db.voiceConnected,
      jobId: job.id,
    });
    return HttpResponse.json({ callId: call.id, jobId: job.id, status: 'queued', simulated: call.simulated }, { status: 202 });
  })),
  http.post('/api/kojie/schedule-followup', authed(async ({ request }) => {
    const body = (await request.json()) as CallBody;
    db.voiceRequests.push(body);
    const checked = checkCall(body);
    if (checked instanceof Response) return checked;
    const at = Date.parse(body.scheduledFor ?? '');
    if (!Number.isFinite(at) || at <= Date.now()) {
      return HttpResponse.json({ message: 'Follow-up time must be in the future' }, { status: 422 });
    }
    const job = makeJob({ kind: 'voice_call', status: 'scheduled', runAt: new Date(at).toISOString() });
    db.jobs.push(job);
    const call = makeVoiceCall({
      contactId: body.contactId,
      contactName: checked.contact,
      agentId: checked.agent.id,
      agentName: checked.agent.name,
      purpose: body.purpose,
      status: 'scheduled',
      simulated: !db.voiceConnected,
      jobId: job.id,
      scheduledFor: new Date(at).toISOString(),
    });
    return HttpResponse.json(
      { callId: call.id, jobId: job.id, status: 'scheduled', scheduledFor: call.scheduledFor, simulated: call.simulated },
      { status: 202 },
    );
  })),
  http.get('/api/kojie/calls', authed(({ request }) => {
    const contactId = new URL(request.url).searchParams.get('contactId');
    return HttpResponse.json(db.voiceCalls.filter((c) => !contactId || c.contactId === contactId));
  })),
  http.get('/api/kojie/calls/:id', authed(({ params }) => {
    const call = db.voiceCalls.find((c) => c.id === params.id);
    return call ? HttpResponse.json(call) : HttpResponse.json({ message: 'Call not found' }, { status: 404 });
  })),
];
