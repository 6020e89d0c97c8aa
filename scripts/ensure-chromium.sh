#!/usr/bin/env bash
# Make sure Debian's headless Chromium is available for the browser tests
# (tests/web drive it with Playwright for Python through `executable_path`;
# Playwright's own browser builds are never downloaded).
set -euo pipefail
CHROMIUM="${THRONEROOM_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "$CHROMIUM not found: installing Debian's chromium package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
cat >&2 <<'MSG'
Chromium is required by the browser tests (tests/web). Install it, for example:
  Debian/Ubuntu:  sudo apt-get install chromium
or point THRONEROOM_CHROMIUM at a Chromium or Chrome binary, then run `make test` again.
MSG
exit 1
