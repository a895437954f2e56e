import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useCancelJob } from '@/features/jobs/api/cancel-job';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { isTerminalStatus, type Job } from '@/types/api';

/** A company the scan stored, as its result lists it. */
export type FoundCompany = {
  id: string;
  name: string;
  city: string | null;
  state: string | null;
  score: number;
  isNew: boolean;
  /** Keys of the sources that found it (absent in results of older scans: the catalog). */
  sources?: string[];
  website?: string | null;
  phone?: string | null;
  openingHours?: string | null;
};

/** What one source did in the scan. */
export type SourceOutcome = {
  source: string;
  label: string;
  verified: boolean;
  attribution: string;
  found: number;
  new: number;
  updated: number;
  elapsedMs: number;
  error: string | null;
};

/** County Business Patterns establishments against what the scan found, per searched state. */
export type MarketSize =
  | {
      available: true;
      source: string | null;
      year: string | null;
      naics: string;
      states: { state: string; establishments: number; found: number }[];
      topCounties: { state: string; countyFips: string; county: string | null; establishments: number }[];
    }
  | { available: false; source: string | null; year: string | null; note: string | null };

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
    marketSize?: MarketSize;
  } | null;
  /** Per source (absent in results of older scans). */
  sources?: SourceOutcome[];
  budgetExhausted: boolean;
};

export const DISCOVERY_FAILED_DEFAULT =
  'AI discovery service unavailable. Please check your search parameters and try again.';

/** Queries a finished scan changes (seed 000 §7.3: companies, contacts, deals and pipeline metrics; the dashboard's figures). */
const REFRESHED = [['companies'], ['contacts'], ['deals'], ['dashboard']];

/** The seed's toast for a scan that has ended. */
function announce(job: Job) {
  if (job.status === 'succeeded') {
    const result = job.result as ScanResult | null;
    const companies = result?.companies.length ?? 0;
    const contacts = result?.contacts.length ?? 0;
    if (companies === 0 && contacts === 0) {
      toast({ title: 'No Results Found', description: 'No companies matched this search. Try other parameters.' });
    } else {
      toast({
        title: 'Discovery Complete',
        description: `Found ${companies} companies and ${contacts} contacts`,
        variant: 'success',
      });
    }
  } else if (job.status === 'failed') {
    toast({ title: 'Discovery Failed', description: job.error || DISCOVERY_FAILED_DEFAULT, variant: 'destructive' });
  } else {
    toast({ title: 'Discovery Cancelled', description: 'The scan was stopped; what it had saved is kept.' });
  }
}

/**
 * Follows a scan by polling its job (paused while the tab is hidden): phase, percent and what was
 * found so far; Cancel asks the worker to stop. Ends with the seed's toasts.
 */
export function ScanProgress({ jobId, startedHere }: { jobId: string; startedHere: boolean }) {
  // Only a scan started or seen running here is announced (and refreshes what it found):
  // reopening a finished one says nothing.
  const [seenActive, setSeenActive] = useState(startedHere);
  const job = useJobOutcome(jobId, {
    onDone: (data) => {
      if (seenActive) announce(data);
    },
    invalidate: seenActive ? REFRESHED : [],
  });
  const cancel = useCancelJob({});
  const status = job.data?.status;
  if (!seenActive && status !== undefined && !isTerminalStatus(status)) setSeenActive(true);

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
