#!/usr/bin/env bash
# `layoutproof catalog`: every catalog claim is proved (exit 0), -j 2 gives the same verdicts as
# -j 1, and the cache answers a second run without proving again (PROVED verdicts only).
set -euo pipefail
bin="$1"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" catalog --no-cache --no-progress > "$out/j1.txt" || fail "catalog exit $? (expected 0: every claim proved)"
tail -1 "$out/j1.txt" | grep -Eq "^[0-9]+ claims: ([0-9]+) proved, 0 refuted, 0 unknown, 0 error" || fail "$(tail -1 "$out/j1.txt")"
n=$(tail -1 "$out/j1.txt" | sed -E 's/^([0-9]+) claims.*/\1/')
[ "$n" -ge 250 ] || fail "only $n catalog claims"
grep -q "GMMA::Layout_K_SW128_Atom<16b> .*tma:Sw<3,4,3> .*PROVED" "$out/j1.txt" || fail "TMA claim missing"
grep -q "conflict-free \[ldmatrix ldsm4 16 B\]" "$out/j1.txt" || fail "ldmatrix claims missing"

"$bin" catalog --no-cache --no-progress -j 2 > "$out/j2.txt" || fail "catalog -j 2"
cut -c1-100 "$out/j1.txt" | awk '{print $1, $2, $3, $4}' > "$out/a"; cut -c1-100 "$out/j2.txt" | awk '{print $1, $2, $3, $4}' > "$out/b"
diff -q "$out/a" "$out/b" > /dev/null || fail "-j 2 changed the results"

"$bin" catalog --cache "$out/cache" --no-progress > /dev/null || fail "cold cached run"
"$bin" catalog --cache "$out/cache" --no-progress > "$out/warm.txt" || fail "warm cached run"
[ "$(grep -c 'PROVED    cached: ' "$out/warm.txt")" = "$n" ] || fail "the warm run proved again"
echo "catalog: $n claims proved; -j 2 agrees; the cache answers all $n"
