import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { seriousViolations } from '@/testing/axe';
import { db } from '@/testing/mocks/db';
import { makeMailbox, mailboxState, resetMailboxes } from '@/testing/mocks/mailbox-handlers';
import { recordRequests } from '@/testing/mocks/server';
import { renderApp, renderWithProviders } from '@/testing/test-utils';

import { MailboxesCard } from './mailboxes-card';

beforeEach(() => {
  db.signedIn = true;
  resetMailboxes();
});

/** Ends the newest job as the worker would. */
function finishLastJob(status: 'succeeded' | 'failed', result: unknown, error: string | null = null) {
  const job = db.jobs.at(-1);
  if (!job) throw new Error('no job to finish');
  Object.assign(job, { status, result, error, finishedAt: new Date().toISOString() });
}

describe('Mailboxes card', () => {
  it('connects a Gmail mailbox with an app password and reports the connection test', async () => {
    const requests = recordRequests();
    const { user } = renderWithProviders(<MailboxesCard />);
    expect(await screen.findByText('No mailbox connected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Connect mailbox' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a mailbox' });
    expect(within(dialog).getByLabelText('IMAP server')).toHaveValue('imap.gmail.com');
    expect(within(dialog).getByLabelText('Port')).toHaveValue('993');

    // Nothing is sent until the required fields are filled.
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(within(dialog).getByText('User name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('App password is required')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('User name'), 'sales@dealers.test');
    await user.type(within(dialog).getByLabelText('App password'), 'abcd efgh ijkl mnop');
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/mailboxes')).toBe(true);

    const row = await screen.findByRole('listitem', { name: 'sales@dealers.test on imap.gmail.com' });
    expect(within(row).getByText('Not synced yet')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /Test connection/ })).toBeDisabled();
    finishLastJob('succeeded', { connected: true, messages: 12, idle: true });
    expect(await screen.findByText('Connection works')).toBeInTheDocument();
    expect(screen.getByText('sales@dealers.test: 12 messages in INBOX.')).toBeInTheDocument();
  });

  it('fills Microsoft 365 from its preset and offers Google sign-in only for Gmail', async () => {
    const { user } = renderWithProviders(<MailboxesCard />);
    await user.click(await screen.findByRole('button', { name: 'Connect mailbox' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a mailbox' });
    expect(within(dialog).getByRole('combobox', { name: 'Sign in with' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'Microsoft 365 / Outlook' }));
    expect(within(dialog).getByLabelText('IMAP server')).toHaveValue('outlook.office365.com');
    expect(within(dialog).queryByRole('combobox', { name: 'Sign in with' })).not.toBeInTheDocument();
  });

  it('shows last sync, matches and the last error; a failed test says why; disconnect asks first', async () => {
    resetMailboxes([
      makeMailbox({
        id: 'mb-1',
        host: 'outlook.office365.com',
        username: 'rep@dealers.test',
        lastSyncAt: '2026-01-15T09:30:00Z',
        messagesSeen: 40,
        messagesMatched: 3,
        lastError: 'The server refused the user name or password (AUTHENTICATE failed.)',
        lastErrorAt: '2026-01-15T09:45:00Z',
      }),
    ]);
    const { user, container } = renderApp('/admin/email-config', { signedIn: true });
    const row = await screen.findByRole('listitem', { name: 'rep@dealers.test on outlook.office365.com' });
    expect(within(row).getByText('Needs attention')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(row).getByText(/AUTHENTICATE failed/)).toBeInTheDocument();
    expect(await seriousViolations(container)).toEqual([]);

    await user.click(within(row).getByRole('button', { name: /Test connection/ }));
    await waitFor(() => expect(db.jobs.some((j) => j.kind === 'mailbox_sync')).toBe(true));
    finishLastJob('failed', null, 'The server refused the user name or password (AUTHENTICATE failed.)');
    expect(await screen.findByText('Connection failed')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: /Sync .* now/ }));
    await waitFor(() => expect(db.jobs.filter((j) => j.kind === 'mailbox_sync')).toHaveLength(2));
    finishLastJob('succeeded', { seen: 5, matched: 2 });
    expect(await screen.findByText('5 new messages read, 2 replies or bounces matched.')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: /Disconnect/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect this mailbox?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('No mailbox connected')).toBeInTheDocument();
    expect(mailboxState.mailboxes).toHaveLength(0);
  });
});
