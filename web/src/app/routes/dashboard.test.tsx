import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { captureDownloads } from '@/testing/downloads';
import { makeCompany, makeDeal, makeMeeting } from '@/testing/mocks/db';
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
