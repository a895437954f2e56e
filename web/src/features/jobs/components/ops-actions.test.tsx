import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { db, makeJob, seedJobs } from '@/testing/mocks/db';
import type { Job } from '@/types/api';
import { recordRequests, server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { BulkActions } from './bulk-actions';
import { JobDetail } from './job-detail';
import { QueueSummary } from './queue-summary';

const noop = () => undefined;

function oneJob(overrides: Partial<Job>): Job {
  const job = makeJob(overrides);
  db.jobs.push(job);
  return job;
}

beforeEach(() => {
  db.signedIn = true;
});

describe('Pause and resume a kind', () => {
  it('pauses a kind, shows it paused, and resumes it', async () => {
    seedJobs(2, { kind: 'discovery_scan', status: 'queued' });
    const requests = recordRequests();
    const { user } = renderWithProviders(<QueueSummary />);

    await user.click(await screen.findByRole('button', { name: 'Pause Discovery scan' }));
    expect(await screen.findByText('paused')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/ops/kinds/discovery_scan/pause')).toBe(true);
    expect(await screen.findByText('Kind paused')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resume Discovery scan' }));
    await waitFor(() => expect(screen.queryByText('paused')).not.toBeInTheDocument());
    expect(db.pausedKinds).toEqual([]);
  });
});

describe('Job detail actions', () => {
  it('runs a scheduled job now', async () => {
    const job = oneJob({ status: 'scheduled', runAt: '2030-01-01T00:00:00Z' });
    const { user } = renderWithProviders(<JobDetail jobId={job.id} onClose={noop} onSelectJob={noop} />);
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    expect(await screen.findByText('Job runs now')).toBeInTheDocument();
    expect(db.jobs[0]?.status).toBe('queued');
    expect(Date.parse(db.jobs[0]?.runAt ?? '')).toBeLessThan(Date.parse('2030-01-01T00:00:00Z'));
  });

  it('deletes only after confirming, then closes', async () => {
    const job = oneJob({ status: 'failed', error: 'boom' });
    let closed = false;
    const { user } = renderWithProviders(
      <JobDetail jobId={job.id} onClose={() => (closed = true)} onSelectJob={noop} />,
    );
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this job?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(db.jobs).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete job' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(db.jobs).toHaveLength(0);
    expect(await screen.findByText('Job deleted')).toBeInTheDocument();
  });

  it('offers no delete for a running job and shows the server refusing other actions', async () => {
    const job = oneJob({ status: 'running' });
    renderWithProviders(<JobDetail jobId={job.id} onClose={noop} onSelectJob={noop} />);
    expect(await screen.findByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run now' })).not.toBeInTheDocument();
  });
});

describe('Job attempts', () => {
  it('lists the payload and every attempt with its run time, outcome and error', async () => {
    const job = oneJob({ status: 'failed', attempts: 2, error: 'timeout' });
    db.attempts[job.id] = [
      { attempt: 1, workerId: 'w-1', startedAt: '2026-01-15T10:00:00Z', finishedAt: '2026-01-15T10:00:02.500Z', outcome: 'retry', error: 'HTTP 503' },
      { attempt: 2, workerId: 'w-2', startedAt: '2026-01-15T10:00:05Z', finishedAt: '2026-01-15T10:00:05.250Z', outcome: 'failed', error: 'timeout' },
    ];
    renderWithProviders(<JobDetail jobId={job.id} onClose={noop} onSelectJob={noop} />);
    const attempts = await screen.findByRole('list', { name: 'Attempts' });
    const items = within(attempts).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('#1 retry');
    expect(items[0]).toHaveTextContent('2.50 s');
    expect(items[0]).toHaveTextContent('HTTP 503');
    expect(items[1]).toHaveTextContent('250 ms');
    expect(screen.getByLabelText('Job payload')).toHaveTextContent('"sleepMs": 1500');
  });
});

describe('Bulk actions over the filter', () => {
  it('retries every failed job of the kind after confirming its scope', async () => {
    seedJobs(2, { kind: 'ai_score', status: 'failed' });
    seedJobs(1, { kind: 'noop', status: 'failed' });
    let body: unknown = null;
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/api/ops/jobs/bulk')) {
        void request
          .clone()
          .json()
          .then((b: unknown) => {
            body = b;
          });
      }
    });
    const { user } = renderWithProviders(<BulkActions kind="ai_score" status="failed" />);
    expect(screen.getByRole('button', { name: 'Retry all' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run all now' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry all?' });
    expect(dialog).toHaveTextContent('Every failed job of kind ai_score will be retried.');
    await user.click(within(dialog).getByRole('button', { name: 'Retry all' }));
    expect(await screen.findByText('2 jobs retried')).toBeInTheDocument();
    expect(body).toEqual({ action: 'retry', kind: 'ai_score', status: 'failed' });
    expect(db.jobs.filter((j) => j.status === 'failed').map((j) => j.kind)).toEqual(['noop']);
  });

  it('shows the server message when a bulk action is refused', async () => {
    server.use(
      http.post('/api/ops/jobs/bulk', () => HttpResponse.json({ message: 'The queue is busy: try again' }, { status: 422 })),
    );
    const { user } = renderWithProviders(<BulkActions kind="voice_call" status="" />);
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Every succeeded, failed, cancelled job of kind voice_call will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete all' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The queue is busy: try again');
  });
});
