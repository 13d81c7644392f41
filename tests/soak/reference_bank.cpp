// The soak's independent bank model (docs/bank_model.md, "The rule") and access patterns
// (model/trace/access.hpp's comments), written from the documents alone.
#include <algorithm>
#include <map>
#include <set>

#include "tests/soak/reference.hpp"

namespace soakref {

const char* op_name(Op op) {
  static const char* n[] = {"ld", "st", "ldsm1", "ldsm2", "ldsm4", "stsm1", "stsm2", "stsm4", "ldgsts"};
  return n[static_cast<int>(op)];
}
int op_matrices(Op op) {
  switch (op) {
    case Op::ldsm1: case Op::stsm1: return 1;
    case Op::ldsm2: case Op::stsm2: return 2;
    case Op::ldsm4: case Op::stsm4: return 4;
    default: return 0;
  }
}

namespace {

// Distinct words per bank over a set of lanes: the max (the phase's wavefronts; 0 when empty).
int max_words(const Instr& in, const std::vector<int>& lanes) {
  std::map<i64, std::set<i64>> bank;
  const int words = std::max(1, in.width / 4);
  for (int l : lanes)
    for (int j = 0; j < words; ++j) {
      const i64 w = in.addr[l] / 4 + j;
      bank[w % 32].insert(w);
    }
  int best = 0;
  for (auto& [b, ws] : bank) best = std::max(best, static_cast<int>(ws.size()));
  return best;
}

// No two active lanes l, l^m (both in `lanes`) on different addresses.
bool folds(const Instr& in, const std::vector<int>& lanes, int m) {
  std::set<int> act(lanes.begin(), lanes.end());
  for (int l : lanes)
    if (act.count(l ^ m) && in.addr[l] != in.addr[l ^ m]) return false;
  return true;
}

std::vector<int> active_in(const std::vector<int>& act, int lo, int hi) {
  std::vector<int> r;
  for (int l : act)
    if (l >= lo && l < hi) r.push_back(l);
  return r;
}

}  // namespace

BankEval ref_bank(const Instr& in) {
  BankEval e;
  const int n_mat = op_matrices(in.op);
  const bool ok_width = n_mat ? in.width == 16
                              : (in.width == 1 || in.width == 2 || in.width == 4 || in.width == 8 || in.width == 16);
  std::vector<int> act;
  for (int l = 0; l < 32; ++l) {
    if (n_mat && l >= 8 * n_mat) continue;
    if (in.addr[l] < -1 || (in.addr[l] >= 0 && in.addr[l] % in.width != 0)) e.valid = false;
    if (in.addr[l] >= 0) act.push_back(l);
  }
  if (!ok_width || act.empty()) e.valid = false;
  if (!e.valid) return e;
  // Phases.
  std::vector<std::pair<int, int>> phases;
  if (n_mat) {
    for (int m = 0; m < n_mat; ++m) phases.push_back({8 * m, 8 * m + 8});
  } else if (in.width <= 4) {
    phases.push_back({0, 32});
  } else if (in.width == 8) {
    phases = {{0, 16}, {16, 32}};
  } else {
    phases = {{0, 8}, {8, 16}, {16, 24}, {24, 32}};
  }
  std::vector<int> need;
  int sum = 0;
  for (auto [lo, hi] : phases) {
    const int w = max_words(in, active_in(act, lo, hi));
    need.push_back(w);
    sum += w;
    if (w > 0) ++e.ideal;
    e.most_ways = std::max(e.most_ways, w);
  }
  int wf = sum;
  bool one_address = true;
  for (int l : act) one_address = one_address && in.addr[l] == in.addr[act.front()];
  if (in.op == Op::ld && in.width == 8) {
    if (one_address) wf = 1;
    else if ((folds(in, act, 1) || folds(in, act, 2)) && max_words(in, act) == 1) wf = 1;
  } else if (in.op == Op::ld && in.width == 16) {
    if (one_address) {
      wf = act.size() <= 16 ? 1 : 2;
    } else {
      wf = 0;
      bool half0_merged = false;
      for (int h = 0; h < 2; ++h) {
        const std::vector<int> lanes = active_in(act, 16 * h, 16 * h + 16);
        const int q0 = need[2 * h], q1 = need[2 * h + 1];
        if (q0 > 0 && q1 > 0) {
          // Half 0 merges whenever conflict-free; half 1 also needs a fold by XOR 1 or 2.
          const bool fold = h == 0 || folds(in, lanes, 1) || folds(in, lanes, 2);
          if (fold && max_words(in, lanes) == 1) {
            wf += 1;
            if (h == 0) half0_merged = true;
          } else {
            wf += q0 + q1;
          }
        } else {
          wf += q0 + q1;
        }
      }
      const std::vector<int> half1 = active_in(act, 16, 32);
      const bool lane31 = in.addr[31] >= 0;
      // Unless every active lane's XOR-1 (or every one's XOR-2) partner is active on its address.
      bool pairs[2] = {true, true};
      for (int m = 1; m <= 2; ++m)
        for (int l : act) pairs[m - 1] = pairs[m - 1] && in.addr[l ^ m] == in.addr[l];
      if (half0_merged && lane31 && half1.size() > 1 && !pairs[0] && !pairs[1]) wf += 1;
    }
  }
  e.wavefronts = wf;
  // docs/bank_model.md: with a merge, the ideal is the wavefronts less what the collisions cost
  // (each phase's words per bank beyond 1).
  int cost = 0;
  for (int w : need) cost += w > 1 ? w - 1 : 0;
  const int nonempty = e.ideal;
  e.ideal = wf == sum ? e.ideal : std::min(e.ideal, std::max(1, wf - cost));
  // The hardware's ideal packs the active lanes' bytes 128 to a wavefront (64- and 128-bit
  // accesses); a merged load with a collision counts its non-empty phases before packing.
  e.hw_ideal = e.ideal;
  if (!n_mat && (in.width == 8 || in.width == 16)) {
    const int packed = (static_cast<int>(act.size()) * in.width + 127) / 128;
    e.hw_ideal = std::min(wf != sum && cost > 0 ? nonempty : e.ideal, packed);
  }
  return e;
}

std::vector<Instr> ref_pattern(const RLayout& tile, int eb, int vec, Pattern p, Op op, i64 base) {
  const std::vector<Node> m = tile.modes();
  i64 rows = 1, cols = 1;
  for (auto& [s, d] : RLayout{m[0]}.flat()) rows *= s;
  for (auto& [s, d] : RLayout{m[1]}.flat()) cols *= s;
  auto addr = [&](i64 r, i64 c) { return base + tile.at(r + c * rows) * eb; };
  const int width = op_matrices(op) ? 16 : eb * vec;
  auto blank = [&] {
    Instr in;
    in.op = op;
    in.width = width;
    in.addr.fill(-1);
    return in;
  };
  std::vector<Instr> out;
  const i64 chunks = cols / vec;
  if (p == Pattern::row_per_lane) {
    for (i64 r0 = 0; r0 < rows; r0 += 32) {
      const i64 here = std::min<i64>(32, rows - r0);
      for (i64 c = 0; c < chunks; ++c) {
        Instr in = blank();
        for (int l = 0; l < 32; ++l) in.addr[l] = addr(r0 + l % here, c * vec);
        out.push_back(in);
      }
    }
  } else if (p == Pattern::linear) {
    const i64 total = rows * chunks;
    for (i64 v0 = 0; v0 < total; v0 += 32) {
      Instr in = blank();
      for (int l = 0; l < 32 && v0 + l < total; ++l) in.addr[l] = addr((v0 + l) / chunks, ((v0 + l) % chunks) * vec);
      out.push_back(in);
    }
  } else {
    const int n = op_matrices(op);
    const i64 mats = (rows / 8) * chunks;
    for (i64 m0 = 0; m0 < mats; m0 += n) {
      Instr in = blank();
      for (int k = 0; k < n && m0 + k < mats; ++k)
        for (int r = 0; r < 8; ++r)
          in.addr[8 * k + r] = addr(((m0 + k) / chunks) * 8 + r, ((m0 + k) % chunks) * vec);
      out.push_back(in);
    }
  }
  return out;
}

}  // namespace soakref
