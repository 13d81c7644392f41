#pragma once
// Loops whose trip count depends on the symbols (a free parameter, %ctaid, %nctaid), run once for
// all their iterations. Internal to model/compiled/ (ptx_warp.cpp calls it at backward branches).
//
// Definition. A loop is a backward branch (its back edge, instruction b) to instruction h <= b of
// the kernel's own code; its body is the code [h, b]. A lane's state at the head of iteration n is
// H(n): its registers, param cells and local memory. The summary runs iterations 0 and 1 as any
// other code, then, where the lane's path (Lane::path) grew during iteration 1 (the loop went on
// under a condition over the symbols), generalizes: with a fresh symbol i (Machine::iteration_symbol),
//   a register with H(1) = H(2)                        is an invariant: G(i) = H(1);
//   one whose H(2) - H(1) is a term d of one width (a constant, or over the symbols: a grid-stride
//   loop's blockDim.x * gridDim.x)                     is an induction: G(i) = H(1) + d * i (a
//                                                      derived symbol where d is not constant);
//   one with a constant step whose induction fails but that the body flips between H(1) and H(2)
//   (stage ^= 1, double buffering)                     is periodic: G(i) = H(1) + d * (i & 1),
//                                                      (i & 1) a derived symbol, checked at the
//                                                      back edge for both parities;
//   any other                                          is not known inside the loop (why).
// The body runs once more from G(i), for iteration 1 + i, under the path
//   path(H(1)) && R(i),   R(i) = (i == 0) || path_after(i - 1),
// where path_after(i) is the path with which the lane took the back edge after iteration 1 + i
// (every condition the body added, the back edge's own included) with R read as true in it: a
// weaker condition than "every earlier iteration went on", so each lane is active in every
// iteration that runs (and maybe in some that do not: claims stay sound, a witness is replayed).
// At the back edge again it checks the induction step: every invariant register holds G(i) and
// every induction register G(i + 1) (the same term, the same width). Then G(i) is every
// iteration's head state, by induction from H(1), and every issue of the body was run for every
// iteration at once. Where the step does not hold, the lane stops (the claims are then UNKNOWN).
// With every symbol in use (kMaxSymbols), or where no register changed between values that are
// known or terms (only data changed), there is no i: the summary keeps the invariants alone, every
// other register not known inside the loop, and R stays true (each issue of the body taken as run
// by every lane of the path: weaker, still sound). A float atomicAdd's CAS spin on shared memory
// (ATOMS.CAST.SPIN) is summarized so, and the code after it still runs.
//
// The lane leaves the loop at its back edge's fall-through with what every exit agrees on: the
// invariants kept, every other register not known, its path the one it had before the loop (or it
// finishes where nothing after the loop reaches shared memory). A lane that leaves a loop being
// summarized any other way stops. Counts inside the loop are not known (its issues are symbolic);
// the claims are decided for every iteration.
//
// Example: `for (k = 0; k < K; k += 8) { sA[tid] = A[k + tid]; ... }` with K free: iteration 0 ends
// with k = 8 and the back edge taken where 8 < K; iteration 1 with k = 16 where 16 < K; so k is an
// induction (d = 8), G(i) has k = 8 + 8 i, the shared address tid * 4 is an invariant, and each
// claim on sA's store is decided for every i with the lanes active where (i == 0 || 8 + 8 i < K).
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {

class LoopSummary {
 public:
  // What the warp runner does for it: stop a lane with a reason; whether some shared-memory
  // instruction is reachable from instruction pc of function fi.
  struct Hooks {
    std::function<void(Lane&, const std::string&)> stop;
    std::function<bool(u32, u32)> shared_reachable;
  };
  LoopSummary(const Program& p, Machine& m, Hooks h) : p_(p), m_(m), h_(std::move(h)) {}

  void reset() { tracks_.clear(); }  // a new warp
  bool tracking() const { return !tracks_.empty(); }
  // Before `group` runs instruction pc of function fi at frame depth `depth`: the lanes of a loop
  // being summarized that are outside its body now. True when it stopped some (the group is then
  // chosen again).
  bool moved(std::vector<Lane>& lanes, const std::vector<int>& group, u32 fi, u32 pc, u32 depth);
  // A backward branch to a label run by `group` in the kernel's frame, with each lane's guard
  // (active, not known, or a condition over the symbols). True when it moved every lane of the
  // group; false when the branch is an ordinary one (no lane is under a condition).
  bool back_edge(std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                 const std::array<u32, kWarpLanes>& guard_unknown, const std::array<u32, kWarpLanes>& guard_cond, const Function& f,
                 u32 fi, u32 pc, const Instr& in);

 private:
  enum class Row : u8 { invariant, induction, periodic, varying };
  struct LaneLoop {
    std::vector<Val> h1;  // the registers at the head of iteration 1
    std::vector<Cell> cells;
    std::vector<LocalCell> local;
    u32 local_lost = 0;
    u32 p0 = 0, q1 = 0;   // the path before the loop's first back edge, and after it
    std::size_t pending = 0;
    bool skipped = false;  // the first back edge was taken under a condition: its exit was not followed
    std::vector<Row> rows;
    std::vector<Val> g;    // the registers at the head of iteration 1 + i
    std::vector<Term> steps;  // an induction's step d
    std::vector<LocalCell> glocal;  // the local memory at the head of iteration 1 + i
    u32 glocal_lost = 0;
    bool cells_exact = true;
    u32 ph = 0;            // R(i): filled at the back edge after the generalized body
  };
  struct Track {
    u32 fi = 0, head = 0, back = 0, line = 0;
    u32 members = 0;
    enum class Pass : u8 { one, concrete, general } pass = Pass::one;
    int symbol = -1;
    int rounds = 0;  // generalized bodies run and found not inductive
    // Reasons: a value not known inside it, or after it; one computed from its iteration.
    u32 vary_why = 0, after_why = 0, iter_why = 0;
    std::vector<LaneLoop> lane = std::vector<LaneLoop>(kWarpLanes);
  };

  void begin(Track& t, Lane& ln, u32 c, u32 target);
  void classify(const Track& t, LaneLoop& ll, const Lane& ln, const Function& f);
  void apply(const Track& t, LaneLoop& ll, Lane& ln);
  // The registers whose induction step fails after the generalized body, and kCells / kLocal where
  // the param cells / local memory kept exact changed.
  static constexpr u32 kCells = UINT32_MAX, kLocal = UINT32_MAX - 1;
  std::vector<u32> verify(const Track& t, LaneLoop& ll, const Lane& ln) const;
  // A register whose constant step failed the induction (stage ^= 1: H(2) - H(1) = -1, but the
  // body flips it back): G(i) = H(1) + d * (i & 1), true when set.
  bool periodic(const Track& t, LaneLoop& ll, const Function& f, u32 r);
  bool periodic_holds(const Track& t, const LaneLoop& ll, const Val& now, u32 r) const;
  u32 varying(const Track& t);  // the reason of a register not known inside the loop
  // Whether some register of the lane changed in iteration 1 between values that are known or
  // terms (an induction or a period may need the iteration symbol); false where only data changed.
  bool stepping(const Track& t, const Lane& ln) const;
  void fill(const Track& t, LaneLoop& ll, u32 taken, bool ends);
  void leave(Track& t, Lane& ln, const Instr& in, bool invariants_only);
  // The width every writer of register r in the loop's body gives it (0: they differ, or one is
  // not an affine operation when affine_only).
  int writer_bits(const Track& t, const Function& f, u32 r, bool affine_only = true) const;
  Val& row(Lane& ln, u32 r) { return ln.file->at(r, ln.lane); }
  const Val& row(const Lane& ln, u32 r) const { return ln.file->at(r, ln.lane); }

  const Program& p_;
  Machine& m_;
  Hooks h_;
  std::vector<Track> tracks_;
};

}  // namespace layoutproof::compiled
