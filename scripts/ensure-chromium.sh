#!/bin/sh
# Installs what the end-to-end tests need when it is missing: Debian's Chromium (`npx playwright
# install` cannot download browsers here) and a small Chinese font (WenQuanYi Micro Hei, 1.6 MB) so
# that screenshots show Chinese text instead of boxes. Needs root to install, as in CI.
set -e
missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null | head -n 1)" ]; then
  missing="$missing fonts-wqy-microhei"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ]; then
  [ -x /usr/bin/chromium ] && exit 0
  echo "ensure-chromium: /usr/bin/chromium is missing; run as root: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A font that fails to install only costs the screenshots their Chinese glyphs, never the tests.
apt-get update -qq || [ -x /usr/bin/chromium ]
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null || [ -x /usr/bin/chromium ]
