#!/usr/bin/env bash
# The store, the rounds API and live streams across processes once more on PostgreSQL, on a throwaway server in a temporary directory:
# `bash scripts/test_postgres.sh [pytest args]` (scripts/test.sh runs it after the main suite).
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1)
if [ -z "$version" ]; then
  echo "PostgreSQL is not installed (Debian: apt-get install postgresql); scripts/test.sh installs it." >&2
  exit 1
fi
bin=/usr/lib/postgresql/$version/bin
dir=$(mktemp -d /tmp/shipai-pg.XXXXXX)
run=()
if [ "$(id -u)" -eq 0 ]; then  # the server refuses to run as root
  chown postgres "$dir"
  run=(runuser -u postgres --)
fi
port=$((20000 + RANDOM % 20000))
pg() { (cd "$dir" && "${run[@]}" "$@"); }  # from a directory the server's user may enter
cleanup() {
  pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
pg "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-p $port -k $dir -c listen_addresses=''" start >/dev/null
"$bin/psql" -q -h "$dir" -p "$port" -U postgres -c "CREATE DATABASE shipai_test" >/dev/null

echo "PostgreSQL $version on $dir:$port: tests/test_store.py tests/test_rounds_api.py tests/test_club_api.py tests/test_live.py tests/test_verdict_api.py"
POETRY_TEST_DATABASE_URL="postgresql+psycopg://postgres@/shipai_test?host=$dir&port=$port" \
  python3 -m pytest -p no:cacheprovider tests/test_store.py tests/test_rounds_api.py tests/test_club_api.py \
  tests/test_live.py tests/test_verdict_api.py "$@"
