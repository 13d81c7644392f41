#!/usr/bin/env bash
# One meaning per claim, whichever way it is asked: bash one_meaning_test.sh <layoutproof>
#   - bijective is "a permutation of [0, size)" for every form: a padded layout fails it with and
#     without a swizzle, on the command line and as a spec gate; swizzle-permutes is the other
#     property (the swizzle permutes the unswizzled layout's own image);
#   - every witness number says its unit: an element offset for layout claims, a byte address for
#     bank and trace claims, in the text and in --json ("unit");
#   - an op/pattern combination a spec refuses is refused on the command line too (one validation).
set -u
BIN=${1:?usage: one_meaning_test.sh <layoutproof>}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1: $2"; shift 2; printf '%s\n' "$@"; fail=1; }

# 1. bijective on a padded layout, plain and swizzled: REFUTED both, exit 1, same witness.
for l in '(128,8):(1,129)' 'Sw<0,0,0> o (128,8):(1,129)' 'Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(72,1)'; do
  out="$("$BIN" prove "$l" --claim bijective 2>&1)"; rc=$?
  if [ $rc = 1 ] && grep -q "^REFUTED  bijective .*witness: x: index .* -> element [0-9]* (offset outside \[0," <<<"$out"; then ok "bijective refuted: $l"
  else bad "bijective refuted: $l" "exit $rc" "$out"; fi
done
out="$("$BIN" prove 'Sw<0,0,0> o (128,8):(1,129)' --claim swizzle-permutes 2>&1)"; rc=$?
if [ $rc = 0 ] && grep -q "^PROVED  swizzle-permutes .*image = image of the inner layout" <<<"$out"; then ok "swizzle-permutes proved"
else bad "swizzle-permutes proved" "exit $rc" "$out"; fi
# The same as a CI gate: the padded tile fails bijective with or without a swizzle.
cat > "$tmp/padded.yaml" <<'YAML'
version: 1
layouts:
  - name: padded
    layout: (128,8):(1,129)
    claims: [bijective, swizzle-permutes]
  - name: padded swizzled
    layout: Sw<0,0,0> o (128,8):(1,129)
    claims: [bijective, swizzle-permutes]
YAML
out="$("$BIN" check "$tmp/padded.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 1 ] && grep -q "2 proved, 2 refuted" <<<"$out" && [ "$(grep -c 'bijective .*REFUTED' <<<"$out")" = 2 ]; then ok "spec gate"
else bad "spec gate" "exit $rc" "$out"; fi

# 2. Witness units: element offsets for layout claims, byte addresses for bank and trace claims.
out="$("$BIN" prove '(128,8):(1,129)' --claim bijective --json 2>&1)"
if python3 -c 'import json,sys; d=json.loads(sys.argv[1]); p=d["results"][0]["witness"]["points"][0]; assert p["unit"]=="element" and p["offset"]==1024, p' "$out"; then ok "json unit element"
else bad "json unit element" "" "$out"; fi
out="$("$BIN" prove 'Sw<2,2,3> o (32,40):(40,1)' --claim conflict-free --elem-bytes 4 --vec 4 --pattern row-per-lane 2>&1)"
if grep -q "lanes 0 (0,0) at byte 0, 5 (5,0) at byte 768 hit bank 0" <<<"$out"; then ok "bank witness in bytes"; else bad "bank witness in bytes" "" "$out"; fi
out="$("$BIN" trace --side S --element tfloat32_t --claim conflict-free \
  --mma 'TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}' \
  --smem 'tile_to_shape(composition(Swizzle<3,2,3>{}, Layout<Shape<_32,_8>,Stride<_1,_32>>{}), make_shape(Int<128>{},Int<32>{},Int<3>{}))' \
  --copy 'make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)' 2>&1)"
if grep -q "lane 0 (thread 0, (0,0,0)) at byte 0 word 0, lane 17 (thread 17, (4,1,0)) at byte 128 word 32" <<<"$out" && ! grep -q " @[0-9]" <<<"$out"; then
  ok "trace witness in bytes"; else bad "trace witness in bytes" "" "$out"; fi

# 3. One validation: ldsm4 goes with the ldmatrix pattern on the command line as in a spec.
out="$("$BIN" prove 'Sw<3,3,3> o (8,64):(64,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane --op ldsm4 2>&1)"; rc=$?
if [ $rc = 2 ] && grep -q "op ldsm4 goes with --pattern ldmatrix" <<<"$out"; then ok "cli op/pattern"; else bad "cli op/pattern" "exit $rc" "$out"; fi
out="$("$BIN" prove 'Sw<3,3,3> o (8,64):(64,1)' --claim conflict-free --elem-bytes 2 --vec 4 --pattern ldmatrix --op ldsm4 2>&1)"; rc=$?
if [ $rc = 2 ] && grep -q "ldsm4 moves 16-byte rows: vec is 8" <<<"$out"; then ok "cli matrix vec"; else bad "cli matrix vec" "exit $rc" "$out"; fi
cat > "$tmp/op.yaml" <<'YAML'
version: 1
layouts:
  - name: sA
    layout: Sw<3,3,3> o (8,64):(64,1)
    element: f16
    accesses:
      - pattern: row-per-lane
        op: ldsm4
        claims: [conflict-free]
YAML
out="$("$BIN" check "$tmp/op.yaml" --no-cache 2>&1)"; rc=$?
if [ $rc = 2 ] && grep -q "op ldsm4 goes with --pattern ldmatrix" <<<"$out" && grep -q "op.yaml:[0-9]*:[0-9]*" <<<"$out"; then ok "spec op/pattern"
else bad "spec op/pattern" "exit $rc" "$out"; fi
# 4. A pasted copy with newlines and a comment: the summary line is one short line naming the op and
#    the partition; --json keeps the whole pasted text as "subject" and the short one as "name".
COPY='make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{},  // the s2r copy of A
                  mma)'
args=(trace --side S --element half_t --claim conflict-free \
  --smem 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))' \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' --copy "$COPY")
out="$("$BIN" "${args[@]}" 2>&1)"; rc=$?
last="$(tail -1 <<<"$out")"
if [ $rc = 0 ] && [ "$last" = "SM75_U32x4_LDSM_N partition_S of Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192)): 1 proved, 0 refuted, 0 unknown, 0 error" ] &&
   ! grep -q "the s2r copy" <<<"$out"; then ok "short summary name"; else bad "short summary name" "exit $rc" "$out"; fi
out="$("$BIN" "${args[@]}" --json 2>&1)"
if python3 -c '
import json,sys
d=json.loads(sys.argv[1]); assert "// the s2r copy of A" in d["subject"] and d["name"].startswith("SM75_U32x4_LDSM_N partition_S of "), d' "$out"; then ok "json keeps the full text"
else bad "json keeps the full text" "" "$out"; fi
exit $fail
