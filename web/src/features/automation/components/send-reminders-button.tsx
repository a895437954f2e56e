import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useSendReminders, type RemindersResult } from '../api/send-reminders';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the finished job did, in words: sent now vs waiting in the queue. */
export function remindersSummary(r: RemindersResult): string {
  const parts = [`${plural(r.emailsSent, 'email', 'emails')} sent`];
  if (r.emailsQueued > 0) parts.push(`${r.emailsQueued} queued (sending limits), going out later`);
  parts.push(`${plural(r.smsSent, 'text message', 'text messages')} sent`);
  if (r.smsNotSent > 0) parts.push(`${r.smsNotSent} not sent`);
  const already = r.alreadyReminded > 0 ? `; ${plural(r.alreadyReminded, 'meeting was', 'meetings were')} already reminded` : '';
  return `${parts.join(', ')} for ${plural(r.meetings, 'meeting', 'meetings')}${already}.`;
}

/** "Send Reminders": starts the reminders job, shows its progress and reports what it did. */
export function SendRemindersButton() {
  const [jobId, setJobId] = useState<string | null>(null);
  const start = useSendReminders({
    onSuccess: (r) => setJobId(r.jobId),
    onError: (e) => toast({ title: 'Reminders Failed', description: serverMessageOr(e, 'Failed to send reminders'), variant: 'destructive' }),
  });
  const job = useJobOutcome(jobId, {
    onDone: (j) => {
      setJobId(null);
      if (j.status === 'succeeded') {
        toast({ title: 'Reminders Done', description: remindersSummary(j.result as RemindersResult), variant: 'success' });
      } else {
        toast({ title: 'Reminders Failed', description: j.error ?? `The reminders job was ${j.status}.`, variant: 'destructive' });
      }
    },
    onError: (e) => {
      setJobId(null);
      toast({ title: 'Reminders Failed', description: serverMessageOr(e, 'Could not follow the reminders job'), variant: 'destructive' });
    },
  });
  const progress = job.data?.progress;
  return (
    <div className="flex items-center gap-2">
      <Button variant="secondary" onClick={() => start.mutate()} disabled={start.isPending || jobId !== null}>
        {jobId ? 'Sending reminders...' : 'Send Reminders'}
      </Button>
      {jobId && progress ? (
        <span role="status" aria-label="Reminders progress" className="text-sm text-slate-600">
          {progress.message} ({progress.percent}%)
        </span>
      ) : null}
    </div>
  );
}
