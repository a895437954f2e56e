import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useBulkScoring } from '@/features/automation/hooks/use-bulk-scoring';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import type { Selection } from '@/features/outreach/api/types';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useBulkEnrichContacts, type BulkEnrichResult } from '../api/bulk-enrich-contacts';
import { contactsKeys } from '../api/query-keys';

/**
 * Enrich and AI-score a selection of contacts (picked, or all the filters match), each one job the
 * screen follows with its progress; for the contacts list's selection bar.
 */
export function BulkContactActions({ selection }: { selection: Selection }) {
  const [enrichJob, setEnrichJob] = useState<string | null>(null);
  const scoring = useBulkScoring();

  const enrichFailed = (reason: string) => {
    setEnrichJob(null);
    toast({ title: 'Enrichment Failed', description: reason, variant: 'destructive' });
  };
  const enrich = useBulkEnrichContacts({
    onSuccess: (r) => setEnrichJob(r.jobId),
    onError: (e) => enrichFailed(serverMessageOr(e, 'Failed to enrich the contacts.')),
  });
  const enriching = useJobOutcome(enrichJob, {
    onDone: (job) => {
      setEnrichJob(null);
      const r = job.status === 'succeeded' ? (job.result as BulkEnrichResult | null) : null;
      if (!r) {
        enrichFailed(job.error ?? `The enrichment was ${job.status}.`);
        return;
      }
      toast({ title: 'Bulk Enrichment Complete', description: `${r.message}.`, variant: 'success' });
    },
    onError: (e) => enrichFailed(e.message),
    invalidate: [contactsKeys.all],
  });

  const enrichBusy = enrich.isPending || enrichJob !== null;
  const scoreBusy = scoring.starting || scoring.jobId !== null;
  return (
    <>
      <Button size="sm" variant="secondary" disabled={enrichBusy} onClick={() => enrich.mutate(selection)}>
        {enrichBusy ? 'Enriching…' : 'Enrich selected'}
      </Button>
      <Button size="sm" variant="secondary" disabled={scoreBusy} onClick={() => scoring.start(selection)}>
        {scoreBusy ? 'Scoring…' : 'AI score selected'}
      </Button>
      {enrichJob ? (
        <div className="w-full">
          <ProgressBar
            label="Bulk enrichment progress"
            percent={enriching.data?.progress?.percent ?? 0}
            message={enriching.data?.progress?.message ?? 'Waiting to start'}
          />
        </div>
      ) : null}
      {scoring.jobId ? (
        <div className="w-full">
          <ProgressBar
            label="Bulk scoring progress"
            percent={scoring.job?.progress?.percent ?? 0}
            message={scoring.job?.progress?.message ?? 'Waiting to start'}
          />
        </div>
      ) : null}
    </>
  );
}
