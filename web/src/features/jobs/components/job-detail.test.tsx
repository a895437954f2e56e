import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { db, makeJob, seedJobs } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';
import type { Job } from '@/types/api';

import { JobDetail } from './job-detail';

const noop = () => undefined;

function renderDetail(jobId: string, onSelectJob: (id: string) => void = noop) {
  return renderWithProviders(<JobDetail jobId={jobId} onClose={noop} onSelectJob={onSelectJob} />);
}

const jobGets = (requests: ReturnType<typeof recordRequests>, id: string) =>
  requests.filter((r) => r.method === 'GET' && r.path === `/api/jobs/${id}`).length;

describe('JobDetail polling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    db.signedIn = true;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every second while live and stops once the status is terminal', async () => {
    const id = '01JPOLL0000000000000000001';
    const base = makeJob({ id, status: 'queued' });
    const script: Job[] = [
      base,
      { ...base, status: 'running', attempts: 1, startedAt: '2026-01-15T10:00:01Z', progress: { percent: 40, message: 'Scanning Dallas, TX' } },
      { ...base, status: 'running', attempts: 1, startedAt: '2026-01-15T10:00:01Z', progress: { percent: 80, message: 'Scanning Austin, TX' } },
      {
        ...base,
        status: 'succeeded',
        attempts: 1,
        startedAt: '2026-01-15T10:00:01Z',
        finishedAt: '2026-01-15T10:00:03Z',
        progress: { percent: 100, message: 'Done' },
        result: { scanned: 2 },
      },
    ];
    let served = 0;
    server.use(
      http.get('/api/jobs/:id', () => {
        const job = script[Math.min(served, script.length - 1)];
        served += 1;
        return HttpResponse.json(job);
      }),
    );
    const requests = recordRequests();
    renderDetail(id);

    expect(await screen.findByText('queued')).toBeInTheDocument();
    expect(jobGets(requests, id)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    await screen.findByText('running');
    const bar = screen.getByRole('progressbar', { name: 'Job progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('Scanning Dallas, TX')).toBeInTheDocument();
    expect(screen.getByText('Scanning Dallas, TX').closest('[aria-live]')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() =>
      expect(screen.getByRole('progressbar', { name: 'Job progress' })).toHaveAttribute('aria-valuenow', '80'),
    );

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('succeeded')).toBeInTheDocument();
    expect(jobGets(requests, id)).toBe(4);
    expect(screen.getByLabelText('Job result')).toHaveTextContent('"scanned": 2');

    // Terminal: no further requests, however long we wait.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(jobGets(requests, id)).toBe(4);
    expect(served).toBe(4);
  });

  it('stops polling when the job does not exist', async () => {
    const requests = recordRequests();
    renderDetail('01JMISSING000000000000000');
    expect(await screen.findByRole('alert')).toHaveTextContent('Job not found');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(jobGets(requests, '01JMISSING000000000000000')).toBe(1);
  });
});

describe('JobDetail actions', () => {
  beforeEach(() => {
    db.signedIn = true;
  });

  it('cancels a running job through POST /api/ops/jobs/{id}/cancel, then retries it', async () => {
    const [job] = seedJobs(1, { status: 'running', attempts: 1, progress: { percent: 10, message: 'Working' } });
    if (!job) throw new Error('no job');
    const requests = recordRequests();
    const { user } = renderDetail(job.id);

    expect(await screen.findByText('running')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('cancelled')).toBeInTheDocument();
    expect(requests).toContainEqual({ method: 'POST', path: `/api/ops/jobs/${job.id}/cancel`, search: '' });
    expect(requests.some((r) => r.path.endsWith('/retry'))).toBe(false);
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('queued')).toBeInTheDocument();
    expect(requests).toContainEqual({ method: 'POST', path: `/api/ops/jobs/${job.id}/retry`, search: '' });
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('shows a failed job with its error and only a Retry button', async () => {
    const [job] = seedJobs(1, { status: 'failed', attempts: 3, error: 'noop: asked to fail' });
    if (!job) throw new Error('no job');
    renderDetail(job.id);
    expect(await screen.findByText('noop: asked to fail')).toBeInTheDocument();
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('offers no action on a succeeded job', async () => {
    const [job] = seedJobs(1, { status: 'succeeded', attempts: 1, result: { ok: true } });
    if (!job) throw new Error('no job');
    renderDetail(job.id);
    expect(await screen.findByText('succeeded')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Job progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('shows the server message when cancel is refused (409)', async () => {
    const [job] = seedJobs(1, { status: 'queued' });
    if (!job) throw new Error('no job');
    server.use(
      http.post('/api/ops/jobs/:id/cancel', () =>
        HttpResponse.json({ message: 'Job already finished' }, { status: 409 }),
      ),
    );
    const { user } = renderDetail(job.id);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Job already finished');
  });

  it('follows the new job when a retry returns another id', async () => {
    const [job] = seedJobs(1, { status: 'failed' });
    if (!job) throw new Error('no job');
    server.use(
      http.post('/api/ops/jobs/:id/retry', () =>
        HttpResponse.json({ jobId: '01JNEWJOB0000000000000000', status: 'queued' }, { status: 202 }),
      ),
    );
    const onSelectJob = vi.fn();
    const user = userEvent.setup();
    renderDetail(job.id, onSelectJob);
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(onSelectJob).toHaveBeenCalledWith('01JNEWJOB0000000000000000'));
  });
});
