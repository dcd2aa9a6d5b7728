#!/usr/bin/env bash
# Install everything the test suite needs, then run it: `bash scripts/test.sh` (ruff, the whole suite, then the
# store on PostgreSQL) or `bash scripts/test.sh [pytest args]` (just that part, on SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."

# Browser tests drive Debian's chromium with CJK fonts; install them when missing (needs root or sudo).
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -d /usr/share/fonts/opentype/noto ] || need+=(fonts-noto-cjk)
# The store is tested on PostgreSQL too (scripts/test_postgres.sh starts a throwaway server).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# Live events by Redis pub/sub are tested on a throwaway redis-server (tests/test_live.py).
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -r requirements-dev.txt
if [ $# -gt 0 ]; then  # a chosen part of the suite
  exec python3 -m pytest "$@"
fi
# Lint first (pyproject.toml [tool.ruff]: line length 120, McCabe complexity at most 15).
python3 -m ruff check .
python3 -m pytest
exec bash scripts/test_postgres.sh -q
