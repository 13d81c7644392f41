#!/usr/bin/env bash
# Regressions (hostile kernel-copy campaign): copies CuTe refuses at compile time were traced and
# PROVED. Each is now exit 2 naming CuTe's condition, through `trace`, a kernel spec and the C++
# evaluator; CuTe's own verdicts are in tests/kernels/cute_refusals/ (kernels.cute_refusals).
# Usage: cute_compile_conditions_test.sh <layoutproof>
set -u
BIN=${1:?usage: cute_compile_conditions_test.sh <layoutproof>}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # id, exit code, grep pattern (stderr+stdout), then the arguments
  local id=$1 want=$2 pat=$3; shift 3
  timeout 60 "$BIN" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ $rc -ne "$want" ]; then echo "FAIL $id: exit $rc (want $want)"; head -c 600 "$tmp/out"; echo; fails=$((fails + 1)); return; fi
  if ! grep -q -- "$pat" "$tmp/out"; then echo "FAIL $id: output lacks '$pat'"; head -c 600 "$tmp/out"; echo; fails=$((fails + 1)); return; fi
  echo "ok   $id"
}
caret() {  # id: the last run printed a caret line
  if ! grep -q '^ *\^$' "$tmp/out"; then echo "FAIL $1: no caret line"; fails=$((fails + 1)); else echo "ok   $1 (caret)"; fi
}

# 1. The reported copy: double, Swizzle<2,1,3> over an (8,1) atom tiled to (8,4,3). CuTe's partition
#    slices the swizzled tensor; the swizzle projection (_2,_4,_2,_4,_1):(_0,_2,_0,_16,_0) composed
#    with the stage mode _3:_32 fails the Shape Divisibility Condition.
SM='tile_to_shape(composition(Swizzle<2,1,3>{}, Layout<Shape<_8,_1>>{}), make_shape(Int<8>{},Int<4>{},Int<3>{}))'
DEF='make_tiled_copy(Copy_Atom<DefaultCopy, double>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_1,_1>>{})'
UNI='make_tiled_copy(Copy_Atom<UniversalCopy<double>, double>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_1,_1>>{})'
run reported-default 2 'Shape Divisibility Condition' trace --side S --element double --smem "$SM" --copy "$DEF" --claim covers
run reported-universal-D 2 'Shape Divisibility Condition' trace --side D --element double --smem "$SM" --copy "$UNI" --claim covers
# The same copy on 4 stages traces (the stage mode _4:_32 divides), as CuTe compiles it.
SM4='tile_to_shape(composition(Swizzle<2,1,3>{}, Layout<Shape<_8,_1>>{}), make_shape(Int<8>{},Int<4>{},Int<4>{}))'
run reported-4-stages 0 'PROVED  covers' trace --side S --element double --smem "$SM4" --copy "$DEF" --claim covers
# ... and through a kernel spec: exit 2 at the copy's line, with a caret.
cat > "$tmp/k.yaml" <<YAML
version: 1
kernels:
  - name: k
    smem:
      - name: sA
        element: double
        layout: $SM
        copies:
          - name: s2r
            copy: $DEF
            side: S
            claims: [covers]
YAML
run reported-spec 2 'k.yaml:10:.*Shape Divisibility Condition' check "$tmp/k.yaml" --no-cache
caret reported-spec

# The two other conditions of the partition's swizzled slice (cases k0022 and k0192 of
# tests/kernels/cute_refusals/cases.jsonl, CuTe's static_assert for each).
run stride-divisibility 2 'Stride Divisibility Condition' trace --side D --element uint8_t --claim covers \
  --smem 'tile_to_shape(composition(Swizzle<1,2,4>{}, Layout<Shape<_8,_2>,Stride<_1,_8>>{}), make_shape(Int<48>{},Int<32>{}))' \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, uint8_t>{}, Layout<Shape<_16,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})'
run pow2-shape-stride 2 'Requires pow2 shape\*stride.' trace --side D --element double --claim covers \
  --smem 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_1>,Stride<_1,_1>>{}), make_shape(Int<48>{},Int<4>{},Int<2>{}))' \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, double>{}, Layout<Shape<_8,_4>,Stride<_1,_8>>{}, Layout<Shape<_2,_1>>{})'

# 2. Tile<_,...>: `_` is an object, not a type: CuTe's C++ does not compile; refused at the `_`.
F16_SMEM='tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<64>{},Int<64>{},Int<2>{}))'
LDSM_A='make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)'
run tile-underscore 2 'Tile<_, ...> is not C++' trace --side S --element half_t --smem "$F16_SMEM" --copy "$LDSM_A" --claim covers \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_,_32,_16>{})'
caret tile-underscore
run tile-Underscore 0 'PROVED  covers' trace --side S --element half_t --smem "$F16_SMEM" --copy "$LDSM_A" --claim covers \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<Underscore,_32,_16>{})'

# 3. A Tile<> permutation that is not a bijection: CuTe compiles it and issues 128 instructions
#    where the permuted tile holds 64 (cute_refusals/extra.jsonl); refused, naming the complement.
run tile-not-bijective 2 'is not a bijection of \[0,32).*complement((16,2):(1,32), 32) = 2:16' trace --side S --element half_t \
  --smem "$F16_SMEM" --copy "$LDSM_A" --claim covers \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<Layout<Shape<_16,_2>,Stride<_1,_32>>,_32,_16>{})'
caret tile-not-bijective
# ... but only where the copy uses that mode: an A copy never reads N's permutation (CuTe's addresses).
run tile-not-bijective-unused 0 'PROVED  covers' trace --side S --element half_t --smem "$F16_SMEM" --copy "$LDSM_A" --claim covers \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,Layout<Shape<_16,_2>,Stride<_1,_32>>,_16>{})'

echo "$fails failed"
[ "$fails" -eq 0 ]
