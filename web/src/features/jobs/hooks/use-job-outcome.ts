import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef } from 'react';

import { isTerminalStatus, type Job } from '@/types/api';

import { getJobQueryOptions } from '../api/get-job';

export type JobOutcomeOptions = {
  /**
   * Called once when the job has ended: succeeded, failed or cancelled (read `job.status` to
   * choose the message).
   */
  onDone?: (job: Job) => void;
  /** Called once if the job cannot be read (e.g. 404); polling then stops. */
  onError?: (error: Error) => void;
  /**
   * Queries the job may have changed: invalidated once when following it stops, whatever the
   * outcome (a failed or cancelled job may have done part of its work; an unreadable one may have
   * done all of it).
   */
  invalidate?: readonly QueryKey[];
};

/**
 * Follows a job (`GET /api/jobs/{id}`, polled every second while the tab is visible) until it ends,
 * then refreshes what it may have changed and calls back once. `null` follows nothing. Returns the
 * job's query, for progress; the callbacks are read when they fire, so they need not be memoised.
 */
export function useJobOutcome(jobId: string | null | undefined, { onDone, onError, invalidate = [] }: JobOutcomeOptions = {}) {
  const queryClient = useQueryClient();
  const job = useQuery({ ...getJobQueryOptions(jobId ?? ''), enabled: Boolean(jobId) });
  // The job already reported, so a re-render (or Strict Mode's second effect) does not report it again.
  const reported = useRef<string | null>(null);

  const report = useEffectEvent((outcome: { job: Job } | { error: Error }) => {
    for (const queryKey of invalidate) void queryClient.invalidateQueries({ queryKey });
    if ('job' in outcome) onDone?.(outcome.job);
    else onError?.(outcome.error);
  });

  const { data, error } = job;
  useEffect(() => {
    if (!jobId) {
      reported.current = null;
      return;
    }
    if (reported.current === jobId) return;
    if (data && isTerminalStatus(data.status)) {
      reported.current = jobId;
      report({ job: data });
    } else if (error) {
      reported.current = jobId;
      report({ error });
    }
  }, [jobId, data, error]);

  return job;
}
