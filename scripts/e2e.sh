#!/usr/bin/env bash
# Browser tests against the real server and Debian's Chromium, with an admin login and a loopback
# SMTP sink that keeps every message sent. All browser tests run on a fresh SQLite database and again on
# fresh Postgres databases, and every screen is
# checked (web/e2e/screens.a11y.mjs) on a SQLite database with the demo data.
set -euo pipefail
bin="$(realpath "${1:-target/debug/prospector}")"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/web"
pg_root="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
secret() { python3 -c 'import secrets; print(secrets.token_urlsafe(18))'; }

server="" sink="" work="" pg_db=""
stop() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  [ -n "$sink" ] && kill "$sink" 2>/dev/null
  wait 2>/dev/null || true
  server="" sink=""
  [ -n "$work" ] && rm -rf "$work"
  work=""
  if [ -n "$pg_db" ]; then
    psql -q "$pg_root" -c "DROP DATABASE IF EXISTS \"$pg_db\" WITH (FORCE)" >/dev/null || true
    pg_db=""
  fi
}
trap stop EXIT

# run BACKEND FILES...: a fresh database and server, then the given test files.
run() {
  local backend="$1"; shift
  work="$(mktemp -d)"
  local port smtp_port password
  port="$(free_port)"; smtp_port="$(free_port)"; password="$(secret)"
  if [ "$backend" = postgres ]; then
    pg_db="prospector_e2e_$(date +%s)_$$"
    psql -q "$pg_root" -c "CREATE DATABASE \"$pg_db\"" >/dev/null
    export DATABASE_URL="${pg_root%/*}/$pg_db"
  else
    export DATABASE_URL="sqlite://$work/e2e.db"
  fi
  export PROSPECTOR_DATA_DIR="$work/data" PORT="$port" WEB_DIST="$root/web/dist" \
    PUBLIC_BASE_URL="http://127.0.0.1:$port" SMTP_URL="smtp://127.0.0.1:$smtp_port" \
    MAIL_FROM="Prospector Partnerships <partners@prospector.test>" \
    MAIL_POSTAL_ADDRESS="Prospector Inc., 100 Main Street, Dallas, TX 75201" \
    INBOUND_PARSE_TOKEN="$(secret)" E2E_SMTP_LOG="$work/smtp.jsonl"
  node "$root/web/e2e/smtp-sink.mjs" "$smtp_port" "$E2E_SMTP_LOG" &
  sink=$!
  "$bin" user add --email e2e-admin@prospector.test --password="$password" --name "E2E Admin" --admin >/dev/null
  # The screen checks (accessibility, 360 px, paint times) read the demo data.
  if [ "${WITH_DEMO:-}" = 1 ]; then "$bin" seed --demo >/dev/null; fi
  "$bin" all >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$work/server.log"; exit 1; }
  echo "--- browser tests on $backend: $* ---"
  if ! (cd "$root/web" && E2E_BACKEND="$backend" E2E_BASE_URL="http://127.0.0.1:$port" \
        E2E_EMAIL=e2e-admin@prospector.test E2E_PASSWORD="$password" node --test --test-concurrency=1 "$@"); then
    echo "--- server log ($backend) ---"; tail -80 "$work/server.log"; exit 1
  fi
  stop
}

run sqlite e2e/*.e2e.mjs
run postgres e2e/journeys.e2e.mjs e2e/tables.e2e.mjs e2e/boards.e2e.mjs
run postgres e2e/merge.e2e.mjs e2e/crm.e2e.mjs e2e/discovery.e2e.mjs e2e/jobs.e2e.mjs
WITH_DEMO=1 run sqlite e2e/screens.a11y.mjs
