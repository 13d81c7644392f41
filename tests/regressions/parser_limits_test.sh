#!/usr/bin/env bash
# Regressions (hostile-input campaign C1, C2, H4 and the Swizzle<4294967299,...> truncation):
# every parser refuses deep nesting with "nesting deeper than N" (exit 2, a caret under the input),
# C++ bindings that double a value are refused, and out-of-range template integers are refused,
# never truncated. Each case must end within 20 s. Usage: parser_limits_test.sh <layoutproof>
set -u
BIN=${1:?usage: parser_limits_test.sh <layoutproof>}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # id, exit code, grep pattern (stderr+stdout), then the arguments
  local id=$1 want=$2 pat=$3; shift 3
  timeout 20 "$BIN" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ $rc -ne "$want" ]; then echo "FAIL $id: exit $rc (want $want)"; head -c 300 "$tmp/out"; echo; fails=$((fails + 1)); return; fi
  if ! grep -q -- "$pat" "$tmp/out"; then echo "FAIL $id: output lacks '$pat'"; head -c 300 "$tmp/out"; echo; fails=$((fails + 1)); return; fi
  if [ "$want" = 2 ] && ! grep -q '^ *\^$' "$tmp/out"; then echo "FAIL $id: no caret line"; fails=$((fails + 1)); return; fi
  echo "ok   $id"
}
rep() { printf "%*s" "$2" '' | sed "s/ /$1/g"; }
run C1-notation 2 "nesting deeper than 200" eval "$(rep '(' 40000)"
run C1-balanced 2 "nesting deeper than 200" eval "$(rep '(' 20000)8$(rep ')' 20000)"
run C1-tiler 2 "nesting deeper than 200" algebra logical_divide 8:1 "$(rep '\[' 5000)"
run C1-prove 2 "nesting deeper than 200" prove "$(rep '(' 40000)" --claim injective
run C2-raster 2 "nesting deeper than 256" raster prove formula --formula "x = $(rep '(' 20000); y = blockIdx.y"
run C2-minmax 2 "nesting deeper than 256" raster prove formula --formula "x = $(rep 'min(' 5000); y = blockIdx.y"
run cpp-nesting 2 "nesting deeper than 200" eval "$(rep 'make_shape(' 5000)"
S="auto a0 = make_shape(_1,_1); $(for i in $(seq 1 39); do printf 'auto a%d = make_shape(a%d,a%d); ' "$i" $((i - 1)) $((i - 1)); done)make_layout(a39)"
run H4-cpp 2 "value too large" eval "$S"
printf 'layouts:\n  - name: h4\n    layout: "%s"\n    claims: [injective]\n' "$S" > "$tmp/h4.yaml"
run H4-spec 2 "value too large" check "$tmp/h4.yaml" --no-cache
run swizzle-range 2 "must lie in -64..64, not 4294967299" eval 'composition(Swizzle<4294967299,3,3>{}, Layout<Shape<_8,_8>>{})'
run int-range 2 "does not fit in 64 bits" eval 'make_layout(make_shape(Int<99999999999999999999>{}))'
run notation-range 2 "does not fit in 64 bits" eval '4:99999999999999999999'
printf 'layouts: %s\n' "$(rep '\[' 100)" > "$tmp/flow.yaml"
run yaml-flow 2 "flow.yaml:1:.*nesting deeper than 64" check "$tmp/flow.yaml" --no-cache
{ echo "layouts:"; for i in $(seq 1 100); do printf "%*sk%d:\n" "$i" '' "$i"; done; } > "$tmp/block.yaml"
run yaml-block 2 "block.yaml:.*nesting deeper than 64" check "$tmp/block.yaml" --no-cache
printf 'layouts:\n  - name: ok\n    layout: "Layout<Shape<_8,_8>>{}"\n    claims: [bijective]\n' > "$tmp/ok.yaml"
run yaml-ok 0 "PROVED" check "$tmp/ok.yaml" --no-cache
exit $fails
