import { http, HttpResponse } from 'msw';

import type { ConnectMailboxInput, Mailbox } from '@/features/mailboxes/api/types';

import { notSignedIn } from './authed';
import { db, makeJob, newId } from './db';

/** The signed-in user's mailboxes (`/api/mailboxes`); tests reset it with `resetMailboxes`. */
export const mailboxState: { mailboxes: Mailbox[] } = { mailboxes: [] };

export function resetMailboxes(mailboxes: Mailbox[] = []) {
  mailboxState.mailboxes = mailboxes;
}

export function makeMailbox(overrides: Partial<Mailbox> = {}): Mailbox {
  return {
    id: newId('mb'),
    host: 'imap.gmail.com',
    port: 993,
    tls: 'implicit',
    auth: 'password',
    username: 'sales@dealers.test',
    folder: 'INBOX',
    lastSyncAt: null,
    messagesSeen: 0,
    messagesMatched: 0,
    lastError: null,
    lastErrorAt: null,
    createdAt: '2026-01-15T10:00:00Z',
    ...overrides,
  };
}

const find = (id: unknown) => mailboxState.mailboxes.find((m) => m.id === id);

export const mailboxHandlers = [
  http.get('/api/mailboxes', () => {
    if (!db.signedIn) return notSignedIn();
    return HttpResponse.json(mailboxState.mailboxes);
  }),

  http.post('/api/mailboxes', async ({ request }) => {
    if (!db.signedIn) return notSignedIn();
    const body = (await request.json()) as ConnectMailboxInput;
    if (body.auth === 'password' && !body.password) {
      return HttpResponse.json(
        { message: 'App password is required', errors: { password: 'App password is required' } },
        { status: 422 },
      );
    }
    const tls = body.tls === 'starttls' || body.tls === 'none' ? body.tls : 'implicit';
    // The server takes numbers for its text fields and digits for the port.
    const mailbox = makeMailbox({
      host: String(body.host),
      port: body.port == null ? (tls === 'implicit' ? 993 : 143) : Number(body.port),
      tls,
      auth: body.auth ?? 'password',
      username: String(body.username),
      folder: body.folder == null ? 'INBOX' : String(body.folder),
    });
    mailboxState.mailboxes.push(mailbox);
    const job = makeJob({ kind: 'mailbox_sync', status: 'queued' });
    db.jobs.push(job);
    return HttpResponse.json({ mailbox, jobId: job.id }, { status: 201 });
  }),

  http.delete('/api/mailboxes/:id', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    if (!find(params.id)) return HttpResponse.json({ message: 'Mailbox not found' }, { status: 404 });
    mailboxState.mailboxes = mailboxState.mailboxes.filter((m) => m.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),

  http.post('/api/mailboxes/:id/:action', ({ params }) => {
    if (!db.signedIn) return notSignedIn();
    if (!find(params.id)) return HttpResponse.json({ message: 'Mailbox not found' }, { status: 404 });
    const job = makeJob({ kind: 'mailbox_sync', status: 'queued' });
    db.jobs.push(job);
    return HttpResponse.json({ jobId: job.id, status: job.status }, { status: 202 });
  }),
];
