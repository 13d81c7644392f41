#!/usr/bin/env bash
# Takes a headless Chromium screenshot of a bank report: scripts/report_screenshot.sh DIR OUT.png
# (DIR holds index.html from `layoutproof prove ... --report DIR`). Exits 77 with
# "SKIPPED: chromium not installed" when no chromium is found (Debian package: chromium).
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 DIR OUT.png" >&2; exit 2; fi
DIR="$(cd "$1" && pwd)"
OUT="$2"
[ -f "$DIR/index.html" ] || { echo "no $DIR/index.html" >&2; exit 2; }
BROWSER="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$BROWSER" ]; then echo "SKIPPED: chromium not installed"; exit 77; fi
PROFILE="$(mktemp -d)"
trap 'rm -rf "$PROFILE"' EXIT
case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
"$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$PROFILE" --hide-scrollbars \
  --screenshot="$OUT" --window-size=1400,1000 "file://$DIR/index.html" >/dev/null 2>&1 || true
[ -s "$OUT" ] || { echo "chromium wrote no screenshot to $OUT" >&2; exit 1; }
echo "screenshot: $OUT"
