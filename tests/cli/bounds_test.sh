#!/usr/bin/env bash
# Memory and time bounded on every input: bash bounds_test.sh <layoutproof>
# Configurations no thread block can run are refused before any work (exit 2, saying which bound),
# under a 1 GB address-space limit and within 10 s each; names pasted into printed C++ are C++
# identifiers; addresses beyond shared memory are bad input; a deadline cut is UNKNOWN (exit 3),
# never a proof about members that were not reached.
set -u
BIN=${1:?usage: bounds_test.sh <layoutproof>}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1: $2"; shift 2; printf '%s\n' "$@"; fail=1; }
bounded() {  # bounded NAME RC PATTERN -- args: under 1 GB and 10 s, exit RC, output matches PATTERN
  local name="$1" want="$2" pat="$3"; shift 4
  local start=$SECONDS out rc
  out="$( (ulimit -v 1000000; timeout 10 "$BIN" "$@") 2>&1)"; rc=$?
  if [ "$rc" = "$want" ] && grep -q -- "$pat" <<<"$out" && [ $((SECONDS - start)) -le 10 ]; then ok "$name"
  else bad "$name" "exit $rc (want $want) after $((SECONDS - start)) s" "$out"; fi
}
SW='tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))'
CP16='make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})'
bounded "tiled mma of 2^25 threads" 2 "has 33554432 threads; a thread block has at most 1024" -- trace --side S --element half_t --smem "$SW" \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_1024,_1024,_1>>{})' \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --claim conflict-free
bounded "tiled copy of 2048 threads" 2 "has 2048 threads; a thread block has at most 1024" -- trace --side D --element half_t --smem "$SW" \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_256,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})' --claim covers
bounded "256 MiB smem tensor" 2 "beyond the 232448 bytes (227 KiB) of shared memory" -- trace --side D --element half_t \
  --smem 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<16384>{}))' --copy "$CP16" --claim covers
bounded "synth 8 MiB tile" 2 "beyond the 232448 bytes (227 KiB) of shared memory" -- synth --kernel --shape '(512,512,16)' --element half_t \
  --no-progress --copy "D:$CP16"
bounded "trace base beyond smem" 2 "from base 4294967296" -- trace --side D --element half_t --smem "$SW" --copy "$CP16" --claim conflict-free --base 4294967296
cat > "$tmp/base.yaml" <<'YAML'
version: 1
kernels:
  - name: k
    smem:
      - name: sA
        element: half_t
        layout: Sw<3,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)
        base: 4294967280
        copies:
          - name: s2r 16B
            copy: make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_1,_8>>{})
            side: S
            claims: [conflict-free]
YAML
bounded "spec base beyond smem" 2 "base.yaml:8:15: 'base' is 4294967280; it must be in 0..232447" -- check "$tmp/base.yaml" --no-cache
bounded "synth name is an identifier" 2 "must be 1 to 64 letters, digits or underscores" -- synth --kernel --shape '(128,64,3)' --element half_t \
  --no-progress --name 'X; int evil(); //' --copy "D:$CP16"
out="$("$BIN" synth --kernel --shape '(128,64,3)' --element half_t --no-progress --deadline-s 0.001 \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' --copy "D:$CP16" \
  --copy 'S:make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' 2>&1)"; rc=$?
if [ $rc = 3 ] && grep -q "^UNKNOWN  " <<<"$out" && ! grep -q "^PROVED\|^FOUND" <<<"$out"; then ok "synth --kernel deadline"
else bad "synth --kernel deadline" "exit $rc" "$out"; fi
# Refused where CuTe does not compile, or where CuTe's result is not what a trace would give.
SM="$SW"
bounded "Tile<_,...> is not C++" 2 "Tile<_, ...> is not C++" -- trace --side S --element half_t --smem "$SM" \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_,_32,_16>{})' \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --claim covers
bounded "non-bijective Tile permutation" 2 "is not a bijection of \[0,32)" -- trace --side S --element half_t --smem "$SM" \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<Layout<Shape<_16,_2>,Stride<_1,_32>>,_32,_16>{})' \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --claim covers
# A spec sets its own deadline (deadline_s:); --deadline-s wins over it.
cat > "$tmp/dl.yaml" <<'YAML'
version: 1
deadline_s: 0.000001
layouts:
  - name: a
    layout: Sw<3,3,3> o (8,64):(64,1)
    claims: [bijective, contiguous:8]
YAML
out="$("$BIN" check "$tmp/dl.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 3 ] && grep -q "0 proved, 0 refuted, 2 unknown" <<<"$out"; then ok "spec deadline_s"; else bad "spec deadline_s" "exit $rc" "$out"; fi
out="$("$BIN" check "$tmp/dl.yaml" --no-cache --deadline-s 60 2>&1)"; rc=$?
if [ $rc = 0 ] && grep -q "2 proved" <<<"$out"; then ok "--deadline-s wins"; else bad "--deadline-s wins" "exit $rc" "$out"; fi
# A repeated -D is refused (a spec refuses a repeated constant too).
out="$("$BIN" eval 'make_layout(make_shape(bM,_2))' -D bM=4 -D bM=8 2>&1)"; rc=$?
if [ $rc = 2 ] && grep -q "\-D bM is given twice ('4' and '8')" <<<"$out"; then ok "duplicate -D"; else bad "duplicate -D" "exit $rc" "$out"; fi
# Output paths that collide are refused before any proof (exit 2): the same path twice, the
# spec itself, a repeated flag, an empty path.
S="$tmp/dl.yaml"
for args in "--json $tmp/a.json --sarif $tmp/a.json" "--markdown $S" "--json $tmp/a.json --json $tmp/b.json" \
            "--report ''" "--junit ''" "--json $tmp/x.json --junit $tmp/./x.json"; do
  out="$(eval "\"$BIN\" check \"$S\" --no-cache $args" 2>&1)"; rc=$?
  if [ $rc = 2 ] && grep -qE "same path|is the input|given twice|needs a path" <<<"$out" && [ ! -e "$tmp/a.json" ]; then ok "collision: $args"
  else bad "collision: $args" "exit $rc" "$out"; fi
done
# An output that is a device (/dev/full, /dev/stdout) is written as a stream, never replaced by a
# renamed file (the atomic write of a regular file must not clobber a device node).
out="$("$BIN" check "$S" --no-cache --deadline-s 60 --sarif /dev/full 2>&1)"; rc=$?
if [ $rc = 2 ] && [ -c /dev/full ]; then ok "device output stays a device"; else bad "device output stays a device" "exit $rc; $(ls -la /dev/full)" "$out"; fi
if grep -q "deadline_s" "$S"; then ok "spec untouched"; else bad "spec untouched" "the spec was overwritten"; fi
exit $fail
