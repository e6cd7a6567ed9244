#!/usr/bin/env sh
# npm test needs Debian's Chromium for the OAuth consent browser test (playwright-core drives it). Installed here,
# once, so that `npm ci && npm test` works on a fresh machine; a no-op when it is already present.
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser test..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "could not install chromium; the browser test will say so" >&2
else
  echo "chromium is missing and cannot be installed here (needs root and apt-get); the browser test will say so" >&2
fi
exit 0
