-- Secrets the install makes for itself on first need (today: the token in the email webhook URLs).
-- `value` is sealed with a key derived from SECRET_KEY (jobs/src/sealed.rs), never stored in clear.
CREATE TABLE app_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
