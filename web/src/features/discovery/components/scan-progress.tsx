import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useCancelJob } from '@/features/jobs/api/cancel-job';
import { useJob } from '@/features/jobs/api/get-job';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { isTerminalStatus } from '@/types/api';

/** A company the scan stored, as its result lists it. */
export type FoundCompany = {
  id: string;
  name: string;
  city: string | null;
  state: string | null;
  score: number;
  isNew: boolean;
};

export type FoundContact = {
  id: string;
  companyId: string;
  firstName: string;
  lastName: string;
  title: string | null;
  score: number;
  isNew: boolean;
};

/** The discovery_scan job's result (seed 000 §3 "Discovery response"). */
export type ScanResult = {
  companies: FoundCompany[];
  contacts: FoundContact[];
  marketIntelligence: {
    totalCompanies: number;
    averageRevenue: string;
    averageScore: number;
    highQualityLeads: number;
  } | null;
  territoryInsights: {
    cities: { city: string; state: string; companies: number; averageScore: number; highQualityLeads: number }[];
  } | null;
  budgetExhausted: boolean;
};

export const DISCOVERY_FAILED_DEFAULT =
  'AI discovery service unavailable. Please check your search parameters and try again.';

/** Queries a finished scan changes (seed 000 §7.3: companies, contacts, deals and pipeline metrics; the dashboard's figures). */
const REFRESHED = [['companies'], ['contacts'], ['deals'], ['dashboard']];


/**
 * Follows a scan by polling its job (paused while the tab is hidden): phase, percent and what was
 * found so far; Cancel asks the worker to stop. Ends with the seed's toasts.
 */
export function ScanProgress({ jobId, startedHere }: { jobId: string; startedHere: boolean }) {
  const queryClient = useQueryClient();
  const job = useJob(jobId);
  const cancel = useCancelJob({});
  const announced = useRef(false);
  // Only a scan started or seen running here is announced: reopening a finished one says nothing.
  const seenActive = useRef(startedHere);
  const status = job.data?.status;

  useEffect(() => {
    if (announced.current || !job.data) return;
    const data = job.data;
    if (!isTerminalStatus(data.status)) seenActive.current = true;
    if (!seenActive.current) return;
    if (data.status === 'succeeded') {
      announced.current = true;
      const result = data.result as ScanResult | null;
      const companies = result?.companies.length ?? 0;
      const contacts = result?.contacts.length ?? 0;
      for (const queryKey of REFRESHED) void queryClient.invalidateQueries({ queryKey });
      if (companies === 0 && contacts === 0) {
        toast({ title: 'No Results Found', description: 'No companies matched this search. Try other parameters.' });
      } else {
        toast({
          title: 'Discovery Complete',
          description: `Found ${companies} companies and ${contacts} contacts`,
          variant: 'success',
        });
      }
    } else if (data.status === 'failed') {
      announced.current = true;
      toast({ title: 'Discovery Failed', description: data.error || DISCOVERY_FAILED_DEFAULT, variant: 'destructive' });
    } else if (data.status === 'cancelled') {
      announced.current = true;
      toast({ title: 'Discovery Cancelled', description: 'The scan was stopped; what it had saved is kept.' });
    }
  }, [job.data, queryClient]);

  if (job.isError) {
    return (
      <p role="alert" className="text-sm text-rose-700">
        {errorMessage(job.error)}
      </p>
    );
  }
  const running = status !== undefined && !isTerminalStatus(status);
  return (
    <section aria-label="Scan progress" data-job-id={jobId} data-job-status={status} className="space-y-3 rounded-lg border border-indigo-200 bg-indigo-50/50 p-4">
      <ProgressBar
        label="Discovery progress"
        percent={status === 'succeeded' ? 100 : (job.data?.progress?.percent ?? 0)}
        message={job.data?.progress?.message ?? (status === 'queued' ? 'Waiting for a worker' : (status ?? 'Starting'))}
      />
      {running ? (
        <Button variant="secondary" onClick={() => cancel.mutate(jobId)} disabled={cancel.isPending}>
          {cancel.isPending ? 'Cancelling...' : 'Cancel scan'}
        </Button>
      ) : null}
      {cancel.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(cancel.error)}
        </p>
      ) : null}
    </section>
  );
}
