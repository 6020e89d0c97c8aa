#!/usr/bin/env bash
# Make sure an nginx binary is available for tests/deploy (which run `nginx -t`
# on deploy/nginx.conf and start a throwaway nginx on free ports; they never
# use a running one). Debian's package, as the balancer image uses.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "nginx not found: installing Debian's nginx package" >&2
  apt-get update -qq
  # The package may try to start a system service; the tests do not use it.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  service nginx stop >/dev/null 2>&1 || true
  exit 0
fi
cat >&2 <<'MSG'
nginx is required by tests/deploy (they check deploy/nginx.conf with nginx -t
and play through a throwaway nginx on free ports). Install it, for example:
  Debian/Ubuntu:  sudo apt-get install nginx
  macOS:          brew install nginx
then run `make test` again.
MSG
exit 1
