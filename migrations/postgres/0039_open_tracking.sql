-- Open tracking (issue 24 §6, docs/email.md "Deliverability"): a workspace choice, off by default,
-- because the 1-pixel image it needs is what SpamAssassin's HTML_IMAGE_ONLY rules score. Links are
-- tracked either way. Each message records whether it carried the pixel, set when it is claimed for
-- sending, so an open rate is a share of the messages that could report an open. Messages sent
-- before this migration all carried it.
ALTER TABLE deliverability_settings ADD COLUMN track_opens BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE email_messages ADD COLUMN track_opens BOOLEAN NOT NULL DEFAULT TRUE;
