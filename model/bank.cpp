#include "model/bank.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/error.hpp"

namespace layoutproof {

std::optional<SmemOp> parse_smem_op(std::string_view s) {
  if (s == "ld") return SmemOp::ld;
  if (s == "st") return SmemOp::st;
  if (s == "ldsm1") return SmemOp::ldsm1;
  if (s == "ldsm2") return SmemOp::ldsm2;
  if (s == "ldsm4") return SmemOp::ldsm4;
  if (s == "stsm1") return SmemOp::stsm1;
  if (s == "stsm2") return SmemOp::stsm2;
  if (s == "stsm4") return SmemOp::stsm4;
  return std::nullopt;
}

std::string to_string(SmemOp op) {
  switch (op) {
    case SmemOp::ld: return "ld";
    case SmemOp::st: return "st";
    case SmemOp::ldsm1: return "ldsm1";
    case SmemOp::ldsm2: return "ldsm2";
    case SmemOp::ldsm4: return "ldsm4";
    case SmemOp::stsm1: return "stsm1";
    case SmemOp::stsm2: return "stsm2";
    case SmemOp::stsm4: return "stsm4";
  }
  return "?";
}

int matrix_count(SmemOp op) {
  switch (op) {
    case SmemOp::ldsm1: case SmemOp::stsm1: return 1;
    case SmemOp::ldsm2: case SmemOp::stsm2: return 2;
    case SmemOp::ldsm4: case SmemOp::stsm4: return 4;
    default: return 0;
  }
}

bool is_matrix_op(SmemOp op) { return matrix_count(op) != 0; }

namespace {

// Lanes [first, first + count) of each phase.
std::vector<std::pair<int, int>> phases_of(const SmemAccess& a) {
  std::vector<std::pair<int, int>> p;
  if (const int n = matrix_count(a.op)) {
    for (int m = 0; m < n; ++m) p.push_back({8 * m, 8});
    return p;
  }
  const int size = a.width_bytes <= 4 ? 32 : (a.width_bytes == 8 ? 16 : 8);
  for (int s = 0; s < kWarpLanes; s += size) p.push_back({s, size});
  return p;
}

int used_lanes(const SmemAccess& a) { return is_matrix_op(a.op) ? 8 * matrix_count(a.op) : kWarpLanes; }

}  // namespace

void validate(const SmemAccess& a) {
  const std::string op = to_string(a.op);
  if (is_matrix_op(a.op)) {
    if (a.width_bytes != 16) throw LayoutError(op + " moves 16-byte rows: --width must be 16");
  } else if (a.width_bytes != 1 && a.width_bytes != 2 && a.width_bytes != 4 && a.width_bytes != 8 &&
             a.width_bytes != 16) {
    throw LayoutError("width must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(a.width_bytes));
  }
  int active = 0;
  for (int i = 0; i < used_lanes(a); ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x < -1) throw LayoutError("lane " + std::to_string(i) + ": address " + std::to_string(x) + " is negative (-1 = inactive)");
    if (x == -1) continue;  // an inactive lane (for ldsm/stsm: a row nobody reads, modelled as absent)
    if (x % a.width_bytes != 0)
      throw LayoutError("lane " + std::to_string(i) + ": address " + std::to_string(x) + " is not aligned to " +
                        std::to_string(a.width_bytes) + " bytes");
    ++active;
  }
  if (active == 0) throw LayoutError("no active lane: at least one address must be >= 0");
}

BankReport analyze_smem_access(const SmemAccess& a) {
  validate(a);
  BankReport r;
  for (const auto& [first, count] : phases_of(a)) {
    const int phase = static_cast<int>(r.phase_wavefronts.size());
    std::map<int, std::set<std::int64_t>> words;  // bank -> distinct words
    std::map<int, std::set<int>> lanes;           // bank -> lanes
    for (int i = first; i < first + count; ++i) {
      const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
      if (x < 0) continue;
      for (std::int64_t w = x / 4; w <= (x + a.width_bytes - 1) / 4; ++w) {
        const int bank = static_cast<int>(w % kBanks);
        words[bank].insert(w);
        lanes[bank].insert(i);
      }
    }
    int need = 0;
    for (const auto& [bank, ws] : words) {
      need = std::max(need, static_cast<int>(ws.size()));
      if (ws.size() > 1)
        r.collisions.push_back({phase, bank, std::vector<int>(lanes[bank].begin(), lanes[bank].end()),
                                std::vector<std::int64_t>(ws.begin(), ws.end())});
    }
    r.phase_wavefronts.push_back(need);
    r.wavefronts += need;
    if (need > 0) ++r.ideal;
  }
  // Measured H100 merge: a wide LDS whose active lanes all read one address.
  if (a.op == SmemOp::ld && a.width_bytes >= 8) {
    std::set<std::int64_t> addrs;
    int active = 0;
    for (std::int64_t x : a.lane_addr)
      if (x >= 0) addrs.insert(x), ++active;
    if (addrs.size() == 1) {
      const int merged = (a.width_bytes == 8 || active <= 16) ? 1 : 2;
      if (merged < r.wavefronts) {
        r.wavefronts = merged;
        r.ideal = std::min(r.ideal, merged);
        r.broadcast_merge = true;
      }
    }
  }
  r.conflict_degree = static_cast<double>(r.wavefronts) / static_cast<double>(r.ideal);
  return r;
}

}  // namespace layoutproof
