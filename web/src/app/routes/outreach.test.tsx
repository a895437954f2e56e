import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { makeContact } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const SEQUENCE = {
  id: 'seq1',
  name: 'Warm dealers',
  description: 'Dealers scoring fifty or more',
  status: 'active',
  triggerType: 'manual',
  abTestingEnabled: false,
  maxDailyEnrollments: 50,
  totalEnrollments: 0,
  activeEnrollments: 0,
  completedEnrollments: 0,
  completionRate: 0,
  createdAt: '2026-11-01T10:00:00Z',
};
const SKIPPED = { noEmail: 1, suppressed: 0, alreadyEnrolled: 2, outsideRules: 0, overDailyLimit: 0 };

/** Serves the sequences list and records what the preview and the enrollment were asked. */
function outreachServer() {
  const bodies: { preview: unknown[]; enroll: unknown[] } = { preview: [], enroll: [] };
  server.use(
    http.get('/api/email-sequences', () => HttpResponse.json([SEQUENCE])),
    http.post('/api/outreach/preview', async ({ request }) => {
      bodies.preview.push(await request.json());
      return HttpResponse.json({ selected: 5, reachable: 2, skipped: SKIPPED, contactIds: [] });
    }),
    http.post('/api/email-sequences/:id/enrollments', async ({ request }) => {
      bodies.enroll.push(await request.json());
      return HttpResponse.json({ enrolled: 2, selected: 5, skipped: SKIPPED, remainingToday: 48, maxDailyEnrollments: 50 });
    }),
  );
  return bodies;
}

describe('adding a selection to a sequence', () => {
  it('enrolls every contact the filters match, saying who is skipped and why', async () => {
    for (const n of ['Ann', 'Bo', 'Cy']) makeContact({ firstName: n, lastName: 'Lee', status: 'new_lead' });
    const bodies = outreachServer();
    const { user } = renderApp('/contacts?status=new_lead', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Select all 3 matching' }));
    const bar = screen.getByRole('toolbar', { name: 'Selection actions' });
    expect(bar).toHaveTextContent('3 contacts selected');
    await user.click(within(bar).getByRole('button', { name: 'Add to sequence' }));

    const dialog = screen.getByRole('dialog', { name: 'Add to sequence' });
    await chooseOption(user, within(dialog).getByLabelText('Sequence'), /^Warm dealers/);
    const preview = await within(dialog).findByLabelText('Who will be enrolled');
    expect(preview).toHaveTextContent('5 selected: 2 will be enrolled.');
    expect(preview).toHaveTextContent('Skipped: 1 has no email, 2 are already enrolled.');
    // The filters go to the server, not the ids of one page.
    expect(bodies.preview.at(-1)).toEqual({ contactFilter: { q: '', role: '', status: 'new_lead', region: '' }, sequenceId: 'seq1' });

    await user.click(within(dialog).getByRole('button', { name: 'Enroll 2' }));
    expect(await within(dialog).findByRole('status', { name: 'Enrollment result' })).toHaveTextContent(
      'Enrolled 2 of 5 in Warm dealers.',
    );
    expect(bodies.enroll).toEqual([{ contactFilter: { q: '', role: '', status: 'new_lead', region: '' } }]);
    expect(within(dialog).getByRole('link', { name: 'Open the sequence' })).toHaveAttribute('href', '/email-sequences?sequence=seq1&section=enrollments');
  });

  it('sends the ticked contacts by id, and a new filter clears the selection', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    makeContact({ firstName: 'Bo', lastName: 'Lee' });
    const bodies = outreachServer();
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann Lee' }));
    const bar = screen.getByRole('toolbar', { name: 'Selection actions' });
    expect(bar).toHaveTextContent('1 contact selected');
    await user.click(within(bar).getByRole('button', { name: 'Add to sequence' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to sequence' });
    await chooseOption(user, within(dialog).getByLabelText('Sequence'), /^Warm dealers/);
    await within(dialog).findByLabelText('Who will be enrolled');
    expect(bodies.preview.at(-1)).toEqual({ contactIds: [ann.id], sequenceId: 'seq1' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await chooseOption(user, screen.getByLabelText('Status'), 'qualified');
    expect(screen.queryByRole('toolbar', { name: 'Selection actions' })).not.toBeInTheDocument();
  });

  it('starts a bulk campaign for the selection: its contacts are the audience, with who is skipped', async () => {
    const ann = makeContact({ firstName: 'Ann', lastName: 'Lee' });
    const bo = makeContact({ firstName: 'Bo', lastName: 'Lee' });
    outreachServer();
    server.use(
      http.post('/api/outreach/preview', () =>
        HttpResponse.json({ selected: 2, reachable: 1, skipped: { ...SKIPPED, alreadyEnrolled: 0 }, contactIds: [ann.id, bo.id] }),
      ),
    );
    let created: Record<string, unknown> = {};
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/campaigns/bulk-email') {
        void request.clone().json().then((b) => (created = b as Record<string, unknown>));
      }
    });
    const { user } = renderApp('/contacts', { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bo Lee' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Selection actions' })).getByRole('button', { name: 'New bulk campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Bulk Email Campaign' });
    await user.type(within(dialog).getByLabelText('Campaign name'), 'Picked by hand');
    await user.click(within(dialog).getByRole('tab', { name: 'Message' }));
    await user.type(within(dialog).getByLabelText('Subject'), 'Hello');
    await user.type(within(dialog).getByLabelText('Body'), 'Short note');
    await user.click(within(dialog).getByRole('tab', { name: 'Target Contacts' }));
    const recipients = within(dialog).getByLabelText('Recipients');
    expect(recipients).toHaveTextContent('2 contacts: 2 selected, 1 will receive it.');
    expect(recipients).toHaveTextContent('Skipped: 1 has no email.');
    expect(within(dialog).queryByLabelText('Minimum score')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    await waitFor(() => expect(created.selectedContactIds).toEqual([ann.id, bo.id]));
    // No targeting of its own: the selection is the audience.
    expect(created.targetFilters).toMatchObject({ statuses: [], states: [] });
    expect((created.targetFilters as { scoreMin?: number }).scoreMin).toBeUndefined();
  });
});
