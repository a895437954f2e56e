import type { UseQueryResult } from '@tanstack/react-query';

import { Card, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { useTemplates } from '@/features/campaigns/api/get-templates';
import { formatOpenRate } from '@/lib/rules';

import { useEmailSummary } from '../api/get-email-analytics';
import type { WebhookConfig } from '../api/get-webhook-config';

/** How mail leaves, who sends it and how provider events are checked. */
export function IntegrationStatusCard({ config }: { config: UseQueryResult<WebhookConfig> }) {
  const c = config.data;
  return (
    <Card title="Integration Status">
      {c ? (
        <dl className="grid gap-3 text-sm sm:grid-cols-3" aria-label="Integration status">
          <div>
            <dt className="text-slate-500">Delivery</dt>
            <dd className="font-medium">
              {c.delivery.mode === 'smtp' ? `SMTP relay ${c.delivery.relay ?? ''}` : 'Demo mode: messages are written to the outbox folder'}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Sender</dt>
            <dd className="font-medium">{c.delivery.from}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Event signatures</dt>
            <dd className="font-medium">
              {c.signatureVerification ? 'Verified (public key configured)' : 'Checked by the secret token in the webhook URL'}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Status</dt>
            <dd>
              <span className={`rounded-full px-2 text-xs font-semibold ${c.delivery.mode === 'smtp' ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-800'}`}>
                {c.delivery.mode === 'smtp' ? 'Active' : 'Demo'}
              </span>
            </dd>
          </div>
        </dl>
      ) : config.isError ? (
        <ErrorState title="Could not load the configuration" error={config.error} onRetry={() => void config.refetch()} />
      ) : (
        <Skeleton rows={2} label="Loading the configuration" />
      )}
    </Card>
  );
}

/** The templates mail can be written from. */
export function EmailTemplatesCard() {
  const templates = useTemplates();
  return (
    <Card title="Email Templates">
      {templates.data ? (
        <ul aria-label="Email templates" className="space-y-2 text-sm">
          {templates.data.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-2">
              <span>
                <span className="font-medium">{t.name}</span> <span className="text-slate-500">— {t.subject}</span>
              </span>
              <span className="rounded bg-emerald-50 px-1.5 text-xs text-emerald-700">{t.isBuiltin ? 'Built-in · Active' : 'Active'}</span>
            </li>
          ))}
        </ul>
      ) : (
        <Skeleton rows={2} label="Loading templates" />
      )}
    </Card>
  );
}

/** The last 30 days of outgoing mail, counted like every other screen's (docs/figures.md). */
export function EmailSummaryCard() {
  const summary = useEmailSummary();
  return (
    <Card title="Email Performance Summary (30 days)">
      {summary.data ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <StatTile label="Emails Sent" value={summary.data.totalSent.toLocaleString()} />
          <StatTile label="Delivered" value={summary.data.delivered.toLocaleString()} />
          <StatTile label="Bounced" value={summary.data.bounced.toLocaleString()} />
          <StatTile label="Open Rate" value={formatOpenRate(summary.data.openRate, summary.data.figures)} />
          <StatTile label="Click Rate" value={`${summary.data.clickRate}%`} />
          <StatTile label="Reply Rate" value={`${summary.data.replyRate}%`} />
        </div>
      ) : summary.isError ? (
        <ErrorState title="Could not load the figures" error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <Skeleton rows={1} label="Loading the figures" />
      )}
    </Card>
  );
}
