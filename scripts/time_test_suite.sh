#!/usr/bin/env bash
# Times README's test command the way CI meets it: a fresh clone of this checkout's HEAD, no compiler
# cache, then the build and `ctest -j2` each under /usr/bin/time (wall, user and sys seconds).
#   usage: scripts/time_test_suite.sh [DIR]   (DIR: where to clone; default a new temporary folder)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$(mktemp -d)}
git clone -q "$SRC" "$DIR/layoutproof"
cd "$DIR/layoutproof"
export CCACHE_DISABLE=1
bash scripts/setup.sh >"$DIR/setup.log" 2>&1
/usr/bin/time -f "build: wall %e s, user %U s, sys %S s" -o "$DIR/build.time" bash scripts/build.sh >"$DIR/build.log" 2>&1
set +e
(cd build && /usr/bin/time -f "tests: wall %e s, user %U s, sys %S s" -o "$DIR/tests.time" ctest -j2 >"$DIR/ctest.log" 2>&1)
rc=$?
cat "$DIR/build.time" "$DIR/tests.time"
tail -3 "$DIR/ctest.log"
exit $rc
