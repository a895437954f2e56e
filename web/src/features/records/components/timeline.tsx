import {
  ArrowRightLeft,
  Ban,
  CalendarDays,
  CircleDot,
  Download,
  ListPlus,
  ListX,
  Mail,
  MailCheck,
  MailOpen,
  MailX,
  MessageSquare,
  MousePointerClick,
  Pencil,
  PhoneCall,
  Plus,
  Radar,
  Reply,
  Server,
  SquareCheck,
  StickyNote,
  Trophy,
  type LucideIcon,
} from 'lucide-react';
import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { TabList } from '@/components/ui/tabs';
import { appHref, recordHref, type RecordType } from '@/config/paths';
import { errorMessage, serverMessageOr } from '@/lib/api-client';
import { formatFullDateTime, formatRelativeTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useDeleteNote } from '../api/delete-note';
import { useNotes } from '../api/get-notes';
import { useTimeline } from '../api/get-timeline';
import type { TimelineShow } from '../api/query-keys';
import type { TimelineItem } from '../api/types';

/** One icon per kind of timeline item (docs/records.md); unknown kinds get a dot. */
export const TIMELINE_ICONS: Record<string, LucideIcon> = {
  created: Plus,
  updated: Pencil,
  status_changed: ArrowRightLeft,
  stage_changed: ArrowRightLeft,
  converted: Trophy,
  email_sent: Mail,
  email_delivered: MailCheck,
  email_opened: MailOpen,
  email_clicked: MousePointerClick,
  email_replied: Reply,
  email_bounced: MailX,
  email_unsubscribed: Ban,
  sms: MessageSquare,
  call: PhoneCall,
  meeting: CalendarDays,
  note: StickyNote,
  task_created: ListPlus,
  task_done: SquareCheck,
  sequence_enrolled: ListPlus,
  sequence_stopped: ListX,
  discovered: Radar,
  imported: Download,
  job: Server,
};

const ICON_TONE: Record<string, string> = {
  email_bounced: 'bg-rose-50 text-rose-600',
  email_unsubscribed: 'bg-rose-50 text-rose-600',
  converted: 'bg-emerald-50 text-emerald-600',
  task_done: 'bg-emerald-50 text-emerald-600',
  note: 'bg-amber-50 text-amber-600',
};

const isRecordType = (t: string): t is RecordType => t === 'company' || t === 'contact' || t === 'deal';

function Item({ item, pathname }: { item: TimelineItem; pathname: string }) {
  const Icon = TIMELINE_ICONS[item.kind] ?? CircleDot;
  const link = item.link ? appHref(item.link, pathname) : null;
  return (
    <li data-kind={item.kind} className="relative flex gap-3 pb-5 last:pb-0">
      <span
        aria-hidden="true"
        className={`relative z-10 flex size-8 shrink-0 items-center justify-center rounded-full ring-4 ring-white ${
          ICON_TONE[item.kind] ?? 'bg-slate-100 text-slate-600'
        }`}
      >
        <Icon className="size-4" />
      </span>
      <div className="min-w-0 flex-1 pt-1">
        <p className="text-sm text-slate-900">
          {link ? (
            link.startsWith('/') ? (
              <Link to={link} className="font-medium hover:underline">
                {item.title}
              </Link>
            ) : (
              <a href={link} className="font-medium hover:underline" target="_blank" rel="noreferrer">
                {item.title}
              </a>
            )
          ) : (
            <span className="font-medium">{item.title}</span>
          )}
          {item.about && isRecordType(item.about.type) ? (
            <>
              {' · '}
              <Link to={recordHref(item.about.type, item.about.id, pathname)} className="text-indigo-700 hover:underline">
                {item.about.name}
              </Link>
            </>
          ) : null}
        </p>
        {item.detail ? <p className="mt-0.5 text-sm break-words whitespace-pre-line text-slate-600">{item.detail}</p> : null}
        {item.scheduledFor ? (
          <p className="mt-0.5 text-sm text-slate-600">
            For <time dateTime={item.scheduledFor}>{formatFullDateTime(item.scheduledFor)}</time>
          </p>
        ) : null}
        <p className="mt-0.5 text-xs text-slate-500">
          <time dateTime={item.at} title={formatFullDateTime(item.at)}>
            {formatRelativeTime(item.at)}
          </time>
          {item.actor ? ` · ${item.actor}` : null}
        </p>
        {item.kind === 'note' && item.id.startsWith('note:') ? <DeleteNote id={item.id.slice('note:'.length)} /> : null}
      </div>
    </li>
  );
}

/** A note's Delete, confirmed first; the server lets only its author or an admin. */
function DeleteNote({ id }: { id: string }) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteNote({
    onSuccess: () => {
      setAsking(false);
      toast({ title: 'Note Deleted', variant: 'success' });
    },
    onError: (e) => {
      setAsking(false);
      toast({ title: 'Delete Failed', description: serverMessageOr(e, 'Failed to delete the note'), variant: 'destructive' });
    },
  });
  return (
    <>
      <button type="button" onClick={() => setAsking(true)} className="mt-1 text-xs font-medium text-slate-600 hover:text-rose-700 hover:underline">
        Delete note
      </button>
      {asking ? (
        <ConfirmDialog
          title="Delete this note?"
          description="It leaves the timeline for good."
          confirmLabel="Delete"
          danger
          pending={remove.isPending}
          onConfirm={() => remove.mutate(id)}
          onCancel={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}

const SHOWS = [
  ['all', 'All'],
  ['emails', 'Emails'],
  ['calls', 'Calls & texts'],
  ['meetings', 'Meetings'],
  ['notes', 'Notes'],
  ['tasks', 'Tasks'],
] as const satisfies readonly (readonly [TimelineShow, string])[];

const EMPTY: Record<TimelineShow, [string, string]> = {
  all: ['Nothing has happened yet', 'Notes, emails, meetings and changes will show here.'],
  emails: ['No emails yet', 'Emails sent to this record, and what became of them, will show here.'],
  calls: ['No calls or texts yet', 'Calls and text messages will show here.'],
  meetings: ['No meetings yet', 'Meetings booked with this record will show here.'],
  notes: ['No notes yet', 'Add a note to keep what you learn in one place.'],
  tasks: ['No tasks yet', 'Tasks created and completed will show here.'],
};

/** One filter's items, a page at a time. */
function Items({ type, id, show }: { type: RecordType; id: string; show: TimelineShow }) {
  const { pathname } = useLocation();
  const timeline = useTimeline(type, id, show);
  const items = timeline.data?.pages.flatMap((p) => p.items) ?? [];
  if (timeline.isPending) return <Skeleton rows={3} label="Loading the timeline" />;
  if (timeline.isError && items.length === 0)
    return <ErrorState title="Unable to load the timeline" error={timeline.error} onRetry={() => void timeline.refetch()} />;
  if (items.length === 0) return <EmptyState title={EMPTY[show][0]}>{EMPTY[show][1]}</EmptyState>;
  return (
    <>
      <ol aria-label="Timeline" className="relative before:absolute before:top-2 before:bottom-2 before:left-4 before:w-px before:bg-slate-200">
        {items.map((item) => (
          <Item key={item.id} item={item} pathname={pathname} />
        ))}
      </ol>
      {timeline.isFetchNextPageError ? (
        <p role="alert" className="mt-3 text-sm text-rose-700">
          Could not load more: {errorMessage(timeline.error)}
        </p>
      ) : null}
      {timeline.hasNextPage ? (
        <div className="mt-4 text-center">
          <Button variant="secondary" size="sm" disabled={timeline.isFetchingNextPage} onClick={() => void timeline.fetchNextPage()}>
            {timeline.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** The record's notes in full (the timeline clips long ones), each with its author and Delete. */
function Notes({ type, id }: { type: RecordType; id: string }) {
  const notes = useNotes(type, id);
  if (notes.isPending) return <Skeleton rows={3} label="Loading the notes" />;
  if (notes.isError) return <ErrorState title="Unable to load the notes" error={notes.error} onRetry={() => void notes.refetch()} />;
  if (notes.data.length === 0) return <EmptyState title={EMPTY.notes[0]}>{EMPTY.notes[1]}</EmptyState>;
  return (
    <ol aria-label="Notes" className="space-y-3">
      {notes.data.map((n) => (
        <li key={n.id} className="rounded-lg bg-amber-50/60 p-3 ring-1 ring-amber-100">
          <p className="text-sm break-words whitespace-pre-line text-slate-800">{n.body}</p>
          <p className="mt-1 text-xs text-slate-500">
            <time dateTime={n.createdAt} title={formatFullDateTime(n.createdAt)}>
              {formatRelativeTime(n.createdAt)}
            </time>
            {n.author ? ` · ${n.author}` : null}
          </p>
          <DeleteNote id={n.id} />
        </li>
      ))}
    </ol>
  );
}

/** Everything that happened to a record, newest first, or one kind of it. */
export function Timeline({ type, id }: { type: RecordType; id: string }) {
  const [show, setShow] = useState<TimelineShow>('all');
  return (
    <Card title="Timeline">
      <Tabs.Root value={show} onValueChange={(v) => setShow(v as TimelineShow)}>
        <TabList label="Show in the timeline" tabs={SHOWS} />
        {SHOWS.map(([value]) => (
          // Every panel exists for its tab to point at; only the shown one reads the api.
          <Tabs.Content key={value} value={value} forceMount hidden={show !== value}>
            {show !== value ? null : value === 'notes' ? <Notes type={type} id={id} /> : <Items type={type} id={id} show={value} />}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Card>
  );
}
