#!/usr/bin/env bash
# Browser tests against the real server: a fresh SQLite database, an admin login, Debian's Chromium.
set -euo pipefail
bin="$(realpath "${1:-target/debug/prospector}")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
password="$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')"
export DATABASE_URL="sqlite://$work/e2e.db" PROSPECTOR_DATA_DIR="$work/data" PORT="$port" WEB_DIST="$root/web/dist"
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$bin" user add --email e2e-admin@prospector.test --password="$password" --name "E2E Admin" --admin >/dev/null
"$bin" all >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$work/server.log"; exit 1; }
cd "$root/web"
if ! E2E_BASE_URL="http://127.0.0.1:$port" E2E_EMAIL=e2e-admin@prospector.test E2E_PASSWORD="$password" npm run e2e; then
  echo "--- server log ---"; tail -50 "$work/server.log"; exit 1
fi
