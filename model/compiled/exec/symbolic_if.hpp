#pragma once
// Forward branches whose condition is over the symbols (a free parameter, %ctaid, %nctaid, a loop's
// iteration), run for every launch at once. Internal to model/compiled/ (ptx_warp.cpp calls it at
// the branch, at the branch's join, and where lanes stop).
//
// Definition. A lane reaches branch b, guarded by condition c over the symbols, with path P (the
// condition under which it is here: Lane::path). R = ipdom(b) is the join (ptx_cfg.hpp), the
// region's paths separate. Then:
//   - one-sided (one side of b goes straight to R: an if without else): the lane runs the other
//     side under P && c' (c' the side's condition); at R every register that side changed is not
//     known (it holds only where c' did) and the path is P again;
//   - two-sided (both sides reach shared memory before R: an if/else): every lane of the issue
//     runs the taken side under P && c, and when all are at R, the fall-through side under
//     P && !c from the registers it had at b; when all are at R again, each register holds what
//     both sides agree on (not known where they differ), the path is P again.
// A lane active in an issue only where its path holds, each issue of a side holds exactly the
// lanes that run that side in a launch, the hardware's own issue: the sides are separate, and
// the lanes of the warp run each side together (every lane of the split waits at R for the rest).
// A lane whose branch is decided (its guard known) runs its own side alone and keeps what it
// computed there.
//
// Paths: each open if under a condition doubles the paths a lane runs at once; a lane that would
// run more than Launch::max_paths stops (its sites UNKNOWN, the reason names --max-paths).
//
// Example: `if (blockIdx.x < n) s[tid] = a[i]; else s[tid] = 0;` with n free: both stores run,
// the first for the lanes where ctaid.x < n, the second where not; tid's register is the same on
// both sides, so the code after the join still knows it.
#include <functional>
#include <string>
#include <vector>

#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {

class SymbolicIf {
 public:
  // What the warp runner does for it: stop a lane with a reason.
  struct Hooks {
    std::function<void(Lane&, const std::string&)> stop;
  };
  SymbolicIf(Machine& m, const Launch& l, Hooks h) : m_(m), l_(l), h_(std::move(h)) {}

  void reset() { open_ = 0; }  // a new warp
  bool open() const { return open_ != 0; }

  // The lane (in the kernel's frame, function fi, at branch `line`, path P) enters a one-sided
  // region whose join is `join` (the caller then sets its path and pc for the side it runs).
  // False when it stopped (too many paths).
  bool one_sided(Lane& ln, u32 fi, u32 join, u32 line);
  // The lane enters the two-sided region of the branch at `line` whose join is `join`: side 0
  // from `taken`, side 1 from `other`. `decided`: 1 or 0 when its own branch is known (taken or
  // not), -1 when it is the condition `c`. False when it stopped.
  bool two_sided(Lane& ln, u32 fi, u32 join, u32 line, int decided, u32 c, u32 taken, u32 other);
  // A lane that just ran an instruction: merges the one-sided regions it is at the join of
  // (innermost first), up to a two-sided one, which closes with its split (next two).
  void at_join(Lane& ln);
  // Every lane of a two-sided split is at its join after side 0: the lane starts side 1 (or,
  // decided taken, waits at the join).
  void next_side(Lane& ln);
  // ... and after side 1: the lane's registers are what the sides agree on, its path P again.
  void close(Lane& ln);
  // A lane that finished (its stack empty): its open regions are dropped.
  void finished(Lane& ln);
  // Where the side-1 code of the two-sided regions whose side 0 the lane is running begins (a
  // stopped lane could have run it: ptx_warp.cpp marks its sites).
  static std::vector<u32> sides_to_come(const Lane& ln);

 private:
  bool room(Lane& ln, u32 line);
  void pop(Lane& ln);
  void merge(Lane& ln, const std::vector<Val>& regs, const std::vector<Cell>& cells, const std::vector<LocalCell>& local, u32 local_lost,
             u32 why);
  bool same_value(const Val& a, const Val& b) const;

  Machine& m_;
  const Launch& l_;
  Hooks h_;
  i64 open_ = 0;  // regions open, every lane of the warp
};

}  // namespace layoutproof::compiled
