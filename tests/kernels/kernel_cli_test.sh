#!/usr/bin/env bash
# The four conflicting copies of CUTLASS's own configurations, decided as the H100 measured them, through
# `layoutproof trace --claim`, and the example kernel spec through `check` (exit 1: one finding).
set -uo pipefail
BIN="$1"; ROOT="$2"; fail=0
expect() {  # expect NAME RC PATTERN -- trace args...
  local name="$1" rc="$2" pat="$3"; shift 4
  out="$("$BIN" trace "$@" 2>&1)"; got=$?
  if [ "$got" != "$rc" ] || ! grep -q -- "$pat" <<<"$out"; then echo "FAIL $name: exit $got (want $rc), output:"; echo "$out"; fail=1; else echo "ok   $name"; fi
}
F16='make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'
TF32='TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}'
F64='TiledMMA<MMA_Atom<SM80_8x8x4_F64F64F64F64_TN>, Layout<Shape<_2,_2,_1>>, Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>{}'
# 1. tf32 MN-major UniversalCopy s2r: 2 wavefronts for an ideal of 1 (H100: 2).
expect tf32_universal 1 "2 wavefronts for an ideal of 1" -- --side S --element tfloat32_t --mma "$TF32" --claim conflict-free \
  --smem 'tile_to_shape(composition(Swizzle<3,2,3>{}, Layout<Shape<_32,_8>,Stride<_1,_32>>{}), make_shape(Int<128>{},Int<32>{},Int<3>{}))' \
  --copy 'make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)'
# 2. double K-major DefaultCopy s2r: LDS.64, 4 wavefronts for an ideal of 2 (H100: 4).
expect f64_defaultcopy 1 "4 wavefronts for an ideal of 2" -- --side S --element double --mma "$F64" --claim conflict-free \
  --smem 'tile_to_shape(composition(Swizzle<2,0,4>{}, Layout<Shape<_4,_16>,Stride<_1,_4>>{}), make_shape(Int<128>{},Int<16>{},Int<3>{}))' \
  --copy 'make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)'
# 3. the tutorial's padded (128,8):(1,129) f32 tile written by 4-byte cp.async: 4 wavefronts for an ideal of 1.
expect padded_cpasync 1 "4 wavefronts for an ideal of 1" -- --side D --element float --claim conflict-free \
  --smem '(128,8,3):(1,129,1032)' \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})'
# 4. CUTLASS's f16 cp.async copy (threads (16,8):(8,1)) is conflict-free (H100: 4 = ideal).
expect f16_cpasync 0 "PROVED  conflict-free" -- --side D --element half_t --claim conflict-free --claim vector-legal --claim covers \
  --smem 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))' \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})'
# Bad input is exit 2 with a message: LDSM writes no shared memory.
expect ldsm_side_d 2 "source" -- --side D --element half_t --mma "$F16" --smem '(128,64):(64,1)' \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)'
# The example spec: 10 proved, the CUTLASS tf32 default refuted (exit 1).
out="$("$BIN" check "$ROOT/examples/kernels_sm80.yaml" --no-cache 2>&1)"; got=$?
if [ "$got" != 1 ] || ! grep -q "10 proved, 1 refuted" <<<"$out"; then echo "FAIL example spec: exit $got"; echo "$out"; fail=1; else echo "ok   example spec"; fi
# --fused: f32 pairs of a (32,4) x (2,1) UniversalCopy fuse to LDS.64 (H100 SASS and Nsight Compute
# agree, docs/gpu_check.md); the fused trace is conflict-free, the CuTe-level one is not.
PAIRS='make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_2,_1>>{})'
expect fused_pairs 0 "fused (nvcc): 48 x ld.64" -- --side S --element float --smem '(128,8,3):(1,128,1024)' --copy "$PAIRS" \
  --fused --claim conflict-free --claim vector-legal --claim covers
expect cute_level_pairs 1 "2 wavefronts for an ideal of 1" -- --side S --element float --smem '(128,8,3):(1,128,1024)' --copy "$PAIRS" \
  --claim conflict-free
# --fused on CUTLASS's f64 TN atom: a partial fusion, two parts (as the H100's SASS: 24 LDS.128 + 48 LDS.64 per thread).
F64MMA='TiledMMA<MMA_Atom<SM80_8x8x4_F64F64F64F64_TN>, Layout<Shape<_2,_2,_1>>, Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>{}'
out="$("$BIN" trace --side S --element double --mma "$F64MMA" --copy 'make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)' \
  --smem 'tile_to_shape(composition(Swizzle<2,0,4>{}, Layout<Shape<_4,_16>, Stride<_1,_4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{}))' \
  --fused --claim vector-legal --claim covers 2>&1)"; got=$?
if [ "$got" != 0 ] || ! grep -q "fused (nvcc), in part: 96 x ld.128 + 192 x ld.64" <<<"$out" || ! grep -q '^3 claims: 3 proved, 0 refuted' <<<"$out" || [ "$(grep -c '^part [12] of 2: ' <<<"$out")" != 2 ]; then
  echo "FAIL fused partial: exit $got"; echo "$out"; fail=1; else echo "ok   fused partial"; fi
# synth --kernel with an SM90 GMMA _SS MMA: the GMMA atoms only, SW128 for 128-byte cp.async rows, TMA swizzle proved.
out="$("$BIN" synth --kernel --shape '(128,64,4)' --element half_t --no-progress \
  --mma 'make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})' \
  --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})' 2>&1)"; got=$?
if [ "$got" != 0 ] || ! grep -q "family: 7 members" <<<"$out" || ! grep -q "PROVED  tma:Sw<3,4,3>" <<<"$out" ||
   ! grep -q "GMMA::Layout_K_SW128_Atom<16b>" <<<"$out"; then echo "FAIL synth gmma: exit $got"; echo "$out"; fail=1; else echo "ok   synth gmma"; fi
# synth --kernel with an SM100 UMMA: TF32 MN-major A through a descriptor takes UMMA::Layout_MN_SW128_32B_Atom,
# whose TMA swizzle is SWIZZLE_128B_BASE32B (Sw<2,5,2>), proved; a _TS atom leaves A (tensor memory) unrestricted.
out="$("$BIN" synth --kernel --shape '(128,32,4)' --element float --no-progress \
  --mma 'make_tiled_mma(SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128,UMMA::Major::MN,UMMA::Major::K>{})' \
  --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{}, Layout<Shape<_32,_4>,Stride<_1,_32>>{}, Layout<Shape<_4,_1>>{})' 2>&1)"; got=$?
if [ "$got" != 0 ] || ! grep -q "through a UMMA descriptor" <<<"$out" || ! grep -q "PROVED  tma:Sw<2,5,2>" <<<"$out" ||
   ! grep -q "UMMA::Layout_MN_SW128_32B_Atom<32b>" <<<"$out"; then echo "FAIL synth umma: exit $got"; echo "$out"; fail=1; else echo "ok   synth umma"; fi
out="$("$BIN" synth --kernel --shape '(128,64,4)' --element half_t --no-progress \
  --mma 'make_tiled_mma(SM100_MMA_F16BF16_TS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{})' \
  --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})' 2>&1)"; got=$?
if [ "$got" != 0 ] || grep -q "descriptor" <<<"$out"; then echo "FAIL synth umma ts: exit $got"; echo "$out"; fail=1; else echo "ok   synth umma ts (A from tensor memory: no restriction)"; fi
# A TMA copy is not scored: it keeps the TMA-writable members and proves the winner's tma: claim.
out="$("$BIN" synth --kernel --shape '(128,32,3)' --element half_t --no-progress --json \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' \
  --copy 'S:make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --copy 'D:SM90_TMA_LOAD' --align 128 2>&1)"; got=$?
if [ "$got" != 0 ] || ! python3 -c '
import json,sys; d=json.loads(sys.argv[1])
assert d["found"] and len(d["per_copy"]) == 1, d["per_copy"]
assert any(p["claim"].startswith("tma:") and p["claim"].endswith(",align=128") and p["verdict"] == "PROVED" for p in d["proofs"]), d["proofs"]
' "$out"; then echo "FAIL synth tma copy: exit $got"; echo "$out" | head -5; fail=1; else echo "ok   synth tma copy"; fi
out="$("$BIN" synth --kernel --shape '(128,32,3)' --element half_t --no-progress --copy 'D:SM90_TMA_LOAD' 2>&1)"; got=$?
if [ "$got" != 2 ] || ! grep -q "a TMA copy alone leaves nothing to score" <<<"$out"; then echo "FAIL synth tma alone: exit $got"; echo "$out"; fail=1; else echo "ok   synth tma alone"; fi
# JSON trace: 32 addresses per instruction.
n="$("$BIN" trace --side D --element float --smem '(128,8):(1,129)' --json \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})' |
  python3 -c 'import json,sys; t=json.load(sys.stdin); assert t["op"]=="ldgsts" and t["width_bytes"]==4 and t["threads"]==256; assert all(len(i["addrs"])==32 for i in t["instructions"]); print(len(t["instructions"]))')"
if [ "$n" != 32 ]; then echo "FAIL json: $n instructions"; fail=1; else echo "ok   json"; fi
exit $fail
