#!/usr/bin/env bash
# Says loudly when the Postgres half of the suite cannot run; under CI=true that is a failure.
url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -d "$url"; then
  exit 0
fi
if python3 - "$url" <<'PY' 2>/dev/null
import socket, sys, urllib.parse
u = urllib.parse.urlparse(sys.argv[1])
socket.create_connection((u.hostname or "127.0.0.1", u.port or 5432), timeout=3).close()
PY
then
  exit 0
fi
echo "=================================================================="
echo " POSTGRES UNREACHABLE at TEST_DATABASE_URL=$url"
echo " The Postgres half of the test suite will NOT run."
echo "=================================================================="
if [ "${CI:-}" = "true" ]; then
  echo "CI=true: failing, the Postgres tests must run in CI." >&2
  exit 1
fi
