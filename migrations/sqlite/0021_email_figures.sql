-- Email figures (docs/figures.md) ask, per sent message, whether an event names it: an index on the
-- event's message keeps that a lookup instead of a scan of every event.
CREATE INDEX email_events_message ON email_events (message_id, event_type);
