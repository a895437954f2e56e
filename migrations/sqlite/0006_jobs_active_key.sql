-- A key unique only among active jobs: "the same request again while the first still runs returns
-- it", unlike idempotency_key, which holds until the job is pruned.
ALTER TABLE jobs ADD COLUMN active_key TEXT;
CREATE UNIQUE INDEX jobs_active_key ON jobs(kind, active_key)
    WHERE active_key IS NOT NULL AND status IN ('queued','scheduled','running','retrying');
