#!/usr/bin/env bash
# Make sure a redis-server binary is available for the test fixture (which
# starts its own throwaway server on a free port; it never uses a running one).
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "redis-server not found: installing Debian's redis-server package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  # The package may start a system service; the tests do not use it.
  exit 0
fi
cat >&2 <<'MSG'
redis-server is required by the tests (they start a throwaway one on a free port).
Install it, for example:
  Debian/Ubuntu:  sudo apt-get install redis-server
  macOS:          brew install redis
then run `make test` again.
MSG
exit 1
