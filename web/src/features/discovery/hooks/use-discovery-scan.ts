import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { isTerminalStatus } from '@/types/api';

import { useActiveScan } from '../api/find-active-scan';
import { useStartScan } from '../api/start-scan';
import { DISCOVERY_FAILED_DEFAULT, type ScanResult } from '../components/scan-progress';

/**
 * The discovery scan the page shows: a job kept in the address (`?job=`), found again after a
 * reload while it still runs, and followed until it ends (`ScanProgress` announces the end).
 */
export function useDiscoveryScan() {
  const [searchParams, setSearchParams] = useSearchParams();
  const jobId = searchParams.get('job');
  const setJob = useCallback(
    (id: string) =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set('job', id);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  // A reload without ?job= finds the scan still running.
  const active = useActiveScan(!jobId);
  useEffect(() => {
    if (!jobId && active.data) setJob(active.data.id);
  }, [jobId, active.data, setJob]);

  // The scan's job, for the button and the results.
  const job = useJobOutcome(jobId);
  const scanning = Boolean(jobId) && !isTerminalStatus(job.data?.status);
  const result = jobId && job.data?.status === 'succeeded' ? (job.data.result as ScanResult | null) : null;

  const start = useStartScan({
    onSuccess: (accepted) => setJob(accepted.jobId),
    onError: (error) => {
      const body = error instanceof ApiError ? (error.body as { title?: string } | null) : null;
      toast({
        title: body?.title ?? 'Discovery Failed',
        description: (error instanceof ApiError && error.serverMessage) || DISCOVERY_FAILED_DEFAULT,
        variant: 'destructive',
      });
    },
  });

  return {
    jobId,
    result,
    /** A scan is being started or running. */
    pending: start.isPending || scanning,
    /** The scan shown was started from this page (not found again after a reload). */
    startedHere: jobId !== null && start.data?.jobId === jobId,
    start: start.mutate,
  };
}
