import { useState } from 'react';

import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import { useEnrichContact, type EnrichResult } from '../api/enrich-contact';
import { contactsKeys } from '../api/query-keys';

/** The enriched fields as people read them. */
const FIELD_NAMES: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  phone: 'phone',
  department: 'department',
  companyId: 'company',
  tags: 'tags',
};

/** "Updated first name, phone and tags." or the job's own message when nothing changed. */
export function enrichSummary(r: EnrichResult): string {
  const names = r.enrichedFields.map((f) => FIELD_NAMES[f] ?? f);
  if (names.length === 0) return r.message;
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${r.message}: updated ${list}.`;
}

/** Enrich: runs the contact_enrich job, refreshes the contact and says what changed (or why not). */
export function EnrichButton({ contact, className }: { contact: Contact; className: string }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const name = `${contact.firstName} ${contact.lastName}`;

  const failed = (reason: string) => {
    setJobId(null);
    toast({ title: 'Enrichment Failed', description: `Failed to enrich ${name}. ${reason}`, variant: 'destructive' });
  };
  const start = useEnrichContact({
    onSuccess: (r) => setJobId(r.jobId),
    onError: (e) => failed(serverMessageOr(e, 'Please try again.')),
  });
  useJobOutcome(jobId, {
    onDone: (job) => {
      setJobId(null);
      const r = job.status === 'succeeded' ? (job.result as EnrichResult | null) : null;
      if (!r) {
        failed(job.error ?? `The enrichment was ${job.status}.`);
        return;
      }
      toast({
        title: r.enrichedFields.length ? 'Contact Enriched' : 'Nothing to Enrich',
        description: enrichSummary(r),
        variant: r.enrichedFields.length ? 'success' : 'default',
      });
    },
    onError: (e) => failed(e.message),
    invalidate: [contactsKeys.all],
  });

  const busy = start.isPending || jobId !== null;
  return (
    <button type="button" className={className} disabled={busy} aria-label={`Enrich ${name}`} onClick={() => start.mutate(contact.id)}>
      {busy ? 'Enriching…' : 'Enrich'}
    </button>
  );
}
