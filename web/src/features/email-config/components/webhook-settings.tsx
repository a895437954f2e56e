import { useEffect, useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import type { WebhookConfig } from '../api/get-webhook-config';
import { useRotateWebhookToken } from '../api/rotate-webhook-token';

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
export function WebhookSettings({ config: c }: { config: WebhookConfig }) {
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
