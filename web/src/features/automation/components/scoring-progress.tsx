import { ProgressBar } from '@/components/ui/progress-bar';
import type { Job } from '@/types/api';

/** How far the bulk scoring job has got. */
export function ScoringProgress({ job }: { job: Job | undefined }) {
  return (
    <ProgressBar
      label="Bulk scoring progress"
      percent={job?.status === 'succeeded' ? 100 : (job?.progress?.percent ?? 0)}
      message={job?.progress?.message ?? job?.status ?? 'queued'}
    />
  );
}
