import * as Menu from '@radix-ui/react-dropdown-menu';

import { StatusPill } from '@/components/ui/score-badge';
import { RecordLink } from '@/features/records/components/record-link';
import { serverMessageOr } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';
import type { Meeting } from '@/types/api';

import { useCancelMeeting } from '../api/cancel-meeting';
import { useUpdateMeetingStatus } from '../api/update-meeting-status';
import { CalendarSync } from './calendar-sync';

const itemClass =
  'block w-full cursor-pointer rounded-md px-3 py-2 text-left text-sm outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400 data-[highlighted]:bg-indigo-50';

/** A meeting: when, what, where; its menu confirms, completes or cancels it. */
export function MeetingCard({ meeting }: { meeting: Meeting }) {
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
      {meeting.contactId || meeting.companyId ? (
        // The meeting names its contact and company by id only: link to their pages.
        <p className="mt-1 flex gap-3 text-xs font-medium text-indigo-700">
          {meeting.contactId ? (
            <RecordLink type="contact" id={meeting.contactId} label={`Open contact of ${meeting.title}`}>
              Open contact
            </RecordLink>
          ) : null}
          {meeting.companyId ? (
            <RecordLink type="company" id={meeting.companyId} label={`Open company of ${meeting.title}`}>
              Open company
            </RecordLink>
          ) : null}
        </p>
      ) : null}
      <CalendarSync meeting={meeting} />
    </li>
  );
}
