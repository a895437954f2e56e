import { useEffect, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { useTemplates } from '@/features/campaigns/api/get-templates';
import { useEmailSummary } from '@/features/email-config/api/get-email-analytics';
import { useWebhookConfig } from '@/features/email-config/api/get-webhook-config';

const PROVIDER_SETTINGS = 'https://app.sendgrid.com/settings/mail_settings';
const EVENT_LABELS: Record<string, string> = {
  delivered: 'Delivered',
  open: 'Opened',
  click: 'Clicked',
  bounce: 'Bounced',
  dropped: 'Dropped',
  spamreport: 'Spam Report',
  deferred: 'Deferred',
  unsubscribe: 'Unsubscribe',
};

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <Button
      variant="secondary"
      onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}
      aria-label={copied ? 'Copied' : 'Copy webhook URL'}
    >
      {copied ? '✓' : 'Copy'}
    </Button>
  );
}

/** Email Configuration (seed 002 §2): how mail leaves, the event webhook, templates and the last 30 days. */
export function EmailConfigRoute() {
  const config = useWebhookConfig();
  const templates = useTemplates();
  const summary = useEmailSummary();
  const c = config.data;
  return (
    <div className="space-y-6">
      <title>Email Configuration · Prospector</title>
      <h1 className="text-2xl font-bold tracking-tight">Email Configuration</h1>
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
              <dd className="font-medium">{c.signatureVerification ? 'Verified (public key configured)' : 'Not verified: set SENDGRID_WEBHOOK_PUBLIC_KEY'}</dd>
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
      <Card title="Webhook Configuration">
        {c ? (
          <div className="space-y-3 text-sm">
            <div className="flex gap-2">
              <label className="sr-only" htmlFor="webhook-url">
                Webhook URL
              </label>
              <input id="webhook-url" readOnly value={c.webhookUrl} className="w-full rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs" />
              <CopyButton text={c.webhookUrl} />
            </div>
            <ol className="list-decimal space-y-1 pl-5">
              <li>Open the provider&apos;s Mail Settings and choose Event Webhook.</li>
              <li>Paste the URL above as the HTTP POST URL.</li>
              <li>Turn on the events below, and signed event webhooks.</li>
              <li>Copy the verification key into SENDGRID_WEBHOOK_PUBLIC_KEY and restart.</li>
            </ol>
            <p>
              Events to enable:{' '}
              {c.events.map((e) => EVENT_LABELS[e] ?? e).join(', ')}
            </p>
            <a href={PROVIDER_SETTINGS} target="_blank" rel="noreferrer" className="font-semibold text-indigo-700 hover:underline">
              Open the provider settings
            </a>
          </div>
        ) : null}
      </Card>
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
      <Card title="Email Performance Summary (30 days)">
        {summary.data ? (
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <StatTile label="Emails Sent" value={summary.data.totalSent.toLocaleString()} />
            <StatTile label="Open Rate" value={`${summary.data.openRate}%`} />
            <StatTile label="Click Rate" value={`${summary.data.clickRate}%`} />
            <StatTile label="Reply Rate" value={`${summary.data.replyRate}%`} />
          </div>
        ) : summary.isError ? (
          <ErrorState title="Could not load the figures" error={summary.error} onRetry={() => void summary.refetch()} />
        ) : (
          <Skeleton rows={1} label="Loading the figures" />
        )}
      </Card>
    </div>
  );
}
