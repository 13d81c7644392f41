#!/usr/bin/env bash
# Mutation check for the properties: copy the repo to a temp dir, break complement so it
# takes L's modes in their given order instead of sorted by stride ("complement returning its
# modes unsorted"), build only the property tests there, run them, and require at least one
# property to fail. Prints the shrunk counterexample(s). Exit 0 when the mutant is caught.
# Not a ctest test (a fresh build takes ~1-2 minutes on 2 cores); run it by hand or in a nightly job.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
tar -C "$ROOT" --exclude='./build*' --exclude='./.git' -cf - . | tar -C "$TMP" -xf -
TARGET='const auto it = std::min_element(stride.begin(), stride.end());'
grep -qF "$TARGET" "$TMP/model/algebra/algebra.cpp" || { echo "mutation site not found in model/algebra/algebra.cpp"; exit 2; }
sed -i "s/const auto it = std::min_element(stride.begin(), stride.end());/const auto it = stride.begin();  \/\/ MUTANT: unsorted/" "$TMP/model/algebra/algebra.cpp"
echo "mutant: complement takes modes unsorted (model/algebra/algebra.cpp)"
cmake -S "$TMP" -B "$TMP/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$TMP/build" -j2 --target property_tests >/dev/null
set +e
OUT="$("$TMP/build/tests/properties/property_tests" 2>&1)"
set -e
echo "$OUT" | grep -E "^\[  FAILED  \] [A-Za-z]+\.[A-Za-z]+ \(" || true
echo "--- shrunk counterexamples ---"
echo "$OUT" | awk '/Falsifiable after/{p=1} p{print} /^seed [0-9]+/{p=0; print ""}'
if echo "$OUT" | grep -q "Falsifiable after"; then
  echo "mutation check: CAUGHT"
  exit 0
fi
echo "mutation check: NOT caught"
exit 1
