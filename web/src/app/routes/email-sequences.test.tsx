import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { resultText } from '@/features/sequences/components/enroll-dialog';
import { averageCompletion } from '@/features/sequences/components/sequence-stats';
import { formatWhen } from '@/lib/format';
import { chooseOption } from '@/testing/select';
import { db, makeContact } from '@/testing/mocks/db';
import { makeEnrollment, makeReplyRule, makeSequence, makeStep } from '@/testing/mocks/sequence-handlers';
import { renderApp } from '@/testing/test-utils';

// Whole journeys through several dialogs: more than the default 5 s on a busy machine.
describe('Email Sequences', { timeout: 20_000 }, () => {
  it("creates a sequence with the seed's rules, then adds a delayed step in the builder", async () => {
    const { user } = renderApp('/admin/email-sequences', { signedIn: true });
    expect(await screen.findByText('No sequences yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Sequence' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Email Sequence' });
    await user.type(within(dialog).getByLabelText('Sequence Name'), 'A');
    await user.type(within(dialog).getByLabelText('Description'), 'Too short');
    await user.click(within(dialog).getByRole('button', { name: 'Create Sequence' }));
    expect(await within(dialog).findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Description must be at least 10 characters')).toBeInTheDocument();
    expect(db.sequences).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Sequence Name'), 'fter-show follow-up');
    await user.type(within(dialog).getByLabelText('Description'), ' for dealers met at the show');
    await user.click(within(dialog).getByRole('button', { name: 'Create Sequence' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Sequence Created');
    expect(db.sequences[0]).toMatchObject({ name: 'After-show follow-up', status: 'draft', maxDailyEnrollments: 50 });

    // Created: the new sequence is open, its address says which.
    const builder = await screen.findByRole('region', { name: 'Steps of After-show follow-up' });
    expect(within(builder).getByText('No steps yet')).toBeInTheDocument();
    await user.click(within(builder).getByRole('button', { name: 'Add Step' }));
    const add = await screen.findByRole('dialog', { name: 'Add Sequence Step' });
    await user.type(within(add).getByLabelText('Step Name'), 'First touch');
    const delay = within(add).getByLabelText('Delay Before This Step (minutes)');
    await user.clear(delay);
    await user.type(delay, '1505');
    expect(within(add).getByText('1 day, 1 hour, 5 minutes')).toBeInTheDocument();
    await chooseOption(user, within(add).getByLabelText('Email template'), 'Business Outreach');
    await user.click(within(add).getByRole('button', { name: 'Add Step' }));
    expect(await screen.findByRole('listitem', { name: 'First touch' })).toHaveTextContent('after 1 day, 1 hour, 5 minutes');
    expect(db.steps[0]).toMatchObject({ delayMinutes: 1505, type: 'email', config: { templateId: 'business-outreach' } });
  });

  it('pauses an active sequence and deletes one after asking', async () => {
    makeSequence({ name: 'Running', status: 'active' });
    makeSequence({ name: 'Old one' });
    const { user } = renderApp('/admin/email-sequences', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Pause Running' }));
    await waitFor(() => expect(db.sequences[0]?.status).toBe('paused'));
    expect(await screen.findByRole('button', { name: 'Activate Running' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete Old one' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this sequence?' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete this sequence?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete sequence' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Old one' })).toBeNull());
    expect(db.sequences.map((s) => s.name)).toEqual(['Running']);
  });

  it('saves the sending limits and shows the usage', async () => {
    const { user } = renderApp('/admin/email-sequences', { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Deliverability' }));
    const form = await screen.findByRole('form', { name: 'Deliverability' });
    expect(form).toHaveTextContent('12 / 100');
    const hourly = within(form).getByLabelText('Hourly Sending Limit');
    await user.clear(hourly);
    await user.type(hourly, '40');
    // Open tracking is off until someone turns it on, and says what it costs.
    const track = within(form).getByRole('switch', { name: 'Track opens' });
    expect(track).not.toBeChecked();
    expect(form).toHaveTextContent(/Spam filters score an image/);
    await user.click(track);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Settings Saved');
    expect(db.deliverability.hourlyLimit).toBe(40);
    expect(db.deliverability.trackOpens).toBe(true);
  });

  it('averages completion over sequences that have enrollments', () => {
    const base = makeSequence();
    expect(
      averageCompletion([
        { ...base, totalEnrollments: 10, completionRate: 50 },
        { ...base, totalEnrollments: 4, completionRate: 25 },
        { ...base, totalEnrollments: 0, completionRate: 0 },
      ]),
    ).toBe(38);
  });

  it('opens a sequence from the list into its address, with why it waits', async () => {
    const s = makeSequence({
      name: 'Show follow-up',
      status: 'active',
      waiting: { reason: 'hourly_limit', label: 'Hourly limit reached', until: '2026-11-24T11:00:00Z' },
    });
    const { user, router } = renderApp('/admin/email-sequences', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Open Show follow-up' }));
    const detail = await screen.findByRole('region', { name: 'Sequence Show follow-up' });
    expect(router.state.location.search).toBe(`?sequence=${s.id}`);
    expect(within(detail).getByRole('status', { name: 'Why it waits' })).toHaveTextContent(
      `Hourly limit reached — resumes ${formatWhen('2026-11-24T11:00:00Z')}`,
    );
    await user.click(within(detail).getByRole('button', { name: 'Pause sequence' }));
    await waitFor(() => expect(db.sequences[0]?.status).toBe('paused'));
    expect(await within(detail).findByRole('button', { name: 'Activate sequence' })).toBeInTheDocument();
    await user.click(within(detail).getByRole('tab', { name: 'Settings' }));
    expect(router.state.location.search).toBe(`?sequence=${s.id}&section=settings`);
    const form = within(detail).getByRole('form', { name: 'Sequence settings' });
    await chooseOption(user, within(form).getByLabelText('Sequence status'), 'paused');
    await user.click(within(form).getByRole('switch', { name: /Send only on these days and hours/ }));
    await user.clear(within(form).getByLabelText('Max daily enrollments'));
    await user.type(within(form).getByLabelText('Max daily enrollments'), '20');
    await user.click(within(form).getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(db.sequences[0]).toMatchObject({ status: 'paused', maxDailyEnrollments: 20 }));
    expect(db.sequences[0]?.sendingWindow).toMatchObject({ days: ['tue', 'wed', 'thu'], start: '10:00', end: '14:00' });
    await user.click(within(detail).getByRole('button', { name: '← All sequences' }));
    expect(await screen.findByRole('button', { name: 'Open Show follow-up' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('moves, edits into an A/B email with merge fields, and deletes steps', async () => {
    const s = makeSequence({ name: 'Touches' });
    makeStep(s.id, { name: 'Intro', config: { subject: 'Hello', body: 'Hi', format: 'text' } });
    makeStep(s.id, { name: 'Wait', type: 'delay', delayMinutes: 2880 });
    makeStep(s.id, { name: 'Follow up', config: { templateId: 'follow-up' } });
    const { user } = renderApp(`/admin/email-sequences?sequence=${s.id}`, { signedIn: true });
    const builder = await screen.findByRole('region', { name: 'Steps of Touches' });
    const order = () => within(builder).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'));
    expect(order()).toEqual(['Intro', 'Wait', 'Follow up']);
    expect(within(builder).getByRole('button', { name: 'Move Intro up' })).toBeDisabled();
    await user.click(within(builder).getByRole('button', { name: 'Move Follow up up' }));
    await waitFor(() => expect(order()).toEqual(['Intro', 'Follow up', 'Wait']));
    await user.click(within(builder).getByRole('button', { name: 'Move Intro down' }));
    await waitFor(() => expect(order()).toEqual(['Follow up', 'Intro', 'Wait']));

    await user.click(within(builder).getByRole('button', { name: 'Edit Intro' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Sequence Step' });
    expect(within(edit).getByLabelText('Subject')).toHaveValue('Hello');
    await chooseOption(user, within(edit).getByLabelText('Step Type'), 'A/B test email');
    await user.click(within(edit).getByRole('button', { name: 'Save Step' }));
    expect(await within(edit).findByText('Variant A needs a subject and a body')).toBeInTheDocument();
    await user.type(within(edit).getByLabelText('Variant A subject'), 'Quick question');
    await user.type(within(edit).getByLabelText('Variant A body'), 'Hi ');
    await chooseOption(user, within(edit).getByLabelText('Insert field (Variant A)'), 'First name');
    expect(within(edit).getByLabelText('Variant A body')).toHaveValue('Hi {{firstName}}');
    // Each variant has the campaigns' composer: its own preview and test send.
    const previewA = within(edit).getByRole('region', { name: 'Email preview (Variant A)' });
    expect(within(previewA).getByRole('button', { name: 'Send test to me' })).toBeInTheDocument();
    await user.click(within(edit).getByLabelText('Variant B subject'));
    await chooseOption(user, within(edit).getByLabelText('Insert field (Variant B)'), 'Company name');
    await user.type(within(edit).getByLabelText('Variant B body'), 'Hello');
    await user.click(within(edit).getByRole('button', { name: 'Save Step' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Sequence Step' })).toBeNull());
    expect(db.steps.find((st) => st.name === 'Intro')).toMatchObject({
      type: 'email',
      config: {
        format: 'text',
        variants: { A: { subject: 'Quick question', body: 'Hi {{firstName}}' }, B: { subject: '{{companyName}}', body: 'Hello' } },
      },
    });

    await user.click(within(builder).getByRole('button', { name: 'Delete Wait' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this step?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete step' }));
    await waitFor(() => expect(order()).toEqual(['Follow up', 'Intro']));
    expect(db.steps.map((st) => st.name)).not.toContain('Wait');
  });

  it('creates, edits and deletes reply rules', async () => {
    makeReplyRule({ name: 'Out of office', triggerType: 'out_of_office', action: 'mark_responded' });
    const { user } = renderApp('/admin/email-sequences?view=rules', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add Reply Rule' }));
    const add = await screen.findByRole('dialog', { name: 'Add Reply Rule' });
    await user.type(within(add).getByLabelText('Rule Name'), 'Not interested');
    await chooseOption(user, within(add).getByLabelText('When a reply is'), 'keyword');
    await user.click(within(add).getByRole('button', { name: 'Add Rule' }));
    expect(await within(add).findByText('A keyword rule needs at least one keyword')).toBeInTheDocument();
    await user.type(within(add).getByLabelText('Keywords'), 'not interested, remove me');
    await user.click(within(add).getByRole('button', { name: 'Add Rule' }));
    expect(await screen.findByRole('listitem', { name: 'Not interested' })).toHaveTextContent('(not interested, remove me) → stop sequence');
    expect(db.replyRules[1]).toMatchObject({ triggerType: 'keyword', keywords: ['not interested', 'remove me'], isActive: true });

    await user.click(screen.getByRole('button', { name: 'Edit Out of office' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Reply Rule' });
    expect(within(edit).getByLabelText('Then')).toHaveTextContent('mark responded');
    await user.click(within(edit).getByRole('switch', { name: 'Rule active' }));
    await user.click(within(edit).getByRole('button', { name: 'Save Rule' }));
    await waitFor(() => expect(db.replyRules[0]?.isActive).toBe(false));
    expect(await screen.findByRole('listitem', { name: 'Out of office' })).toHaveTextContent('Off');

    await user.click(screen.getByRole('button', { name: 'Delete Out of office' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this reply rule?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete rule' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Out of office' })).toBeNull());
    expect(db.replyRules.map((r) => r.name)).toEqual(['Not interested']);
  });

  it('lists enrollments with their step and next send, filters, pages and unenrolls after asking', async () => {
    const s = makeSequence({ name: 'Dealers', status: 'active' });
    makeEnrollment(s.id, { contactName: 'Ann Active', currentStepName: 'Intro', nextActionAt: '2026-11-24T16:29:00Z' });
    makeEnrollment(s.id, { contactName: 'Ed Exited', status: 'exited', exitReason: 'condition_not_met', currentStepName: null, nextActionAt: null });
    for (let i = 0; i < 25; i++) makeEnrollment(s.id, { contactName: `Bulk ${i}`, variant: 'B' });
    const { user, router } = renderApp(`/admin/email-sequences?sequence=${s.id}&section=enrollments`, { signedIn: true });
    const section = await screen.findByRole('region', { name: 'Enrollments' });
    const table = await within(section).findByRole('table', { name: 'Enrollments' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Contact',
      'Status',
      'Current step',
      'Next send',
      'Variant',
      'Exit reason',
      'Actions',
    ]);
    const ann = within(table).getByRole('row', { name: /Ann Active/ });
    expect(ann).toHaveTextContent('Intro');
    expect(ann).toHaveTextContent(formatWhen('2026-11-24T16:29:00Z'));
    expect(within(section).getByText('Showing 1–25 of 27')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Next' }));
    expect(await within(section).findByText('Showing 26–27 of 27')).toBeInTheDocument();
    expect(router.state.location.search).toContain('offset=25');

    await chooseOption(user, within(section).getByLabelText('Enrollment status'), 'exited');
    const exited = await within(section).findByRole('row', { name: /Ed Exited/ });
    expect(exited).toHaveTextContent('condition not met');
    expect(router.state.location.search).toContain('status=exited');
    expect(router.state.location.search).not.toContain('offset');

    await chooseOption(user, within(section).getByLabelText('Enrollment status'), 'active');
    await user.click(await within(section).findByRole('button', { name: 'Unenroll Ann Active' }));
    const confirm = await screen.findByRole('dialog', { name: 'Unenroll this contact?' });
    expect(confirm).toHaveTextContent('Ann Active gets no more messages from this sequence.');
    await user.click(within(confirm).getByRole('button', { name: 'Unenroll' }));
    await waitFor(() => expect(within(section).queryByRole('row', { name: /Ann Active/ })).toBeNull());
    expect(db.enrollments[0]).toMatchObject({ status: 'exited', exitReason: 'unenrolled' });
  });

  it('reads the states typed in any case, and names the ones that are no state', async () => {
    const s = makeSequence({ name: 'Dealers', status: 'active' });
    const { user } = renderApp(`/admin/email-sequences?sequence=${s.id}&section=enrollments`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Enroll Contacts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enroll Contacts' });
    await user.type(within(dialog).getByLabelText('States'), 'tx, Texass');
    await user.click(within(dialog).getByRole('button', { name: 'Enroll' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Unknown state "Texass": use a US state name or two-letter code',
    );
    expect(db.enrollRequests).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('States'));
    await user.type(within(dialog).getByLabelText('States'), 'tx, new mexico');
    await user.click(within(dialog).getByRole('button', { name: 'Enroll' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(/^Enrolled /);
    expect(db.enrollRequests[0]).toEqual({ targetFilters: { statuses: [], states: ['TX', 'New Mexico'] } });
  });

  it('enrolls by filters and by picked contacts, and says how many went in', async () => {
    const s = makeSequence({ name: 'Dealers', status: 'active' });
    makeContact({ firstName: 'Pat', lastName: 'Picked', email: 'pat@example.com' });
    makeContact({ firstName: 'Quinn', lastName: 'Other', email: 'quinn@example.com' });
    const { user } = renderApp(`/admin/email-sequences?sequence=${s.id}&section=enrollments`, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Enroll Contacts' }));
    let dialog = await screen.findByRole('dialog', { name: 'Enroll Contacts' });
    await user.type(within(dialog).getByLabelText('Minimum score'), '70');
    await user.click(within(dialog).getByRole('checkbox', { name: 'hot' }));
    await user.type(within(dialog).getByLabelText('States'), 'TX, Oklahoma');
    await user.click(within(dialog).getByRole('button', { name: 'Enroll' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Enrolled 4; remaining today 46. Skipped: 1 no email');
    expect(db.enrollRequests[0]).toEqual({ targetFilters: { scoreMin: 70, statuses: ['hot'], states: ['TX', 'Oklahoma'] } });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Enroll Contacts' }));
    dialog = await screen.findByRole('dialog', { name: 'Enroll Contacts' });
    await user.click(within(dialog).getByRole('radio', { name: 'Pick contacts' }));
    await user.type(within(dialog).getByLabelText('Search contacts'), 'pat');
    await waitFor(() => expect(within(dialog).queryByRole('checkbox', { name: /Quinn/ })).toBeNull());
    await user.click(within(dialog).getByRole('checkbox', { name: 'Pat Picked (pat@example.com)' }));
    expect(within(dialog).getByText('1 selected')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Enroll' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Enrolled 1; remaining today 49');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'Enrollments' });
    expect(within(table).getByRole('row', { name: /Pat Picked/ })).toBeInTheDocument();
  });

  it('words the enroll result with the skipped reasons the server gives', () => {
    const none = { noEmail: 0, suppressed: 0, alreadyEnrolled: 0, outsideRules: 0, overDailyLimit: 0 };
    expect(resultText({ enrolled: 2, selected: 2, remainingToday: 0, maxDailyEnrollments: 2, skipped: none })).toBe('Enrolled 2; remaining today 0');
    expect(
      resultText({
        enrolled: 0,
        selected: 3,
        remainingToday: 5,
        maxDailyEnrollments: 5,
        skipped: { ...none, suppressed: 2, outsideRules: 1 },
      }),
    ).toBe('Enrolled 0; remaining today 5. Skipped: 2 suppressed, 1 outside the enrollment rules');
  });
});
