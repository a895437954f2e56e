import { Dialog } from '@/components/ui/dialog';
import { StatusPill } from '@/components/ui/score-badge';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';
import type { Contact } from '@/types/api';
import type { EmailFigures } from '@/types/openapi.gen';

import { RECENT_EVENTS_SHOWN, useEmailHistory } from '../api/get-email-history';

/** The counts the dashboard, campaigns and sequences show, for this contact. */
const FIGURES: [keyof EmailFigures, string][] = [
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
  ['replied', 'Replied'],
  ['bounced', 'Bounced'],
];

const MESSAGE_STATUS_LABEL: Record<string, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  deferred: 'Deferred',
  failed: 'Failed',
  suppressed: 'Suppressed',
  cancelled: 'Cancelled',
};

const MESSAGE_STATUS_STYLE: Record<string, string> = {
  sent: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-rose-50 text-rose-700',
  suppressed: 'bg-rose-50 text-rose-700',
  deferred: 'bg-amber-50 text-amber-800',
};

function History({ contactId }: { contactId: string }) {
  const history = useEmailHistory(contactId);
  if (history.isPending) return <Skeleton rows={2} label="Loading email history" />;
  if (history.isError) {
    return <ErrorState title="Failed to load email history." error={history.error} onRetry={() => void history.refetch()} />;
  }
  const { totalEvents, campaigns, recentEvents, messages, figures } = history.data;
  if (totalEvents === 0 && messages.length === 0) return <EmptyState title="No email activity yet" />;
  return (
    <div className="space-y-4 text-sm">
      <div role="group" aria-label="Email figures" className="grid grid-cols-3 gap-2 sm:grid-cols-6">
        {FIGURES.map(([key, label]) => (
          <div key={key} role="group" aria-label={label} className="rounded-md bg-slate-50 px-2 py-1">
            <dl>
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="font-semibold text-slate-900">{figures[key].toLocaleString()}</dd>
            </dl>
          </div>
        ))}
      </div>
      {messages.length > 0 ? (
        <section aria-label="Messages">
          <h3 className="font-semibold text-slate-900">Messages</h3>
          <ul className="mt-1 divide-y divide-slate-100">
            {messages.map((m) => (
              <li key={m.id} className="py-1.5">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium">{m.subject ?? m.campaignName ?? '(no subject)'}</span>
                  <span className="flex items-center gap-2 text-xs text-slate-500">
                    <span className={`rounded px-1.5 font-medium ${MESSAGE_STATUS_STYLE[m.status] ?? 'bg-slate-100 text-slate-700'}`}>
                      {MESSAGE_STATUS_LABEL[m.status] ?? m.status}
                    </span>
                    {formatDateTime(m.sentAt ?? m.createdAt)}
                  </span>
                </div>
                {m.error && m.status !== 'sent' ? <p className="text-xs text-rose-700">{m.error}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
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
