#!/usr/bin/env bash
# Install everything the test suite needs, then run it: `bash scripts/test.sh [pytest args]`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Browser tests drive Debian's chromium with CJK fonts; install them when missing (needs root or sudo).
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -d /usr/share/fonts/opentype/noto ] || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -r requirements-dev.txt
exec python3 -m pytest "$@"
