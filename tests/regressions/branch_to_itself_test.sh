#!/usr/bin/env bash
# A SASS input the fuzzer found (tests/regressions/inputs/sass_branch_to_itself.sass): ptxas's
# trailing `BRA 0xf0` at 0xf0 reached by a lane ran to the 2^24-step limit (10 s of CPU for 3 KB).
# A taken branch to itself now stops the lane at once; the run must end within 5 s.
set -u
BIN=${1:?usage: branch_to_itself_test.sh <layoutproof> <repo root>}; ROOT=${2:?}
timeout 5 "$BIN" sass "$ROOT/tests/regressions/inputs/sass_branch_to_itself.sass" --block 32 --claim conflict-free >/dev/null 2>&1
rc=$?
[ $rc -ne 124 ] || { echo "FAIL: the run took more than 5 s"; exit 1; }
[ $rc -le 3 ] || { echo "FAIL: exit $rc"; exit 1; }
echo "passed: exit $rc within 5 s"
