-- Outbound webhooks (issue 24 §4, docs/webhooks.md). An admin registers endpoints; every event an
-- enabled endpoint subscribes to becomes one delivery, written in the transaction of the change,
-- with its `webhook_deliver` job. A delivery's id (`msg_<ulid>`) is its `webhook-id` on every
-- attempt and redelivery; its body is stored as sent, so each attempt signs the same bytes.
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    description TEXT,
    -- JSON array of event type names.
    event_types TEXT NOT NULL,
    -- The signing secret, sealed (jobs::sealed) with the endpoint's id as its owner.
    secret TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    disabled_reason TEXT,
    disabled_at INTEGER,
    -- Deliveries in a row that failed all their attempts (reset by a success or a re-enable).
    failure_streak INTEGER NOT NULL DEFAULT 0,
    created_by TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    -- The job sending it now (a redelivery is a new job for the same delivery).
    job_id TEXT,
    last_status_code INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
);
-- An endpoint's deliveries, newest first (the screen's pages).
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
-- Pruning finished deliveries past the retention period.
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE webhook_attempts (
    -- A ULID: attempts list in the order they were made.
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    job_id TEXT,
    attempted_at INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    -- The first 4 KB of the receiver's answer.
    response TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
