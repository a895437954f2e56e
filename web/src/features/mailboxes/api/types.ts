import type { JobStatus } from '@/types/api';

/** How the connection is protected: SSL/TLS from the start, STARTTLS, or none (this machine only). */
export type MailboxTls = 'implicit' | 'starttls' | 'none';

/** How the mailbox signs in: an app password, or the user's Google grant (XOAUTH2). */
export type MailboxAuth = 'password' | 'xoauth2';

/** `GET /api/mailboxes`: a connected mailbox as the server shows it (never its password). */
export type Mailbox = {
  id: string;
  host: string;
  port: number;
  tls: MailboxTls;
  auth: MailboxAuth;
  username: string;
  folder: string;
  lastSyncAt: string | null;
  messagesSeen: number;
  messagesMatched: number;
  lastError: string | null;
  lastErrorAt: string | null;
  createdAt: string;
};

export type ConnectMailboxInput = {
  host: string;
  port: number;
  tls: MailboxTls;
  auth: MailboxAuth;
  username: string;
  password?: string;
  folder?: string;
};

/** `POST /api/mailboxes` (201): the mailbox and its connection test job. */
export type MailboxConnected = { mailbox: Mailbox; jobId: string };

/** `POST /api/mailboxes/{id}/test` and `/sync` (202). */
export type MailboxJobStarted = { jobId: string; status: JobStatus };
