import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { db, makeContact } from '@/testing/mocks/db';
import { recordRequests } from '@/testing/mocks/server';
import { makeVoiceAgent, makeVoiceCall } from '@/testing/mocks/voice-handlers';
import { renderApp } from '@/testing/test-utils';

const finishJob = (id: string | null | undefined, patch: Record<string, unknown> = {}) => {
  const job = db.jobs.find((j) => j.id === id);
  if (job) Object.assign(job, { status: 'succeeded', finishedAt: new Date().toISOString(), ...patch });
};

/** Finds a contact by typing a name (the form never loads every contact) and picks it. */
async function pickContact(user: ReturnType<typeof renderApp>['user'], form: HTMLElement, name: RegExp) {
  const box = within(form).getByRole('combobox', { name: 'Contact' });
  await user.type(box, name.source.split(' ')[0] ?? '');
  await user.click(await within(form).findByRole('option', { name }));
}

describe('Voice Agents', () => {
  it('shows demo mode, the agents with their capabilities, and labels simulated calls', async () => {
    makeVoiceAgent({ name: 'Dealer Qualifier', capabilities: ['lead qualification', 'appointment setting'] });
    makeVoiceAgent({ name: 'Old Agent', status: 'inactive', capabilities: [] });
    makeVoiceCall({ contactName: 'Ann Lee', status: 'completed', simulated: true, outcome: 'qualified' });
    const { user } = renderApp('/voice-agents', { signedIn: true });
    expect(await screen.findByText('Demo mode')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('calls are simulated and nobody is dialled');
    const agents = await screen.findByRole('list', { name: 'Agents' });
    expect(within(agents).getByRole('listitem', { name: 'Old Agent' })).toHaveTextContent('Inactive');
    expect(within(agents).getByRole('list', { name: 'Capabilities of Dealer Qualifier' })).toHaveTextContent('lead qualificationappointment setting');
    // Only active agents can be chosen for a call.
    const form = screen.getByRole('form', { name: 'Initiate call' });
    await user.click(within(form).getByRole('combobox', { name: 'Agent' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Dealer Qualifier']);
    await user.keyboard('{Escape}');
    const calls = await screen.findByRole('list', { name: 'Recent calls' });
    expect(calls).toHaveTextContent('Simulated — no call placed');
    expect(calls).toHaveTextContent('qualified');
  });

  it("says what is missing with the seed's message and sends nothing", async () => {
    makeVoiceAgent();
    const requests = recordRequests();
    const { user } = renderApp('/voice-agents', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Initiate call' });
    await user.click(within(form).getByRole('button', { name: 'Start Call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a contact, agent, and provide a call purpose');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('starts a call, follows its job and shows the outcome, transcript and suggested meeting', async () => {
    db.voiceConnected = true;
    const contact = makeContact({ firstName: 'Rosa', lastName: 'Diaz', phone: '+1 555 0100' });
    const agent = makeVoiceAgent({ name: 'Dealer Qualifier' });
    const { user } = renderApp('/voice-agents', { signedIn: true });
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Initiate call' });
    await pickContact(user, form, /Rosa Diaz/);
    await chooseOption(user, within(form).getByLabelText('Agent'), agent.name);
    await user.type(within(form).getByLabelText('Call purpose'), 'Qualify interest in walk-in tubs');
    await user.click(within(form).getByRole('button', { name: 'Start Call' }));

    await waitFor(() => expect(document.body.textContent).toContain('The agent is placing the call.'));
    expect(db.voiceRequests).toEqual([{ contactId: contact.id, agentId: agent.id, purpose: 'Qualify interest in walk-in tubs' }]);
    const detail = await screen.findByRole('article', { name: 'Call with Rosa Diaz' });
    expect(within(detail).getByText('Placing the call…')).toBeInTheDocument();

    // The voice API's callbacks complete the call; the job that placed it ends.
    const call = db.voiceCalls[0];
    if (!call) throw new Error('no call recorded');
    Object.assign(call, {
      status: 'completed',
      outcome: 'qualified',
      transcript: 'Agent: Hello Rosa…\nRosa: Yes, send me the dealer pack.',
      summary: 'Interested in the dealer program.',
      durationSeconds: 95,
      suggestedMeeting: { title: 'Dealer program with Rosa Diaz', startTime: '2026-01-16T10:00:00Z' },
    });
    finishJob(call.jobId);
    expect(await within(detail).findByText('Qualified', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(detail).toHaveTextContent('1 min 35 s');
    expect(detail).toHaveTextContent('Rosa: Yes, send me the dealer pack.');
    const meeting = within(detail).getByRole('group', { name: 'Suggested meeting' });
    expect(meeting).toHaveTextContent('Dealer program with Rosa Diaz');
    expect(within(meeting).getByRole('link', { name: 'Schedule it in Meetings' })).toHaveAttribute('href', '/meetings');
    expect(within(detail).queryByText('Simulated — no call placed')).not.toBeInTheDocument();
  }, 15_000);

  it("shows the api's refusal when the contact has no phone", async () => {
    makeContact({ firstName: 'Bo', lastName: 'Kim', phone: null });
    const agent = makeVoiceAgent();
    const { user } = renderApp('/voice-agents', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Initiate call' });
    await pickContact(user, form, /Bo Kim · no phone/);
    await chooseOption(user, within(form).getByLabelText('Agent'), agent.name);
    await user.type(within(form).getByLabelText('Call purpose'), 'Check in');
    await user.click(within(form).getByRole('button', { name: 'Start Call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This contact has no phone number');
    expect(db.voiceCalls).toHaveLength(0);
  });

  it('schedules a follow-up at the chosen time, sent as RFC 3339', async () => {
    const contact = makeContact({ firstName: 'Rosa', lastName: 'Diaz', phone: '+1 555 0100' });
    const agent = makeVoiceAgent();
    const { user } = renderApp('/voice-agents', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Schedule follow-up' });
    await pickContact(user, form, /Rosa Diaz/);
    await chooseOption(user, within(form).getByLabelText('Agent'), agent.name);
    await user.type(within(form).getByLabelText('Call purpose'), 'Call back about pricing');
    await user.click(within(form).getByRole('button', { name: 'Schedule Follow-up' }));
    expect(await within(form).findByText('Choose when to call back')).toBeInTheDocument();
    expect(db.voiceRequests).toHaveLength(0);

    await user.type(within(form).getByLabelText('Call back at'), '2030-03-01');
    await user.type(within(form).getByLabelText('Time'), '15:00');
    await user.click(within(form).getByRole('button', { name: 'Schedule Follow-up' }));
    await waitFor(() => expect(document.body.textContent).toContain('Follow-up Scheduled'));
    expect(db.voiceRequests[0]).toMatchObject({ contactId: contact.id, agentId: agent.id, scheduledFor: new Date('2030-03-01T15:00').toISOString() });
    const detail = await screen.findByRole('article', { name: 'Call with Rosa Diaz' });
    expect(detail).toHaveTextContent('Scheduled for');
  });

  it('adds an agent and edits one, keeping capabilities as a list', async () => {
    const { user } = renderApp('/voice-agents', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add Agent' }));
    const form = screen.getByRole('form', { name: 'Add agent' });
    await user.click(within(form).getByRole('button', { name: 'Add Agent' }));
    expect(db.voiceAgents).toHaveLength(0);
    await user.type(within(form).getByLabelText('Agent name'), 'Renewals');
    await user.type(within(form).getByLabelText('Capabilities'), 'renewals,  upsell ,');
    await user.click(within(form).getByRole('button', { name: 'Add Agent' }));
    const item = await screen.findByRole('listitem', { name: 'Renewals' });
    expect(db.voiceAgents[0]).toMatchObject({ name: 'Renewals', capabilities: ['renewals', 'upsell'] });

    await user.click(within(item).getByRole('button', { name: 'Edit Renewals' }));
    const edit = screen.getByRole('form', { name: 'Edit agent' });
    await chooseOption(user, within(edit).getByLabelText('Status'), 'Inactive');
    await user.click(within(edit).getByRole('button', { name: 'Save Agent' }));
    await waitFor(() => expect(db.voiceAgents[0]?.status).toBe('inactive'));
    expect(await screen.findByRole('listitem', { name: 'Renewals' })).toHaveTextContent('Inactive');
  });
});
