#!/usr/bin/env bash
# layoutproof tensor-map: tensor-map-valid through the one presenter (text, --json, exit codes),
# and bad input at its line (a capture's unknown key, a dtype or swizzle the hardware lacks,
# malformed JSON): exit 2.
set -u
BIN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() {  # expect NAME CODE NEEDLE -- ARGS...
  local name=$1 code=$2 needle=$3
  shift 4
  out=$("$BIN" tensor-map "$@" 2>&1)
  rc=$?
  if [ "$rc" != "$code" ] || ! grep -qF -- "$needle" <<<"$out"; then
    echo "FAIL $name: exit $rc (want $code), output lacks '$needle':"
    echo "$out" | head -8
    fail=1
  fi
}
ok=dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B
expect valid 0 'PROVED  tensor-map-valid' -- "$ok"
expect too-wide 1 'box[0] x 2 bytes must fit the 128B swizzle' -- dtype=bf16,dims=4096x4096,strides=8192,box=128x128,swizzle=128B
expect fix 1 'fix: box[0] = 64' -- dtype=bf16,dims=4096x4096,strides=8192,box=128x128,swizzle=128B
expect two 1 '2 claims: 1 proved, 1 refuted' -- "$ok" dtype=bf16,dims=4096x4096,strides=8190,box=64x128,swizzle=128B
expect dtype 2 "dtype: 'bf17' is not an element type" -- dtype=bf17,dims=64,box=64,swizzle=none
expect nothing 2 'tensor-map needs a SPEC' --
# JSON: the one results document.
json=$("$BIN" tensor-map "$ok" dtype=bf16,dims=64,box=4,swizzle=none --json)
python3 - "$json" <<'PY' || fail=1
import json, sys
d = json.loads(sys.argv[1])
r = d['results']
assert [x['verdict'] for x in r] == ['PROVED', 'REFUTED'], r
assert r[1]['witness']['points'][0]['role'] == 'box[0]', r[1]
assert d['summary']['proved'] == 1 and d['summary']['refuted'] == 1, d['summary']
assert d['tensor_maps'][0]['spec'] == 'dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B', d['tensor_maps']
PY
# A capture: JSON lines, blank lines skipped; errors at their line.
cat > "$T/maps.jsonl" <<'J'
{"kernel": "gemm", "param": 0, "dtype": "bf16", "dims": [4096, 4096], "strides": [8192], "box": [64, 128], "elem_strides": [1, 1], "interleave": "none", "swizzle": "128B", "l2": "none", "oob": "zero"}

{"kernel": "gemm", "param": "B", "dtype": "e4m3", "dims": [4096, 4096], "strides": [4096], "box": [256, 64], "swizzle": "128B"}
J
expect capture 1 'maps.jsonl:3 (kernel gemm, param B)  tensor-map-valid' -- --tensor-maps "$T/maps.jsonl"
expect capture-fix 1 'box[0] x 1 bytes must fit the 128B swizzle' -- --tensor-maps "$T/maps.jsonl"
printf '{"kernel": "k", "param": 0, "dtype": "bf16", "dims": [64], "box": [64], "swizzle": "64B", "colour": 1}\n' > "$T/key.jsonl"
expect key 2 "key.jsonl:1: unknown key 'colour'" -- --tensor-maps "$T/key.jsonl"
printf '\n{"dtype": "bf16", "dims": [64], "box": [64], "swizzle": "96B"}\n' > "$T/sw.jsonl"
expect swizzle 2 "sw.jsonl:2: swizzle: '96B' is not a swizzle the hardware has" -- --tensor-maps "$T/sw.jsonl"
printf '{"dtype": "fp7", "dims": [64], "box": [64], "swizzle": "none"}\n' > "$T/dt.jsonl"
expect capture-dtype 2 "dt.jsonl:1: dtype: 'fp7' is not an element type" -- --tensor-maps "$T/dt.jsonl"
printf '{"dtype": "bf16", "dims": [64, \n' > "$T/bad.jsonl"
expect malformed 2 'bad.jsonl:1: not a JSON object' -- --tensor-maps "$T/bad.jsonl"
printf '{"dtype": "bf16", "dims": [-64], "box": [64], "swizzle": "none"}\n' > "$T/neg.jsonl"
expect negative 2 'neg.jsonl:1: dims: -64 is not a non-negative integer' -- --tensor-maps "$T/neg.jsonl"
expect missing 2 'cannot open the tensor-map capture' -- --tensor-maps "$T/none.jsonl"
[ $fail = 0 ] && echo "tensor-map: all cases pass"
exit $fail
