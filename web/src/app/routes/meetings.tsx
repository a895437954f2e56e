import * as Menu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { StatusPill } from '@/components/ui/score-badge';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useCancelMeeting } from '@/features/meetings/api/cancel-meeting';
import { MEETING_FILTERS, useMeetings, type MeetingFilter } from '@/features/meetings/api/get-meetings';
import { useUpdateMeetingStatus } from '@/features/meetings/api/update-meeting-status';
import { CalendarSync } from '@/features/meetings/components/calendar-sync';
import { MeetingFormDialog } from '@/features/meetings/components/meeting-form-dialog';
import { serverMessageOr } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';
import type { Meeting } from '@/types/api';

const itemClass =
  'block w-full cursor-pointer rounded-md px-3 py-2 text-left text-sm outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400 data-[highlighted]:bg-indigo-50';

function MeetingCard({ meeting }: { meeting: Meeting }) {
  const update = useUpdateMeetingStatus({
    onSuccess: (m) => toast({ title: 'Meeting Updated', description: `"${m.title}" is now ${m.status}.`, variant: 'success' }),
    onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, 'Failed to update meeting'), variant: 'destructive' }),
  });
  const cancel = useCancelMeeting({
    onSuccess: () => toast({ title: 'Meeting Cancelled', description: `"${meeting.title}" was cancelled and removed.`, variant: 'success' }),
    onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, 'Failed to cancel meeting'), variant: 'destructive' }),
  });
  return (
    <li aria-label={meeting.title} data-status={meeting.status} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="font-semibold break-words text-slate-900">{meeting.title}</h2>
          <p className="text-sm text-slate-600">
            {formatDateTime(meeting.scheduledDate)} · {meeting.duration} min
          </p>
        </div>
        <Menu.Root modal={false}>
          <Menu.Trigger
            aria-label={`Actions for ${meeting.title}`}
            className="rounded px-1.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            ⋯
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content align="end" className="z-40 min-w-44 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200">
              <Menu.Item className={itemClass} disabled={meeting.status === 'confirmed'} onSelect={() => update.mutate({ id: meeting.id, status: 'confirmed' })}>
                Mark Confirmed
              </Menu.Item>
              <Menu.Item className={itemClass} disabled={meeting.status === 'completed'} onSelect={() => update.mutate({ id: meeting.id, status: 'completed' })}>
                Mark Completed
              </Menu.Item>
              <Menu.Item className={`${itemClass} text-rose-700`} onSelect={() => cancel.mutate(meeting.id)}>
                Cancel Meeting
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <StatusPill status={meeting.status} />
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{meeting.meetingType}</span>
        {meeting.location ? <span className="text-slate-600">{meeting.location}</span> : null}
      </div>
      {meeting.agenda ? <p className="mt-2 text-sm text-slate-700">{meeting.agenda}</p> : null}
      {meeting.attendees ? <p className="mt-1 text-xs text-slate-500">Attendees: {meeting.attendees}</p> : null}
      <CalendarSync meeting={meeting} />
    </li>
  );
}

export function MeetingsRoute() {
  const [params, setParams] = useSearchParams();
  const [scheduling, setScheduling] = useState(false);
  const status: MeetingFilter = MEETING_FILTERS.find((f) => f === params.get('status')) ?? 'all';
  const meetings = useMeetings(status);

  return (
    <div className="space-y-6">
      <title>Meetings · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Meetings</h1>
        <Button onClick={() => setScheduling(true)}>Schedule Meeting</Button>
      </div>
      <Field label="Status" className="max-w-xs">
        <select
          className={inputClass}
          value={status}
          onChange={(e) => setParams(e.target.value === 'all' ? {} : { status: e.target.value })}
        >
          {MEETING_FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === 'all' ? 'All meetings' : f}
            </option>
          ))}
        </select>
      </Field>
      {meetings.isPending ? (
        <Skeleton rows={3} label="Loading meetings" />
      ) : meetings.isError ? (
        <ErrorState title="Failed to load meetings" error={meetings.error} onRetry={() => void meetings.refetch()} />
      ) : meetings.data.items.length === 0 ? (
        <EmptyState title={status === 'all' ? 'No meetings yet' : `No ${status} meetings`}>
          <Button className="mt-1" onClick={() => setScheduling(true)}>
            Schedule your first meeting
          </Button>
        </EmptyState>
      ) : (
        <ul aria-label="Meetings" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {meetings.data.items.map((m) => (
            <MeetingCard key={m.id} meeting={m} />
          ))}
        </ul>
      )}
      {scheduling ? <MeetingFormDialog onClose={() => setScheduling(false)} /> : null}
    </div>
  );
}
