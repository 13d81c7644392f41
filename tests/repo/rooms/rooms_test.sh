#!/usr/bin/env bash
# repo.rooms_enforced: the compiler refuses what docs/architecture.md forbids. A scratch file of a
# room, compiled against that room's include view (cmake/rooms.cmake), must fail to build when it
# includes a room the map does not allow it, and build when it includes one it does.
#   usage: rooms_test.sh REPO_ROOT
set -euo pipefail
root=$(cd "$1" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# ROOM INCLUDE EXPECTED (ok: it builds; refused: the include is not found)
cases=(
  "model/layout proofs/claims/claim.hpp refused"        # a floor above
  "model/layout model/bank/bank.hpp refused"            # a room beside it, not below it
  "model/layout model/support/error.hpp ok"             # the room below it
  "model/layout model/layout/layout.hpp ok"             # itself
  "model/compiled model/source/cpp_source.hpp refused"  # compiled/ and source/ are siblings
  "model/compiled model/bank/bank.hpp ok"               # through trace/, transitively
  "proofs/synth proofs/smt/session.hpp refused"         # Z3's boundary is not synth's to include
  "proofs/claims cli/run_flags.hpp refused"             # proofs/ never includes cli/
  "proofs/claims proofs/synth/kernel_synth.hpp refused" # a check's dispatch is proofs/check/'s
  "proofs/check proofs/synth/kernel_synth.hpp ok"
  "cli/output cli/commands/ptx_command.hpp refused"     # output/ never includes commands/
  "cli/output cli/spec/check_runner.hpp ok"
  "cli/output cli/help/help_texts.hpp refused"          # help/ is above commands/: nothing below reaches it
  "cli/help cli/commands/ptx_command.hpp ok"            # the help table names the commands' tables
  "cli/commands cli/output/results.hpp ok"
)
list=""
for c in "${cases[@]}"; do set -- $c; list+="${list:+;}$1=$2"; done
cmake -S "$root/tests/repo/rooms" -B "$scratch/b" -DLAYOUTPROOF_ROOT="$root" "-DCASES=$list" >"$scratch/configure.log" 2>&1 ||
  { echo "FAIL: the scratch project did not configure"; cat "$scratch/configure.log"; exit 1; }
fails=0 i=0
for c in "${cases[@]}"; do
  set -- $c
  if cmake --build "$scratch/b" --target "case_$i" >"$scratch/$i.log" 2>&1; then got=ok; else got=refused; fi
  if [ "$got" != "$3" ]; then
    echo "FAIL $1 including $2: $got, expected $3"; tail -5 "$scratch/$i.log"; fails=$((fails + 1))
  elif [ "$got" = refused ] && ! grep -q "$2: No such file or directory\|'$2' file not found" "$scratch/$i.log"; then
    echo "FAIL $1 including $2 was refused for another reason than the include"; tail -5 "$scratch/$i.log"; fails=$((fails + 1))
  else
    echo "ok   $1 including $2: $got"
  fi
  i=$((i + 1))
done
[ "$fails" -eq 0 ] && echo "rooms: all ${#cases[@]} cases as the map says" || { echo "rooms: $fails case(s) wrong"; exit 1; }
