#!/usr/bin/env bash
# Regressions from the hostile-input campaign (2026-11-23): each case once crashed, hung, wrapped
# or answered wrongly. Now: a clear error (exit 2 or an ERROR verdict, exit 3) or the right
# verdict, within 20 s, never a signal. Usage: hostile_inputs_test.sh <layoutproof>
set -u
BIN=${1:?usage: hostile_inputs_test.sh <layoutproof>}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # id, allowed exit codes (e.g. "2 3"), grep pattern for stdout+stderr, then the arguments
  local id=$1 allowed=$2 pat=$3; shift 3
  timeout 20 "$BIN" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ $rc -eq 124 ]; then echo "FAIL $id: hung (20 s)"; fails=$((fails + 1)); return; fi
  if [ $rc -ge 128 ]; then echo "FAIL $id: crashed ($rc)"; fails=$((fails + 1)); return; fi
  if ! grep -qw -- "$rc" <<<"$allowed"; then echo "FAIL $id: exit $rc (want one of $allowed)"; head -3 "$tmp/out"; fails=$((fails + 1)); return; fi
  if ! grep -q -- "$pat" "$tmp/out"; then echo "FAIL $id: output lacks '$pat'"; head -3 "$tmp/out"; fails=$((fails + 1)); return; fi
  echo "ok   $id"
}
deep=$(printf '%*s' 20000 '' | tr ' ' '(')
run C2 "2" "nested parentheses" raster prove formula --formula "x = ${deep}; y = blockIdx.y"
printf 'layouts: [{name: a, layout: "(8,64):(64,1)", element: f16, accesses: [{pattern: row-per-lane, vec: 0, claims: [conflict-free]}]}]\n' > "$tmp/vec0.yaml"
run C3 "2 3" "vector width" check "$tmp/vec0.yaml" --no-cache
run C4 "2" "2^22 elements" synth --tile '(4294967296,4294967296):(0,0)' --elem-bytes 4 --pattern row-per-lane
run C4b "2" "2^22 elements" synth --tile '(4611686018427387904,2):(2,1)' --elem-bytes 4 --pattern row-per-lane
run A2 "2 3" "overflow\|2^20\|2^63" prove '(4611686018427387904,4611686018427387904):(1,1)' --claim conflict-free --elem-bytes 1 --pattern row-per-lane
run A2b "2 3" "overflow\|2^20\|2^63\|227 KiB" prove '(9223372036854775807,1):(1,1)' --claim conflict-free --elem-bytes 1 --vec 1 --pattern row-per-lane
CP='make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})'
run W4 "1" "share shared memory at byte" trace --side D --element float --smem '(128,8):(1,64)' --copy "$CP" --claim covers
run W5 "2" "decimal or 0x hex" trace --side D --element float --smem '(128,8):(1,128)' --copy "$CP" --base 010
run W5b "0" "ldgsts" trace --side D --element float --smem '(128,8):(1,128)' --copy "$CP" --base 0x400
# print/eval sizes (A1, H1) and banks of negative offsets (W2): refused at 2^20 elements, never wrapped;
# a negative offset's bank is the hardware's for its byte address (floor(byte/4) mod 32).
run A1 "2" "print is limited to 2^20 elements" print '(4294967296,4294967296):(0,0)'
run A1b "2" "print is limited to 2^20 elements" print '(3037000500,3037000500):(0,0)'
run H1 "2" "eval is limited to 2^20 elements" eval 2147483648:1
run H1b "2" "eval is limited to 2^20 elements" eval '(65536,65536):(1,65536)'
run H1c "2" "eval is limited to 2^20 elements" eval 9223372036854775807:1
run W2 "2" "from 1 to 64" print '(2,4):(4,1)' -5
run W2b "2" "from 1 to 64" print '(2,4):(4,1)' 0
run W2c "0" "|  0 | 31 |" print '(2,2):(-8,-1)' 4
run W2d "0" "| 24 | 23 |" print '(2,2):(-8,-1)' 4
# Checked sizes, counts and addresses: a count that would wrap, or an address
# outside the 227 KiB of shared memory a block can address, is bad input (exit 2) before any proof;
# never PROVED "on all 0 instructions".
BIG='(4611686018427387904,4):(0,32)'
run S1 "2" "more than 2^63" prove "$BIG" --claim conflict-free --elem-bytes 4 --pattern linear
run S1b "2" "more than 2^63" prove "$BIG" --claim conflict-free --elem-bytes 4 --pattern row-per-lane
run S1c "2" "more than 2^63" prove '(4611686018427387904,16):(0,8)' --claim conflict-free --elem-bytes 2 --op ldsm4 --pattern ldmatrix
printf 'layouts: [{name: big, layout: "%s", element: f32, accesses: [{pattern: linear, vec: 1, claims: [conflict-free]}]}]\n' "$BIG" > "$tmp/big.yaml"
run S1d "2" "more than 2^63" check "$tmp/big.yaml" --no-cache
run S2 "2" "227 KiB" prove '(4096,4096):(4096,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane
run S2b "2" "227 KiB" prove '(65536,65536):(65536,1)' --claim conflict-free --elem-bytes 2 --pattern row-per-lane --engine z3
run S2c "2" "227 KiB" bank --op ld --width 4 --addresses "$(seq -s, 9223372036854775680 4 9223372036854775804)"
run S2d "2" "227 KiB" bank --op ld --width 4 --addresses "$(seq -s, 232448 4 232572)"
run S3 "2" "1, 2, 4, 8 or 16 bytes" prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 9999 --pattern linear
run S3b "2" "multiple of the 16-byte access" prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --vec 8 --pattern linear --base 4
printf 'layouts: [{name: a, layout: "(8,64):(64,1)", element: f16, accesses: [{pattern: row-per-lane, vec: -8, claims: [conflict-free]}]}]\n' > "$tmp/vecneg.yaml"
run S3c "2" "vec" check "$tmp/vecneg.yaml" --no-cache
run S4 "2" "overflow" raster locality --m 68719476736 --n 1 --k 999999999999 --tile 65536x1x1 --elem-bytes 8
run S5 "2" "2^22 elements" synth --tile '(4294967296,4294967296):(1,4294967296)' --elem-bytes 4 --pattern row-per-lane
run H7 "2" "larger than 16 MiB" check /dev/zero --no-cache
printf 'layouts: [{name: a, layout: "8:1", claims: [bijective]}]\0\n' > "$tmp/nul.yaml"
run H7b "2" "NUL byte" check "$tmp/nul.yaml" --no-cache
run H7c "2" "is a directory" check "$tmp" --no-cache
truncate -s 17M "$tmp/big_sparse.yaml"
run H7d "2" "larger than 16 MiB" check "$tmp/big_sparse.yaml" --no-cache
run H3 "2" "a thread block has at most 1024" trace --side D --element float --smem '(128,8):(1,128)' --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<Int<1000000000>,_1>>{})'
run H3b "2" "limit of 2^24" trace --side D --element float --smem '(128,8,3):(1,129,1032)' --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<Int<1000000000>,_1>>{})' --claim covers
run H3c "2" "of shared memory a thread block can address" trace --side D --element float --copy "$CP" --claim conflict-free --smem 'tile_to_shape(make_layout(make_shape(_8,_8)), make_shape(Int<128>{}, _8, Int<1000000000>{}))'
run H6c "3" "UNKNOWN.*time budget of 200 ms" prove 'Sw<3,3,3> o (32768,32768):(32768,1)' --claim bijective --engine exhaustive --timeout-ms 200
run H6c2 "3" "UNKNOWN.*time budget" prove '(8192,8192):(8192,1)' --claim injective --engine exhaustive --timeout-ms 50
run H6c3 "3" "UNKNOWN.*time budget of" prove 'Sw<3,3,3> o (32768,32768):(32768,1)' --claim bijective --engine exhaustive --deadline-s 0.3
run H6c4 "0" "PROVED" prove 'Sw<3,3,3> o (64,64):(64,1)' --claim bijective --engine exhaustive --timeout-ms 1000
run H5 "3" "UNKNOWN" raster prove cutlass --deadline-s 0.001
plus2000="x = blockIdx.x$(for i in $(seq 1 1999); do printf '+blockIdx.x'; done); y = blockIdx.y"
run H5d "3" "deadline of 2 s reached" raster prove formula --formula "$plus2000" --engine z3 --timeout-ms 500 --deadline-s 2
run H5e "3" "UNKNOWN" raster prove seed --tile-size 65536 --engine z3 --deadline-s 2
run H5a "1" "exhaustive (2 grids enumerated)" raster prove seed --tile-size 65536
run H5b "2" "deadline-s" raster prove cutlass --deadline-s -1
run H5c "3" "synth search stopped: deadline of 0.3 s" synth --tile '(1024,1024):(1024,1)' --elem-bytes 4 --pattern row-per-lane --deadline-s 0.3
# H2: a stride-0 tile with 2^21 instructions: Z3's violation is replayed on its instruction alone (was 20 s rebuilding the trace)
start=$(date +%s%N)
run H2b "1" "REFUTED  conflict-free" prove '(65536,1024):(0,32)' --claim conflict-free --elem-bytes 4 --vec 1 --pattern linear
took=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$took" -gt 5000 ]; then echo "FAIL H2b: took $took ms (want < 5000)"; fails=$((fails + 1)); fi
# The campaign's remaining cases (tools/hostile_inputs_run_all.sh), fixed 2026-11-23:
# W1: CuTe's exact divisions prove each mode of B, not their sum: R(5) = 12 but A(B(5)) = 100.
run W1a "2" 'breaks "R(c) == A(B(c))" at c = 5' algebra composition '(12,2):(1,100)' '(3,2,4096):(3,6,0)'
printf 'version: 1\nlayouts: [{name: composed, layout: "composition(Layout<Shape<_6,_2>,Stride<_1,_2>>{}, Layout<Shape<_2,_3,_1024>,Stride<_3,_2,_48>>{})", claims: [injective]}]\n' > "$tmp/w1.yaml"
run W1b "2" "breaks" check "$tmp/w1.yaml" --no-cache
# W3c: a second YAML document is refused, not dropped.
printf 'version: 1\nlayouts: [{name: a, layout: "(8,8):(8,1)", claims: [injective]}]\n---\nlayouts: [{name: b, layout: "(8,8):(8,0)", claims: [injective]}]\n' > "$tmp/multidoc.yaml"
run W3c "2" "multidoc.yaml:3:1: a spec is one YAML document" check "$tmp/multidoc.yaml" --no-cache
# D1: dividing by a literal 0 is undefined in CUDA C++: no PROVED.
run D1 "2" "a divisor other than 0" raster prove formula --formula 'x = blockIdx.x % 0; y = blockIdx.y'
run E3c "2" "dump-smt /dev/null: cannot create that folder" prove 8:1 --claim injective --engine z3 --dump-smt /dev/null
run E3d "2" "a thread block has at most 1024" prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --thread-layout 1000000000:1
run E3e "2" "lane 8: address -7 is negative" bank --op ldsm1 --width 16 --addresses "0,16,32,48,64,80,96,112$(for i in $(seq 24); do printf ',-7'; done)"
run E4a "2" "^  \^$" eval 0x10:1
run E5a "2" "op needs a value, not the option --width" bank --op --width 4 --addresses 0
# E5c: refused before any claim is proved (nothing on stdout).
if out=$(timeout 20 "$BIN" prove '(8,64):(64,1)' --claim conflict-free --claim injective --elem-bytes 2 --pattern row-per-lane 2>/dev/null); [ -n "$out" ]; then
  echo "FAIL E5c: printed before refusing: $out"; fails=$((fails + 1)); else echo "ok   E5c"; fi
# E6: control characters in names: well-formed JUnit XML, and no raw ESC in the table.
printf 'version: 1\nlayouts: [{name: "a<b>&c\\x01\\x1b[31m", layout: "(8,8):(8,0)", claims: [injective]}]\n' > "$tmp/xml.yaml"
timeout 20 "$BIN" check "$tmp/xml.yaml" --no-cache --junit "$tmp/j.xml" >"$tmp/table" 2>&1
if python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/j.xml" && ! grep -q $'\x1b' "$tmp/table" && grep -q 'x1b\[31m' "$tmp/table"; then
  echo "ok   E6"; else echo "FAIL E6: junit not well-formed or raw ESC in the table"; fails=$((fails + 1)); fi
# T1/T2: a tma claim's domain is bounded before it is enumerated (a 2^40-element smem_ptr tile hung).
run T1 "2" "more than 2^22" prove 'Sw<3,4,3> o smem_ptr[16b](unset) o (1048576,1048576):(1048576,1)' --claim 'tma:Sw<3,4,3>,align=128'
run T2 "2" "box mode 0 must be an integer in \[1, 8\]" prove 8:1 --claim 'tma:Sw<3,4,3>,box=(100000000000)' --elem-bytes 2
# F1: fuzz_spec finding (fresh-clone fuzz.smoke, 2026-11-23): a flow sequence left open made
# YAML::LoadAll (the multi-document check of W3c) hang; the check now scans document markers.
run F1 "2" "error" check "$(dirname "$0")/../../fuzz/corpus/spec/finding-timeout-0618af10" --no-cache
exit $fails
