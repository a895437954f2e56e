# The two commands of the README: `make run` and `make test`. Everything else is a part of them.
SHELL := /bin/bash
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
export TEST_DATABASE_URL
# Where cargo puts binaries (CARGO_TARGET_DIR when set).
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: run test lint test-rust test-reliability test-web test-e2e web-build debug-bin check-postgres bench api-types

## Build the web app and the release binary, then run everything on SQLite with demo data.
run: web-build
	cargo build --release --bin prospector
	WEB_DIST=web/dist $(TARGET_DIR)/release/prospector all

## The whole suite: formatting, lints, Rust tests on SQLite and Postgres, web checks, browser tests.
test: check-postgres lint test-rust test-web test-e2e

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web-build: web/node_modules/.package-lock.json
	cd web && npm run build

check-postgres:
	@scripts/check-postgres.sh

lint:
	cargo fmt --all -- --check
	python3 scripts/module-cycles.py
	cargo clippy --workspace --all-targets -- -D warnings

test-rust:
	cargo nextest run --workspace --no-fail-fast -E 'not test(/^reliability::/)'

## The reliability suite (docs/reliability.md): kills, a Postgres restart, failing providers, fuzzing.
## One test at a time: the Postgres half restarts the server.
test-reliability: check-postgres
	cargo nextest run --workspace --no-fail-fast --test-threads 1 \
	  -E 'test(/^reliability::/) | test(two_schedulers) | test(sigterm_drains) | test(sigkill_rescue) | test(/^fuzz::/)'
	$(MAKE) debug-bin
	# The two passes run side by side, each its own process with one worker (scripts/schemathesis.sh).
	scripts/schemathesis.sh $(TARGET_DIR)/debug/prospector sqlite >$(TARGET_DIR)/schemathesis-sqlite.log 2>&1 & \
	  sqlite=$$!; \
	  scripts/schemathesis.sh $(TARGET_DIR)/debug/prospector postgres >$(TARGET_DIR)/schemathesis-postgres.log 2>&1; \
	  postgres=$$?; wait $$sqlite; sqlite=$$?; \
	  cat $(TARGET_DIR)/schemathesis-sqlite.log $(TARGET_DIR)/schemathesis-postgres.log; \
	  test $$sqlite -eq 0 && test $$postgres -eq 0

test-web: web/node_modules/.package-lock.json
	cd web && npm run check:api-types && npm run lint && npm run typecheck && npm test

## The web app's API types from the server's OpenAPI document (web/openapi.json, then
## web/src/types/openapi.gen.ts). A Rust test and `check:api-types` fail when either is stale.
api-types: debug-bin web/node_modules/.package-lock.json
	$(TARGET_DIR)/debug/prospector openapi > web/openapi.json
	cd web && npm run -s api-types

test-e2e: web-build debug-bin
	scripts/e2e.sh $(TARGET_DIR)/debug/prospector

## The debug binary as the test build makes it (dev-dependencies' features included), so after
## test-rust it is already there; a plain `cargo build` would compile many crates again.
debug-bin:
	cargo nextest run --workspace --no-run

## Queue benchmark on both backends (release build), at `prospector worker`'s default settings.
bench:
	cargo build --release --bin prospector
	$(TARGET_DIR)/release/prospector bench queue --db sqlite --jobs 100000
	$(TARGET_DIR)/release/prospector bench queue --db postgres --jobs 100000
