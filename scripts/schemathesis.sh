#!/usr/bin/env bash
# Schemathesis against the OpenAPI document the api serves (/api/openapi.json): generated valid and
# invalid input for every operation, signed in as an admin (scripts/schemathesis.toml), on a fresh
# SQLite database (or a fresh Postgres database: `scripts/schemathesis.sh BIN postgres`). Runs every
# check (FUZZ_CHECKS, less FUZZ_SKIP_CHECKS): no 5xx; every answer matches its schema, status and
# headers; requests that break the schema (parameters, bodies, the session) are refused; and
# requests the schema allows are accepted. The few operations whose rules no schema can state
# (file contents, provider signatures, rules between two fields or on stored data) say which
# refusals they may give, and why, in scripts/schemathesis.toml. One worker: Python 3.11's parser
# is not thread-safe (CPython gh-106905) and two workers crashed Schemathesis now and then.
# A request may take up to 60 s: `make test-reliability` runs the two passes side by side on two
# cores, and a run makes thousands of rows that the list routes then read.
# Installs schemathesis (pinned) into .venv-fuzz on first use, under a lock: the two passes start
# together on a fresh machine.
set -euo pipefail
bin="$(realpath "${1:-target/debug/prospector}")"
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-fuzz"
(
  flock 9
  if [ ! -x "$venv/bin/st" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check schemathesis==4.32.5
  fi
) 9>"$root/.venv-fuzz.lock"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
password="$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')"
pg_root="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
pg_db=""
if [ "${2:-sqlite}" = postgres ]; then
  pg_db="prospector_fuzz_$(date +%s)_$$"
  psql -q "$pg_root" -c "CREATE DATABASE \"$pg_db\"" >/dev/null
  export DATABASE_URL="${pg_root%/*}/$pg_db"
else
  export DATABASE_URL="sqlite://$work/fuzz.db"
fi
export PROSPECTOR_DATA_DIR="$work/data" PORT="$port" \
  LOGIN_ATTEMPTS_PER_MINUTE=100000 LEADS_PER_MINUTE=100000
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
  if [ -n "$pg_db" ]; then psql -q "$pg_root" -c "DROP DATABASE IF EXISTS \"$pg_db\" WITH (FORCE)" >/dev/null || true; fi
}
trap cleanup EXIT
"$bin" user add --email fuzz-admin@prospector.test --password="$password" --name "Fuzz Admin" --admin >/dev/null
"$bin" all >"$work/server.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$base/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
cookie="$(curl -fsS -c - -H 'content-type: application/json' \
  -d "{\"email\":\"fuzz-admin@prospector.test\",\"password\":\"$password\"}" "$base/api/admin/login" |
  awk '$6 == "prospector_session" { print $7 }')"
[ -n "$cookie" ] || { echo "could not sign in"; cat "$work/server.log"; exit 1; }
# Signing out would end the session the run uses.
export PROSPECTOR_SESSION="$cookie"
skip="${FUZZ_SKIP_CHECKS-}"
if ! "$venv/bin/st" --config-file "${FUZZ_CONFIG:-$root/scripts/schemathesis.toml}" run "$base/api/openapi.json" --url "$base" \
  --checks "${FUZZ_CHECKS:-all}" ${skip:+--exclude-checks "$skip"} --max-examples "${FUZZ_EXAMPLES:-30}" --seed 1 --request-timeout 60 \
  --exclude-path-regex 'logout' ${FUZZ_PATHS:+--include-path-regex "$FUZZ_PATHS"} --workers "${FUZZ_WORKERS:-1}" --no-color --warnings off; then
  echo "--- server errors in the log ---"; grep -i "internal error\|panicked" "$work/server.log" | tail -30
  exit 1
fi
