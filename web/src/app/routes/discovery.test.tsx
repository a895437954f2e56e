import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { db, makeCompany, seedJobs } from '@/testing/mocks/db';
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
    await chooseOption(user, await screen.findByLabelText('Target region'), 'Texas');
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
    await chooseOption(user, await screen.findByLabelText('Target region'), 'Texas');
    await chooseOption(user, screen.getByLabelText('Revenue range'), '$5-10M');
    await chooseOption(user, screen.getByLabelText('Company type'), 'Accessible Bath');
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

  it('shows the results as a table: current revenue (edited in place), industry, compatibility, High Potential; sorts and hides columns', async () => {
    makeCompany({ id: 'c1', name: 'Lone Star Baths', industry: 'Accessible bath', revenue: '7500000', score: 86, competitorAlignment: 80, competitiveAnalysis: { partnershipOpportunity: 91 } });
    makeCompany({ id: 'c2', name: 'Bayou Remodel', industry: 'Kitchen', revenue: null, score: 55, competitorAlignment: 52, competitiveAnalysis: { partnershipOpportunity: 60 } });
    const [done] = seedJobs(1, { kind: 'discovery_scan', status: 'succeeded', result: RESULT });
    const { user } = renderApp(`/admin/discovery?job=${done?.id}`, { signedIn: true });
    const results = await screen.findByRole('region', { name: 'Discovery results' });
    const table = within(results).getByRole('table');
    const names = () => within(table).getAllByRole('rowheader').map((h) => within(h).getByRole('link').textContent);
    const lone = await within(table).findByRole('row', { name: /Lone Star Baths/ });
    await waitFor(() => expect(lone).toHaveTextContent('$7.5M'));
    expect(lone).toHaveTextContent('Accessible bath');
    expect(lone).toHaveTextContent('High Potential');
    expect(lone).toHaveTextContent('High');
    const bayou = within(table).getByRole('row', { name: /Bayou Remodel/ });
    expect(bayou).toHaveTextContent('Medium');
    expect(bayou).not.toHaveTextContent('High Potential');
    expect(within(lone).getByRole('link', { name: 'Lone Star Baths' })).toHaveAttribute('href', '/admin/companies/c1');

    // Best score first; by name ascending, then descending.
    expect(names()).toEqual(['Lone Star Baths', 'Bayou Remodel']);
    await user.click(within(table).getByRole('button', { name: /Company/ }));
    expect(within(table).getByRole('columnheader', { name: /Company/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual(['Bayou Remodel', 'Lone Star Baths']);
    await user.click(within(table).getByRole('button', { name: /Company/ }));
    expect(names()).toEqual(['Lone Star Baths', 'Bayou Remodel']);

    // Revenue in place: a bad figure is refused on the spot; Enter saves whole dollars.
    await user.click(within(bayou).getByRole('button', { name: 'Not disclosed: edit revenue of Bayou Remodel' }));
    const input = within(bayou).getByLabelText('Revenue of Bayou Remodel (USD)');
    await user.type(input, '12.5M{Enter}');
    expect(input).toHaveAccessibleDescription('Enter the revenue as a whole number of dollars');
    await user.clear(input);
    await user.type(input, '$12,500,000{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Company Updated');
    expect(db.companies.find((c) => c.id === 'c2')?.revenue).toBe('12500000');
    await waitFor(() => expect(within(table).getByRole('row', { name: /Bayou Remodel/ })).toHaveTextContent('$12.5M'));
    // Escape leaves the figure as it was.
    await user.click(within(table).getByRole('button', { name: '$7.5M: edit revenue of Lone Star Baths' }));
    await user.type(within(table).getByLabelText('Revenue of Lone Star Baths (USD)'), '1{Escape}');
    expect(db.companies.find((c) => c.id === 'c1')?.revenue).toBe('7500000');

    // Columns: hidden ones leave the table, and stay hidden on the next visit.
    await user.click(within(results).getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: /Industry/ }));
    await user.keyboard('{Escape}');
    expect(within(table).queryByRole('columnheader', { name: /Industry/ })).toBeNull();
    expect(JSON.parse(localStorage.getItem('prospector.columns.discovery-results') ?? '[]')).toEqual(['industry']);
  }, 20_000);

  it('says nothing when a finished scan is reopened', async () => {
    const [done] = seedJobs(1, { kind: 'discovery_scan', status: 'succeeded', result: RESULT });
    renderApp(`/admin/discovery?job=${done?.id}`, { signedIn: true });
    expect(await screen.findByRole('region', { name: 'Discovery results' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
