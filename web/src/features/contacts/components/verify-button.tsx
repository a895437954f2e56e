import { useState } from 'react';

import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Contact } from '@/types/api';

import { contactsKeys } from '../api/query-keys';
import { useVerifyContact, type VerificationResult } from '../api/verify-contact';

/** Verify: runs the contact_verify job and reports its result with the seed's toasts. */
export function VerifyButton({ contact, className }: { contact: Contact; className: string }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const name = `${contact.firstName} ${contact.lastName}`;

  const failed = (reason: string | null) => {
    setJobId(null);
    toast({
      title: 'Verification Error',
      description: `Failed to verify ${name}. ${reason ?? 'Please try again.'}`,
      variant: 'destructive',
    });
  };
  const start = useVerifyContact({
    onSuccess: (r) => setJobId(r.jobId),
    onError: (e) => failed(errorMessage(e)),
  });

  useJobOutcome(jobId, {
    onDone: (job) => {
      setJobId(null);
      const v = job.status === 'succeeded' ? (job.result as VerificationResult | null)?.verification : undefined;
      if (!v) {
        failed(job.error ?? null);
        return;
      }
      if (v.isVerified) {
        toast({
          title: 'Lead Verified',
          description: `Confirmed by ${v.verifiedBy.join(', ')} (${v.confidenceScore}% confidence).`,
          variant: 'success',
        });
      } else {
        toast({
          title: 'Verification Failed',
          description: v.warnings[0] ?? 'Insufficient sources confirmed this lead.',
          variant: 'destructive',
        });
      }
    },
    onError: (e) => failed(e.message),
    invalidate: [contactsKeys.all],
  });

  const busy = start.isPending || jobId !== null;
  return (
    <button type="button" className={className} disabled={busy} aria-label={`Verify ${name}`} onClick={() => start.mutate(contact.id)}>
      {busy ? 'Verifying…' : 'Verify'}
    </button>
  );
}
