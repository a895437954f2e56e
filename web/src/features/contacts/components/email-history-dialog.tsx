import { Dialog } from '@/components/ui/dialog';
import { StatusPill } from '@/components/ui/score-badge';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';
import type { Contact } from '@/types/api';

import { RECENT_EVENTS_SHOWN, useEmailHistory } from '../api/get-email-history';

function History({ contactId }: { contactId: string }) {
  const history = useEmailHistory(contactId);
  if (history.isPending) return <Skeleton rows={2} label="Loading email history" />;
  if (history.isError) {
    return <ErrorState title="Failed to load email history." error={history.error} onRetry={() => void history.refetch()} />;
  }
  const { totalEvents, campaigns, recentEvents } = history.data;
  if (totalEvents === 0) return <EmptyState title="No email activity yet" />;
  return (
    <div className="space-y-4 text-sm">
      <p>
        <span className="font-semibold">{totalEvents}</span> email events
      </p>
      <section aria-label="Campaigns">
        <h3 className="font-semibold text-slate-900">Campaigns</h3>
        <ul className="mt-1 divide-y divide-slate-100">
          {campaigns.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
              <span className="font-medium">{c.name}</span>
              <span className="flex items-center gap-2 text-xs text-slate-500">
                <StatusPill status={c.status} />
                {c.totalEvents} events · last {formatDateTime(c.lastEvent.timestamp)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Recent events">
        <h3 className="font-semibold text-slate-900">Recent events</h3>
        <ol className="mt-1 space-y-1">
          {recentEvents.slice(0, RECENT_EVENTS_SHOWN).map((e, i) => (
            <li key={`${e.timestamp}-${i}`} className="flex justify-between gap-2">
              <span className="capitalize">{e.eventType}</span>
              <span className="text-slate-500">{formatDateTime(e.timestamp)}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** The Email Interaction History dialog (seed 001 §2). */
export function EmailHistoryDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Email Interaction History"
      description={`${contact.firstName} ${contact.lastName}`}
    >
      <History contactId={contact.id} />
    </Dialog>
  );
}
