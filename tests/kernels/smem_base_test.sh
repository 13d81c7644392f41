#!/usr/bin/env bash
# Shared-memory bases and alignment: an smem_ptr layout swizzles ABSOLUTE byte
# addresses (CuTe's swizzle_ptr), so a trace at --base 128 differs from the element form's, and a
# spec's bank claims at a misaligned base use the absolute addresses too.
set -uo pipefail
BIN="$1"; ROOT="$2"; fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; shift; printf '%s\n' "$@"; fail=1; }
F16='make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'
LDSM='make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)'
GMMA='tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<3>{}))'
ELEM='tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))'
lanes() {  # lanes SMEM BASE: the first 8 lane addresses of instruction 0
  "$BIN" trace --side S --element half_t --mma "$F16" --copy "$LDSM" --smem "$1" --base "$2" --json |
    python3 -c 'import json,sys; print(*json.load(sys.stdin)["instructions"][0]["addrs"][:8])'
}
# 1. GMMA K_SW128 (Sw<3,4,3> o smem_ptr[16b]): byte_sw(base + 128 r) per row r.
got="$(lanes "$GMMA" 1024)"; [ "$got" = "1024 1168 1312 1456 1600 1744 1888 2032" ] && ok gmma_base_1024 || bad gmma_base_1024 "$got"
got="$(lanes "$GMMA" 128)"; [ "$got" = "144 288 432 576 720 864 1008 1024" ] && ok gmma_base_128 || bad gmma_base_128 "$got"
# 2. The element form Sw<3,3,3> o L is relative to the base: the base adds.
got="$(lanes "$ELEM" 128)"; [ "$got" = "128 272 416 560 704 848 992 1136" ] && ok element_base_128 || bad element_base_128 "$got"
# 3. Bank claims of a spec's smem_ptr tile at base 64: refuted (rows 0 and 7 on bank 16).
out="$("$BIN" check "$ROOT/tests/kernels/specs/smem_ptr_access_base.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 1 ] && grep -q "2 proved, 1 refuted" <<<"$out" && grep -q "lanes 0 (0,0) at byte 64, 7 (7,0) at byte 576" <<<"$out"; then ok spec_access_base
else bad spec_access_base "exit $rc" "$out"; fi
# 4. A kernel smem tensor's base:/align: (tests/kernels/specs/smem_placement.yaml).
out="$("$BIN" check "$ROOT/tests/kernels/specs/smem_placement.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 1 ] && grep -q "6 proved, 3 refuted" <<<"$out" && grep -q "copy index (0,0,0), base 64): 8 wavefronts for an ideal of 4" <<<"$out" &&
   grep -q "sA 1024-aligned          tma:Sw<3,4,3>,align=1024  PROVED .*at base 0" <<<"$out" &&
   grep -q "tma:Sw<3,4,3>,align=128   REFUTED .*at base 128" <<<"$out" && grep -q "the base 128 is not 1024-byte aligned" <<<"$out"; then ok spec_placement
else bad spec_placement "exit $rc" "$out"; fi
# 4b. The same claim on the command line: align=N decides every multiple of N (one verdict).
SW128='Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)'
out="$("$BIN" prove "$SW128" --claim 'tma:Sw<3,4,3>,align=128' 2>&1)"; rc=$?
if [ $rc = 0 ] && grep -q "at each of the 8 bases 0, 128, ..., 896" <<<"$out"; then ok tma_align_smem_ptr; else bad tma_align_smem_ptr "exit $rc" "$out"; fi
out="$("$BIN" prove 'Sw<3,3,3> o (8,64):(64,1)' --elem-bytes 2 --claim 'tma:Sw<3,4,3>,align=256' 2>&1)"; rc=$?
if [ $rc = 1 ] && grep -q "REFUTED .*at base 256" <<<"$out"; then ok tma_align_element_form; else bad tma_align_element_form "exit $rc" "$out"; fi
out="$("$BIN" prove "$SW128" --claim 'tma:Sw<3,4,3>,align=96' 2>&1)"; rc=$?
if [ $rc = 2 ] && grep -q "align=N is a power of two" <<<"$out"; then ok tma_align_not_pow2; else bad tma_align_not_pow2 "exit $rc" "$out"; fi
out="$("$BIN" prove "$SW128" --claim 'tma:Sw<3,4,3>,align=128,base=0' 2>&1)"; rc=$?
if [ $rc = 2 ] && grep -q "not both" <<<"$out"; then ok tma_align_and_base; else bad tma_align_and_base "exit $rc" "$out"; fi
# 5. Placement errors: exit 2, located.
spec_err() {  # spec_err NAME SED-SCRIPT MESSAGE
  sed "$2" "$ROOT/tests/kernels/specs/smem_placement.yaml" > "$tmp/e.yaml"
  out="$("$BIN" check "$tmp/e.yaml" --no-cache 2>&1)"; rc=$?
  if [ $rc = 2 ] && grep -qF -- "$3" <<<"$out"; then ok "$1"; else bad "$1" "exit $rc" "$out"; fi
}
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
spec_err align_below_width 's/align: 64/align: 8/' "align 8 allows base 8, not a multiple of the copy's 16-byte access width (give align: 16 or more)"
spec_err align_not_pow2 's/align: 64/align: 48/' "'align' is a power of two (bytes), not 48"
spec_err base_and_align 's/^        base: 64/        base: 64\n        align: 64/' "give 'base' (the buffer's one address) or 'align' (every multiple of N), not both"
spec_err copy_base_too '0,/side: S/s/side: S/side: S\n            base: 0/' "the smem tensor gives its align; drop the copy's 'base'"
# 6. layout: synthesize runs synth --kernel per tensor (tests/kernels/specs/smem_synthesize.yaml).
out="$("$BIN" check "$ROOT/tests/kernels/specs/smem_synthesize.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 1 ] && grep -q "2 proved, 1 refuted" <<<"$out" && grep -q "PROVED .*winner MN-major Sw<2,3,2> o (32,4):(1,32)" <<<"$out" &&
   grep -q "PROVED .*winner K-major Sw<2,0,5> o (16,8):(8,1)" <<<"$out" && grep -q "REFUTED .*best MN-major (8,1):(1,8) Step<_2,_1,_3> at 2/1" <<<"$out"; then ok spec_synthesize
else bad spec_synthesize "exit $rc" "$out"; fi
json="$("$BIN" check "$ROOT/tests/kernels/specs/smem_synthesize.yaml" --no-cache --json 2>&1)"
if python3 -c 'import json,sys; d=json.load(sys.stdin); r=d["results"][0]; assert "using SmemLayoutAtomA = decltype(composition(Swizzle<2,3,2>{}, Layout<Shape<_32,_4>,Stride<_1,_32>>{}));" in r["detail"] and "notation: Sw<2,3,2> o 0 o" in r["detail"], r' <<<"$json"; then ok spec_synthesize_json
else bad spec_synthesize_json "$json"; fi
# 7. A GMMA mma: the spec's search takes the GMMA family, as synth --kernel --mma does for the same input.
out="$("$BIN" check "$ROOT/tests/kernels/specs/smem_synthesize_gmma.yaml" --no-cache --json 2>&1)"; rc=$?
cli="$("$BIN" synth --kernel --shape '(128,64,4)' --element half_t --no-progress \
  --mma 'make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})' \
  --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})' --json 2>&1)"
if [ $rc = 0 ] && python3 -c '
import json,sys
spec=json.loads(sys.argv[1])["results"][0]; cli=json.loads(sys.argv[2])
assert spec["verdict"] == "PROVED" and "over all 7 members" in spec["method"], spec
assert "through a GMMA descriptor" in spec["detail"] and "tma:Sw<3,4,3> proved" in spec["detail"], spec
assert cli["found"] and cli["smem"] in spec["detail"] and cli["candidates"] == 7, (cli["smem"], cli["candidates"])
' "$out" "$cli"; then ok spec_synthesize_gmma
else bad spec_synthesize_gmma "exit $rc" "$out" "$cli"; fi
# 8. layout: synthesize with a placement: the winner holds at every base (tests/kernels/specs/smem_synthesize_placed.yaml).
out="$("$BIN" check "$ROOT/tests/kernels/specs/smem_synthesize_placed.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 0 ] && grep -q "3 proved, 0 refuted" <<<"$out" && grep -q "GMMA 1024-aligned: sA .*PROVED .*winner K-major Sw<3,3,3> o (8,64):(64,1)" <<<"$out" &&
   grep -q "GMMA 128-aligned: sA .*PROVED .*winner K-major Sw<3,3,3> o (8,64):(64,1)" <<<"$out" &&
   grep -q "at base 64: sA .*PROVED" <<<"$out"; then ok spec_synthesize_placed
else bad spec_synthesize_placed "exit $rc" "$out"; fi
out="$("$BIN" synth --kernel --shape '(128,64,4)' --element half_t --no-progress --align 128 \
  --mma 'make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})' \
  --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})' 2>&1)"; rc=$?
if [ $rc = 0 ] && grep -q "PROVED  tma:Sw<3,4,3>,align=128" <<<"$out" && grep -q "^using SmemLayoutAtomA = GMMA::Layout_K_SW128_Atom<half_t>;" <<<"$out" &&
   grep -q "notation: Sw<3,4,3> o smem_ptr\[16b\](unset) o " <<<"$out"; then ok synth_kernel_align_cli; else bad synth_kernel_align_cli "exit $rc" "$out"; fi
# One placement rule for three commands: the C++ synth --kernel prints for a GMMA operand is
# CUTLASS's own atom (it compiles in a CUTLASS kernel), and prove's tma claim and trace at base 128
# agree with synth's verdict at align 128 on that very text.
cpp="$(sed -n 's/^using SmemLayoutA = decltype(\(.*\));$/\1/p' <<<"$out")"
using_atom="$(sed -n 's/^using SmemLayoutAtomA = \(.*\);$/\1/p' <<<"$out")"
smem="${cpp//SmemLayoutAtomA\{\}/$using_atom\{\}}"
p="$("$BIN" prove "$smem" --claim 'tma:Sw<3,4,3>,align=128' 2>&1)"; prc=$?
t="$("$BIN" trace --side D --element half_t --smem "$smem" --base 128 --claim conflict-free --claim covers \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})' 2>&1)"; trc=$?
if [ -n "$cpp" ] && [ "$smem" = 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<4>{}))' ] &&
   [ $prc = 0 ] && grep -q "^PROVED  tma:Sw<3,4,3>,align=128" <<<"$p" && [ $trc = 0 ] && grep -q "2 proved, 0 refuted" <<<"$t"; then ok placement_three_commands
else bad placement_three_commands "smem '$smem' prove exit $prc trace exit $trc" "$p" "$t"; fi
# A padded winner's explicit staged layout is CuTe's tile_to_shape of the padded atom, and both
# evaluate (docs/synth_kernel.md): the same offsets.
a="$("$BIN" eval 'tile_to_shape(Layout<Shape<_128,_8>,Stride<_1,_129>>{}, make_shape(Int<128>{},Int<8>{},Int<3>{}))' 2>&1)"; arc=$?
b="$("$BIN" eval 'Layout<Shape<_128,_8,_3>,Stride<_1,_129,_1032>>{}' 2>&1)"; brc=$?
if [ $arc = 0 ] && [ $brc = 0 ] && [ "$a" = "$b" ] && [ "$(wc -w <<<"$a")" = 3072 ]; then ok padded_tile_to_shape
else bad padded_tile_to_shape "exit $arc/$brc" "$a" "$b"; fi
spec_err_in() {  # spec_err_in NAME FILE SED-SCRIPT MESSAGE
  sed "$3" "$ROOT/tests/kernels/specs/$2" > "$tmp/e.yaml"
  out="$("$BIN" check "$tmp/e.yaml" --no-cache 2>&1)"; rc=$?
  if [ $rc = 2 ] && grep -qF -- "$4" <<<"$out"; then ok "$1"; else bad "$1" "exit $rc" "$out"; fi
}
spec_err_in synth_no_shape smem_synthesize.yaml '0,/shape: (128,32,3)/{/shape: (128,32,3)/d}' "missing 'shape' in an smem tensor with 'layout: synthesize'"
spec_err_in synth_copy_claims smem_synthesize.yaml '0,/side: S/s/side: S/side: S\n            claims: [conflict-free]/' "'claims' does not go with 'layout: synthesize'"
spec_err_in synth_align_below_width smem_synthesize_placed.yaml '0,/^        align: 128/s/^        align: 128/        align: 8/' "align 8 is not a multiple of the copy's 16-byte access width (give align: 16 or more)"
spec_err_in shape_without_synth smem_placement.yaml '0,/^        align: 1024/s/^        align: 1024/        align: 1024\n        shape: (8,32)/' "'shape' goes with 'layout: synthesize'"
exit $fail
