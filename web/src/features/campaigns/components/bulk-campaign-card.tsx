import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatDateTime } from '@/lib/format';

import type { CampaignAction } from '../api/change-bulk-campaign';
import { ratePercent, type BulkCampaign, type BulkCampaignStatus } from '../api/types';
import { WaitingLine } from './waiting-line';

const STATUS_CLASS: Record<BulkCampaignStatus, string> = {
  draft: 'bg-slate-100 text-slate-700',
  scheduled: 'bg-sky-100 text-sky-800',
  sending: 'bg-indigo-100 text-indigo-800',
  sent: 'bg-emerald-100 text-emerald-800',
  paused: 'bg-amber-100 text-amber-800',
  cancelled: 'bg-rose-100 text-rose-800',
  failed: 'bg-rose-100 text-rose-800',
};

type Props = {
  campaign: BulkCampaign;
  onSend: () => void;
  onAction: (action: CampaignAction) => void;
  busy: boolean;
  /** Why the send job this screen started failed, once it has. */
  sendError?: string | null;
  /** The campaign the address names (`?campaign=`, e.g. from search): marked and scrolled to. */
  highlighted?: boolean;
};

/** One bulk campaign: status, figures, delivery progress while it sends, and what can be done next. */
export function BulkCampaignCard({ campaign: c, onSend, onAction, busy, sendError, highlighted = false }: Props) {
  const p = c.progress;
  const delivering = c.status === 'sending' || c.status === 'paused' || c.status === 'failed';
  const failure = c.status === 'failed' ? (c.failure ?? sendError ?? 'the sending job failed') : sendError;
  return (
    <li
      aria-label={c.name}
      aria-current={highlighted ? 'true' : undefined}
      data-status={c.status}
      ref={highlighted ? (el) => el?.scrollIntoView({ block: 'center' }) : undefined}
      className={`space-y-3 rounded-xl bg-white p-4 shadow-xs ${highlighted ? 'ring-2 ring-indigo-500' : 'ring-1 ring-slate-200'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">{c.name}</h3>
          {c.description ? <p className="text-sm text-slate-500">{c.description}</p> : null}
        </div>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold uppercase ${STATUS_CLASS[c.status]}`}>{c.status}</span>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-slate-500">Sent</dt>
          <dd className="font-medium tabular-nums">{c.stats.sent.toLocaleString()}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Opened</dt>
          <dd className="font-medium tabular-nums">{ratePercent(c.stats.opened, c.stats.sent)}%</dd>
        </div>
        <div>
          <dt className="text-slate-500">Clicked</dt>
          <dd className="font-medium tabular-nums">{ratePercent(c.stats.clicked, c.stats.sent)}%</dd>
        </div>
        <div>
          <dt className="text-slate-500">Replied</dt>
          <dd className="font-medium tabular-nums">{ratePercent(c.stats.replied, c.stats.sent)}%</dd>
        </div>
        <div>
          <dt className="text-slate-500">Recipients</dt>
          <dd className="font-medium tabular-nums">{c.totalRecipients.toLocaleString()}</dd>
        </div>
      </dl>
      {delivering || c.status === 'sent' ? (
        <ProgressBar
          label={`Delivery of ${c.name}`}
          percent={p.percent}
          message={`${p.handled.toLocaleString()} of ${p.total.toLocaleString()} handled${p.deferred ? `, ${p.deferred} deferred` : ''}${p.failed ? `, ${p.failed} failed` : ''}${p.suppressed ? `, ${p.suppressed} suppressed` : ''}${p.inDoubt ? `, ${p.inDoubt} in doubt` : ''}`}
        />
      ) : null}
      {c.waiting ? <WaitingLine waiting={c.waiting} /> : null}
      {failure ? (
        <p role="alert" className="text-sm font-medium text-rose-700">
          Failed: {failure}
        </p>
      ) : null}
      <p className="text-xs text-slate-500">
        Created {formatDateTime(c.createdAt)}
        {c.sentAt ? ` · sent ${formatDateTime(c.sentAt)}` : ''}
        {c.scheduleAt && c.status === 'scheduled' ? ` · scheduled for ${formatDateTime(c.scheduleAt)}` : ''}
      </p>
      <div className="flex flex-wrap gap-2">
        {c.status === 'draft' ? (
          <Button onClick={onSend} disabled={busy}>
            Send Now <span className="sr-only">{c.name}</span>
          </Button>
        ) : null}
        {c.status === 'sending' ? (
          <Button variant="secondary" onClick={() => onAction('pause')} disabled={busy}>
            Pause
          </Button>
        ) : null}
        {c.status === 'paused' ? (
          <Button variant="secondary" onClick={() => onAction('resume')} disabled={busy}>
            Resume
          </Button>
        ) : null}
        {c.status === 'failed' ? (
          <Button onClick={() => onAction('retry')} disabled={busy}>
            Retry <span className="sr-only">{c.name}</span>
          </Button>
        ) : null}
        {['scheduled', 'sending', 'paused', 'failed'].includes(c.status) ? (
          <Button variant="danger" onClick={() => onAction('cancel')} disabled={busy}>
            Cancel
          </Button>
        ) : null}
      </div>
    </li>
  );
}
