import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { averageCompletion } from '@/features/sequences/components/sequence-stats';
import { db } from '@/testing/mocks/db';
import { makeSequence } from '@/testing/mocks/sequence-handlers';
import { renderApp } from '@/testing/test-utils';

describe('Email Sequences', () => {
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

    // Created: the builder of the new sequence is open.
    const builder = await screen.findByRole('region', { name: 'Steps of After-show follow-up' });
    expect(within(builder).getByText('No steps yet')).toBeInTheDocument();
    await user.click(within(builder).getByRole('button', { name: 'Add Step' }));
    const add = await screen.findByRole('dialog', { name: 'Add Sequence Step' });
    await user.type(within(add).getByLabelText('Step Name'), 'First touch');
    const delay = within(add).getByLabelText('Delay Before This Step (minutes)');
    await user.clear(delay);
    await user.type(delay, '1505');
    expect(within(add).getByText('1 day, 1 hour, 5 minutes')).toBeInTheDocument();
    await user.selectOptions(within(add).getByLabelText('Email template'), 'business-outreach');
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
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Settings Saved');
    expect(db.deliverability.hourlyLimit).toBe(40);
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
});
