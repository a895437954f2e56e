import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { ApiError, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Meeting } from '@/types/api';

import { useCalendarConnection } from '../api/calendar-connection';
import { meetingsKeys } from '../api/query-keys';
import { useSyncMeetingCalendar, type CalendarAction } from '../api/sync-meeting-calendar';

import { CalendarConnectDialog } from './calendar-connect-dialog';

/** The seed's failure toasts per action; its default texts are not shown, these say what failed. */
const FAILED: Record<CalendarAction, { title: string; fallback: string }> = {
  sync: { title: 'Sync Failed', fallback: 'The meeting could not be added to Google Calendar.' },
  update: { title: 'Update Failed', fallback: 'The calendar event could not be updated.' },
  remove: { title: 'Removal Failed', fallback: 'The calendar event could not be removed.' },
};
const DONE: Record<CalendarAction, string> = {
  sync: 'Synced to Calendar',
  update: 'Calendar Updated',
  remove: 'Removed from Calendar',
};

/** synced, failed, pending, otherwise 'not synced' (seed 001): never-synced meetings are 'not synced'. */
export function syncLabel(meeting: Meeting, busy: boolean): string {
  if (busy) return 'pending';
  if (meeting.syncStatus === 'failed') return 'failed';
  if (!meeting.googleCalendarEventId) return 'not synced';
  return meeting.syncStatus === 'synced' ? 'synced' : 'pending';
}

const tone: Record<string, string> = {
  synced: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
  pending: 'bg-amber-100 text-amber-800',
  'not synced': 'bg-slate-100 text-slate-700',
};

/** A meeting's calendar control: status, Meet link, Sync/Update and Remove, connect when needed. */
export function CalendarSync({ meeting }: { meeting: Meeting }) {
  const connection = useCalendarConnection();
  const [connecting, setConnecting] = useState(false);
  const [watching, setWatching] = useState<{ jobId: string; action: CalendarAction } | null>(null);
  const sync = useSyncMeetingCalendar({
    onSuccess: (r, input) => setWatching({ jobId: r.jobId, action: input.action }),
    onError: (error, input) => {
      toast({ title: FAILED[input.action].title, description: serverMessageOr(error, FAILED[input.action].fallback), variant: 'destructive' });
      // No grant (or a revoked one): connect first.
      if (error instanceof ApiError && error.status === 409 && input.action !== 'remove') setConnecting(true);
    },
  });
  useJobOutcome(watching?.jobId, {
    onDone: (job) => {
      const action = watching?.action ?? 'sync';
      setWatching(null);
      if (job.status === 'succeeded') toast({ title: DONE[action], description: meeting.title, variant: 'success' });
      else toast({ title: FAILED[action].title, description: job.error ?? FAILED[action].fallback, variant: 'destructive' });
    },
    onError: () => setWatching(null),
    invalidate: [meetingsKeys.all],
  });

  const busy = sync.isPending || watching !== null;
  const hasEvent = Boolean(meeting.googleCalendarEventId);
  const label = syncLabel(meeting, busy);
  const connected = connection.data?.connected === true;
  const main: CalendarAction = hasEvent ? 'update' : 'sync';

  return (
    <div className="mt-3 space-y-2 border-t border-slate-100 pt-3 text-sm" aria-label={`Calendar for ${meeting.title}`} role="group">
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${tone[label] ?? tone['not synced']}`}>Calendar: {label}</span>
        {meeting.googleMeetLink ? (
          <a href={meeting.googleMeetLink} target="_blank" rel="noreferrer" className="text-indigo-700 underline-offset-2 hover:underline">
            Join Google Meet
          </a>
        ) : null}
      </div>
      {label === 'failed' && meeting.syncError ? <p className="text-xs text-rose-700">{meeting.syncError}</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="secondary"
          disabled={busy}
          onClick={() => (connected ? sync.mutate({ id: meeting.id, action: main }) : setConnecting(true))}
        >
          {hasEvent ? 'Update Calendar' : 'Sync to Calendar'}
        </Button>
        {connected && hasEvent ? (
          <Button size="sm" variant="ghost" disabled={busy} onClick={() => sync.mutate({ id: meeting.id, action: 'remove' })}>
            Remove
          </Button>
        ) : null}
      </div>
      {connecting ? <CalendarConnectDialog onClose={() => setConnecting(false)} /> : null}
    </div>
  );
}
