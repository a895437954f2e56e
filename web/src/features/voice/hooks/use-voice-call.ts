import { useState } from 'react';

import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { voiceKeys } from '../api/query-keys';
import { useScheduleFollowup } from '../api/schedule-followup';
import { useStartVoiceCall } from '../api/start-voice-call';

export const CALL_FAILED = 'Unable to initiate voice call. Please try again.';

/**
 * The call shown on the Voice Agents screen: one started (followed through its job until it is
 * placed), a follow-up scheduled, or one opened from the recent calls.
 */
export function useVoiceCall() {
  // The call shown, and the job placing it while that runs.
  const [current, setCurrent] = useState<{ callId: string; jobId: string | null } | null>(null);

  const start = useStartVoiceCall({
    onSuccess: (r) => {
      setCurrent({ callId: r.callId, jobId: r.jobId });
      toast({
        title: 'Call Started',
        description: r.simulated ? 'Demo mode: the call is simulated, nobody is dialled.' : 'The agent is placing the call.',
        variant: 'success',
      });
    },
    onError: (e) => toast({ title: 'Call Failed', description: serverMessageOr(e, CALL_FAILED), variant: 'destructive' }),
  });
  const followup = useScheduleFollowup({
    onSuccess: (r) => {
      setCurrent({ callId: r.callId, jobId: null });
      toast({ title: 'Follow-up Scheduled', description: `The call is placed at ${formatDateTime(r.scheduledFor)}.`, variant: 'success' });
    },
    onError: (e) => toast({ title: 'Scheduling Failed', description: serverMessageOr(e, 'Failed to schedule the follow-up'), variant: 'destructive' }),
  });

  const placed = () => setCurrent((c) => (c ? { ...c, jobId: null } : c));
  useJobOutcome(current?.jobId, {
    onDone: (job) => {
      placed();
      if (job.status !== 'succeeded') {
        toast({ title: 'Call Failed', description: job.error ?? CALL_FAILED, variant: 'destructive' });
      }
    },
    onError: placed,
    invalidate: [voiceKeys.calls()],
  });

  return {
    current,
    /** A call is being placed (its job still runs). */
    placing: current?.jobId != null,
    view: (callId: string) => setCurrent({ callId, jobId: null }),
    close: () => setCurrent(null),
    start,
    followup,
  };
}
