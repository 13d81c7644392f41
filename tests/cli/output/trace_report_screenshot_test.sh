#!/usr/bin/env bash
# ctest `report.trace_screenshot`: `trace --claim conflict-free --report` on the tutorial's padded
# f32 tile written by cp.async (refuted: 4 wavefronts for an ideal of 1), then a headless Chromium
# screenshot of it; exit 77 (skipped) with "SKIPPED: chromium not installed" when there is none.
set -uo pipefail
BIN="$1"; ROOT="$2"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  # CI installs Debian's chromium (scripts/setup.sh): there, a missing browser is a failure, not a skip.
  if [ -n "${CI:-}" ]; then echo "FAIL: chromium not installed in CI (scripts/setup.sh installs it)"; exit 1; fi
  echo "SKIPPED: chromium not installed"; exit 77
fi
DIR="$(mktemp -d)"; trap 'rm -rf "$DIR"' EXIT
"$BIN" trace --side D --element float --smem '(128,8,3):(1,129,1032)' --claim conflict-free --claim covers \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})' \
  --report "$DIR/r" > "$DIR/out.txt"
[ $? -eq 1 ] || { echo "expected REFUTED (exit 1)"; cat "$DIR/out.txt"; exit 1; }
grep -q "report: $DIR/r/index.html" "$DIR/out.txt" || { echo "no report line"; cat "$DIR/out.txt"; exit 1; }
bash "$ROOT/scripts/report_screenshot.sh" "$DIR/r" "$DIR/shot.png" || exit $?
SIZE=$(stat -c %s "$DIR/shot.png")
[ "$SIZE" -gt 20000 ] || { echo "screenshot suspiciously small: $SIZE bytes"; exit 1; }
echo "screenshot ok ($SIZE bytes)"
