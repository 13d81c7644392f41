#!/usr/bin/env bash
# ctest `report.screenshot`: writes the 32x40 Sw<2,2,3> report and takes a headless Chromium
# screenshot of it; exit 77 (skipped) with "SKIPPED: chromium not installed" when there is none.
set -uo pipefail
BIN="$1"; ROOT="$2"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  # CI installs Debian's chromium (scripts/setup.sh): there, a missing browser is a failure, not a skip.
  if [ -n "${CI:-}" ]; then echo "FAIL: chromium not installed in CI (scripts/setup.sh installs it)"; exit 1; fi
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

# A 128-row tile with two claims: DIR/index.html is the summary (every claim, its verdict, a link
# to its detail page), and the browser renders it.
"$BIN" prove '(128,64):(64,1)' --claim conflict-free --claim max-ways:32 --elem-bytes 4 --vec 1 --pattern row-per-lane \
  --report "$DIR/t" > "$DIR/out2.txt"
[ $? -eq 1 ] || { echo "expected REFUTED (exit 1)"; cat "$DIR/out2.txt"; exit 1; }
for f in index.html report.svg claim1.html claim1.svg claim2.html claim2.svg; do
  [ -s "$DIR/t/$f" ] || { echo "missing $f"; exit 1; }
done
grep -q '2 claims: 1 proved, 1 refuted' "$DIR/t/index.html" || { echo "no summary counts"; exit 1; }
grep -q 'href="claim2.html"' "$DIR/t/index.html" || { echo "no link to claim 2"; exit 1; }
bash "$ROOT/scripts/report_screenshot.sh" "$DIR/t" "$DIR/shot2.png" || exit $?
[ "$(stat -c %s "$DIR/shot2.png")" -gt 20000 ] || { echo "summary screenshot suspiciously small"; exit 1; }
echo "summary screenshot ok"
