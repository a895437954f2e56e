-- Users managed in the app (issue 21): an admin disables an account instead of deleting it, so its
-- history (deals, campaigns, the audit log) keeps its author. A disabled account cannot sign in and
-- its sessions end when it is disabled.
ALTER TABLE users ADD COLUMN disabled_at INTEGER;
-- Disabling an account or resetting its password ends that user's sessions by user id.
CREATE INDEX sessions_user ON sessions(user_id);
