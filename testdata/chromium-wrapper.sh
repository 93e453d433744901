#!/bin/sh
# Chromium for the tests: headless-friendly and kept off the network. Named
# `chromium` first on PATH so that wasmbrowsertest (which takes no flags) and
# chromedp pick it up.
for c in /usr/bin/chromium /usr/bin/chromium-browser; do
  [ -x "$c" ] && exec "$c" --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-background-networking --disable-component-update --disable-sync --no-first-run \
    --host-resolver-rules="MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" "$@"
done
echo "chromium-wrapper: no Chromium at /usr/bin/chromium; run: apt-get install chromium" >&2
exit 127
