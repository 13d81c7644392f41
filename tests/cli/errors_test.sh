#!/usr/bin/env bash
# CLI error handling and the eval/print outputs: bash errors_test.sh <layoutproof>
# Bad input exits 2 with a first stderr line starting 'error: ', never a crash (exit code >= 128).
set -u
BIN=${1:?usage: errors_test.sh <layoutproof>}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_error() {  # description, then the command's arguments
  local what=$1; shift
  "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local first
  first=$(head -n 1 "$tmp/err")
  if [ "$rc" -ge 128 ]; then
    echo "FAIL ($what): crashed with exit code $rc: $BIN $*"; fails=$((fails + 1)); return
  fi
  if [ "$rc" -ne 2 ]; then
    echo "FAIL ($what): exit code $rc, expected 2: $BIN $*"; fails=$((fails + 1)); return
  fi
  case "$first" in
    "error: "*) ;;
    *) echo "FAIL ($what): first stderr line '$first' does not start with 'error: '"; fails=$((fails + 1)) ;;
  esac
}

expect_output() {  # description, expected stdout, then the command's arguments
  local what=$1 want=$2; shift 2
  local got
  got=$("$BIN" "$@" 2>"$tmp/err")
  local rc=$?
  if [ "$rc" -ne 0 ]; then echo "FAIL ($what): exit code $rc: $(cat "$tmp/err")"; fails=$((fails + 1)); return; fi
  if [ "$got" != "$want" ]; then
    printf 'FAIL (%s):\n--- expected\n%s\n--- actual\n%s\n' "$what" "$want" "$got"; fails=$((fails + 1))
  fi
}

expect_error "malformed layout" algebra size '(4,2:(2,1)'
expect_error "malformed layout" algebra size '(4,x):(1,4)'
expect_error "trailing junk" algebra size '(4,2):(2,1)z'
expect_error "non-congruent stride" algebra size '(4,2):(2,1,3)'
expect_error "overflow" algebra size '(1099511627776,1099511627776)'
expect_error "overflow in cosize" algebra cosize '(3):(4611686018427387904)'
expect_error "overflow literal" algebra size '99999999999999999999'
expect_error "|S| < B" algebra swizzle 'Sw<3,4,2>' 5
expect_error "|S| < B in a layout" algebra call 'Sw<3,4,2> o 0 o 8:1' 3
expect_error "non-divisible composition" algebra composition '(5,6):(0,5)' '4:4'
expect_error "non-divisible composition (cutlass #3177)" algebra composition '(4,6,8):(2,3,5)' '6:3'
expect_error "complement of a non-injective layout (CuTe's static_assert)" algebra complement '(2,2):(2,3)'
expect_error "unknown op" algebra frobnicate '8:1'
expect_error "missing op" algebra
expect_error "wrong arity" algebra size '8:1' '4:1'
expect_error "unknown command" frobnicate
expect_error "eval malformed" eval '(4,2):(2'
expect_error "eval no argument" eval
expect_error "print --elem-bytes out of range" print '(2,2):(1,2)' --elem-bytes 0
expect_error "print malformed" print '(2,'

# check: misspelled and unknown keys, conflicts and out-of-range values in a spec are bad input
# (exit 2) with a hint, never "0 claims ... exit 0" and never a signal (vec: 0 once raised SIGFPE).
spec_error() {  # description, expected text, then the spec's YAML
  local what=$1 want=$2
  printf '%s\n' "$3" > "$tmp/spec.yaml"
  expect_error "check: $what" check "$tmp/spec.yaml" --no-cache
  grep -qF -- "$want" "$tmp/err" || { echo "FAIL (check: $what): stderr lacks '$want': $(head -1 "$tmp/err")"; fails=$((fails + 1)); }
}
L='  - name: sA
    layout: (8,64):(64,1)'
spec_error "claim: for claims:" "did you mean 'claims'?" "layouts:
$L
    claim: [bijective]"
spec_error "acesses:" "did you mean 'accesses'?" "layouts:
$L
    element: f16
    acesses: [{pattern: row-per-lane, claims: [conflict-free]}]"
spec_error "layuots:" "did you mean 'layouts'?" "layuots:
$L
    claims: [bijective]"
spec_error "base: on a layout" "'base' belongs to an access" "layouts:
$L
    base: 0
    claims: [bijective]"
spec_error "thread_layout with row-per-lane" "'thread_layout' goes with pattern: thread-layout" "layouts:
$L
    element: f16
    accesses: [{pattern: row-per-lane, thread_layout: '32:8', claims: [conflict-free]}]"
spec_error "vec: 0" "vec (the vector width, in elements) must be at least 1, not 0" "layouts:
$L
    element: f16
    accesses: [{pattern: row-per-lane, vec: 0, claims: [conflict-free]}]"
spec_error "vec: -8" "not -8" "layouts:
$L
    element: f16
    accesses: [{pattern: row-per-lane, vec: -8, claims: [conflict-free]}]"
spec_error "unaligned base" "base 8 is not a multiple of the 16-byte access width" "layouts:
$L
    element: f16
    accesses: [{pattern: row-per-lane, base: 8, claims: [conflict-free]}]"
spec_error "version 2" "spec version 2 is not known" "version: 2
layouts:
$L
    claims: [bijective]"
spec_error "a spec that proves nothing" "proves nothing" "layouts: []"
expect_error "check: no spec" check
grep -qF "see layoutproof check --help" "$tmp/err" || { echo "FAIL (check usage): $(cat "$tmp/err")"; fails=$((fails + 1)); }
"$BIN" check --help >/dev/null 2>&1 || { echo "FAIL (check --help, which the usage message names, exits non-zero)"; fails=$((fails + 1)); }

# The ParseError message names the column; the caret line follows.
"$BIN" algebra size '(4,x):(1,4)' 2>"$tmp/err" >/dev/null
grep -q "column 4" "$tmp/err" || { echo "FAIL (column): $(cat "$tmp/err")"; fails=$((fails + 1)); }

# Batch mode keeps going after an error line and exits 0.
printf 'size 8:1\nfrobnicate 8:1\nsize (2,3)\n' | "$BIN" algebra - >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL (batch rc): $rc"; fails=$((fails + 1)); }
[ "$(sed -n 1p "$tmp/out")" = "8" ] && [ "$(sed -n 3p "$tmp/out")" = "6" ] &&
  sed -n 2p "$tmp/out" | grep -q '^error: ' || { echo "FAIL (batch output): $(cat "$tmp/out")"; fails=$((fails + 1)); }

# eval: the offsets for indices 0..size-1. (4,2):(2,1): i -> 2*(i%4) + i/4.
expect_output "eval plain" "0 2 4 6 1 3 5 7" eval '(4,2):(2,1)'
expect_output "eval 1-tuple" "0 3 6" eval '(3):(3)'
# Sw<1,0,1> o 0 o 4:1: x ^ ((x&2)>>1): 0 1 3 2.
expect_output "eval swizzled" "0 1 3 2" eval 'Sw<1,0,1> o 0 o 4:1'
expect_output "eval swizzled, offset" "3 2 4 5" eval 'Sw<1,0,1> o 2 o 4:1'

# print: CuTe's print_layout table. (2,3):(3,1): row m, column n -> 3m + n.
expect_output "print 2x3" "(2,3):(3,1)
      0   1   2 
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+" print '(2,3):(3,1)'
# With 4-byte elements, offset v is in bank v % 32.
expect_output "print banks" "(2,2):(1,32)
       0    1 
    +----+----+
 0  |  0 | 32 |
    +----+----+
 1  |  1 | 33 |
    +----+----+

shared-memory bank of each element (4-byte elements, 32 banks of 4 bytes):
       0    1 
    +----+----+
 0  |  0 |  0 |
    +----+----+
 1  |  1 |  1 |
    +----+----+" print '(2,2):(1,32)' --elem-bytes 4

if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "all CLI error/eval/print checks passed"
