#pragma once
// The control-flow graph of one decoded function (model/compiled/ptx_ir.hpp) and its immediate
// post-dominators: where the lanes of a warp that took different paths at a branch meet again.
// The executor (ptx_exec.hpp) reconverges a divergent warp there, as the hardware's convergence
// barriers (BSSY/BSYNC, which nvcc places at the immediate post-dominator) do.
//
// Definitions. The nodes are the instruction indices 0..n-1 and `exit` (= n): leaving the function.
// The successors of instruction i: `bra` to label L: L, and i + 1 when guarded; `ret`/`exit`:
// exit, and i + 1 when guarded; a branch the model cannot follow (no label): exit; anything else
// (a call included: it returns): i + 1, which is exit past the last instruction.
// x post-dominates i when every path from i to exit passes x; ipdom(i) is the nearest x != i that
// does. An instruction from which exit cannot be reached (an endless loop) has none (kNone).
// Example: `0: @p bra 3; 1: A; 2: bra 4; 3: B; 4: C; 5: ret` -> ipdom(0) = 4, ipdom(4) = 5,
// ipdom(5) = exit (6).
//
// A divergent region (a branch b and its join R = ipdom(b)) has *separate* paths when the
// instructions reachable from each successor of b without passing R are disjoint sets, and at
// most one of them calls a function. Then no lane of one path can execute an instruction that a
// lane of another path executes before R, so each path's issues hold exactly its own lanes,
// whatever order the hardware runs the paths in. Otherwise (paths that meet before R: a goto into
// shared code, a loop whose exits go to different places, both calling one function) how the
// hardware groups the lanes there is not modelled.
// Example: if/else with the join after both paths: separate. `@p bra B; A; bra T; B: ..;
// @q bra END; T: ..; END:` -> the paths meet at T before END: not separate.
#include <cstdint>
#include <vector>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

struct Cfg {
  static constexpr u32 kNone = UINT32_MAX;
  u32 exit = 0;            // the exit node: the function's instruction count
  std::vector<u32> ipdom;  // per instruction: its immediate post-dominator (exit included), or kNone
};

// The successors of instruction i of f (definitions above), without repeats.
std::vector<u32> successors(const Function& f, u32 i);

// Immediate post-dominators of every instruction of f (Cooper, Harvey and Kennedy's iteration on
// the reverse graph, rooted at exit).
Cfg build_cfg(const Function& f);

// Whether the paths of the region that branch `b` opens are separate (definitions above); false
// when b has no immediate post-dominator.
bool separate_paths(const Function& f, const Cfg& g, u32 b);

}  // namespace layoutproof::compiled
