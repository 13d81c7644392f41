#!/usr/bin/env bash
# `layoutproof catalog`: every atom claim is proved and the only refutations are the three known
# findings about CUTLASS's own kernel configurations (exit 0), -j 2 gives the same verdicts as -j 1,
# and the cache answers a second run without proving again (PROVED atom verdicts only; kernel
# claims are never cached).
set -euo pipefail
bin="$1"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" catalog --no-cache --no-progress > "$out/j1.txt" || fail "catalog exit $? (expected 0: findings are not failures)"
summary="$(grep -E "^[0-9]+ claims: " "$out/j1.txt")"
grep -Eq "^[0-9]+ claims: ([0-9]+) proved, 4 refuted, 0 unknown, 0 error" <<<"$summary" || fail "$summary"
grep -q "^4 findings: " "$out/j1.txt" || fail "findings line missing"
for f in "SM80 tf32 NT 128x128x32: s2r A UniversalCopy .*conflict-free.*REFUTED" \
         "SM80 f64 TN 128x64x16: s2r A DefaultCopy .*conflict-free.*REFUTED" \
         "tutorial sgemm_sm80 f32 TN 128x128x8: g2s A cp.async 4 B .*conflict-free.*REFUTED"; do
  grep -Eq "$f" "$out/j1.txt" || fail "finding missing: $f"
done
grep -q "2 wavefronts for an ideal of 1" "$out/j1.txt" || fail "tf32 witness (H100: 2 wavefronts)"
grep -q "4 wavefronts for an ideal of 2" "$out/j1.txt" || fail "f64 witness (H100: 4 wavefronts)"
n=$(sed -E 's/^([0-9]+) claims.*/\1/' <<<"$summary")
kernel=$(grep -c " \[\(ld\|st\|ldgsts\|ldsm4\)[^]]*\] " "$out/j1.txt" || true)
[ "$n" -ge 250 ] || fail "only $n catalog claims"
grep -q "GMMA::Layout_K_SW128_Atom<16b> .*tma:Sw<3,4,3> .*PROVED" "$out/j1.txt" || fail "TMA claim missing"
grep -q "conflict-free \[ldmatrix ldsm4 16 B\]" "$out/j1.txt" || fail "ldmatrix claims missing"

"$bin" catalog --no-cache --no-progress -j 2 > "$out/j2.txt" || fail "catalog -j 2"
cut -c1-100 "$out/j1.txt" | awk '{print $1, $2, $3, $4}' > "$out/a"; cut -c1-100 "$out/j2.txt" | awk '{print $1, $2, $3, $4}' > "$out/b"
diff -q "$out/a" "$out/b" > /dev/null || fail "-j 2 changed the results"

"$bin" catalog --cache "$out/cache" --no-progress > /dev/null || fail "cold cached run"
"$bin" catalog --cache "$out/cache" --no-progress > "$out/warm.txt" || fail "warm cached run"
cached=$(grep -c 'PROVED    cached: ' "$out/warm.txt" || true)
uncached_kernel=$(grep -E ": (s2r|g2s) " "$out/warm.txt" | grep -c "PROVED    cached: " || true)
[ "$uncached_kernel" = 0 ] || fail "kernel claims were cached"
[ "$cached" -ge 250 ] || fail "the warm run answered only $cached claims from the cache"
echo "catalog: $n claims, 4 known findings; -j 2 agrees; the cache answers $cached atom claims"
