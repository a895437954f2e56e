import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Card, EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatNumber } from '@/lib/format';
import { toast } from '@/stores/toasts';
import type { Job } from '@/types/api';

import { useDisconnectMailbox } from '../api/disconnect-mailbox';
import { useMailboxes } from '../api/get-mailboxes';
import { mailboxKeys } from '../api/query-keys';
import { useStartMailboxJob, type MailboxAction } from '../api/start-mailbox-job';
import type { Mailbox } from '../api/types';

import { ConnectMailboxDialog } from './connect-mailbox-dialog';

const TLS_LABEL: Record<Mailbox['tls'], string> = { implicit: 'SSL/TLS', starttls: 'STARTTLS', none: 'no encryption' };

type Following = { jobId: string; mailbox: Mailbox; action: MailboxAction };

/** What a finished test or sync job says, as a toast. */
function report(job: Job, { mailbox, action }: Following) {
  const result = (job.result ?? {}) as { messages?: number; matched?: number; seen?: number };
  if (job.status !== 'succeeded') {
    toast({
      title: action === 'test' ? 'Connection failed' : 'Sync failed',
      description: job.error ?? `${mailbox.username}: the job did not finish.`,
      variant: 'destructive',
    });
  } else if (action === 'test') {
    toast({
      title: 'Connection works',
      description: `${mailbox.username}: ${formatNumber(result.messages ?? 0)} messages in ${mailbox.folder}.`,
      variant: 'success',
    });
  } else {
    toast({
      title: 'Mailbox synced',
      description: `${formatNumber(result.seen ?? 0)} new messages read, ${formatNumber(result.matched ?? 0)} replies or bounces matched.`,
      variant: 'success',
    });
  }
}

function MailboxRow({
  mailbox,
  busy,
  onAction,
  onDisconnect,
}: {
  mailbox: Mailbox;
  busy: MailboxAction | null;
  onAction: (action: MailboxAction) => void;
  onDisconnect: () => void;
}) {
  const name = `${mailbox.username} on ${mailbox.host}`;
  return (
    <li aria-label={name} className="space-y-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">{mailbox.username}</span>
        {mailbox.lastError ? (
          <span className="rounded-full bg-rose-100 px-2 text-xs font-semibold text-rose-800">Needs attention</span>
        ) : mailbox.lastSyncAt ? (
          <span className="rounded-full bg-emerald-100 px-2 text-xs font-semibold text-emerald-800">Syncing</span>
        ) : (
          <span className="rounded-full bg-slate-200 px-2 text-xs font-semibold text-slate-800">Not synced yet</span>
        )}
      </div>
      <p className="text-xs break-all text-slate-500">
        {mailbox.host}:{mailbox.port}, {TLS_LABEL[mailbox.tls]}, {mailbox.auth === 'xoauth2' ? 'Google sign-in' : 'app password'},
        folder {mailbox.folder}
      </p>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-500">Last sync</dt>
          <dd>{mailbox.lastSyncAt ? formatDateTime(mailbox.lastSyncAt) : 'Never'}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Replies and bounces matched</dt>
          <dd>{formatNumber(mailbox.messagesMatched)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Messages read</dt>
          <dd>{formatNumber(mailbox.messagesSeen)}</dd>
        </div>
      </dl>
      {mailbox.lastError ? (
        <p className="text-sm text-rose-700">
          Last error{mailbox.lastErrorAt ? ` (${formatDateTime(mailbox.lastErrorAt)})` : ''}: {mailbox.lastError}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => onAction('test')} aria-label={`Test connection of ${name}`}>
          {busy === 'test' ? 'Testing…' : 'Test connection'}
        </Button>
        <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => onAction('sync')} aria-label={`Sync ${name} now`}>
          {busy === 'sync' ? 'Syncing…' : 'Sync now'}
        </Button>
        <Button variant="secondary" size="sm" onClick={onDisconnect} aria-label={`Disconnect ${name}`}>
          Disconnect
        </Button>
      </div>
    </li>
  );
}

/**
 * The user's mailboxes read for replies (mailbox sync over IMAP): connect, test, sync now and
 * disconnect; when each last synced, what it matched and the last error.
 */
export function MailboxesCard() {
  const list = useMailboxes();
  const [connecting, setConnecting] = useState(false);
  const [following, setFollowing] = useState<Following | null>(null);
  const [removing, setRemoving] = useState<Mailbox | null>(null);
  useJobOutcome(following?.jobId, {
    invalidate: [mailboxKeys.all],
    onDone: (job) => {
      if (following) report(job, following);
      setFollowing(null);
    },
    onError: (e) => {
      toast({ title: 'Could not follow the job', description: errorMessage(e), variant: 'destructive' });
      setFollowing(null);
    },
  });
  const start = useStartMailboxJob({
    onSuccess: (r, v) => {
      const mailbox = list.data?.find((m) => m.id === v.id);
      if (mailbox) setFollowing({ jobId: r.jobId, mailbox, action: v.action });
    },
  });
  const disconnect = useDisconnectMailbox({
    onSuccess: () => {
      toast({ title: 'Mailbox disconnected', description: removing?.username, variant: 'success' });
      setRemoving(null);
    },
  });

  return (
    <Card
      title="Mailboxes (reply sync)"
      actions={
        <Button size="sm" onClick={() => setConnecting(true)}>
          Connect mailbox
        </Button>
      }
    >
      <div aria-live="polite">
        {list.isError ? (
          <ErrorState title="Could not load the mailboxes" error={list.error} onRetry={() => void list.refetch()} />
        ) : !list.data ? (
          <Skeleton rows={2} label="Loading the mailboxes" />
        ) : list.data.length === 0 ? (
          <EmptyState title="No mailbox connected">
            Connect the mailbox you send from (Gmail, Microsoft 365 or any IMAP server) so replies that land there stop sequences.
          </EmptyState>
        ) : (
          <ul aria-label="Connected mailboxes" className="divide-y divide-slate-100">
            {list.data.map((m) => (
              <MailboxRow
                key={m.id}
                mailbox={m}
                busy={following?.mailbox.id === m.id ? following.action : start.isPending && start.variables.id === m.id ? start.variables.action : null}
                onAction={(action) => start.mutate({ id: m.id, action })}
                onDisconnect={() => setRemoving(m)}
              />
            ))}
          </ul>
        )}
        {start.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            {errorMessage(start.error)}
          </p>
        ) : null}
      </div>
      {connecting ? (
        <ConnectMailboxDialog
          onClose={() => setConnecting(false)}
          onConnected={(r) => {
            setConnecting(false);
            setFollowing({ jobId: r.jobId, mailbox: r.mailbox, action: 'test' });
            toast({ title: 'Mailbox connected', description: `Testing ${r.mailbox.username}…` });
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title="Disconnect this mailbox?"
          description={`${removing.username} will no longer be read for replies; its stored password is deleted.`}
          confirmLabel="Disconnect"
          danger
          pending={disconnect.isPending}
          error={disconnect.isError ? errorMessage(disconnect.error) : undefined}
          onConfirm={() => disconnect.mutate(removing.id)}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </Card>
  );
}
