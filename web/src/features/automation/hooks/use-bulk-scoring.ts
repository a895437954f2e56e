import { useState } from 'react';

import { contactsKeys } from '@/features/contacts/api/query-keys';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Job } from '@/types/api';

import { useBulkAiScore } from '../api/bulk-ai-score';
import { automationKeys } from '../api/query-keys';

type ScoreResult = { scored: number; highValueCount: number; averageScore: number };

/**
 * Bulk AI scoring: starts the job, follows it, reports the outcome and refreshes the automation
 * figures and the contacts. `jobId` is the job while it runs, `job` its progress.
 */
export function useBulkScoring() {
  const [scoringJob, setScoringJob] = useState<string | null>(null);

  const score = useBulkAiScore({
    onSuccess: (a) => {
      if (a.jobId) setScoringJob(a.jobId);
      else toast({ title: 'Nothing to Score', description: a.message });
    },
    onError: (e) => toast({ title: 'Scoring Failed', description: serverMessageOr(e, 'Failed to score contacts'), variant: 'destructive' }),
  });
  const scored = (job: Job) => {
    setScoringJob(null);
    if (job.status !== 'succeeded') {
      toast({ title: 'Scoring Failed', description: job.error ?? `The scoring was ${job.status}.`, variant: 'destructive' });
      return;
    }
    const r = job.result as ScoreResult;
    toast({
      title: 'Bulk Scoring Complete',
      description: `${r.scored} contacts scored, ${r.highValueCount} high-value (85+), average ${r.averageScore}.`,
      variant: 'success',
    });
  };
  const scoring = useJobOutcome(scoringJob, {
    onDone: scored,
    onError: () => setScoringJob(null),
    invalidate: [automationKeys.all, contactsKeys.all],
  });

  return { jobId: scoringJob, job: scoring.data, start: score.mutate, starting: score.isPending };
}
