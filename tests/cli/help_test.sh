#!/usr/bin/env bash
# Every subcommand teaches with --help: `layoutproof TOPIC --help` and `-h` exit 0 and
# print a Usage line and an Examples block with two or more commands, and every example runs as
# written: its layoutproof calls exit 0 or 1 (ran), never 2 (bad input), 3 (error) or a signal.
# Usage: help_test.sh <layoutproof> <repo root>
set -u
BIN=${1:?usage: help_test.sh <layoutproof> <repo root>}
ROOT=${2:?usage: help_test.sh <layoutproof> <repo root>}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1: $2"; failures=$((failures + 1)); }

# The examples are written to run from the repository root (examples/*.yaml); they run in a
# scratch directory that links to it, so that nothing they write lands in the source tree.
ln -s "$ROOT/examples" "$tmp/examples"
mkdir -p "$tmp/tests" && ln -s "$ROOT/tests/ptx" "$tmp/tests/ptx"  # layoutproof ptx --help's compiled fixtures
ln -s "$ROOT/tests/compiled" "$tmp/tests/compiled"                    # layoutproof sass --help's

topics=(prove print eval check merge catalog bank raster "raster prove" "raster locality" "raster trace" synth "synth --kernel"
        trace ptx sass demo algebra)
while read -r op; do topics+=("algebra $op"); done < <("$BIN" algebra --help | sed -n 's/^  \([a-z_0-9]*\) .*/\1/p' | sort -u |
  while read -r w; do "$BIN" help algebra "$w" >/dev/null 2>&1 && echo "$w"; done)
[ "${#topics[@]}" -ge 40 ] || fail "algebra operations" "only ${#topics[@]} topics found"

# The examples of one help text, run through a `layoutproof` shell function that records each
# call's exit status (so pipes and $(...) inside an example work as a user would type them).
run_examples() {  # name, help text file
  local name=$1 text=$2 script=$tmp/examples.sh log=$tmp/rc.log
  awk '/^Examples:/ {on = 1; next} on && /^[^ ]/ {exit} on' "$text" >"$script"
  : >"$log"
  (cd "$tmp" && LP_BIN=$BIN LP_LOG=$log bash -c '
      layoutproof() { "$LP_BIN" "$@"; local rc=$?; local cmd="$*"; echo "$rc ${cmd//$'"'"'\n'"'"'/ }" >>"$LP_LOG"; return 0; }
      export -f layoutproof
      source "$1"' _ "$script" >"$tmp/ex.out" 2>&1)
  local calls
  calls=$(wc -l <"$log")
  [ "$calls" -ge 2 ] || fail "$name --help" "fewer than two examples ran ($calls)"
  while read -r rc cmd; do
    case $rc in
      0 | 1) ;;
      *) fail "$name example" "exit $rc: layoutproof ${cmd:0:200}"; sed -n '1,5p' "$tmp/ex.out" ;;
    esac
  done <"$log"
}

for t in "${topics[@]}"; do
  read -r -a words <<<"$t"
  for flag in --help -h; do
    "$BIN" "${words[@]}" $flag >"$tmp/help.txt" 2>"$tmp/err.txt"
    rc=$?
    [ "$rc" -eq 0 ] || { fail "$t $flag" "exit $rc: $(head -2 "$tmp/err.txt")"; continue; }
    grep -q "^Usage" "$tmp/help.txt" || fail "$t $flag" "no Usage line"
    grep -q "^Examples:" "$tmp/help.txt" || fail "$t $flag" "no Examples block"
    grep -q "^Options:" "$tmp/help.txt" || [ "$t" = demo ] || fail "$t $flag" "no Options block"
  done
  "$BIN" help "${words[@]}" | cmp -s - "$tmp/help.txt" || fail "help $t" "differs from $t -h"
  run_examples "$t" "$tmp/help.txt"
done

# layoutproof --help: the same rules.
"$BIN" --help >"$tmp/help.txt" || fail "--help" "exit $?"
grep -q "^Usage" "$tmp/help.txt" || fail "--help" "no Usage line"
run_examples "layoutproof" "$tmp/help.txt"

# Unknown topics are errors, not help.
"$BIN" frobnicate --help >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown command --help" "not exit 2"
"$BIN" algebra frobnicate --help >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown algebra op --help" "not exit 2"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "help: ${#topics[@]} topics, every --help and -h exits 0 with Usage and examples that run"
