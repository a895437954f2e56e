import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { fullDate, relativeDate } from '@/features/dashboard/components/activity-dates';
import { captureDownloads } from '@/testing/downloads';
import type { Task } from '@/features/records/api/types';
import { db, makeCompany, makeDeal, makeMeeting } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const HEADING = 'Business Intelligence Dashboard';

describe('dashboard', () => {
  it('shows the real figures from the API', async () => {
    makeCompany({ state: 'TX' });
    makeCompany({ state: 'TX' });
    makeCompany({ state: 'AZ' });
    makeDeal({ value: '52000' });
    makeDeal({ value: '8000', stage: 'proposal' });
    makeDeal({ value: '99000', stage: 'closed_won' });
    makeMeeting({ status: 'completed' });
    renderApp('/', { signedIn: true });

    const prospects = await screen.findByTestId('card-prospects');
    expect(prospects).toHaveTextContent('3');
    expect(prospects).toHaveTextContent('+12.5% from last month');
    expect(screen.getByTestId('card-pipeline')).toHaveTextContent('$60,000');
    expect(screen.getByTestId('card-pipeline')).toHaveTextContent('2 active deals');

    const regions = await screen.findByRole('table', { name: 'Companies per state' });
    expect(within(regions).getByRole('row', { name: 'Texas 2' })).toBeInTheDocument();
    expect(within(regions).getByRole('row', { name: 'Arizona 1' })).toBeInTheDocument();
    expect(within(regions).getByRole('row', { name: 'Louisiana 0' })).toBeInTheDocument();
  });

  it('shows campaign performance for 7 days, then for the chosen timeframe with a toast', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/', { signedIn: true });
    const card = await screen.findByRole('region', { name: 'Campaign Performance' });
    expect(await within(card).findByText('0.7%')).toBeInTheDocument();
    expect(within(card).getAllByText('No emails sent')).toHaveLength(2);
    expect(within(card).getByRole('button', { name: '7D' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(card).getByRole('button', { name: '30D' }));
    expect(await within(card).findByText('3%')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Timeframe Updated');
    expect(requests.filter((r) => r.path === '/api/dashboard/campaign-performance').map((r) => r.search)).toEqual([
      '?timeframe=7',
      '?timeframe=30',
    ]);
  });

  it('shows real email figures per timeframe once emails were sent, never "No emails sent"', async () => {
    const figures = (sent: number, delivered: number, replied: number) => ({
      sent, delivered, opened: 2, clicked: 1, replied, bounced: sent - delivered, unsubscribed: 0, complained: 1,
      deliveryRate: Math.round((delivered * 1000) / sent) / 10, openRate: 0, clickRate: 0,
      replyRate: Math.round((replied * 1000) / sent) / 10, bounceRate: 0, unsubscribeRate: 0, complaintRate: 0,
    });
    server.use(
      http.get('/api/dashboard/campaign-performance', ({ request }) => {
        const days = Number(new URL(request.url).searchParams.get('timeframe'));
        const emails = days === 7 ? figures(12, 11, 2) : figures(20, 19, 4);
        return HttpResponse.json({
          timeframe: days, deliveryRate: emails.deliveryRate, responseRate: emails.replyRate,
          meetingRate: days === 7 ? 20 : 25, emailDataAvailable: true, meetingsCreated: 1, contactsContacted: 5, emails,
        });
      }),
    );
    const { user } = renderApp('/', { signedIn: true });
    const card = await screen.findByRole('region', { name: 'Campaign Performance' });
    const value = (label: string) => within(within(card).getByRole('group', { name: label })).getByRole('definition').textContent;
    await waitFor(() => expect(value('Emails sent')).toBe('12'));
    expect(value('Delivery rate')).toBe('91.7%');
    expect(value('Response rate')).toBe('16.7%');
    expect(value('Meeting rate')).toBe('20%');
    expect(value('Replied')).toBe('2');
    expect(within(card).getByText('Last 7 days')).toBeInTheDocument();
    expect(within(card).queryByText('No emails sent')).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: '90D' }));
    await waitFor(() => expect(value('Emails sent')).toBe('20'));
    expect(value('Delivery rate')).toBe('95%');
    expect(value('Meeting rate')).toBe('25%');
    expect(within(card).getByText('Last 90 days')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: '90D' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(card).queryByText('No emails sent')).not.toBeInTheDocument();
  });

  it('lists scans, sends, replies, deals and meetings with human dates and links, newest first, paged', async () => {
    const now = Date.now();
    const ago = (min: number) => new Date(now - min * 60_000).toISOString();
    const entries = [
      { id: 'a1', kind: 'scan_finished', summary: 'Discovery scan finished: 12 companies and 30 contacts found', at: ago(5), link: '/discovery?job=J1' },
      { id: 'a2', kind: 'emails_sent', summary: 'Sent 20 emails for "Spring"', at: ago(90), link: '/email-campaigns' },
      { id: 'a3', kind: 'email_replied', summary: 'c0@example.test replied', at: ago(3 * 60), link: '/contacts' },
      { id: 'a4', kind: 'deal_created', summary: 'Deal "Big" created ($5000, prospecting)', at: ago(26 * 60), link: '/pipeline' },
      { id: 'a5', kind: 'meeting_scheduled', summary: 'Meeting "Demo" scheduled', at: ago(3 * 24 * 60), link: '/meetings' },
      { id: 'a6', kind: 'suppression_lifted', summary: 'Suppression lifted', at: ago(4 * 24 * 60), link: null },
    ];
    const requests = recordRequests();
    server.use(
      http.get('/api/activities', ({ request }) => {
        const limit = Number(new URL(request.url).searchParams.get('limit'));
        return HttpResponse.json(entries.slice(0, limit), { headers: { 'X-Total-Count': String(entries.length) } });
      }),
    );
    const { user } = renderApp('/admin', { signedIn: true });
    const feed = await screen.findByRole('list', { name: 'Recent activity' });
    const items = within(feed).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    const item = (i: number) => items[i] ?? feed;
    expect(within(item(0)).getByRole('link', { name: 'Discovery scan finished: 12 companies and 30 contacts found' })).toHaveAttribute(
      'href',
      '/admin/discovery?job=J1',
    );
    expect(within(item(1)).getByRole('link', { name: 'Sent 20 emails for "Spring"' })).toHaveAttribute('href', '/admin/email-campaigns');
    expect(within(item(4)).getByRole('link')).toHaveAttribute('href', '/admin/meetings');
    const first = within(item(0)).getByText('5 min ago');
    expect(first.tagName).toBe('TIME');
    expect(first).toHaveAttribute('title', fullDate(ago(5)));
    expect(within(item(1)).getByText('1 h ago')).toBeInTheDocument();
    expect(within(item(2)).getByText('3 h ago')).toBeInTheDocument();
    expect(within(feed).queryByText(/\d{4}-\d{2}-\d{2}T/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show more activity' }));
    await waitFor(() => expect(within(feed).getAllByRole('listitem')).toHaveLength(6));
    expect(within(feed).getByText('Suppression lifted').tagName).toBe('P');
    expect(screen.queryByRole('button', { name: 'Show more activity' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/activities').map((r) => r.search)).toEqual(['?limit=5', '?limit=15']);
  });

  it('says how long ago in words, then the day and time', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(relativeDate('2026-11-24T11:59:30Z', now)).toBe('just now');
    expect(relativeDate('2026-11-24T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeDate('2026-11-24T09:00:00Z', now)).toBe('3 h ago');
    const older = relativeDate('2026-11-20T10:29:00Z', now);
    expect(older).not.toMatch(/2026-11-20/);
    expect(older).toMatch(/Nov/);
    expect(fullDate('2026-11-20T10:29:00Z')).toMatch(/2026/);
    expect(relativeDate('not a date', now)).toBe('not a date');
  });

  it('opens Company Prospects from the prospects card with an informational toast', async () => {
    const { user, router } = renderApp('/admin', { signedIn: true });
    await user.click(await screen.findByTestId('card-prospects'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Company Prospects' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/companies');
    expect(screen.getByText('Opening the details.')).toBeInTheDocument();
  });

  it('refreshes every dashboard read and reports success or failure', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/', { signedIn: true });
    await screen.findByTestId('card-prospects');
    const before = requests.filter((r) => r.path === '/api/dashboard/metrics').length;

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Dashboard Refreshed')).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/dashboard/metrics').length).toBe(before + 1);
    expect(requests.some((r) => r.path === '/api/dashboard/regional')).toBe(true);

    server.use(http.get('/api/dashboard/metrics', () => HttpResponse.json({ message: 'db down' }, { status: 500 })));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const alert = (await screen.findByText('Refresh Failed')).closest('[role="alert"]');
    expect(alert).toHaveTextContent('Failed to refresh dashboard data. Please try again.');
    // The figures already shown stay.
    expect(screen.getByTestId('card-prospects')).toBeInTheDocument();
  });

  it("downloads the server's report, or says 'Export Failed'", async () => {
    const downloads = captureDownloads();
    const { user } = renderApp('/', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: HEADING });
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    expect(await screen.findByText('Clean Export Completed')).toBeInTheDocument();
    expect(downloads).toEqual(['business-development-report-2026-01-15.csv']);

    server.use(http.get('/api/dashboard/report', () => new HttpResponse('boom', { status: 500 })));
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    expect(await screen.findByText('Unable to generate report. Please try again.')).toBeInTheDocument();
    expect(downloads).toHaveLength(1);
  });

  it('shows an error state with Retry when the metrics fail', async () => {
    let fail = true;
    server.use(
      http.get('/api/dashboard/metrics', () =>
        fail ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }) : undefined,
      ),
    );
    const { user } = renderApp('/', { signedIn: true });
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('card-prospects')).toHaveTextContent('0'));
  });
});

describe('My Tasks', () => {
  const task = (over: Partial<Task>): Task => ({
    id: `task-${over.title ?? 'x'}`,
    entityType: 'contact',
    entityId: 'ct-1',
    entityName: 'Ann Lee',
    title: 'Call back',
    dueDate: null,
    done: false,
    doneAt: null,
    assignee: 'admin@example.com',
    createdAt: '2026-01-01T00:00:00Z',
    ...over,
  });

  it("lists the user's open tasks across records, soonest due first; ticked, one is done", async () => {
    db.tasks.push(
      task({ title: 'Send the quote', entityType: 'deal', entityId: 'd-9', entityName: 'Harbor showroom', dueDate: '2020-03-01' }),
      task({ title: 'Call back', dueDate: '2999-01-02' }),
      task({ title: 'Old one', done: true, doneAt: '2026-01-02T00:00:00Z' }),
    );
    const { user } = renderApp('/admin', { signedIn: true });
    const list = await screen.findByRole('list', { name: 'My open tasks' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/^Send the quoteHarbor showroom · Overdue since .*2020/),
      expect.stringMatching(/^Call backAnn Lee · Due .*2999/),
    ]);
    expect(within(items[0] as HTMLElement).getByRole('link', { name: 'Harbor showroom' })).toHaveAttribute('href', '/admin/deals/d-9');
    await user.click(within(list).getByRole('checkbox', { name: 'Complete Send the quote' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Task CompletedSend the quote');
    await waitFor(() => expect(within(list).queryByText('Send the quote')).toBeNull());
    expect(db.tasks.find((t) => t.title === 'Send the quote')?.done).toBe(true);
  });
});
