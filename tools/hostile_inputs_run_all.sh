#!/usr/bin/env bash
# Regression replay of the hostile-input campaign against layoutproof (see /tmp/hostile/REPORT.md).
#
#   usage: run_all.sh /path/to/layoutproof [FILTER-REGEX]
#
# Every case runs with `timeout 20` under `ulimit -v 8 GiB`. A case FAILs when the binary crashes
# (signal, rc >= 124), hangs (> 10 s wall), or does not give the expected kind of result (each case
# states it). PASS = no crash/hang and the expected kind of result. Case ids match REPORT.md
# (C = crash, H = hang, A = wrapped arithmetic, W = wrong answer, E = bad error message / exit code;
# D = behaviour that may be by design, reported for a decision).
# Needs: bash, coreutils (timeout, mktemp, head, wc), python3 only for the JUnit-XML case (skipped
# without it). Exit status: number of FAILed cases (capped at 255).
set -u
BIN=${1:?usage: run_all.sh /path/to/layoutproof [FILTER-REGEX]}
FILTER=${2:-.}
[ -x "$BIN" ] || { echo "not executable: $BIN" >&2; exit 255; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
WORK=$(mktemp -d /tmp/lp_hostile.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 255
export LAYOUTPROOF_CACHE="$WORK/cache"   # never read a developer's cache
PASS=0 FAIL=0 SKIP=0
FAILED=()

rep() { printf "%${2}s" '' | tr ' ' "$1"; }   # rep CHAR N

# ---------------------------------------------------------------------------------------------
# Runner. run ID EXPECT [EXPECT-ARG] -- ARGS...    (stdin from /dev/null unless STDIN_FILE is set)
RC=0 T=0 OUT="$WORK/out" ERR="$WORK/err"
run_bin() {
  local t0 t1
  t0=$(date +%s%N)
  # the outer subshell swallows the shell's own "Segmentation fault" job message; RC keeps 128+signal
  ( ( ulimit -v 8388608; exec timeout -k 5 20 "$BIN" "$@" ) <"${STDIN_FILE:-/dev/null}" >"$OUT" 2>"$ERR"; exit $? ) 2>/dev/null
  RC=$?
  t1=$(date +%s%N)
  T=$(( (t1 - t0) / 1000000 ))
}
both() { cat "$OUT" "$ERR"; }
leaked() {  # raw C++ / library exception texts that say nothing to a user
  grep -Eq '^error: (stoi|stol|stoll|stoul|std::bad_alloc|std::length_error|vector::|basic_string|bad conversion|yaml-cpp: error at line)|^error: yaml-cpp' "$ERR"
}
# Expectations: each returns 0 when the result is of the expected kind.
exp_clean()    { [ "$RC" -le 3 ]; }                                             # any verdict / error, no crash
exp_err2()     { [ "$RC" -eq 2 ] && grep -q '^error: ' "$ERR" && ! leaked; }    # clean bad-input error
exp_caret()    { exp_err2 && grep -Eq '^ *\^$' "$ERR"; }                        # ... with a caret line
exp_rc()       { [ "$RC" -eq "$1" ]; }
exp_not()      { [ "$RC" -le 3 ] && ! both | grep -Eq -- "$1"; }                # output must not match
exp_has()      { [ "$RC" -le 3 ] && both | grep -Eq -- "$1"; }                  # output must match
exp_err2_or_not() { exp_err2 || { [ "$RC" -le 3 ] && ! both | grep -Eq -- "$1"; }; }
exp_nonzero_clean() { [ "$RC" -ge 1 ] && [ "$RC" -le 3 ] && ! leaked; }        # gate must not pass
exp_help()     { [ "$RC" -eq 0 ] && grep -qi 'usage' "$OUT"; }
exp_err2_quiet() { exp_err2 && [ ! -s "$OUT" ]; }                               # refuse before doing any work
exp_err2_not() { exp_err2 && ! grep -Eq -- "$1" "$ERR"; }                        # clean error, but not this one
exp_ok_or_range() { [ "$RC" -eq 0 ] || { exp_err2 && grep -Eq 'between|more than|from [0-9]+ to' "$ERR"; }; }  # accept, or say the range

run() {
  local id=$1 exp=$2; shift 2
  local arg=""
  if [ "$1" != "--" ]; then arg=$1; shift; fi
  shift  # --
  [[ "$id" =~ $FILTER ]] || return 0
  run_bin "$@"
  local why=""
  if [ "$RC" -ge 124 ]; then
    if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then why="hang (killed after 20 s)"; else why="crash (rc $RC, signal $((RC-128)))"; fi
  elif [ "$T" -gt 10000 ]; then why="hang (${T} ms > 10 s)"
  elif ! { if [ -n "$arg" ]; then $exp "$arg"; else $exp; fi; }; then why="unexpected result (rc $RC; expected $exp${arg:+ $arg}): $(head -c 160 "$ERR" | tr '\n' ' ')$( [ -s "$ERR" ] || head -c 160 "$OUT" | tr '\n' ' ')"
  fi
  if [ -z "$why" ]; then PASS=$((PASS+1)); printf 'PASS  %-6s %6d ms\n' "$id" "$T"
  else FAIL=$((FAIL+1)); FAILED+=("$id"); printf 'FAIL  %-6s %6d ms  %s\n' "$id" "$T" "$why"; fi
}
skip() { [[ "$1" =~ $FILTER ]] || return 0; SKIP=$((SKIP+1)); printf 'SKIP  %-6s %s\n' "$1" "$2"; }

# ---------------------------------------------------------------------------------------------
# Inputs
OPEN40K=$(rep '(' 40000)
BAL30K="$(rep '(' 30000)8$(rep ')' 30000)"
CPASYNC='make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})'
ADDR32=$(seq -s, 0 4 124)
EXPB=""; for i in $(seq 1 39); do EXPB+="auto a$i = make_shape(a$((i-1)),a$((i-1))); "; done
EXPB="auto a0 = make_shape(_1,_1); ${EXPB}make_layout(a39)"
PLUS2000="x = blockIdx.x$(for i in $(seq 1 1999); do printf '+blockIdx.x'; done); y = blockIdx.y"

mkspec() { printf '%s\n' "$2" >"$WORK/$1"; }
mkspec deep.yaml "layouts: [{name: a, layout: \"$(rep '(' 50000)8$(rep ')' 50000)\", claims: [injective]}]"
mkspec vec0.yaml 'layouts: [{name: a, layout: "(8,64):(64,1)", element: f16, accesses: [{pattern: row-per-lane, vec: 0, claims: [conflict-free]}]}]'
mkspec compose.yaml 'layouts:
  - name: composed
    layout: composition(Layout<Shape<_6,_2>,Stride<_1,_2>>{}, Layout<Shape<_2,_3,_1024>,Stride<_3,_2,_48>>{})
    claims: [injective]'
mkspec typo.yaml 'layouts:
  - name: typo
    layout: "(8,8):(8,0)"
    claim: [injective]'
mkspec dupkeys.yaml 'layouts:
  - name: dup
    layout: "(8,8):(8,0)"
    claims: [injective]
    claims: [bijective]
    layout: "(8,8):(8,1)"'
mkspec multidoc.yaml 'layouts: [{name: a, layout: "(8,8):(8,1)", claims: [injective]}]
---
layouts: [{name: b, layout: "(8,8):(8,0)", claims: [injective]}]'
mkspec bits_bad.yaml 'layouts: [{name: a, layout: "(8,8):(8,1)", bits: abc, claims: [injective]}]'
mkspec base_bad.yaml 'layouts: [{name: a, layout: "(8,64):(64,1)", element: f16, accesses: [{pattern: row-per-lane, base: xyz, claims: [conflict-free]}]}]'
mkspec claims_nested.yaml 'layouts: [{name: a, layout: "8:1", claims: [[injective]]}]'
mkspec caret.yaml 'layouts: [{name: a, layout: "(8,8):(8,1", claims: [injective]}]'
mkspec bits17.yaml 'layouts: [{name: a, layout: "(32,32):(32,1)", bits: 17, accesses: [{pattern: row-per-lane, vec: 1, claims: [conflict-free]}]}]'
mkspec expb.yaml "layouts:
  - name: bomb
    layout: \"$EXPB\"
    claims: [injective]"
printf 'layouts: [{name: "a<b>&c\\x01\\x1b[31m", layout: "(8,8):(8,0)", claims: [injective]}]\n' >"$WORK/xml.yaml"

# ---------------------------------------------------------------------------------------------
echo "== crashes"
run C1a exp_err2 -- eval "$OPEN40K"
run C1b exp_err2 -- prove "$OPEN40K" --claim injective
run C1c exp_clean -- check "$WORK/deep.yaml" --no-cache
run C1d exp_clean -- eval "$BAL30K"                      # quadratic: 30k balanced levels > 20 s
printf 'size %s\nsize 8:1\n' "$OPEN40K" >"$WORK/deep_batch.txt"
STDIN_FILE="$WORK/deep_batch.txt" run C1e exp_has '^8$' -- algebra -
run C2  exp_err2 -- raster prove formula --formula "x = $(rep '(' 20000)blockIdx.x$(rep ')' 20000); y = blockIdx.y"
run C3  exp_nonzero_clean -- check "$WORK/vec0.yaml" --no-cache
run C4a exp_err2 -- synth --tile '(4294967296,4294967296):(0,0)' --elem-bytes 4 --pattern row-per-lane
run C4b exp_err2 -- synth --tile '(4294967296,4294967296):(1,4294967296)' --elem-bytes 4 --pattern row-per-lane
run C4c exp_err2 -- synth --tile '(4611686018427387904,2):(2,1)' --elem-bytes 4 --pattern row-per-lane

echo "== wrapped arithmetic"
run A1a exp_err2 -- print '(4294967296,4294967296):(0,0)'
run A1b exp_err2 -- print '(3037000500,3037000500):(0,0)'
run A2a exp_clean -- prove '(4611686018427387904,4611686018427387904):(1,1)' --claim conflict-free --elem-bytes 1 --pattern row-per-lane
run A2b exp_clean -- prove '(9223372036854775807,1):(1,1)' --claim conflict-free --elem-bytes 1 --pattern row-per-lane
run A2c exp_clean -- prove '(1,9223372036854775807):(1,1)' --claim conflict-free --elem-bytes 1 --pattern linear

echo "== hangs / unbounded memory"
# eval must refuse (clean error) or stream: > 1 MB of output within the time limit counts as streaming.
if [[ "H1a" =~ $FILTER ]]; then
  t0=$(date +%s%N)
  n=$( ( ulimit -v 8388608; timeout -k 5 10 "$BIN" eval 2147483648:1 2>"$ERR" ) | head -c 1000000 | wc -c )
  T=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ "$n" -ge 1000000 ] || { grep -q '^error: ' "$ERR" && ! leaked; }; then PASS=$((PASS+1)); printf 'PASS  %-6s %6d ms\n' H1a "$T"
  else FAIL=$((FAIL+1)); FAILED+=(H1a); printf 'FAIL  %-6s %6d ms  no streaming output and no clean refusal: %s\n' H1a "$T" "$(head -c 120 "$ERR")"; fi
fi
run H1b exp_err2 -- eval '(65536,65536):(1,65536)'
run H1c exp_err2 -- eval 9223372036854775807:1
run H2  exp_clean -- prove '(65536,65536):(65536,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane
run H3a exp_clean -- trace --side D --element float --smem '(128,8):(1,128)' --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<Int<1000000000>,_1>>{})'
run H3b exp_err2 -- trace --side D --element float --smem '(128,8,3):(1,129,1032)' --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<Int<1000000000>,_1>>{})' --claim covers
run H3c exp_clean -- trace --side D --element float --copy "$CPASYNC" --claim conflict-free --smem 'tile_to_shape(make_layout(make_shape(_8,_8)), make_shape(Int<128>{}, _8, Int<1000000000>{}))'
run H4a exp_clean -- trace --side D --element float --copy "$CPASYNC" --smem "$EXPB"
run H4b exp_clean -- check "$WORK/expb.yaml" --no-cache
run H5a exp_clean -- raster prove seed --tile-size 65536
run H5b exp_clean -- raster prove formula --formula "$PLUS2000" --timeout-ms 500
run H6a exp_clean -- synth --tile '(1024,1024):(1024,1)' --elem-bytes 4 --pattern row-per-lane
run H6b exp_clean -- prove '(4096,4096):(4096,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane
run H6c exp_clean -- prove 'Sw<3,3,3> o (32768,32768):(32768,1)' --claim bijective --engine exhaustive
run H7  exp_clean -- check /dev/zero

echo "== wrong answers"
run W1a exp_err2 -- algebra composition '(12,2):(1,100)' '(3,2,4096):(3,6,0)'
run W1b exp_nonzero_clean -- check "$WORK/compose.yaml" --no-cache
run W2a exp_err2_or_not '\| *-[0-9]' -- print '(2,4):(4,1)' -5
run W2b exp_err2 -- print '(2,4):(4,1)' 0
run W2c exp_has 'bank of each element' -- print '(2,2):(-8,-1)' 4   # decided: offsets may be negative; banks are taken mod 32
run W3a exp_nonzero_clean -- check "$WORK/typo.yaml" --no-cache
run W3b exp_err2 -- check "$WORK/dupkeys.yaml" --no-cache
run W3c exp_nonzero_clean -- check "$WORK/multidoc.yaml" --no-cache
run W3d exp_err2 -- check "$WORK/bits17.yaml" --no-cache
run W4  exp_not '^PROVED  covers' -- trace --side D --element float --smem '(128,8):(1,64)' --copy "$CPASYNC" --claim covers
run W5  exp_not '^REFUTED.*@8 word 2' -- trace --side D --element float --smem '(128,8):(1,128)' --copy "$CPASYNC" --claim conflict-free --base 010

echo "== questionable semantics (D: decide, then keep or drop)"
run D1  exp_not '^PROVED' -- raster prove formula --formula 'x = blockIdx.x % 0; y = blockIdx.y'
run D2  exp_has '^4$' -- algebra cosize 4:-1   # decided: CuTe 4.x's coshape sums (shape-1)*|stride| (layout.hpp), so 4

echo "== error messages / exit codes"
run E1a exp_err2 -- print 8:1 --elem-bytes abc
run E1b exp_err2 -- print 8:1 --elem-bytes
run E1c exp_err2 -- check "$WORK/bits_bad.yaml" --no-cache
run E1d exp_err2 -- check "$WORK/base_bad.yaml" --no-cache
run E1e exp_err2 -- check "$WORK/claims_nested.yaml" --no-cache
for sub in eval print prove check catalog bank synth raster algebra; do
  run "E2-$sub" exp_help -- "$sub" --help
done
run E3a exp_err2 -- prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 3 --pattern row-per-lane
run E3b exp_err2 -- prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane --base 1
run E3c exp_err2 -- prove 8:1 --claim injective --engine z3 --dump-smt /dev/null
run E3d exp_err2 -- prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --thread-layout 1000000000:1
run E3e exp_err2 -- bank --op ldsm1 --width 16 --addresses "0,16,32,48,64,80,96,112$(for i in $(seq 24); do printf ',-7'; done)"
run E4a exp_caret -- eval 0x10:1
run E4b exp_caret -- eval 4:99999999999999999999
run E4c exp_caret -- check "$WORK/caret.yaml" --no-cache
run E5a exp_err2_not "unknown argument '4'" -- bank --op --width 4 --addresses "$ADDR32"
run E5b exp_ok_or_range -- raster locality --m 1099511627776 --n 1 --k 1
run E5c exp_err2_quiet -- prove '(8,64):(64,1)' --claim conflict-free --claim injective --elem-bytes 2 --pattern row-per-lane
if command -v python3 >/dev/null 2>&1; then
  if [[ "E6" =~ $FILTER ]]; then
    run_bin check "$WORK/xml.yaml" --no-cache --junit "$WORK/j.xml"
    if [ "$RC" -le 3 ] && python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$WORK/j.xml" 2>/dev/null; then
      PASS=$((PASS+1)); printf 'PASS  %-6s %6d ms\n' E6 "$T"
    else FAIL=$((FAIL+1)); FAILED+=(E6); printf 'FAIL  %-6s %6d ms  --junit output is not well-formed XML (rc %s)\n' E6 "$T" "$RC"; fi
  fi
else skip E6 "python3 not found"; fi

echo "== controls (must keep passing)"
run K1 exp_rc 0 -- eval '(2,2):(1,4)'
run K2 exp_rc 1 -- prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane
run K3 exp_err2 -- eval '(8,4'
run K4 exp_rc 0 -- prove 'Sw<3,3,3> o (8,64):(64,1)' --claim bijective --engine z3
run K5 exp_err2 -- algebra composition '(12,2):(1,100)' '(3,2):(3,6)'
run K6 exp_err2 -- bank --op ld --width 4 --addresses "$(seq -s, 0 4 120)"

echo
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -gt 0 ] && echo "failed: ${FAILED[*]}"
exit $(( FAIL > 255 ? 255 : FAIL ))
