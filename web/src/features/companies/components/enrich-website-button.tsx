import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { contactsKeys } from '@/features/contacts/api/query-keys';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { recordsKeys } from '@/features/records/api/query-keys';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useEnrichCompany } from '../api/enrich-company';
import { companiesKeys } from '../api/query-keys';

/**
 * "Enrich from website" on a company's record: reads its own website as a job and, when the job
 * ends, says what it found and refreshes the record (its score, contacts and timeline).
 */
export function EnrichWebsiteButton({ companyId }: { companyId: string }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const enrich = useEnrichCompany({
    onSuccess: (answer) => setJobId(answer.jobId),
    onError: (e) => toast({ title: 'Enrichment Failed', description: serverMessageOr(e, 'Please try again.'), variant: 'destructive' }),
  });
  const job = useJobOutcome(jobId, {
    invalidate: [companiesKeys.detail(companyId), recordsKeys.record('company', companyId), contactsKeys.all],
    onDone: (done) => {
      setJobId(null);
      const message = (done.result as { message?: string } | null)?.message;
      if (done.status === 'succeeded') {
        toast({ title: 'Website Read', description: message ?? 'The company was enriched.', variant: 'success' });
      } else {
        toast({ title: 'Enrichment Failed', description: done.error ?? 'The website could not be read.', variant: 'destructive' });
      }
    },
    onError: () => setJobId(null),
  });
  const running = enrich.isPending || jobId !== null;
  const progress = job.data?.progress?.message;
  return (
    <Button variant="secondary" disabled={running} onClick={() => enrich.mutate(companyId)}>
      {running ? (progress ? `${progress}…` : 'Reading website…') : 'Enrich from website'}
    </Button>
  );
}
