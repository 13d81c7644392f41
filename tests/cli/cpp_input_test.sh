#!/usr/bin/env bash
# C++ input on every layout-taking command: bash cpp_input_test.sh <layoutproof> <repo root>
# The same layout written in CuTe notation and in C++ gives the same results on eval, print, prove,
# synth --tile, check (a spec's constants: block, -D) and trace; -D constants; --help of each command
# says C++ is accepted; errors name the construct and point a caret at the offending column.
set -u
BIN=${1:?usage: cpp_input_test.sh <layoutproof> <repo root>}
ROOT=${2:?usage: cpp_input_test.sh <layoutproof> <repo root>}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL ($1): $2"; fails=$((fails + 1)); }

# same_output WHAT CMD... -- CMD...: both commands exit 0 with the same stdout.
same_output() {
  local what=$1; shift
  local a=() b=() in_b=0
  for x in "$@"; do
    if [ "$x" = "--" ] && [ $in_b -eq 0 ]; then in_b=1; continue; fi
    if [ $in_b -eq 0 ]; then a+=("$x"); else b+=("$x"); fi
  done
  "$BIN" "${a[@]}" 2>"$tmp/ea" | sed -E 's/[0-9.]+ ms/T ms/g' >"$tmp/a"; local ra=${PIPESTATUS[0]}
  "$BIN" "${b[@]}" 2>"$tmp/eb" | sed -E 's/[0-9.]+ ms/T ms/g' >"$tmp/b"; local rb=${PIPESTATUS[0]}
  if [ $ra -ne $rb ]; then fail "$what" "exit codes $ra and $rb: $(cat "$tmp/ea" "$tmp/eb")"; return; fi
  if ! cmp -s "$tmp/a" "$tmp/b"; then fail "$what" "outputs differ: $(diff "$tmp/a" "$tmp/b" | head -5)"; fi
}

# expect_error WHAT NEEDLE CARET_COLUMN CMD...: exit 2, the first line contains NEEDLE, and the caret
# (the last line's '^') stands under column CARET_COLUMN (1-based) of the echoed source line.
expect_error() {
  local what=$1 needle=$2 col=$3; shift 3
  "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ]; then fail "$what" "exit code $rc, expected 2: $(cat "$tmp/err")"; return; fi
  case "$(head -n 1 "$tmp/err")" in
    *"$needle"*) ;;
    *) fail "$what" "first line '$(head -n 1 "$tmp/err")' lacks '$needle'"; return ;;
  esac
  if [ "$col" != "-" ]; then
    local caret
    caret=$(tail -n 1 "$tmp/err")
    local at=$(( ${#caret} - 2 ))  # the caret line is "  " + spaces + "^"
    [ "${caret: -1}" = "^" ] && [ "$at" -eq "$col" ] || fail "$what" "caret at column $at, expected $col: '$caret'"
  fi
}

NOTATION='Sw<3,3,3> o 0 o (8,64):(64,1)'
CPP='using SmemLayoutAtom = decltype(composition(Swizzle<3,3,3>{},
                Layout<Shape < _8,_64>,
                       Stride<_64, _1>>{}));  // default_gemm_configuration.hpp
SmemLayoutAtom{}'

same_output "eval" eval "$NOTATION" -- eval "$CPP"
same_output "print with banks" print "$NOTATION" --elem-bytes 2 -- print "$CPP" --elem-bytes 2
same_output "prove" prove "$NOTATION" --claim bijective --claim contiguous:8 --engine exhaustive -- \
  prove "$CPP" --claim bijective --claim contiguous:8 --engine exhaustive
same_output "prove a bare swizzle" prove 'Sw<3,4,3>' --claim involution --engine exhaustive -- \
  prove 'Swizzle<3,4,3>{}' --claim involution --engine exhaustive
same_output "bank claims: tile, --thread-layout, --byte-swizzle" \
  prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --vec 8 --thread-layout '(8,4):(1,64)' --byte-swizzle 'Sw<3,4,3>' -- \
  prove 'make_layout(make_shape(_8{}, _64{}), LayoutRight{})' --claim conflict-free --elem-bytes 2 --vec 8 \
    --thread-layout 'make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, _64{}))' --byte-swizzle 'Swizzle<3,4,3>{}'
grep -q "^PROVED  conflict-free" "$tmp/b" || fail "bank claims with C++" "not proved: $(cat "$tmp/b")"
same_output "synth --tile" synth --tile '(8,64):(64,1)' --elem-bytes 2 --pattern ldmatrix --no-gf2 -- \
  synth --tile 'make_layout(make_shape(bM, bK), LayoutRight{})' -D 'bM=Int<8>{}' -D 'bK=Int<64>{}' --elem-bytes 2 --pattern ldmatrix --no-gf2

# -D NAME=EXPR, -DNAME=EXPR, qualified names, constants through constants.
same_output "-D constants" eval 'Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))' -- \
  eval 'tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{}))' \
  -D 'TileShape=Shape<_128,_128,_64>' -DElement=half_t -D DispatchPolicy::Stages=3
# equivalent:L2 takes C++ with the same constants.
"$BIN" prove 'GMMA::Layout_K_SW64_Atom<T>{}' -D T=half_t --claim 'equivalent:composition(Swizzle<2,3,3>{}, make_layout(make_shape(_8{}, bK), LayoutRight{}))' \
  -D 'bK=Int<32>{}' >"$tmp/out" 2>&1 || fail "prove equivalent:C++" "$(cat "$tmp/out")"
grep -q "^PROVED  equivalent" "$tmp/out" || fail "prove equivalent:C++" "$(cat "$tmp/out")"

# check: the spec's constants: block, and -D adding to (and winning over) it.
cat >"$tmp/spec.yaml" <<'EOF'
constants:
  bM: Int<128>{}
  Stages: "4"
layouts:
  - name: sA
    layout: |
      // sm90 K-major f16 A, as the builder selects it
      using Atom = decltype(detail::ss_smem_selector<GMMA::Major::K, half_t, decltype(bM), _64>());
      static_assert(Stages >= 2, "a pipeline needs two stages");
      tile_to_shape(Atom{}, make_shape(bM, _64{}))
    element: f16
    claims: [bijective, "equivalent:tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, _64{}))"]
    accesses:
      - pattern: ldmatrix
        op: ldsm4
        claims: [conflict-free]
EOF
"$BIN" check "$tmp/spec.yaml" --no-cache --no-progress >"$tmp/out" 2>&1 || fail "check with constants:" "$(cat "$tmp/out")"
"$BIN" check "$tmp/spec.yaml" --no-cache --no-progress -D 'bM=Int<64>{}' --json >"$tmp/out" 2>&1 || fail "check -D" "$(cat "$tmp/out")"
grep -qF '"layout":"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(64,1)):((64,512),(1,0))"' "$tmp/out" || fail "check -D wins over constants:" "$(head -c 400 "$tmp/out")"

# trace: the smem layout is C++ through the same grammar (model/source/kernel_expr + cpp_expr).
"$BIN" trace --smem 'tile_to_shape(SmemLayoutAtom{}, make_shape(bM, bK, Int<3>{}))' \
  -D 'SmemLayoutAtom=decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))' -D 'bM=Int<128>{}' -D 'bK=Int<64>{}' \
  --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --side S --element half_t \
  --claim conflict-free >"$tmp/out" 2>&1 || fail "trace with C++ smem and -D" "$(tail -3 "$tmp/out")"

# -D and `using` apply to every template argument: copy ops, element types, MMA atoms (they were
# read as written, so -D CopyOpR2S=... gave "unknown copy operation 'CopyOpR2S'").
SM90_SMEM='tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<128>{}))'
SM90_MMA='make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})'
# expect_proved WHAT NEEDLE CMD...: exit 0, a PROVED line, and NEEDLE in the output.
expect_proved() {
  local what=$1 needle=$2; shift 2
  "$BIN" "$@" >"$tmp/out" 2>&1 || { fail "$what" "exit $?: $(tail -3 "$tmp/out")"; return; }
  grep -q "^PROVED" "$tmp/out" && grep -qF -- "$needle" "$tmp/out" || fail "$what" "$(head -c 600 "$tmp/out")"
}
expect_proved "-D copy op and element type (SM90 epilogue)" "32 x stsm4" \
  trace --side D --element half_t --smem "$SM90_SMEM" --mma "$SM90_MMA" \
  --copy 'make_tiled_copy_C(Copy_Atom<CopyOpR2S, SmemElementD>{}, mma)' -D CopyOpR2S=SM90_U32x4_STSM_N -D SmemElementD=half_t --claim conflict-free
expect_proved "-D inside an op's template argument" "16 x ldgsts.32" \
  trace --side D --element float --smem '(64,8):(1,64)' -D TA=float --claim conflict-free \
  --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<TA>, TA>{}, Layout<Shape<_32,_8>>{})'
expect_proved "using inside the pasted copy" "16 x ldgsts.32" \
  trace --side D --element float --smem '(64,8):(1,64)' --claim conflict-free \
  --copy 'using TA = float; make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<TA>, TA>{}, Layout<Shape<_32,_8>>{})'
SM80_SMEM='tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(_128{}, _64{}))'
expect_proved "-D MMA atom in TiledMMA<MMA_Atom<...>>; a named --mma; a declared Copy_Atom" "64 x ldsm4" \
  trace --side S --element half_t --smem "$SM80_SMEM" -D 'MmaAtom=SM80_16x8x16_F32F16F16F32_TN' \
  --mma 'mmaC = TiledMMA<MMA_Atom<MmaAtom>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>{}' \
  --copy 'Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A; make_tiled_copy_A(s2r_atom_A, mmaC)' --claim conflict-free
expect_proved "--mma as the tutorial declares it" "64 x ldsm4" \
  trace --side S --element half_t --smem "$SM80_SMEM" \
  --mma 'TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{});' \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mmaC)' --claim conflict-free
expect_proved "the TiledMMA declared in the copy itself" "64 x ldsm4" \
  trace --side S --element half_t --smem "$SM80_SMEM" --claim conflict-free \
  --copy 'auto tiled_mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{});
          make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tiled_mma)'
# CUTLASS's selectors: the GMMA op and the epilogue's smem store op, as the builders compute them.
expect_proved "ss_op_selector and sm90_get_smem_store_op_for_accumulator" "32 x stsm4" \
  trace --side D --element half_t --smem "$SM90_SMEM" \
  --mma 'make_tiled_mma(GMMA::ss_op_selector<half_t, half_t, float, Shape<_64,_128,_64>, GMMA::Major::K, GMMA::Major::K>())' \
  --copy 'using CopyOpR2S = decltype(detail::sm90_get_smem_store_op_for_accumulator<Stride<int64_t,_1,int64_t>, half_t, Shape<_64,_32>>());
          make_tiled_copy_C(Copy_Atom<CopyOpR2S, half_t>{}, mma)' --claim conflict-free
expect_error "rs_op_selector's static_assert" "static_assert failed: Register source A operand GMMAs must have K-major A layout." 81 \
  trace --side D --element half_t --smem "$SM90_SMEM" --copy 'make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)' \
  --mma 'make_tiled_mma(GMMA::rs_op_selector<half_t, half_t, float, Shape<_64,_128,_64>, GMMA::Major::MN>())'
# CuTe's type spellings: uint_byte_t<N>, the FP8/FP6/FP4 types.
expect_proved "uint_byte_t<16> and float_e4m3_t" "st.128" \
  trace --side D --element float_e4m3_t --smem '(128,8):(1,128)' --claim conflict-free \
  --copy 'make_tiled_copy(Copy_Atom<UniversalCopy<uint_byte_t<16>>, cutlass::float_e4m3_t>{}, Layout<Shape<_8,_8>>{}, Layout<Shape<_16,_1>>{})'
# Misspelled and unknown atoms: the nearest name, the closest few, or why CuTe's op is not modelled.
expect_error "misspelled copy op" "unknown copy operation 'SM90_U32x4_STSM_M' (did you mean SM90_U32x4_STSM_N?)" 29 \
  trace --side D --element half_t --smem "$SM90_SMEM" --mma "$SM90_MMA" --copy 'make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_M, half_t>{}, mma)'
expect_error "misspelled MMA atom through -D" "unknown MMA atom 'SM80_16x8x16_F32F16F16F32_NT' (did you mean SM80_16x8x16_F32F16F16F32_TN?)" - \
  trace --side S --element half_t --smem "$SM80_SMEM" --mma 'make_tiled_mma(MmaAtom{})' -D MmaAtom=SM80_16x8x16_F32F16F16F32_NT \
  --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)'
expect_error "unknown op: the closest few" "unknown copy operation 'SM99_FOO'; the closest known: " 29 \
  trace --side D --element half_t --smem "$SM90_SMEM" --mma "$SM90_MMA" --copy 'make_tiled_copy_C(Copy_Atom<SM99_FOO, half_t>{}, mma)'
expect_error "TMA is not lane-addressed" "copy operation 'SM90_TMA_LOAD' is not modelled: a TMA copy" 29 \
  trace --side D --element half_t --smem "$SM90_SMEM" --mma "$SM90_MMA" --copy 'make_tiled_copy_C(Copy_Atom<SM90_TMA_LOAD, half_t>{}, mma)'
expect_error "misspelled element type" "unknown name 'halft' (did you mean half_t?)" 48 \
  trace --side D --element half_t --smem "$SM90_SMEM" --mma "$SM90_MMA" --copy 'make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, halft>{}, mma)'
expect_error "an undeclared TiledMMA name" "unknown name 'mmaC' where the TiledMMA is expected; give it (--mma mmaC=EXPR" 59 \
  trace --side S --element half_t --smem "$SM80_SMEM" --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mmaC)'

# Every layout-taking command's --help says C++ is accepted, with an example.
for cmd in eval print prove synth check; do
  "$BIN" $cmd --help >"$tmp/out" 2>&1 || fail "$cmd --help" "exit $?"
  grep -q "C++" "$tmp/out" && grep -q "Example (C++)" "$tmp/out" && grep -q -- "-D" "$tmp/out" ||
    fail "$cmd --help" "does not say C++ is accepted with an example"
done
"$BIN" --help | grep -q "C++ (eval, print, prove" || fail "--help" "no C++ section"

# Errors: the construct and what is supported, a suggestion for a near name, the arity, the caret.
expect_error "unknown name suggests" "unknown name 'Layuot' (did you mean Layout?)" 1 eval 'Layuot<Shape<_8>>{}'
expect_error "unknown element type" "did you mean half_t?" 27 eval 'GMMA::Layout_K_SW128_Atom<halft>{}'
expect_error "unknown function suggests" "unknown function 'tile_to_shpe' (did you mean tile_to_shape?)" 1 eval 'tile_to_shpe(Layout<_8,_1>{}, Shape<_16>{})'
expect_error "undefined constant" "unknown name 'bK' where an integer or a tuple is expected; define it (-D bK=EXPR" 28 \
  eval 'make_layout(make_shape(bM, bK))' -D 'bM=Int<8>{}'
expect_error "wrong arity" "wrong number of arguments: tile_to_shape takes 2 to 3 arguments, not 1" 1 eval 'tile_to_shape(Layout<_8,_1>{})'
expect_error "wrong template arity" "wrong number of template arguments: Int takes 1 template argument, not 2" 1 eval 'Int<8, 9>{}'
expect_error "unsupported statement" "unsupported construct: 'if' statements; layoutproof evaluates declarations" 1 eval 'if (x) { }'
expect_error "unsupported member access" "unsupported construct: member access ('.'); write CuTe's free functions" 10 eval 'get<0>(x).shape()'
expect_error "unsupported lambda" "unsupported construct: lambdas" 10 eval 'auto x = [](){ return 1; }; x'
expect_error "tensors" "unsupported construct: tensors; paste the tensor's layout" 1 eval 'make_tensor(make_smem_ptr(p), Layout<_8,_1>{})'
expect_error "kernel-layer function" "unsupported construct: 'local_tile' is a CuTe function outside the layout algebra" 1 eval 'local_tile(Layout<_8,_1>{}, Shape<_4>{})'
expect_error "static_assert" 'static_assert failed: "BLK_K0 too small"' 1 eval 'static_assert(size<1>(Layout<Shape<_8,_4>>{}) % 8 == 0, "BLK_K0 too small"); Layout<_8,_1>{}'
expect_error "selector's static_assert" "static_assert failed: BLK_K0 must be a multiple of 8" 56 \
  eval 'detail::ss_smem_selector<GMMA::Major::K, half_t, _128, _12>()'
expect_error "notation error stays notation" "expected" 9 eval '(4,2):(2'
expect_error "bad -D" "-D needs NAME=EXPR" - eval '8:1' -D '=3'
expect_error "error inside a -D constant" "-D bM: expected" - eval 'make_shape(bM)' -D 'bM=Int<8>{'

# Basis strides in C++ (CuTe's E<I...>) are the notation's _1@I (E<1,0> is _1@0@1, innermost first).
same_output "E<> in make_stride" algebra coalesce 'make_layout(make_shape(Int<4>{},Int<8>{}), make_stride(E<0>{}, E<1>{}))' --cute-text \
  -- algebra coalesce '(_4,_8):(_1@0,_1@1)' --cute-text
same_output "E<> in Stride<>" algebra coalesce 'Layout<Shape<_4,_8>, Stride<E<1,0>, E<>>>{}' --cute-text \
  -- algebra coalesce '(_4,_8):(_1@0@1,_1)' --cute-text
expect_error "claims need integer strides" "has the basis stride" - prove 'Layout<Shape<_4,_8>, Stride<E<0>, E<1>>>{}' --claim injective

if [ "$fails" -ne 0 ]; then echo "$fails C++ input check(s) failed"; exit 1; fi
echo "all C++ input checks passed"
