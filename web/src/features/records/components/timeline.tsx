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
import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { appHref, recordHref, type RecordType } from '@/config/paths';
import { errorMessage, serverMessageOr } from '@/lib/api-client';
import { formatFullDateTime, formatRelativeTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useDeleteNote } from '../api/delete-note';
import { useTimeline } from '../api/get-timeline';
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

/** Everything that happened to a record, newest first, a page at a time. */
export function Timeline({ type, id }: { type: RecordType; id: string }) {
  const { pathname } = useLocation();
  const timeline = useTimeline(type, id);
  const items = timeline.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card title="Timeline">
      {timeline.isPending ? (
        <Skeleton rows={3} label="Loading the timeline" />
      ) : timeline.isError && items.length === 0 ? (
        <ErrorState title="Unable to load the timeline" error={timeline.error} onRetry={() => void timeline.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="Nothing has happened yet">Notes, emails, meetings and changes will show here.</EmptyState>
      ) : (
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
              <Button
                variant="secondary"
                size="sm"
                disabled={timeline.isFetchingNextPage}
                onClick={() => void timeline.fetchNextPage()}
              >
                {timeline.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
