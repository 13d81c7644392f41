#!/usr/bin/env bash
# `layoutproof catalog`: every atom claim is proved and the only refutations are the known
# findings about CUTLASS's own kernel configurations (exit 0), -j 2 gives the same verdicts as -j 1,
# a claim the catalog asks twice is decided once and counted as a repeat, and the cache answers a
# second run without proving again (PROVED atom verdicts only; kernel claims are never cached): a
# run on an empty cache says nothing "from cache", the next one says how many. The default cache
# is $LAYOUTPROOF_CACHE, else $XDG_CACHE_HOME/layoutproof, else ~/.cache/layoutproof; --no-cache
# writes none.
set -euo pipefail
bin="$1"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" catalog --no-cache --no-progress > "$out/j1.txt" || fail "catalog exit $? (expected 0: findings are not failures)"
summary="$(grep -E "^[0-9]+ claims[ :]" "$out/j1.txt")"
grep -Eq "^[0-9]+ claims( \([^)]*\))?: ([0-9]+) proved, 4 refuted, 0 unknown, 0 error" <<<"$summary" || fail "$summary"
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

# Repeats: "N claims (D distinct; R repeat an earlier claim of this run)", one "repeat of" line
# each, and the distinct ones are the others.
counts_re='^([0-9]+) claims \(([0-9]+) distinct; ([0-9]+) repeats? an earlier claim of this run\): '
grep -Eq "$counts_re" <<<"$summary" || fail "no distinct/repeat counts: $summary"
distinct=$(sed -E "s/$counts_re.*/\2/" <<<"$summary"); repeats=$(sed -E "s/$counts_re.*/\3/" <<<"$summary")
[ $((distinct + repeats)) = "$n" ] || fail "$distinct distinct + $repeats repeats != $n claims"
[ "$repeats" -gt 0 ] || fail "the catalog repeats some claims (atoms with one layout, kernels with one copy)"
[ "$(grep -c '  repeat of ' "$out/j1.txt")" = "$repeats" ] || fail "$repeats repeats counted, $(grep -c '  repeat of ' "$out/j1.txt") shown"

# An empty cache: nothing is from it, although the repeats once read it back within the run.
"$bin" catalog --cache "$out/cache" --no-progress > "$out/cold.txt" || fail "cold cached run"
cold="$(grep -E "^[0-9]+ claims" "$out/cold.txt")"
grep -q "from cache" <<<"$cold" && fail "the run on an empty cache says: $cold"
grep -q 'cached: ' "$out/cold.txt" && fail "a verdict of the run on an empty cache is marked cached"
grep -Eq "^$n claims \($distinct distinct; $repeats repeats? an earlier claim of this run\): [0-9]+ proved, " <<<"$cold" || fail "cold counts: $cold"
"$bin" catalog --cache "$out/cache" --no-progress > "$out/warm.txt" || fail "warm cached run"
cached=$(grep -c 'PROVED    cached: ' "$out/warm.txt" || true)
uncached_kernel=$(grep -E ": (s2r|g2s) " "$out/warm.txt" | grep -c "PROVED    cached: " || true)
[ "$uncached_kernel" = 0 ] || fail "kernel claims were cached"
[ "$cached" -ge 190 ] || fail "the warm run answered only $cached claims from the cache"
[ "$cached" -le "$distinct" ] || fail "$cached from cache, more than the $distinct distinct claims"
warm="$(grep -E "^[0-9]+ claims" "$out/warm.txt")"
grep -Eq "^$n claims \($distinct distinct; $repeats repeats? an earlier claim of this run\): [0-9]+ proved \($cached from cache\), " <<<"$warm" ||
  fail "warm counts ($cached cached lines): $warm"
"$bin" catalog --cache "$out/cache" --no-progress --json | grep -q "\"from_cache\":$cached,\"repeats\":$repeats," || fail "JSON summary: from_cache, repeats"

# Where the default cache is, and --no-cache writing none.
mkdir -p "$out/home"
env -u LAYOUTPROOF_CACHE -u XDG_CACHE_HOME HOME="$out/home" "$bin" catalog --no-progress > /dev/null || fail "HOME cache run"
ls "$out/home/.cache/layoutproof/"*.proved > /dev/null 2>&1 || fail "no cache in \$HOME/.cache/layoutproof"
env -u LAYOUTPROOF_CACHE XDG_CACHE_HOME="$out/xdg" HOME="$out/home" "$bin" catalog --no-progress > /dev/null || fail "XDG cache run"
ls "$out/xdg/layoutproof/"*.proved > /dev/null 2>&1 || fail "no cache in \$XDG_CACHE_HOME/layoutproof"
LAYOUTPROOF_CACHE="$out/lp" XDG_CACHE_HOME="$out/xdg2" "$bin" catalog --no-progress > /dev/null || fail "LAYOUTPROOF_CACHE run"
ls "$out/lp/"*.proved > /dev/null 2>&1 || fail "no cache in \$LAYOUTPROOF_CACHE"
[ -e "$out/xdg2" ] && fail "\$LAYOUTPROOF_CACHE set, yet \$XDG_CACHE_HOME was written"
LAYOUTPROOF_CACHE="$out/none" XDG_CACHE_HOME="$out/none2" HOME="$out/none3" "$bin" catalog --no-cache --no-progress > /dev/null || fail "--no-cache run"
[ -e "$out/none" ] || [ -e "$out/none2" ] || [ -e "$out/none3" ] && fail "--no-cache wrote a cache"
echo "catalog: $n claims ($distinct distinct, $repeats repeats), 4 known findings; -j 2 agrees; an empty cache answers none, the warm one $cached atom claims"
