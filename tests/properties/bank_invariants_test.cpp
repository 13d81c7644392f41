// Bank-model invariants over random valid instructions (properties/kernels.hpp):
// what the documented rule (model/bank/bank.hpp, docs/bank_model.md) implies whatever the addresses.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "model/bank/bank.hpp"
#include "properties/kernels.hpp"
#include "properties/check.hpp"

namespace layoutproof {
namespace {

// The rule's phase sum holds exactly (no measured cross-phase merge): stores, cp.async, widths up
// to 4 bytes and ldmatrix.
bool phase_sum_op(const SmemAccess& a) { return a.op != SmemOp::ld || a.width_bytes <= 4; }

bool lane_active(const SmemAccess& a, int l) {
  return a.lane_addr[static_cast<std::size_t>(l)] >= 0 && (!is_matrix_op(a.op) || l < 8 * matrix_count(a.op));
}

// Number of phases with an active lane, from phases_of.
int non_empty_phases(const SmemAccess& a) {
  int n = 0;
  for (auto [first, count] : phases_of(a)) {
    bool any = false;
    for (int l = first; l < first + count; ++l) any = any || lane_active(a, l);
    n += any;
  }
  return n;
}

// The collisions as (phase, bank, ways) with lanes translated by `lane_map` (new lane -> old lane).
std::multiset<std::tuple<int, int, int>> collision_shape(const BankReport& r) {
  std::multiset<std::tuple<int, int, int>> s;
  for (const BankCollision& c : r.collisions) s.insert({c.phase, c.bank, c.ways()});
  return s;
}

}  // namespace

// Permuting the lanes inside each phase keeps every phase's wavefronts and collisions, hence
// conflict-freedom; the instruction's wavefronts too wherever the rule is the phase sum (the
// measured wide-load merges read lane pairs l, l^m and lane 31, so they may change there).
LP_PROP(BankInvariants, PermutingLanesInsideAPhaseChangesNothing, 2000, ()) {
  const SmemAccess a = *gen::smem_accesses().as("instruction");
  SmemAccess b = a;
  for (auto [first, count] : phases_of(a)) {
    std::vector<int> perm(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) perm[static_cast<std::size_t>(i)] = first + i;
    const auto keys = *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(count), rc::gen::inRange(0, 1000));
    std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) { return keys[x - first] < keys[y - first]; });
    for (int i = 0; i < count; ++i)
      b.lane_addr[static_cast<std::size_t>(first + i)] = a.lane_addr[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])];
  }
  const BankReport ra = analyze_smem_access(a), rb = analyze_smem_access(b);
  RC_ASSERT(ra.phase_wavefronts == rb.phase_wavefronts);
  RC_ASSERT(collision_shape(ra) == collision_shape(rb));
  RC_ASSERT(ra.collisions.empty() == rb.collisions.empty());
  if (phase_sum_op(a)) {
    RC_ASSERT(ra.wavefronts == rb.wavefronts);
    RC_ASSERT(ra.ideal == rb.ideal);
  }
  RC_CLASSIFY(phase_sum_op(a), "phase-sum op");
  RC_CLASSIFY(!ra.collisions.empty(), "conflicted");
}

// Adding 128*k bytes to every active address keeps banks, word identity and address identity:
// the whole report is the same (the words named in collisions move by 32*k).
LP_PROP(BankInvariants, Adding128BytesChangesNothing, 2000, ()) {
  const SmemAccess a = *gen::smem_accesses().as("instruction");
  const i64 k = *rc::gen::inRange<i64>(1, 1000).as("k");
  SmemAccess b = a;
  for (auto& x : b.lane_addr)
    if (x >= 0) x += 128 * k;
  const BankReport ra = analyze_smem_access(a), rb = analyze_smem_access(b);
  RC_ASSERT(ra.wavefronts == rb.wavefronts);
  RC_ASSERT(ra.ideal == rb.ideal);
  RC_ASSERT(ra.phase_wavefronts == rb.phase_wavefronts);
  RC_ASSERT(ra.broadcast_merge == rb.broadcast_merge);
  RC_ASSERT(ra.collisions.size() == rb.collisions.size());
  for (std::size_t i = 0; i < ra.collisions.size(); ++i) {
    RC_ASSERT(ra.collisions[i].lanes == rb.collisions[i].lanes);
    RC_ASSERT(ra.collisions[i].bank == rb.collisions[i].bank);
    for (std::size_t j = 0; j < ra.collisions[i].words.size(); ++j)
      RC_ASSERT(rb.collisions[i].words[j] == ra.collisions[i].words[j] + 32 * k);
  }
}

// Wavefronts never go below the ideal, which is at least 1; where the rule is the phase sum the
// ideal is the number of phases with an active lane (the width's ideal), so the instruction never
// takes fewer than that. Conflict-free iff wavefronts == ideal iff no phase collision, for every
// instruction: the ideal is the wavefronts with the collisions removed, so a merge in half 0 of an
// LDS.128 no longer hides a collision in half 1 (found by this property; docs/bank_model.md), and
// the wavefronts exceed the ideal by exactly what the collisions cost.
LP_PROP(BankInvariants, WavefrontsNeverBelowIdealAndConflictFreeIffIdeal, 3000, ()) {
  const SmemAccess a = *gen::smem_accesses().as("instruction");
  const BankReport r = analyze_smem_access(a);
  RC_ASSERT(r.ideal >= 1);
  RC_ASSERT(r.wavefronts >= r.ideal);
  RC_ASSERT(r.ideal <= non_empty_phases(a));
  if (phase_sum_op(a)) RC_ASSERT(r.ideal == non_empty_phases(a));
  RC_ASSERT(r.collisions.empty() == (r.wavefronts == r.ideal));
  int cost = 0;
  for (const int need : r.phase_wavefronts) cost += need > 1 ? need - 1 : 0;
  RC_ASSERT(r.wavefronts - r.ideal == cost);
  RC_CLASSIFY(r.collisions.empty(), "conflict-free");
  RC_CLASSIFY(r.broadcast_merge, "merged");
}

}  // namespace layoutproof
