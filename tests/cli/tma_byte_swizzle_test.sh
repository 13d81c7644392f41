#!/usr/bin/env bash
# tma: claims on the command line and byte swizzles on every claim kind, print and eval:
# bash tma_byte_swizzle_test.sh <layoutproof>
#   - tma:Sw<3,4,3> is PROVED at a 1024-byte aligned base and REFUTED at base 128 for the element-unit
#     K_SW128 layout; the witness is replayed here from `eval` and the swizzle's definition;
#   - the smem_ptr form (C++ GMMA atom or CuTe's print) swizzles absolute addresses: PROVED at base 128;
#   - --byte-swizzle SW on a plain layout is the smem_ptr form for every claim kind (same verdicts as
#     the smem_ptr text and the element-unit form), print and eval;
#   - a byte swizzle that moves bytes inside an element is refused (exit 2) by every command, naming
#     the bits and the bytes that move; a mismatched element width is refused;
#   - trace --smem in notation with -D constants, and CuTe's printed `_-1` read as notation.
set -u
BIN=${1:?usage: tma_byte_swizzle_test.sh <layoutproof>}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($1): $2"; fails=$((fails + 1)); }

# expect WHAT RC NEEDLE CMD...: exit code RC and NEEDLE in stdout+stderr.
expect() {
  local what=$1 want=$2 needle=$3; shift 3
  "$BIN" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ $rc -ne "$want" ]; then fail "$what" "exit $rc, want $want: $(head -c 400 "$tmp/out")"; return 1; fi
  if ! grep -qF -- "$needle" "$tmp/out"; then fail "$what" "output lacks '$needle': $(head -c 400 "$tmp/out")"; return 1; fi
  echo "ok   $what"
}

# Sw<B,M,S>(x) = x ^ ((x & (((1<<B)-1) << (M+S))) >> S), S > 0 (shared/facts).
sw() { local b=$1 m=$2 s=$3 x=$4; echo $(( x ^ ((x & (((1 << b) - 1) << (m + s))) >> s) )); }

ELEM='Sw<3,3,3> o (8,64):(64,1)'   # GMMA K_SW128 on half, element units
SMEM='Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)'

# --- tma: on the command line --------------------------------------------------------------------
expect tma.aligned 0 "PROVED  tma:Sw<3,4,3>,base=1024" prove "$ELEM" --elem-bytes 2 --claim 'tma:Sw<3,4,3>,base=1024'
expect tma.aligned_hex 0 "PROVED" prove "$ELEM" --elem-bits 16 --claim 'tma:Sw<3,4,3>,base=0x2000,box=(8,64)'
if expect tma.misaligned 1 "REFUTED  tma:Sw<3,4,3>,base=128" prove "$ELEM" --elem-bytes 2 --claim 'tma:Sw<3,4,3>,base=128'; then
  # Replay: "element X is read at byte R, but TMA's Sw<3,4,3> writes it to byte T".
  w=$(grep -o 'element [0-9]* is read at byte [0-9]*, but TMA.s Sw<3,4,3> writes it to byte [0-9]*' "$tmp/out")
  read -r x r t <<<"$(sed -E 's/element ([0-9]+) is read at byte ([0-9]+), .* to byte ([0-9]+)/\1 \2 \3/' <<<"$w")"
  off=$("$BIN" eval "$ELEM" | tr ' ' '\n' | sed -n "$((x + 1))p")     # L(x): what the kernel reads
  inner=$("$BIN" eval '(8,64):(64,1)' | tr ' ' '\n' | sed -n "$((x + 1))p")  # where TMA puts x before swizzling
  if [ -z "$w" ] || [ $((128 + 2 * off)) -ne "$r" ] || [ "$(sw 3 4 3 $((128 + 2 * inner)))" -ne "$t" ] || [ "$r" -eq "$t" ]; then
    fail tma.replay "witness '$w' does not replay (L(x) = $off, inner = $inner)"
  else
    echo "ok   tma.replay (element $x: read at byte $r, TMA writes byte $t)"
  fi
  grep -q "not 1024-byte aligned" "$tmp/out" || fail tma.why "the witness does not say the base is misaligned"
fi
expect tma.box 0 "PROVED" prove '(8,64):(64,1)' --elem-bytes 2 --claim 'tma:Sw<3,4,3>,box=(1,64)'
expect tma.box_two_rows 1 "REFUTED" prove '(8,64):(64,1)' --elem-bytes 2 --claim 'tma:Sw<3,4,3>,box=(2,64)'
expect tma.64B_mode 1 "REFUTED" prove "$ELEM" --elem-bytes 2 --claim 'tma:Sw<2,4,3>'
# The smem_ptr form (CuTe's swizzle_ptr) swizzles absolute addresses: TMA's at any base.
expect tma.smem_ptr_any_base 0 "PROVED  tma:Sw<3,4,3>,base=128" prove "$SMEM" --claim 'tma:Sw<3,4,3>,base=128'
expect tma.gmma_cpp 0 "2 proved" prove 'GMMA::Layout_K_SW128_Atom<half_t>{}' --claim 'tma:Sw<3,4,3>,base=1040' --claim bijective
expect tma.no_width 2 "need the element width" prove "$ELEM" --claim 'tma:Sw<3,4,3>'
expect tma.width_mismatch 2 "16-bit elements" prove "$SMEM" --elem-bytes 4 --claim 'tma:Sw<3,4,3>'
expect tma.bad_claim 2 "neither base=ADDR, align=N nor box=SHAPE" prove "$ELEM" --elem-bytes 2 --claim 'tma:Sw<3,4,3>,bas=1'
expect tma.bare_swizzle 2 "take a layout" prove 'Sw<3,4,3>' --elem-bytes 2 --claim 'tma:Sw<3,4,3>'

# --- --byte-swizzle and the smem_ptr form: every claim kind, the same verdict as the element form --
BS=(--byte-swizzle 'Sw<3,4,3>' --elem-bytes 2)
for claim in bijective injective surjective:512 contiguous:8 involution 'equivalent:Sw<3,3,3> o (8,64):(64,1)' \
             'equivalent:Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)' 'inverse:Sw<3,0,-6> o 0 o (64,8):(8,1)' \
             'tma:Sw<3,4,3>,base=2048'; do
  expect "byte_swizzle[$claim]" 0 "1 proved" prove '(8,64):(64,1)' "${BS[@]}" --claim "$claim"
  expect "smem_ptr[$claim]" 0 "1 proved" prove "$SMEM" --claim "$claim"
  [ "${claim#tma:}" = "$claim" ] && expect "element[$claim]" 0 "1 proved" prove "$ELEM" --claim "$claim"
done
for claim in 'equivalent:(8,64):(64,1)' contiguous:16; do  # refuted the same way
  expect "byte_swizzle_refuted[$claim]" 1 "REFUTED" prove '(8,64):(64,1)' "${BS[@]}" --claim "$claim"
  expect "smem_ptr_refuted[$claim]" 1 "REFUTED" prove "$SMEM" --claim "$claim"
done
expect byte_swizzle.z3 0 "2 proved" prove '(8,64):(64,1)' "${BS[@]}" --claim bijective --claim contiguous:8 --engine z3
for claim in conflict-free max-ways:1; do
  expect "bank_byte_swizzle[$claim]" 0 "1 proved" prove '(8,64):(64,1)' "${BS[@]}" --claim "$claim" --pattern ldmatrix --op ldsm4
  expect "bank_smem_ptr[$claim]" 0 "1 proved" prove "$SMEM" --elem-bytes 2 --claim "$claim" --pattern ldmatrix --op ldsm4
done
expect bank.smem_ptr_width 2 "16-bit elements" prove "$SMEM" --elem-bytes 4 --claim conflict-free --pattern row-per-lane --vec 4
expect bank.two_byte_swizzles 2 "its own byte swizzle" prove "$SMEM" "${BS[@]}" --claim conflict-free --pattern row-per-lane --vec 8
expect byte_swizzle.swizzled_layout 2 "give a plain layout" prove "$ELEM" "${BS[@]}" --claim bijective
expect byte_swizzle.no_width 2 "need the element width" prove '(8,64):(64,1)' --byte-swizzle 'Sw<3,4,3>' --claim bijective

# print and eval: --byte-swizzle is the smem_ptr form, which evaluates as the element form.
want=$("$BIN" eval "$ELEM")
[ "$("$BIN" eval '(8,64):(64,1)' "${BS[@]}")" = "$want" ] && echo "ok   eval.byte_swizzle" || fail eval.byte_swizzle "differs from $ELEM"
[ "$("$BIN" eval "$SMEM")" = "$want" ] && echo "ok   eval.smem_ptr" || fail eval.smem_ptr "differs from $ELEM"
"$BIN" print '(8,64):(64,1)' "${BS[@]}" | tail -n +2 >"$tmp/p1"; "$BIN" print "$ELEM" --elem-bytes 2 | tail -n +2 >"$tmp/p2"
cmp -s "$tmp/p1" "$tmp/p2" && echo "ok   print.byte_swizzle" || fail print.byte_swizzle "table differs from $ELEM"
expect print.smem_ptr_width 2 "16-bit elements" print "$SMEM" --elem-bytes 4

# A byte swizzle that moves bytes inside an element: every command refuses and says what moves.
MOVES="byte-address bit 5 flips bit 2"
for claim in bijective contiguous:2 'equivalent:(8,16):(16,1)' conflict-free; do
  case $claim in conflict-free) extra=(--pattern row-per-lane) ;; *) extra=() ;; esac
  expect "moves[$claim]" 2 "$MOVES" prove '(8,16):(16,1)' --byte-swizzle 'Sw<3,2,3>' --elem-bytes 8 --claim "$claim" "${extra[@]}"
done
expect moves.tma_with_bijective 2 "$MOVES" prove '(8,16):(16,1)' --byte-swizzle 'Sw<3,2,3>' --elem-bytes 8 --claim bijective --claim 'tma:Sw<3,2,3>'
# (a tma:-only run reads absolute byte addresses and needs no element-level form)
expect moves.tma_only 0 "PROVED" prove '(8,16):(16,1)' --byte-swizzle 'Sw<3,2,3>' --elem-bytes 8 --claim 'tma:Sw<3,2,3>,base=8'
expect moves.eval 2 "byte 32 (element 4's byte 0) goes to byte 36 (element 4's byte 4)" eval '(8,16):(16,1)' --byte-swizzle 'Sw<3,2,3>' --elem-bytes 8
expect moves.print 2 "$MOVES" print '(8,16):(16,1)' --byte-swizzle 'Sw<3,2,3>' --elem-bytes 8
expect moves.notation 2 "$MOVES" eval 'Sw<3,2,3> o smem_ptr[64b](unset) o (8,16):(16,1)'
# S < 0 with M < log2(bytes): element starts stay, but an element's inner byte goes to another one.
expect moves.negative_s 2 "byte 2 (element 0's byte 2) goes to byte 10 (element 2's byte 2)" eval 'Sw<1,1,-2> o smem_ptr[32b](unset) o (8,16):(16,1)'

# trace --smem: CuTe notation with -D constants goes through the one input path.
CP='make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})'
expect trace.notation_with_D 0 "PROVED  covers" trace --side D --element float --smem '(128,8):(1,128)' --copy "$CP" -D 'bM=Int<128>{}' --claim covers
# CuTe's printed static negative stride is notation.
expect notation.static_negative 0 "0 -1 -2 -3 4 3 2 1" eval '(4,8):(_-1,4)'

[ $fails -eq 0 ] && echo "all passed" || echo "$fails failed"
exit $fails
