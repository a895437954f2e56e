import { Link, useLocation } from 'react-router';

import { StatusPill } from '@/components/ui/score-badge';
import { Spinner } from '@/components/ui/spinner';
import { ErrorState } from '@/components/ui/states';
import { screenHref } from '@/config/paths';
import { formatDateTime } from '@/lib/format';

import { useVoiceCall } from '../api/get-voice-call';
import type { CallOutcome, VoiceCall } from '../api/types';

export const SIMULATED_LABEL = 'Simulated — no call placed';

const OUTCOME_LABEL: Record<CallOutcome, string> = {
  qualified: 'Qualified',
  not_interested: 'Not interested',
  callback: 'Call back',
  voicemail: 'Voicemail',
};

/** The "Simulated — no call placed" tag of a call recorded without a voice API. */
export function SimulatedTag({ call }: { call: Pick<VoiceCall, 'simulated'> }) {
  if (!call.simulated) return null;
  return <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">{SIMULATED_LABEL}</span>;
}

const duration = (s: number | null | undefined) => (s == null ? '—' : s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`);

/** One call, read again until it ends: status, outcome, summary, transcript and the meeting it suggests. */
export function CallDetail({ callId, placing }: { callId: string; placing: boolean }) {
  const { pathname } = useLocation();
  const call = useVoiceCall(callId);
  if (call.isPending) return <Spinner label="Loading the call" />;
  if (call.isError) return <ErrorState title="Could not load the call" error={call.error} onRetry={() => void call.refetch()} />;
  const c = call.data;
  return (
    <article aria-label={`Call with ${c.contactName}`} className="space-y-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold text-slate-900">{c.contactName}</span>
        <span className="text-slate-500">with {c.agentName}</span>
        <StatusPill status={c.status} />
        <SimulatedTag call={c} />
      </div>
      {placing ? <Spinner label="Placing the call" /> : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Purpose</dt>
        <dd className="break-words">{c.purpose}</dd>
        <dt className="text-slate-500">Outcome</dt>
        <dd>{c.outcome ? OUTCOME_LABEL[c.outcome] : '—'}</dd>
        <dt className="text-slate-500">Duration</dt>
        <dd>{duration(c.durationSeconds)}</dd>
        {c.scheduledFor ? (
          <>
            <dt className="text-slate-500">Scheduled for</dt>
            <dd>{formatDateTime(c.scheduledFor)}</dd>
          </>
        ) : null}
      </dl>
      {c.error ? <p className="text-rose-700">{c.error}</p> : null}
      {c.summary ? (
        <div>
          <h3 className="font-medium text-slate-900">Summary</h3>
          <p className="break-words text-slate-700">{c.summary}</p>
        </div>
      ) : null}
      {c.transcript ? (
        <div>
          <h3 className="font-medium text-slate-900">Transcript</h3>
          <p className="max-h-64 overflow-y-auto rounded-md bg-slate-50 p-3 break-words whitespace-pre-wrap text-slate-700">{c.transcript}</p>
        </div>
      ) : null}
      {c.suggestedMeeting ? (
        <div role="group" aria-label="Suggested meeting" className="rounded-lg bg-emerald-50 p-3 text-emerald-900">
          <p>
            Suggested meeting: <span className="font-medium">{c.suggestedMeeting.title}</span> ·{' '}
            {formatDateTime(c.suggestedMeeting.startTime)}
          </p>
          <Link to={screenHref('meetings', pathname)} className="font-semibold text-emerald-800 underline-offset-2 hover:underline">
            Schedule it in Meetings
          </Link>
        </div>
      ) : null}
    </article>
  );
}
