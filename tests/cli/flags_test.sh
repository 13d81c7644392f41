#!/usr/bin/env bash
# One flag table per command (cli/flags/): a bad token is named with the closest spelling (exit 2),
# and each subcommand's --help lists exactly what its parser takes:
#   - every flag of the Options block is accepted by the real binary;
#   - every flag the Usage lines mention is in the Options block (the prose cannot promise a flag
#     the table lacks);
#   - --engine has one vocabulary (auto, z3, exhaustive; enumeration read as exhaustive) everywhere.
# Usage: flags_test.sh <layoutproof> <repo root>
set -u
BIN=${1:?usage: flags_test.sh <layoutproof> <repo root>}
ROOT=${2:?usage: flags_test.sh <layoutproof> <repo root>}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1: $2"; failures=$((failures + 1)); }

# suggests DESCRIPTION EXPECTED-TEXT ARGS...: exit 2, and the message names the bad token and says EXPECTED-TEXT.
suggests() {
  local what=$1 want=$2; shift 2
  timeout 60 "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 2 ] || { fail "$what" "exit $rc, not 2: $(head -c 300 "$tmp/err")"; return; }
  grep -qF -- "$want" "$tmp/err" || fail "$what" "stderr lacks '$want': $(head -c 400 "$tmp/err")"
}

suggests "misspelt option" "unknown option '--clam' for layoutproof prove (did you mean --claim?)" prove 8:1 --clam bijective
suggests "misspelt scheduler kind" "unknown kind 'sm90-grop' for raster prove (did you mean sm90-group?)" raster prove sm90-grop
suggests "every kind listed" "row-major, seed, seed-fixed, cutlass, morton, formula, sm90-persistent, sm90-group, sm90-stream-k" raster prove sm90-grop
suggests "misspelt element type (trace)" "unknown element type 'halft' for --element (did you mean half_t?)" \
  trace --side S --element halft --smem '(8,64):(64,1)' --copy 'make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{}, Layout<Shape<_32>>{})'
suggests "misspelt element type (synth --kernel)" "unknown element type 'halft' for --element (did you mean half_t?)" \
  synth --kernel --shape '(128,64,3)' --element halft --copy 'S:x'
suggests "misspelt subcommand" "unknown command 'provee' (did you mean prove?)" provee 8:1 --claim bijective
suggests "misspelt algebra operation" "unknown algebra operation 'compositon' (did you mean composition?)" algebra compositon 8:1 2:1
suggests "misspelt raster subcommand" "unknown raster subcommand 'locallity' (did you mean locality?)" raster locallity --m 1 --n 1 --k 1
suggests "misspelt claim (prove)" "unknown claim 'bijectve' (did you mean bijective?)" prove 8:1 --claim bijectve
suggests "misspelt claim (raster prove)" "unknown rasterization claim 'injectve' (did you mean injective?)" raster prove morton --claim injectve
suggests "misspelt claim (scheduler)" "unknown scheduler claim 'exactly-onc' (did you mean exactly-once?)" \
  raster prove sm90-persistent --tiles 2,2 --claim exactly-onc
suggests "misspelt claim (ptx)" "unknown ptx claim 'conflct-free' (did you mean conflict-free?)" \
  ptx "$ROOT/tests/ptx/basic.ptx" --block 32 --claim conflct-free
suggests "misspelt claim (trace)" "unknown trace claim 'coverz' (did you mean covers?)" \
  trace --side S --element half_t --smem '(8,64):(64,1)' --copy x --claim coverz
suggests "misspelt engine" "--engine takes auto, z3 or exhaustive, not 'exhaustiv' (did you mean exhaustive?)" prove 8:1 --claim bijective --engine exhaustiv
suggests "misspelt help topic" "no help for 'provee': unknown command (did you mean prove?)" help provee
suggests "an option as a value" "--claim needs a value, not the option --json" prove 8:1 --claim --json

# One --engine vocabulary: each of auto, z3, exhaustive and enumeration is taken by every command with --engine.
for e in auto z3 exhaustive enumeration; do
  for cmd in "prove 8:1 --claim injective" "raster prove cutlass --log-tile 1 --max-grid 4" \
             "raster prove sm90-persistent --max-tiles 4 --cluster 1,1 --max-swizzle 1 --raster along-m --sms 4 --claim in-range" \
             "check $ROOT/examples/gemm_sm80_f16.yaml --no-cache"; do
    # shellcheck disable=SC2086
    timeout 120 "$BIN" $cmd --engine "$e" >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" -le 1 ] || fail "--engine $e" "exit $rc: layoutproof $cmd --engine $e: $(head -c 200 "$tmp/err")"
  done
done

# The Options block of a help text: every spelling of every row (as cli/flags/flag_table.hpp writes them).
options_of() {
  awk '/^Options:/ {on = 1; next} on && !/^ / {exit} on' | grep -E '^  -' | sed -E 's/^  //; s/  .*//' |
    tr ',' '\n' | sed -E 's/^ +//; s/ .*//' | grep -E '^-' | sort -u
}
# The flags the Usage block's command lines mention (a `  layoutproof ...` line and the lines
# that continue it), up to the block's first blank line.
usage_flags_of() {
  awk '/^Usage:/ {on = 1; next} on && /^$/ {exit}
       on && /^  layoutproof / {keep = 1; print; next}
       on && keep && /^        +[[-]/ {print; next}
       on {keep = 0}' | grep -oE '(^|[ [|(])--?[a-zA-Z][a-zA-Z0-9-]*' |
    sed -E 's/^[ [|(]//' | sort -u
}

topics=(prove print eval check catalog bank "raster prove" "raster locality" "raster trace" synth "synth --kernel" trace ptx sass)
words_of() {  # the words that reach the topic's parser
  case $1 in
    "raster prove") echo "raster prove cutlass" ;;
    "raster trace") echo "raster trace sm90-persistent" ;;
    *) echo "$1" ;;
  esac
}
checked=0
for t in "${topics[@]}"; do
  "$BIN" $t --help >"$tmp/help.txt" 2>/dev/null || { fail "$t --help" "exit $?"; continue; }
  options_of <"$tmp/help.txt" >"$tmp/options.txt"
  [ -s "$tmp/options.txt" ] || { fail "$t --help" "no flags in its Options block"; continue; }
  allowed=$tmp/options.txt
  if [ "$t" = "raster prove" ]; then  # its scheduler kinds take raster trace's flags (the same text says so)
    "$BIN" raster prove sm90-persistent --help | options_of | sort -u - "$tmp/options.txt" >"$tmp/allowed.txt"
    allowed=$tmp/allowed.txt
  fi
  while read -r flag; do
    [ "$flag" = "-h" ] || [ "$flag" = "--help" ] && continue
    grep -qxF -- "$flag" "$allowed" || fail "$t --help" "its Usage mentions $flag, which its Options block lacks"
  done < <(usage_flags_of <"$tmp/help.txt")
  read -r -a words <<<"$(words_of "$t")"
  while read -r flag; do
    # The flag, then an unknown one: an accepted flag leaves the error to the unknown word (or
    # refuses it as its value); nothing is run.
    timeout 60 "$BIN" "${words[@]}" "$flag" --no-such-flag-xyz >/dev/null 2>"$tmp/err"
    if grep -qF -- "unknown option '$flag'" "$tmp/err" || ! grep -qF -- "--no-such-flag-xyz" "$tmp/err"; then
      fail "$t $flag" "listed in --help but not taken by the parser: $(head -c 200 "$tmp/err")"
    fi
    checked=$((checked + 1))
  done <"$tmp/options.txt"
done
[ "$checked" -ge 150 ] || fail "coverage" "only $checked flags checked"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "flags: suggestions for every kind of bad token, one --engine vocabulary, $checked listed flags all parsed, ${#topics[@]} Usage blocks within their Options"
