-- Foundation: logins, sessions, the job platform's tables, the ops audit log.
-- Times are integer milliseconds since the Unix epoch in both dialects, so queue SQL stays the same shape.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    first_name TEXT,
    last_name TEXT,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    is_admin BOOLEAN NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_expires ON sessions(expires_at);

CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued','scheduled','running','retrying','succeeded','failed','cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    locked_by TEXT,
    cancel_requested BOOLEAN NOT NULL DEFAULT FALSE,
    progress_percent INTEGER,
    progress_message TEXT,
    result TEXT,
    error TEXT,
    idempotency_key TEXT
);
CREATE UNIQUE INDEX jobs_idempotency ON jobs(kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX jobs_ready ON jobs(kind, run_at, id) WHERE status IN ('queued','scheduled','retrying');
CREATE INDEX jobs_running ON jobs(locked_by) WHERE status = 'running';
CREATE INDEX jobs_kind_status ON jobs(kind, status, created_at);
CREATE INDEX jobs_status_created ON jobs(status, created_at);
CREATE INDEX jobs_finished ON jobs(finished_at) WHERE finished_at IS NOT NULL;

-- One row per attempt that did not succeed (the happy path writes none, to keep completions cheap).
CREATE TABLE job_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    worker_id TEXT,
    started_at INTEGER,
    finished_at INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    error TEXT NOT NULL
);
CREATE INDEX job_attempts_job ON job_attempts(job_id, attempt);

CREATE TABLE workers (
    id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    pid INTEGER NOT NULL,
    kinds TEXT NOT NULL,
    concurrency INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
);

CREATE TABLE audit_log (
    id TEXT PRIMARY KEY,
    actor_id TEXT,
    actor_email TEXT,
    action TEXT NOT NULL,
    target TEXT,
    detail TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_created ON audit_log(created_at);
