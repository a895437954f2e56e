import { useEffect, useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { Card, EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { useAdminUser } from '@/features/auth/api/get-admin-user';
import { useTemplates } from '@/features/campaigns/api/get-templates';
import { useEmailSummary } from '@/features/email-config/api/get-email-analytics';
import { type Suppression, useSuppressions } from '@/features/email-config/api/get-suppressions';
import { type WebhookConfig, useWebhookConfig } from '@/features/email-config/api/get-webhook-config';
import { useLiftSuppression } from '@/features/email-config/api/lift-suppression';
import { useRotateWebhookToken } from '@/features/email-config/api/rotate-webhook-token';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

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

const SUPPRESSION_PAGE = 20;
const REASON_LABELS: Record<Suppression['reason'], string> = {
  unsubscribed: 'Unsubscribed',
  hard_bounced: 'Hard bounce',
  spam_reported: 'Spam report',
  manual: 'Added by hand',
};

function CopyButton({ text, label }: { text: string; label: string }) {
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
      aria-label={copied ? 'Copied' : label}
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
      <Card title="Webhook Configuration">{c ? <WebhookSettings config={c} /> : null}</Card>
      <SuppressionList />
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

function UrlField({ id, label, url, copyLabel }: { id: string; label: string; url: string; copyLabel: string }) {
  return (
    <div>
      <label className="mb-1 block text-xs font-medium text-slate-600" htmlFor={id}>
        {label}
      </label>
      <div className="flex gap-2">
        <input id={id} readOnly value={url} className="w-full rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs" />
        <CopyButton text={url} label={copyLabel} />
      </div>
    </div>
  );
}

/**
 * The two provider URLs. Without SENDGRID_WEBHOOK_PUBLIC_KEY (resp. INBOUND_PARSE_TOKEN) each
 * carries this install's secret token, and calls without it are refused; an admin can rotate it.
 */
function WebhookSettings({ config: c }: { config: WebhookConfig }) {
  const [confirming, setConfirming] = useState(false);
  const rotate = useRotateWebhookToken({
    onSuccess: () => {
      setConfirming(false);
      toast({ title: 'Webhook Token Rotated', description: 'Paste the new URLs into the provider settings: the old ones no longer work.' });
    },
  });
  const usesToken = c.webhookAuth === 'token' || c.inboundAuth === 'token';
  return (
    <div className="space-y-3 text-sm">
      <UrlField id="webhook-url" label="Webhook URL" url={c.webhookUrl} copyLabel="Copy webhook URL" />
      <UrlField id="inbound-url" label="Inbound Parse URL" url={c.inboundUrl} copyLabel="Copy inbound parse URL" />
      {usesToken ? (
        c.tokenVisible ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-50 p-2">
            <p className="text-slate-600">
              The <code>token</code> in these URLs is this install&apos;s webhook secret: calls without it are refused. Keep it private; rotate it if it leaks.
            </p>
            <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
              Rotate Token
            </Button>
          </div>
        ) : (
          <p className="text-slate-600">Only administrators see the secret token in these URLs.</p>
        )
      ) : null}
      <ol className="list-decimal space-y-1 pl-5">
        <li>Open the provider&apos;s Mail Settings and choose Event Webhook.</li>
        <li>Paste the webhook URL above as the HTTP POST URL, and the inbound parse URL as the Inbound Parse destination.</li>
        <li>Turn on the events below.</li>
        <li>
          {c.signatureVerification
            ? 'Signed event webhooks are checked with SENDGRID_WEBHOOK_PUBLIC_KEY.'
            : 'Optionally turn on signed event webhooks and copy the verification key into SENDGRID_WEBHOOK_PUBLIC_KEY: the signature then replaces the token.'}
        </li>
      </ol>
      <p>
        Events to enable: {c.events.map((e) => EVENT_LABELS[e] ?? e).join(', ')}
      </p>
      <a href={PROVIDER_SETTINGS} target="_blank" rel="noreferrer" className="font-semibold text-indigo-700 hover:underline">
        Open the provider settings
      </a>
      {confirming ? (
        <ConfirmDialog
          title="Rotate the webhook token?"
          description="A new token replaces the current one. Calls to the current URLs are refused at once, until the provider settings have the new URLs."
          confirmLabel="Rotate token"
          danger
          pending={rotate.isPending}
          error={rotate.isError ? errorMessage(rotate.error) : undefined}
          onConfirm={() => rotate.mutate()}
          onCancel={() => {
            rotate.reset();
            setConfirming(false);
          }}
        />
      ) : null}
    </div>
  );
}

/** Addresses we never email; an admin can lift one that was forged or a mistake (audited). */
function SuppressionList() {
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [lifting, setLifting] = useState<Suppression | null>(null);
  const isAdmin = useAdminUser().data?.isAdmin ?? false;
  const list = useSuppressions({ q, limit: SUPPRESSION_PAGE, offset });
  const lift = useLiftSuppression({
    onSuccess: (r) => {
      setLifting(null);
      toast({ title: 'Suppression Lifted', description: `${r.email} can be emailed again.` });
    },
  });
  return (
    <Card
      title="Suppressed Addresses"
      actions={
        <SearchInput
          value={q}
          onSearch={(v) => {
            setQ(v);
            setOffset(0);
          }}
          placeholder="Search addresses"
          aria-label="Search suppressed addresses"
          className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      }
    >
      {list.data ? (
        list.data.items.length === 0 ? (
          <EmptyState title={q ? 'No suppressed address matches' : 'No suppressed addresses'}>
            Unsubscribes, hard bounces and spam reports appear here.
          </EmptyState>
        ) : (
          <div className="space-y-3">
            <ul aria-label="Suppressed addresses" className="divide-y divide-slate-100 text-sm">
              {list.data.items.map((s) => (
                <li key={s.email} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    <span className="font-medium">{s.email}</span>{' '}
                    <span className="text-slate-500">
                      — {REASON_LABELS[s.reason]}
                      {s.source ? ` (${s.source})` : ''} · {formatDateTime(s.createdAt)}
                    </span>
                  </span>
                  {isAdmin ? (
                    <Button variant="secondary" size="sm" onClick={() => setLifting(s)} aria-label={`Lift suppression for ${s.email}`}>
                      Lift
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
            <Pager offset={offset} count={list.data.items.length} total={list.data.total} pageSize={SUPPRESSION_PAGE} onOffsetChange={setOffset} />
          </div>
        )
      ) : list.isError ? (
        <ErrorState title="Could not load the suppression list" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Skeleton rows={2} label="Loading the suppression list" />
      )}
      {lifting ? (
        <ConfirmDialog
          title="Lift this suppression?"
          description={`${lifting.email} will receive email from us again. The audit log records who lifted it.`}
          confirmLabel="Lift suppression"
          pending={lift.isPending}
          error={lift.isError ? errorMessage(lift.error) : undefined}
          onConfirm={() => lift.mutate(lifting.email)}
          onCancel={() => {
            lift.reset();
            setLifting(null);
          }}
        />
      ) : null}
    </Card>
  );
}
