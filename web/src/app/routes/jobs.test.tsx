import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chooseOption } from '@/testing/select';
import { db, seedJobs } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const jobsListRegion = () => screen.getByRole('region', { name: 'Jobs' });

describe('Jobs page: workers and audit', () => {
  it('shows each worker alive or silent, and the actions taken, newest first', async () => {
    seedJobs(1, { kind: 'noop', status: 'queued' });
    db.workers = [
      {
        id: 'w1',
        hostname: 'app-1',
        pid: 4242,
        kinds: ['noop', 'ai_score'],
        concurrency: 16,
        startedAt: '2026-01-15T09:00:00Z',
        heartbeatAt: new Date().toISOString(),
        alive: true,
        runningJobs: 3,
      },
      {
        id: 'w2',
        hostname: 'app-2',
        pid: 7,
        kinds: ['noop'],
        concurrency: 4,
        startedAt: '2026-01-15T08:00:00Z',
        heartbeatAt: '2026-01-15T08:05:00Z',
        alive: false,
        runningJobs: 0,
      },
    ];
    const { user } = renderApp('/admin/ops', { signedIn: true });
    const alive = await screen.findByRole('listitem', { name: 'Worker app-1:4242' });
    expect(alive).toHaveTextContent('alive');
    expect(alive).toHaveTextContent('3 running');
    expect(screen.getByRole('listitem', { name: 'Worker app-2:7' })).toHaveTextContent('silent');
    expect(await screen.findByText('No actions yet.')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Pause Test job' }));
    const entries = await screen.findByRole('list', { name: 'Audit entries' });
    expect(await within(entries).findByText('kind.pause')).toBeInTheDocument();
    expect(entries).toHaveTextContent('admin@example.com');
  });
});

describe('Jobs page: search', () => {
  it('finds jobs by text in their error, kept in the address', async () => {
    seedJobs(2, { status: 'succeeded' });
    seedJobs(1, { status: 'failed', error: 'SMTP 451 greylisted' });
    const { user, router } = renderApp('/admin/ops', { signedIn: true });
    expect(await screen.findByText('Total: 3')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Payload or error'), 'greylisted');
    expect(await screen.findByText('Total: 1')).toBeInTheDocument();
    expect(router.state.location.search).toContain('q=greylisted');
  });
});

describe('Jobs page', () => {
  it('redirects /admin/jobs to the admin login without a session', async () => {
    const { router } = renderApp('/admin/ops');
    expect(await screen.findByRole('form', { name: 'Admin login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it("sends /jobs without a session to the users' sign-in page", async () => {
    const { router } = renderApp('/jobs');
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('lists jobs with the total from X-Total-Count and pages by 50', async () => {
    seedJobs(60);
    const requests = recordRequests();
    const { user } = renderApp('/admin/ops', { signedIn: true });

    expect(await screen.findByText('Total: 60')).toBeInTheDocument();
    const table = within(jobsListRegion()).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(51); // header + 50
    expect(screen.getByText('Showing 1–50 of 60')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/ops/jobs')?.search).toBe('?limit=50&offset=0');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 51–60 of 60')).toBeInTheDocument();
    expect(within(within(jobsListRegion()).getByRole('table')).getAllByRole('row')).toHaveLength(11);
    expect(requests.some((r) => r.path === '/api/ops/jobs' && r.search === '?limit=50&offset=50')).toBe(true);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('trusts X-Total-Count over the number of rows', async () => {
    server.use(
      http.get('/api/ops/jobs', () =>
        HttpResponse.json([], { headers: { 'X-Total-Count': '1234' } }),
      ),
    );
    renderApp('/admin/ops', { signedIn: true });
    expect(await screen.findByText('Total: 1,234')).toBeInTheDocument();
  });

  it('filters by kind and status', async () => {
    seedJobs(3, { status: 'succeeded' });
    const [failed] = seedJobs(1, { status: 'failed', error: 'boom' });
    seedJobs(2, { kind: 'email_send', status: 'queued' });
    const requests = recordRequests();
    const { user, router } = renderApp('/admin/ops', { signedIn: true });
    expect(await screen.findByText('Total: 6')).toBeInTheDocument();

    await chooseOption(user, screen.getByLabelText('Status'), 'failed');
    expect(await screen.findByText('Total: 1')).toBeInTheDocument();
    expect(requests.some((r) => r.search === '?status=failed&limit=50&offset=0')).toBe(true);
    expect(within(jobsListRegion()).getByRole('button', { name: failed?.id })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=failed');

    await chooseOption(user, screen.getByLabelText('Status'), 'All statuses');
    // Kinds read as words; the kind's name stays under them for the CLI and the API.
    // The kind's human label; the address keeps its stable name.
    await chooseOption(user, await screen.findByLabelText('Kind'), 'Email to a contact');
    expect(await screen.findByText('Total: 2')).toBeInTheDocument();
    const row = within(jobsListRegion()).getAllByRole('row')[1];
    expect(row).toHaveTextContent('Email to a contactemail_send');
    expect(requests.some((r) => r.search === '?kind=email_send&limit=50&offset=0')).toBe(true);
  });

  it('offers bulk actions for a kind the server knows, none for another', async () => {
    seedJobs(1, { status: 'failed' });
    const first = renderApp('/admin/ops?kind=noop', { signedIn: true });
    expect(await screen.findByText(/^Total: /)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Bulk actions' })).toBeInTheDocument();
    first.unmount();

    renderApp('/admin/ops?kind=gone', { signedIn: true });
    expect(await screen.findByText(/^Total: /)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('shows the queue summary per kind', async () => {
    seedJobs(2, { status: 'succeeded' });
    seedJobs(1, { status: 'failed' });
    renderApp('/admin/ops', { signedIn: true });
    const queues = await screen.findByRole('table', { name: 'Queues' });
    const row = await within(queues).findByRole('row', { name: /^Test job/ });
    const cells = within(row).getAllByRole('cell');
    // queued, scheduled, running, retrying, succeeded, failed, cancelled
    expect(cells.slice(0, 7).map((c) => c.textContent)).toEqual(['0', '0', '0', '0', '2', '1', '0']);
  });

  it('refreshes the list while the page is open', async () => {
    const [job] = seedJobs(1, { status: 'queued' });
    renderApp('/admin/ops', { signedIn: true });
    const row = await screen.findByRole('row', { name: new RegExp(job?.id ?? 'x') });
    expect(within(row).getByText('queued')).toBeInTheDocument();

    if (job) job.status = 'succeeded';
    await waitFor(
      () => expect(within(screen.getByRole('row', { name: new RegExp(job?.id ?? 'x') })).getByText('succeeded')).toBeInTheDocument(),
      { timeout: 3500 },
    );
  });

  it('runs a test noop job and follows it in the detail panel', async () => {
    let posted: unknown;
    server.use(
      http.post('/api/ops/jobs', async ({ request }) => {
        posted = await request.clone().json();
        return undefined;
      }),
    );
    const { user, router } = renderApp('/admin/ops', { signedIn: true });
    await screen.findByText('Total: 0');

    const form = screen.getByRole('form', { name: 'Run test job' });
    await user.clear(within(form).getByLabelText('Sleep (ms)'));
    await user.type(within(form).getByLabelText('Sleep (ms)'), '1500');
    await user.clear(within(form).getByLabelText('Steps'));
    await user.type(within(form).getByLabelText('Steps'), '3');
    await user.click(within(form).getByRole('button', { name: 'Run test job' }));

    const panel = await screen.findByRole('region', { name: 'Job details' });
    expect(posted).toEqual({ kind: 'noop', payload: { sleepMs: 1500, steps: 3 } });
    const created = db.jobs[0];
    expect(created).toBeDefined();
    expect(panel).toHaveAttribute('data-job-id', created?.id);
    expect(router.state.location.search).toBe(`?job=${created?.id ?? ''}`);
    expect(await within(panel).findByText('queued')).toBeInTheDocument();
    expect(await screen.findByText('Total: 1')).toBeInTheDocument();
    expect(screen.getByText('Test job queued')).toBeInTheDocument();
  });

  it('rejects a bad test-job form without calling the server', async () => {
    const requests = recordRequests();
    const { user } = renderApp('/admin/ops', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Run test job' });
    await user.clear(within(form).getByLabelText('Steps'));
    await user.type(within(form).getByLabelText('Steps'), '-2');
    await user.click(within(form).getByRole('button', { name: 'Run test job' }));
    expect(within(form).getByText('Enter a whole number of 0 or more')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('opens the detail panel when a job is selected', async () => {
    const [job] = seedJobs(1, { status: 'failed', attempts: 3, error: 'exploded' });
    if (!job) throw new Error('no job');
    const { user } = renderApp('/admin/ops', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: job.id }));
    const panel = await screen.findByRole('region', { name: 'Job details' });
    expect(await within(panel).findByText('exploded')).toBeInTheDocument();
    expect(within(panel).getByText('3 / 3')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Close job details' }));
    expect(screen.queryByRole('region', { name: 'Job details' })).not.toBeInTheDocument();
  });
});

describe('Ops page: the last hour', () => {
  it('charts what finished, for all kinds or one, with the failure rate', async () => {
    const recent = new Date(Date.now() - 5 * 60_000).toISOString();
    seedJobs(3, { kind: 'noop', status: 'succeeded', finishedAt: recent });
    seedJobs(1, { kind: 'noop', status: 'failed', finishedAt: recent });
    seedJobs(2, { kind: 'email_send', status: 'succeeded', finishedAt: recent });
    // Finished two hours ago: not in the last hour.
    seedJobs(5, { kind: 'noop', status: 'failed', finishedAt: new Date(Date.now() - 7_200_000).toISOString() });
    const { user } = renderApp('/admin/ops', { signedIn: true });
    const summary = await screen.findByTestId('history-summary');
    expect(summary).toHaveTextContent('6 finished, 16.7 % failed in the last hour.');
    await chooseOption(user, screen.getByRole('combobox', { name: 'Chart kind' }), 'Test job');
    expect(summary).toHaveTextContent('4 finished, 25.0 % failed in the last hour.');
  });

  it('keeps the job and the filters when an old /jobs address is opened', async () => {
    const id = seedJobs(1, { kind: 'noop', status: 'failed' })[0]?.id ?? '';
    const { router } = renderApp(`/admin/jobs?job=${id}&status=failed`, { signedIn: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/ops'));
    expect(router.state.location.search).toBe(`?job=${id}&status=failed`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ops' })).toBeInTheDocument();
  });
});
