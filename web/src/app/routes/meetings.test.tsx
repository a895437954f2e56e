import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { db, makeMeeting } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('meetings', () => {
  it('offers to schedule the first meeting when there are none', async () => {
    const { user } = renderApp('/meetings', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Schedule your first meeting' }));
    expect(screen.getByRole('dialog', { name: 'Schedule Meeting' })).toBeInTheDocument();
  });

  it('requires a title and a date, with the seed messages', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/meetings', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Schedule Meeting' }));
    const form = screen.getByRole('form', { name: 'Schedule meeting' });
    await user.click(within(form).getByRole('button', { name: 'Schedule Meeting' }));
    expect(within(form).getByText('Title is required')).toBeInTheDocument();
    expect(within(form).getByText('Date and time are required')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('schedules a discovery meeting of 60 minutes by default, sending the date as ISO 8601', async () => {
    let body: Record<string, unknown> = {};
    server.use(
      http.post('/api/meetings', async ({ request }) => {
        body = (await request.clone().json()) as Record<string, unknown>;
      }),
    );
    const { user } = renderApp('/admin/meetings', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Schedule Meeting' }));
    const form = screen.getByRole('form', { name: 'Schedule meeting' });
    await user.type(within(form).getByLabelText('Title'), 'Showroom walkthrough');
    await user.type(within(form).getByLabelText('Date and time'), '2030-03-01');
    await user.type(within(form).getByLabelText('Time'), '15:00');
    await user.type(within(form).getByLabelText('Attendees'), 'Ann, Bo');
    await user.click(within(form).getByRole('button', { name: 'Schedule Meeting' }));

    expect(await screen.findByText('Meeting Scheduled')).toBeInTheDocument();
    expect(body).toMatchObject({
      title: 'Showroom walkthrough',
      duration: 60,
      meetingType: 'discovery',
      attendees: 'Ann, Bo',
      location: null,
      scheduledDate: new Date('2030-03-01T15:00').toISOString(),
    });
    const card = await screen.findByRole('listitem', { name: 'Showroom walkthrough' });
    expect(within(card).getByText('SCHEDULED')).toBeInTheDocument();
  });

  it('filters by status on the server', async () => {
    makeMeeting({ title: 'Call A', status: 'scheduled' });
    makeMeeting({ title: 'Call B', status: 'completed' });
    const requests = recordRequests();
    const { user, router } = renderApp('/meetings', { signedIn: true });
    await screen.findByRole('listitem', { name: 'Call A' });
    await chooseOption(user, screen.getByLabelText('Status'), 'completed');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Call A' })).not.toBeInTheDocument());
    expect(screen.getByRole('listitem', { name: 'Call B' })).toBeInTheDocument();
    expect(requests.at(-1)?.search).toBe('?status=completed&limit=100');
    expect(router.state.location.search).toBe('?status=completed');
  });

  it('marks a meeting confirmed (then that action is disabled) and cancels it', async () => {
    makeMeeting({ title: 'Call A' });
    const { user } = renderApp('/meetings', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Actions for Call A' }));
    await user.click(screen.getByRole('menuitem', { name: 'Mark Confirmed' }));
    expect(await screen.findByText('"Call A" is now confirmed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Call A' })).toHaveAttribute('data-status', 'confirmed'));

    await user.click(screen.getByRole('button', { name: 'Actions for Call A' }));
    expect(screen.getByRole('menuitem', { name: 'Mark Confirmed' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'Cancel Meeting' }));
    expect(await screen.findByText('Meeting Cancelled')).toBeInTheDocument();
    expect(db.meetings).toHaveLength(0);
    expect(await screen.findByText('No meetings yet')).toBeInTheDocument();
  });
});
