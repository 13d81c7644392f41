#!/usr/bin/env bash
# ctest `report.screenshot`: writes the 32x40 Sw<2,2,3> report and takes a headless Chromium
# screenshot of it; exit 77 (skipped) with "SKIPPED: chromium not installed" when there is none.
set -uo pipefail
BIN="$1"; ROOT="$2"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  echo "SKIPPED: chromium not installed"; exit 77
fi
DIR="$(mktemp -d)"; trap 'rm -rf "$DIR"' EXIT
"$BIN" prove 'Sw<2,2,3> o (32,40):(40,1)' --claim conflict-free --elem-bytes 4 --vec 4 --pattern row-per-lane \
  --report "$DIR/r" > "$DIR/out.txt"
[ $? -eq 1 ] || { echo "expected REFUTED (exit 1)"; cat "$DIR/out.txt"; exit 1; }
bash "$ROOT/scripts/report_screenshot.sh" "$DIR/r" "$DIR/shot.png" || exit $?
SIZE=$(stat -c %s "$DIR/shot.png")
[ "$SIZE" -gt 20000 ] || { echo "screenshot suspiciously small: $SIZE bytes"; exit 1; }
echo "screenshot ok ($SIZE bytes)"
