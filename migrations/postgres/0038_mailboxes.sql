-- Mailbox sync (issue 24 §5, docs/email.md "Mailbox sync"): a user's IMAP mailbox, read by the
-- `mailbox_sync` job for replies and bounce reports to what we sent. The app password is sealed
-- (jobs::sealed) with the mailbox's id as its owner; XOAUTH2 mailboxes use the user's Google grant
-- and store no password. The sync remembers the folder's UIDVALIDITY and the last UID it read, so
-- each run fetches only newer messages; a changed UIDVALIDITY starts the folder again.
CREATE TABLE mailboxes (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    host TEXT NOT NULL,
    port INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    tls TEXT NOT NULL CHECK (tls IN ('implicit', 'starttls', 'none')),
    auth TEXT NOT NULL CHECK (auth IN ('password', 'xoauth2')),
    username TEXT NOT NULL,
    secret TEXT,
    folder TEXT NOT NULL DEFAULT 'INBOX',
    uid_validity BIGINT,
    last_uid BIGINT NOT NULL DEFAULT 0,
    messages_seen BIGINT NOT NULL DEFAULT 0,
    messages_matched BIGINT NOT NULL DEFAULT 0,
    last_sync_at BIGINT,
    last_error TEXT,
    last_error_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (user_id, host, username)
);
CREATE INDEX mailboxes_user ON mailboxes (user_id, created_at);
