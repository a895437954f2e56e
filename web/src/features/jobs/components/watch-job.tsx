import { useEffect, useRef } from 'react';

import { isTerminalStatus, type Job } from '@/types/api';

import { useJob } from '../api/get-job';

type WatchJobProps = {
  jobId: string;
  /** Called once, when the job succeeds, fails or is cancelled. */
  onFinish: (job: Job) => void;
  /** Called once if the job cannot be read. */
  onError: (error: Error) => void;
};

/** Polls a job (GET /api/jobs/{id}) until it ends and reports the outcome; renders nothing. */
export function WatchJob({ jobId, onFinish, onError }: WatchJobProps) {
  const job = useJob(jobId);
  const reported = useRef(false);
  useEffect(() => {
    if (reported.current) return;
    if (job.data && isTerminalStatus(job.data.status)) {
      reported.current = true;
      onFinish(job.data);
    } else if (job.error) {
      reported.current = true;
      onError(job.error);
    }
  }, [job.data, job.error, onFinish, onError]);
  return null;
}
