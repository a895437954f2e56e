import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { campaignsKeys } from '../api/query-keys';
import { useSendSingleCampaign } from '../api/send-single-campaign';
import { AUDIENCE_FILTERS, type SingleCampaign } from '../api/single-campaigns';
import type { EmailDraft } from '../api/types';
import { EmailComposer } from './email-composer';
import { WaitingLine } from './waiting-line';

const STATUS_CLASS: Record<string, string> = {
  active: 'bg-slate-100 text-slate-700',
  sending: 'bg-indigo-100 text-indigo-800',
  sent: 'bg-emerald-100 text-emerald-800',
  completed: 'bg-sky-100 text-sky-800',
  paused: 'bg-amber-100 text-amber-800',
  failed: 'bg-rose-100 text-rose-800',
  draft: 'bg-slate-100 text-slate-700',
};

/** Writes a draft campaign's message and sends it to its audience, following the send job. */
function WriteAndSend({ campaign: c, onClose }: { campaign: SingleCampaign; onClose: () => void }) {
  const [draft, setDraft] = useState<EmailDraft>({ subject: '', body: '' });
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useSendSingleCampaign({
    onSuccess: (r) => {
      setJobId(r.jobId);
      toast({ title: 'Campaign Sending', description: `Sending to ${r.totalRecipients} recipients.`, variant: 'success' });
    },
    onError: (e) => setError(errorMessage(e)),
  });
  useJobOutcome(jobId, {
    invalidate: [campaignsKeys.all],
    onDone: (job) => {
      if (job.status === 'succeeded') onClose();
      else setError(job.error ?? `The sending job was ${job.status}.`);
    },
    onError: (e) => setError(errorMessage(e)),
  });
  return (
    <div className="mt-3 space-y-3 border-t border-slate-100 pt-3">
      <EmailComposer value={draft} onChange={setDraft} audience={AUDIENCE_FILTERS[c.targetAudience ?? 'all-active'] ?? {}} />
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          Send failed: {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button
          type="button"
          disabled={!draft.subject.trim() || !draft.body.trim() || send.isPending || jobId !== null}
          onClick={() => {
            setError(null);
            send.mutate({ id: c.id, ...draft });
          }}
        >
          {jobId ? 'Sending…' : 'Send Now'} <span className="sr-only">{c.name}</span>
        </Button>
        <Button type="button" variant="secondary" onClick={onClose} disabled={jobId !== null}>
          Close
        </Button>
      </div>
    </div>
  );
}

/** The single campaigns with their figures; a draft is written and sent from here. */
export function SingleCampaignList({ campaigns }: { campaigns: UseQueryResult<SingleCampaign[]> }) {
  const [writing, setWriting] = useState<string | null>(null);
  const list = campaigns.data ?? [];
  return (
    <Card title="Campaigns">
      {campaigns.isPending ? (
        <Skeleton rows={3} label="Loading campaigns" />
      ) : campaigns.isError ? (
        <ErrorState title="Could not load campaigns" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState title="No campaigns yet" />
      ) : (
        <ul aria-label="Campaigns" className="space-y-2">
          {list.map((c) => (
            <li key={c.id} aria-label={c.name} data-status={c.status} className="rounded-lg p-3 ring-1 ring-slate-200">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium">{c.name}</span>
                <span className={`rounded-full px-2 text-xs font-semibold uppercase ${STATUS_CLASS[c.status] ?? ''}`}>{c.status}</span>
              </div>
              <p className="text-sm text-slate-500">{c.description}</p>
              <p className="text-xs text-slate-600">
                {c.totalRecipients} recipients · {c.emailsSent} sent ·{' '}
                {c.emailsSent > 0 && c.openTracked === 0 ? 'opens not tracked' : `${c.openRate.toFixed(1)}% opened`} · {c.aiModel}
              </p>
              {c.waiting ? <WaitingLine waiting={c.waiting} /> : null}
              {c.status === 'failed' ? (
                <p role="alert" className="text-sm font-medium text-rose-700">
                  Failed: {c.failure ?? 'the sending job failed'}
                </p>
              ) : null}
              {(c.status === 'draft' || c.status === 'active') && writing !== c.id ? (
                <Button type="button" variant="secondary" className="mt-2" onClick={() => setWriting(c.id)}>
                  Write &amp; Send <span className="sr-only">{c.name}</span>
                </Button>
              ) : null}
              {writing === c.id ? <WriteAndSend campaign={c} onClose={() => setWriting(null)} /> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
