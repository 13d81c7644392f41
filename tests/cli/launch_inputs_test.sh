#!/usr/bin/env bash
# A compiled kernel's launch inputs are checked, never wrapped: a --param value outside its
# parameter's type (each once wrapped silently: 2^32 for a 32-bit parameter printed "= 4294967296"
# and proved the case 0), a parameter given twice (the last one won), a block or grid CUDA refuses.
# Each is exit 2 naming the parameter, its type and its range (or CUDA's limit), on the command line
# and in a spec's compiled: entry (located at the YAML node). Usage: launch_inputs_test.sh <layoutproof> <repo>
set -u
BIN=${1:?usage: launch_inputs_test.sh <layoutproof> <repo>}
ROOT=$(cd "${2:?usage: launch_inputs_test.sh <layoutproof> <repo>}" && pwd)
P=$ROOT/tests/ptx/basic.ptx
S=$ROOT/tests/compiled/measured/hand.sass
G=$ROOT/tests/compiled/measured/sgemm_sm80.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
refused() {  # id, the message it must print (fixed text), then the arguments: exit 2 and the message
  local id=$1 want=$2; shift 2
  "$BIN" "$@" >"$tmp/out" 2>&1; local rc=$?
  if [ $rc -ne 2 ]; then fail "$id: exit $rc, want 2: $(head -c 300 "$tmp/out")"; return; fi
  grep -qF -- "$want" "$tmp/out" || { fail "$id: lacks '$want': $(head -c 400 "$tmp/out")"; return; }
  echo "ok   $id"
}
accepted() {  # id, a text the output must hold, then the arguments: exit 0 or 1 or 3, never 2
  local id=$1 want=$2; shift 2
  "$BIN" "$@" >"$tmp/out" 2>&1; local rc=$?
  if [ $rc -eq 2 ] || [ $rc -ge 4 ]; then fail "$id: exit $rc: $(head -c 300 "$tmp/out")"; return; fi
  grep -qF -- "$want" "$tmp/out" || { fail "$id: lacks '$want': $(head -c 400 "$tmp/out")"; return; }
  echo "ok   $id"
}
K="ptx $P --kernel broadcast --block 32"
INT="parameter 1 (.u32, int in the signature) of _Z9broadcastPfi takes values in [-2147483648, 2147483647]"
refused param-2^32 "--param 1=4294967296: $INT" $K --param 1=4294967296
refused param-below-int "--param 1=-2147483649: $INT" $K --param 1=-2147483649
refused param-2^31 "--param 1=2147483648: $INT" $K --param 1=2147483648
refused param-pointer-negative "--param 0=-1: parameter 0 (.u64, float* in the signature) of _Z9broadcastPfi takes values in [0, 18446744073709551615]" $K --param 0=-1
refused param-past-64-bits "needs a value that fits in 64 bits" $K --param 0=18446744073709551616
accepted param-int-min "param 1 _Z9broadcastPfi_param_1 = -2147483648" $K --param 1=-2147483648
accepted param-negative "param 1 _Z9broadcastPfi_param_1 = -5" $K --param 1=-5
accepted param-u64-max "param 0 _Z9broadcastPfi_param_0 = 18446744073709551615" $K --param 0=18446744073709551615
refused param-twice "--param 1=6: parameter 1 (.u32, int in the signature) of _Z9broadcastPfi is also given by --param 1=5 (one value or one range per parameter)" \
  $K --param 1=5 --param 1=6
refused param-twice-by-name "--param _Z9broadcastPfi_param_1=6: parameter 1 (.u32, int in the signature) of _Z9broadcastPfi is also given by --param 1=5" \
  $K --param 1=5 --param _Z9broadcastPfi_param_1=6
refused param-and-range "--param-range 1=0..6: parameter 1 (.u32, int in the signature) of _Z9broadcastPfi is also given by --param 1=5" \
  $K --param 1=5 --param-range 1=0..6
refused range-twice "--param-range 1=0..9: parameter 1 (.u32, int in the signature) of _Z9broadcastPfi is also given by --param-range 1=0..3" \
  $K --param-range 1=0..3 --param-range 1=0..9
# The same parameter index of two kernels is two parameters: each kernel takes its own.
accepted param-per-kernel "param 1 _Z6stagesPfi_param_1 = 4" ptx "$P" --block 32 --param _Z9broadcastPfi_param_1=3 --param _Z6stagesPfi_param_1=4
# The field form I+OFF[:BYTES]: a field's values are its bytes' (either spelling), within the parameter.
FIELD="the 4-byte field at bytes 0..3 of parameter 0 of"
refused field-2^32 "--param 0+0:4=4294967296: $FIELD" ptx "$G" --block 128 --param 0+0:4=4294967296
grep -qF "takes values in [-2147483648, 4294967295]" "$tmp/out" || fail "field-2^32: no range: $(head -c 300 "$tmp/out")"
refused field-below "--param 0+0:4=-2147483649: $FIELD" ptx "$G" --block 128 --param 0+0:4=-2147483649
refused field-2-bytes "--param 0+0:2=65536: the 2-byte field at bytes 0..1 of parameter 0 of" ptx "$G" --block 128 --param 0+0:2=65536
refused field-overlap "--param 0+2:4=7: the 4-byte field at bytes 2..5 of parameter 0 of" ptx "$G" --block 128 --param 0+0=-1 --param 0+2:4=7
grep -qF "is also given by --param 0+0=-1" "$tmp/out" || fail "field-overlap: not named: $(head -c 300 "$tmp/out")"
refused field-past-end "passes the end of parameter 0 (12 bytes)" ptx "$G" --block 128 --param 0+10:4=7
refused width-on-scalar "a width (:BYTES) belongs to a field" $K --param 1:4=5
refused range-on-field "a range names a whole parameter" $K --param-range 1+0=0..3
# SASS: the signature gives each parameter's offset and C++ type; @OFF fields are bits.
refused sass-int "--param 1=4294967296: parameter 1 (int at byte 8) of _Z9broadcastPfi takes values in [-2147483648, 2147483647]" \
  sass "$S" --kernel broadcast --block 32 --param 1=4294967296
refused sass-field "--param @8:4=4294967296: the 4-byte field at bytes 8..11 of the parameter buffer of _Z9broadcastPfi takes values in [-2147483648, 4294967295]" \
  sass "$S" --kernel broadcast --block 32 --param @8:4=4294967296
refused sass-twice "--param 1=3: parameter 1 (int at byte 8) of _Z9broadcastPfi is also given by --param @8:4=-1" \
  sass "$S" --kernel broadcast --block 32 --param @8:4=-1 --param 1=3
accepted sass-negative-field "REFUTED" sass "$S" --kernel broadcast --block 32 --param @8:4=-1 --claim in-bounds --smem-bytes 256
# Offsets as SASS prints them (c[0x0][0x218]): 0x hex, the same field as decimal; past 4095 refused.
accepted sass-hex-offset "REFUTED" sass "$S" --kernel broadcast --block 32 --param @0x8:4=-1 --claim in-bounds --smem-bytes 256
refused sass-hex-twice "is also given by --param @0x8=-1" sass "$S" --kernel broadcast --block 32 --param @0x8=-1 --param @8=3
refused sass-offset-range "byte offset needs a value from 0 to 4095 (0xfff), not '0x1000'" sass "$S" --kernel broadcast --block 32 --param @0x1000=1
# CUDA's launch limits: block x, y <= 1024, z <= 64, x*y*z <= 1024; grid x <= 2^31 - 1, y, z <= 65535.
refused block-z "--block 1,1,65: its z is 65; CUDA takes a block of 1..64 along z" ptx "$P" --kernel broadcast --block 1,1,65
refused block-threads "--block 64,64,1: 4096 threads; CUDA's limit is 1024 per block" ptx "$P" --kernel broadcast --block 64,64
refused grid-x "--grid 2147483648,1,1: its x is 2147483648; CUDA takes a grid of 1..2147483647 along x" $K --grid 2147483648
refused grid-y "--grid 1,65536,1: its y is 65536; CUDA takes a grid of 1..65535 along y" $K --grid 1,65536
refused grid-z "--grid 1,1,65536: its z is 65536" $K --grid 1,1,65536
accepted grid-limits "grid 2147483647,65535,65535" $K --grid 2147483647,65535,65535
accepted block-z-64 "block 16,1,64" ptx "$P" --kernel broadcast --block 16,1,64

# The same checks in a spec's compiled: entry, located on the node that gives the value.
spec() {  # id, the line the error must be located on, the message, then the entry's extra lines
  local id=$1 line=$2 want=$3; shift 3
  { printf 'version: 1\ncompiled:\n  - name: b\n    file: %s\n    kernel: broadcast\n' "$P"
    printf '%s\n' "$@"
    printf '    claims: [conflict-free]\n'; } > "$tmp/$id.yaml"
  "$BIN" check "$tmp/$id.yaml" --no-cache --no-progress >"$tmp/out" 2>&1; local rc=$?
  if [ $rc -ne 2 ]; then fail "spec $id: exit $rc, want 2: $(head -c 300 "$tmp/out")"; return; fi
  grep -qF -- "$want" "$tmp/out" || { fail "spec $id: lacks '$want': $(head -c 400 "$tmp/out")"; return; }
  head -1 "$tmp/out" | grep -q "^error: $tmp/$id.yaml:$line:" || { fail "spec $id: not located on line $line: $(head -1 "$tmp/out")"; return; }
  echo "ok   spec $id"
}
spec param-2^32 7 "params: 1: parameter 1 (.u32, int in the signature) of _Z9broadcastPfi takes values in [-2147483648, 2147483647]" \
  '    block: 32' '    params: {1: 4294967296}'
spec param-twice 7 "params: _Z9broadcastPfi_param_1: parameter 1 (.u32, int in the signature) of _Z9broadcastPfi is also given by params: 1" \
  '    block: 32' '    params: {1: 5, _Z9broadcastPfi_param_1: 6}'
spec block-z 6 "block 1,1,65: its z is 65; CUDA takes a block of 1..64 along z" '    block: [1, 1, 65]'
spec block-threads 6 "block 64,64,1: 4096 threads; CUDA's limit is 1024 per block" '    block: [64, 64, 1]'
spec grid-x 7 "grid 2147483648,1,1: its x is 2147483648; CUDA takes a grid of 1..2147483647 along x" '    block: 32' '    grid: 2147483648'
spec grid-y 7 "grid 1,65536,1: its y is 65536; CUDA takes a grid of 1..65535 along y" '    block: 32' '    grid: [1, 65536, 1]'
[ $fails -eq 0 ] && echo "launch inputs: all checked" || echo "launch inputs: $fails failures"
exit $((fails > 0))
