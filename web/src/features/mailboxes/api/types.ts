import type { MailboxView, paths } from '@/types/openapi.gen';

/** How the connection is protected: SSL/TLS from the start, STARTTLS, or none (this machine only). */
export type MailboxTls = MailboxView['tls'];

/** How the mailbox signs in: an app password, or the user's Google grant (XOAUTH2). */
export type MailboxAuth = Exclude<NonNullable<ConnectMailboxInput['auth']>, ''>;

/** `GET /api/mailboxes`: a connected mailbox as the server shows it (never its password). */
export type Mailbox = MailboxView;

type MailboxesPost = paths['/api/mailboxes']['post'];

export type ConnectMailboxInput = NonNullable<MailboxesPost['requestBody']>['content']['application/json'];

/** `POST /api/mailboxes` (201): the mailbox and its connection test job. */
export type MailboxConnected = MailboxesPost['responses'][201]['content']['application/json'];

/** `POST /api/mailboxes/{id}/test` and `/sync` (202). */
export type MailboxJobStarted = paths['/api/mailboxes/{id}/test']['post']['responses'][202]['content']['application/json'];
