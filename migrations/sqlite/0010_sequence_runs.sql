-- Running sequences in batches: the tick leases the due enrollments it hands to a step job (another
-- tick skips them until the lease ends, so a lost job only delays them); a sequence's sending window;
-- the A/B variant each sequence message was sent as (per-variant stats).

ALTER TABLE sequence_enrollments ADD COLUMN leased_until INTEGER;
ALTER TABLE email_sequences ADD COLUMN sending_window TEXT;
ALTER TABLE email_messages ADD COLUMN variant TEXT;
CREATE INDEX email_messages_enrollment ON email_messages (enrollment_id);
CREATE INDEX meetings_contact ON meetings (contact_id);
