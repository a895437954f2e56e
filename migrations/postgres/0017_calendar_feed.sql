-- The version signed into a user's calendar feed URL (issue 19 §6): the feed answers only while the
-- token's version is the stored one, so bumping it (POST /api/calendar/feed-url/rotate) revokes the
-- old URL at once without touching SECRET_KEY or anyone else's feed.
ALTER TABLE users ADD COLUMN calendar_feed_version INTEGER NOT NULL DEFAULT 0;
