import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { db, makeMeeting } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, renderWithProviders } from '@/testing/test-utils';

import { CalendarSync } from './calendar-sync';

beforeEach(() => {
  db.signedIn = true;
});

function postFromPopup(data: unknown, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

describe('Calendar sync control', () => {
  it('opens the connect dialog when no calendar is connected, and connects through the popup', async () => {
    const meeting = makeMeeting({ title: 'Showroom demo' });
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const { user } = renderWithProviders(<CalendarSync meeting={meeting} />);
    expect(screen.getByText('Calendar: not synced')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Sync to Calendar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Google Calendar' });
    await user.click(within(dialog).getByRole('button', { name: 'Connect Google Calendar' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(expect.stringContaining('oauth2'), 'calendar-auth', 'width=500,height=600'),
    );

    // A message from another origin is ignored; a failure says so; success closes the dialog.
    db.calendar.connected = true;
    postFromPopup({ type: 'google-calendar-auth', success: true }, 'https://evil.example');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    postFromPopup({ type: 'google-calendar-auth', success: false, message: 'denied' });
    expect(await screen.findByText('Failed to connect to Google Calendar. Please try again.')).toBeInTheDocument();
    postFromPopup({ type: 'google-calendar-auth', success: true, tokens: { connected: true } });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Calendar Connected')).toBeInTheDocument();
    open.mockRestore();
  });

  it('syncs when connected, follows the job, then offers Update and Remove with the Meet link', async () => {
    db.calendar = { configured: true, connected: true, accountEmail: 'me@dealers.test' };
    makeMeeting({ title: 'Design review' });
    const { user } = renderApp('/meetings', { signedIn: true });
    const card = await screen.findByRole('listitem', { name: 'Design review' });
    await user.click(await within(card).findByRole('button', { name: 'Sync to Calendar' }));
    expect(await screen.findByText('Synced to Calendar')).toBeInTheDocument();
    expect(await within(card).findByText('Calendar: synced')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Join Google Meet' })).toHaveAttribute(
      'href',
      'https://meet.google.com/abc-defg-hij',
    );
    expect(within(card).getByRole('button', { name: 'Update Calendar' })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed from Calendar')).toBeInTheDocument();
    expect(await within(card).findByText('Calendar: not synced')).toBeInTheDocument();
  });

  it('turns a 409 into the connect dialog with the seed message', async () => {
    db.calendar = { configured: true, connected: true, accountEmail: null };
    server.use(
      http.post('/api/meetings/:id/sync-to-calendar', () =>
        HttpResponse.json({ message: 'No calendar tokens available.' }, { status: 409 }),
      ),
    );
    const meeting = makeMeeting();
    const { user } = renderWithProviders(<CalendarSync meeting={meeting} />);
    await user.click(await screen.findByRole('button', { name: 'Sync to Calendar' }));
    expect(await screen.findByText('No calendar tokens available.')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Google Calendar' })).toBeInTheDocument();
  });

  it('shows a failed sync with its reason, and the feed when Google is not configured', async () => {
    db.calendar = { configured: false, connected: false, accountEmail: null };
    const meeting = makeMeeting({ syncStatus: 'failed', syncError: 'Google Calendar access was revoked or has expired.' });
    const { user } = renderWithProviders(<CalendarSync meeting={meeting} />);
    expect(screen.getByText('Calendar: failed')).toBeInTheDocument();
    expect(screen.getByText('Google Calendar access was revoked or has expired.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Sync to Calendar' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByLabelText(/Calendar feed/)).toHaveValue('http://localhost/calendar/feed-token.ics');
  });

  it('resets the feed link: the new URL is shown and the old one is said to stop working', async () => {
    db.calendar = { configured: false, connected: false, accountEmail: null };
    const { user } = renderWithProviders(<CalendarSync meeting={makeMeeting()} />);
    await user.click(await screen.findByRole('button', { name: 'Sync to Calendar' }));
    const dialog = await screen.findByRole('dialog');
    const input = await within(dialog).findByLabelText(/Calendar feed/);
    expect(input).toHaveValue('http://localhost/calendar/feed-token.ics');
    expect(within(dialog).getByText(/the old link stops working/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reset link' }));
    await waitFor(() => expect(input).toHaveValue('http://localhost/calendar/feed-token-v1.ics'));
    expect(await screen.findByText('Feed Link Reset')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reset link' }));
    await waitFor(() => expect(input).toHaveValue('http://localhost/calendar/feed-token-v2.ics'));
  });
});
