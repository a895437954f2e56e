import { Button } from '@/components/ui/button';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { isTerminalStatus } from '@/types/api';

import { useDomainCheck, useStartDomainCheck, type CheckStatus, type RecordCheck } from '../api/domain-check';
import { emailConfigKeys } from '../api/query-keys';

const STATUS_LABEL: Record<CheckStatus, string> = {
  pass: 'OK',
  warn: 'Needs attention',
  fail: 'Missing or wrong',
  error: 'Lookup failed',
  not_configured: 'Not set up',
};

const STATUS_STYLE: Record<CheckStatus, string> = {
  pass: 'bg-emerald-100 text-emerald-800',
  warn: 'bg-amber-100 text-amber-800',
  fail: 'bg-rose-100 text-rose-800',
  error: 'bg-slate-200 text-slate-800',
  not_configured: 'bg-slate-200 text-slate-800',
};

function RecordRow({ label, check }: { label: string; check: RecordCheck }) {
  return (
    <li className="space-y-1 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{label}</span>
        <span className={`rounded-full px-2 text-xs font-semibold ${STATUS_STYLE[check.status]}`}>{STATUS_LABEL[check.status]}</span>
        <span className="break-all text-xs text-slate-500">{check.name}</span>
      </div>
      <p className="text-sm text-slate-700">{check.detail}</p>
      {check.record ? <code className="block break-all rounded bg-slate-50 px-2 py-1 text-xs text-slate-700">{check.record}</code> : null}
    </li>
  );
}

/**
 * The sender domain's SPF, DKIM and DMARC records as receiving servers see them. The lookups run as
 * a `sender_domain_check` job; a check that is running when the screen opens is followed to its end.
 */
export function SenderDomainCard() {
  const latest = useDomainCheck();
  const start = useStartDomainCheck();
  const state = latest.data;
  const running = state?.jobId && state.status && !isTerminalStatus(state.status) ? state.jobId : null;
  useJobOutcome(running, { invalidate: [emailConfigKeys.domainCheck()] });

  const busy = start.isPending || running !== null;
  return (
    <Card
      title="Sender Domain (SPF, DKIM, DMARC)"
      actions={
        <Button variant="secondary" size="sm" disabled={busy || !latest.data} onClick={() => start.mutate()}>
          {busy ? 'Checking…' : 'Check DNS records'}
        </Button>
      }
    >
      <div aria-live="polite">
        {latest.isError ? (
          <ErrorState title="Could not load the domain check" error={latest.error} onRetry={() => void latest.refetch()} />
        ) : !state ? (
          <Skeleton rows={2} label="Loading the domain check" />
        ) : running ? (
          <p className="text-sm text-slate-600">Looking up the records in DNS…</p>
        ) : state.check ? (
          <>
            <p className="text-sm text-slate-600">
              <span className="font-medium text-slate-900">{state.check.domain}</span> checked {formatDateTime(state.checkedAt)}
            </p>
            <ul aria-label="Sender domain records" className="divide-y divide-slate-100">
              <RecordRow label="SPF" check={state.check.spf} />
              <RecordRow label="DKIM" check={state.check.dkim} />
              <RecordRow label="DMARC" check={state.check.dmarc} />
            </ul>
          </>
        ) : state.status === 'failed' || state.status === 'cancelled' ? (
          <p role="alert" className="text-sm text-rose-700">
            The last check did not finish{state.error ? `: ${state.error}` : '.'} Try again.
          </p>
        ) : (
          <p className="text-sm text-slate-600">
            Not checked yet. Receivers trust mail from a domain that publishes SPF, DKIM and DMARC records; check yours before a
            campaign goes out.
          </p>
        )}
        {start.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            {errorMessage(start.error)}
          </p>
        ) : null}
      </div>
    </Card>
  );
}
