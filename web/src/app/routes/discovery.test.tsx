import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { db, seedJobs } from '@/testing/mocks/db';
import { recordRequests } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import type { Job } from '@/types/api';

const form = () => screen.getByRole('form', { name: 'Discovery search' });

const finish = (id: string, patch: Partial<Job>) => {
  const job = db.jobs.find((j) => j.id === id);
  if (!job) throw new Error(`no job ${id}`);
  Object.assign(job, { finishedAt: new Date().toISOString(), ...patch });
};

const RESULT = {
  companies: [
    { id: 'c1', name: 'Lone Star Baths', city: 'Dallas', state: 'TX', score: 86, isNew: true },
    { id: 'c2', name: 'Bayou Remodel', city: 'New Orleans', state: 'LA', score: 55, isNew: false },
  ],
  contacts: [
    { id: 'p1', companyId: 'c1', firstName: 'Ana', lastName: 'Reyes', title: 'CEO', score: 90, isNew: true },
    { id: 'p2', companyId: 'c1', firstName: 'Bo', lastName: 'King', title: 'Sales Manager', score: 70, isNew: true },
    { id: 'p3', companyId: 'c2', firstName: 'Cy', lastName: 'Doe', title: null, score: 40, isNew: false },
  ],
  marketIntelligence: null,
  territoryInsights: null,
  budgetExhausted: false,
};

describe('Prospect Discovery', () => {
  it("asks for all three parameters without a company name, and for a real place, before calling the server", async () => {
    const requests = recordRequests();
    const { user } = renderApp('/admin/discovery', { signedIn: true });
    await user.selectOptions(await screen.findByLabelText('Target region'), 'texas');
    await user.click(within(form()).getByRole('button', { name: 'Start Discovery' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Missing ParametersPlease select all search parameters or enter a company name to search.',
    );
    await user.type(screen.getByLabelText('Company name (optional)'), 'Lone Star');
    await user.type(screen.getByLabelText(/City \/ state/), '12345');
    await user.click(screen.getByRole('button', { name: 'Start Discovery' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invalid City/State'));
    expect(requests.filter((r) => r.path === '/api/discovery/scan')).toHaveLength(0);
  });

  it('follows the scan with a progress bar, then shows what it found and says so', async () => {
    const { user, router } = renderApp('/admin/discovery', { signedIn: true });
    await user.selectOptions(await screen.findByLabelText('Target region'), 'texas');
    await user.selectOptions(screen.getByLabelText('Revenue range'), '5-10M');
    await user.selectOptions(screen.getByLabelText('Company type'), 'accessible-bath');
    await user.type(screen.getByLabelText(/City \/ state/), 'Dallas Texas');
    await user.click(screen.getByRole('switch', { name: 'Market Intelligence' }));
    expect(screen.getByRole('list', { name: 'Enhanced analysis preview' })).toHaveTextContent('Market Intelligence');
    await user.click(screen.getByRole('button', { name: 'Start Discovery' }));

    const bar = await screen.findByRole('progressbar', { name: 'Discovery progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '5'));
    expect(screen.getByRole('button', { name: 'Scanning...' })).toBeDisabled();
    expect(db.scans[0]).toMatchObject({ city: 'Dallas', state: 'TX', marketIntelligence: true, enhancedMode: true });
    const id = router.state.location.search.replace('?job=', '');
    expect(id).not.toBe('');

    const job = db.jobs.find((j) => j.id === id);
    if (job) job.progress = { percent: 60, message: 'Saving results: 2 companies, 3 contacts' };
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '60'));
    expect(bar).toHaveAttribute('aria-valuetext', '60% — Saving results: 2 companies, 3 contacts');

    finish(id, { status: 'succeeded', result: RESULT });
    expect(await screen.findByRole('status')).toHaveTextContent('Discovery CompleteFound 2 companies and 3 contacts');
    const results = screen.getByRole('region', { name: 'Discovery results' });
    expect(within(results).getByRole('rowheader', { name: /Lone Star Baths/ })).toBeInTheDocument();
    await user.click(within(results).getByRole('button', { name: '2 contacts of Lone Star Baths' }));
    const people = within(results).getByRole('list', { name: 'Contacts of Lone Star Baths' });
    expect(people).toHaveTextContent('Ana Reyes');
    expect(people).toHaveTextContent('Executive');
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Start Discovery' })).toBeEnabled();
  }, 15_000);

  it('says No Results Found when the scan found nothing, and Discovery Failed with the reason', async () => {
    const { user, router } = renderApp('/admin/discovery', { signedIn: true });
    await user.type(await screen.findByLabelText('Company name (optional)'), 'Nowhere Co');
    await user.click(screen.getByRole('button', { name: 'Start Discovery' }));
    await screen.findByRole('progressbar', { name: 'Discovery progress' });
    const first = router.state.location.search.replace('?job=', '');
    finish(first, { status: 'succeeded', result: { ...RESULT, companies: [], contacts: [] } });
    expect(await screen.findByRole('status')).toHaveTextContent('No Results Found');

    await user.click(screen.getByRole('button', { name: 'Start Discovery' }));
    await waitFor(() => expect(router.state.location.search).not.toBe(`?job=${first}`));
    const second = router.state.location.search.replace('?job=', '');
    finish(second, { status: 'failed', error: 'discovery provider unavailable: 503' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Discovery Faileddiscovery provider unavailable: 503');
  }, 15_000);

  it('finds the running scan again after a reload, and can cancel it', async () => {
    const [running] = seedJobs(1, {
      kind: 'discovery_scan',
      status: 'running',
      progress: { percent: 40, message: 'Saving results: 4 companies, 9 contacts' },
    });
    const { user, router } = renderApp('/admin/discovery', { signedIn: true });
    await waitFor(() => expect(router.state.location.search).toBe(`?job=${running?.id}`));
    const bar = await screen.findByRole('progressbar', { name: 'Discovery progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'));
    expect(screen.getByRole('button', { name: 'Scanning...' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancel scan' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Discovery Cancelled');
    expect(screen.getByRole('button', { name: 'Start Discovery' })).toBeEnabled();
  }, 15_000);

  it('says nothing when a finished scan is reopened', async () => {
    const [done] = seedJobs(1, { kind: 'discovery_scan', status: 'succeeded', result: RESULT });
    renderApp(`/admin/discovery?job=${done?.id}`, { signedIn: true });
    expect(await screen.findByRole('region', { name: 'Discovery results' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
