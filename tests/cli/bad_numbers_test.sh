#!/usr/bin/env bash
# No raw library messages: every numeric option of every subcommand, given a word, a
# number past 64 bits, a negative or an empty value, exits 2 with one located line naming the
# option, and stderr never shows what the C++ library says ("stoi", "std::bad_alloc",
# "vector::reserve", "basic_string", ...). Usage: bad_numbers_test.sh <layoutproof> <repo root>
set -u
BIN=${1:?usage: bad_numbers_test.sh <layoutproof> <repo root>}
ROOT=${2:?usage: bad_numbers_test.sh <layoutproof> <repo root>}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
fail() { echo "FAIL: $1: $2"; failures=$((failures + 1)); }
library_words='stoi\|stol\|stoul\|stod\|std::\|bad_alloc\|vector::\|basic_string\|_M_\|what()\|terminate called\|invalid_argument\|out_of_range'

# expect2 NAME OPTION ARGS...: exit 2, the option named on stderr, no library words.
expect2() {
  local name=$1 option=$2
  shift 2
  cases=$((cases + 1))
  timeout 20 "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 2 ] || { fail "$name" "exit $rc (want 2): $(head -c 300 "$tmp/err")"; return; }
  grep -q -- "$option" "$tmp/err" || fail "$name" "stderr does not name $option: $(head -c 300 "$tmp/err")"
  ! grep -q "$library_words" "$tmp/err" || fail "$name" "library words in stderr: $(head -c 300 "$tmp/err")"
  [ "$(grep -c '^error:' "$tmp/err")" -eq 1 ] || fail "$name" "not one error line: $(head -c 300 "$tmp/err")"
}

BAD=(x 99999999999999999999 -1 '' 1.5 0x)
TILE='(8,64):(64,1)'
ADDR=$(seq -s, 0 4 124)
for v in "${BAD[@]}"; do
  expect2 "print --elem-bytes '$v'" --elem-bytes print "$TILE" --elem-bytes "$v"
  expect2 "prove --timeout-ms '$v'" --timeout-ms prove 8:1 --claim injective --timeout-ms "$v"
  for opt in --elem-bytes --vec; do
    expect2 "prove $opt '$v'" "$opt" prove "$TILE" --claim conflict-free --elem-bytes 2 --pattern row-per-lane "$opt" "$v"
  done
  expect2 "prove --base '$v'" --base prove "$TILE" --claim conflict-free --elem-bytes 2 --pattern row-per-lane --base "$v"
  expect2 "prove max-ways:'$v'" max-ways prove "$TILE" --claim "max-ways:$v" --elem-bytes 2 --pattern row-per-lane
  for opt in --elem-bytes --vec; do
    expect2 "synth $opt '$v'" "$opt" synth --tile "$TILE" --elem-bytes 2 --pattern row-per-lane "$opt" "$v"
  done
  expect2 "synth --kernel --witnesses '$v'" --witnesses synth --kernel --shape '(128,64)' --element half_t \
    --copy 'S:make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{}, Layout<Shape<_32,_1>>{})' --witnesses "$v"
  expect2 "trace --base '$v'" --base trace --smem '(32,8):(8,1)' --side S --element float \
    --copy 'make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_1>>{})' --base "$v"
  expect2 "trace max-ways:'$v'" max-ways trace --smem '(32,8):(8,1)' --side S --element float \
    --copy 'make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_1>>{})' --claim "max-ways:$v"
  for opt in -j --jobs --timeout-ms --deadline-s; do
    [ "$opt $v" = "--deadline-s 1.5" ] && continue  # seconds may be fractional
    expect2 "check $opt '$v'" "$opt" check "$ROOT/examples/gemm_sm80_f16.yaml" --no-cache "$opt" "$v"
    expect2 "catalog $opt '$v'" "$opt" catalog --no-cache "$opt" "$v"
  done
  expect2 "bank --width '$v'" --width bank --op ld --width "$v" --addresses "$ADDR"
  [ "$v" = -1 ] ||  # -1 is an inactive lane
    expect2 "bank lane address '$v'" "lane 3" bank --op ld --width 4 --addresses "0,4,8,$v,$(seq -s, 16 4 124)"
  for opt in --tile-size --max-grid --timeout-ms; do
    expect2 "raster prove $opt '$v'" "$opt" raster prove seed "$opt" "$v"
  done
  expect2 "raster prove --log-tile '$v'" --log-tile raster prove cutlass --log-tile "$v"
  for opt in --m --n --k --sms --elem-bytes; do
    expect2 "raster locality $opt '$v'" "$opt" raster locality --m 1024 --n 1024 --k 1024 "$opt" "$v"
  done
  expect2 "raster locality --tile '$v'" --tile raster locality --m 1024 --n 1024 --k 1024 --tile "${v}x128x64"
done

# Numbers inside claims.
for c in contiguous:x contiguous:99999999999999999999 'contiguous:4@x' 'contiguous:4@99999999999999' surjective:-1 \
         surjective:99999999999999999999; do
  expect2 "prove --claim $c" "${c%%:*}" prove '(8,8):(8,1)' --claim "$c"
done

# Spec files: every number a spec holds, as a word and as a number past 64 bits.
for v in abc 99999999999999999999 -3; do
  for field in "vec: $v" "base: $v"; do
    printf 'layouts:\n  - name: a\n    layout: "(8,64):(64,1)"\n    element: f16\n    accesses:\n      - pattern: row-per-lane\n        %s\n        claims: [conflict-free]\n' \
      "$field" >"$tmp/spec.yaml"
    expect2 "spec $field" "${field%%:*}" check "$tmp/spec.yaml" --no-cache
  done
  printf 'layouts:\n  - name: a\n    layout: "(8,64):(64,1)"\n    bits: %s\n    claims: [bijective]\n' "$v" >"$tmp/spec.yaml"
  expect2 "spec bits: $v" bits check "$tmp/spec.yaml" --no-cache
done

# A size past memory is "out of memory" (exit 3) or a bad-input error, never a library word.
for args in "synth --tile (4611686018427387904,2):(2,1) --elem-bytes 4 --pattern row-per-lane" \
            "eval (1073741824,1073741824):(1,1073741824)" "print (1048576,2):(1,1048576)"; do
  cases=$((cases + 1))
  # shellcheck disable=SC2086
  timeout 60 "$BIN" $args >/dev/null 2>"$tmp/err"
  rc=$?
  { [ "$rc" -eq 2 ] || [ "$rc" -eq 3 ]; } || fail "$args" "exit $rc (want 2 or 3)"
  ! grep -q "$library_words" "$tmp/err" || fail "$args" "library words in stderr: $(head -c 300 "$tmp/err")"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures of $cases cases failed"
  exit 1
fi
echo "bad numbers: $cases cases, each exit 2 (3 for out of memory) with a located message, no library words"
