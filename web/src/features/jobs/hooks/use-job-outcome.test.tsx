import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createQueryClient } from '@/app/query-client';
import { ApiError } from '@/lib/api-client';
import { makeJob } from '@/testing/mocks/db';
import { recordRequests, server } from '@/testing/mocks/server';
import type { Job, JobStatus } from '@/types/api';

import { useJobOutcome, type JobOutcomeOptions } from './use-job-outcome';

const ID = '01JOUTCOME0000000000000001';
const KEYS = [['contacts'], ['automation', 'overview']];

/** Serves the job with each status in turn (the last one from then on). */
function serveStatuses(...statuses: JobStatus[]): { served: () => number } {
  let served = 0;
  server.use(
    http.get('/api/jobs/:id', ({ params }) => {
      const status = statuses[Math.min(served, statuses.length - 1)];
      served += 1;
      const job = makeJob({ id: String(params.id), status, error: status === 'failed' ? 'Provider unavailable' : null });
      return HttpResponse.json(status === 'succeeded' ? { ...job, result: { scored: 3 } } : job);
    }),
  );
  return { served: () => served };
}

function follow(jobId: string | null, options: JobOutcomeOptions, queryClient: QueryClient = createQueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook((props: { jobId: string | null; options: JobOutcomeOptions }) => useJobOutcome(props.jobId, props.options), {
    wrapper,
    initialProps: { jobId, options },
  });
  return { ...view, queryClient };
}

const tick = () => act(() => vi.advanceTimersByTimeAsync(1000));

describe('useJobOutcome', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows a job queued → running → succeeded, calls onDone once and invalidates the keys', async () => {
    const { served } = serveStatuses('queued', 'running', 'succeeded');
    const queryClient = createQueryClient();
    for (const key of KEYS) queryClient.setQueryData(key, 'before');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const onDone = vi.fn<(job: Job) => void>();
    const onError = vi.fn<(error: Error) => void>();

    const { result, rerender } = follow(ID, { onDone, onError, invalidate: KEYS }, queryClient);

    await waitFor(() => expect(result.current.data?.status).toBe('queued'));
    expect(onDone).not.toHaveBeenCalled();
    await tick();
    await waitFor(() => expect(result.current.data?.status).toBe('running'));
    expect(onDone).not.toHaveBeenCalled();
    expect(invalidate).not.toHaveBeenCalled();
    await tick();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));

    const job = onDone.mock.calls[0]?.[0];
    expect(job?.id).toBe(ID);
    expect(job?.status).toBe('succeeded');
    expect(job?.result).toEqual({ scored: 3 });
    expect(result.current.data?.status).toBe('succeeded');
    expect(invalidate).toHaveBeenCalledTimes(KEYS.length);
    for (const key of KEYS) {
      expect(invalidate).toHaveBeenCalledWith({ queryKey: key });
      expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    }

    // Terminal: polling stops, and new callbacks or re-renders do not report it again.
    const laterDone = vi.fn();
    rerender({ jobId: ID, options: { onDone: laterDone, onError, invalidate: KEYS } });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(served()).toBe(3);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(laterDone).not.toHaveBeenCalled();
    expect(invalidate).toHaveBeenCalledTimes(KEYS.length);
    expect(onError).not.toHaveBeenCalled();
  });

  it('calls onDone with the failed job, its error included', async () => {
    serveStatuses('running', 'failed');
    const onDone = vi.fn<(job: Job) => void>();
    const onError = vi.fn<(error: Error) => void>();
    follow(ID, { onDone, onError, invalidate: KEYS });

    await tick();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(onDone.mock.calls[0]?.[0]).toMatchObject({ id: ID, status: 'failed', error: 'Provider unavailable' });
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
  });

  it('calls onError once when the job cannot be read (404), and stops polling', async () => {
    server.use(http.get('/api/jobs/:id', () => HttpResponse.json({ message: 'Job not found' }, { status: 404 })));
    const requests = recordRequests();
    const onDone = vi.fn<(job: Job) => void>();
    const onError = vi.fn<(error: Error) => void>();
    const { result } = follow(ID, { onDone, onError });

    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    const error = onError.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(result.current.isError).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onDone).not.toHaveBeenCalled();
    expect(requests.filter((r) => r.path === `/api/jobs/${ID}`)).toHaveLength(1);
  });

  it('follows nothing for a null id, then the job it is given', async () => {
    serveStatuses('succeeded');
    const requests = recordRequests();
    const onDone = vi.fn<(job: Job) => void>();
    const { result, rerender } = follow(null, { onDone });

    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(requests).toHaveLength(0);
    expect(result.current.data).toBeUndefined();
    expect(onDone).not.toHaveBeenCalled();

    rerender({ jobId: ID, options: { onDone } });
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(onDone.mock.calls[0]?.[0].id).toBe(ID);
  });
});
