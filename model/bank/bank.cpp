#include "model/bank/bank.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "model/support/error.hpp"

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
  if (s == "ldgsts") return SmemOp::ldgsts;
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
    case SmemOp::ldgsts: return "ldgsts";
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

int address_lanes(SmemOp op) { return is_matrix_op(op) ? 8 * matrix_count(op) : kWarpLanes; }

bool is_store(SmemOp op) {
  return op == SmemOp::st || op == SmemOp::ldgsts || op == SmemOp::stsm1 || op == SmemOp::stsm2 || op == SmemOp::stsm4;
}

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

namespace {

// Max over banks of the distinct words that `lanes` touch (0 for no lane): need_of below.
int need_of(const SmemAccess& a, std::uint32_t lanes, int phase, std::vector<BankCollision>* out);
int conflict_of(const SmemAccess& a, const std::vector<int>& lanes) {
  std::uint32_t mask = 0;
  for (const int i : lanes) mask |= std::uint32_t{1} << i;
  return need_of(a, mask, 0, nullptr);
}

// True when no two of `lanes` that differ by XOR `mask` read different addresses.
bool fold_ok(const SmemAccess& a, const std::vector<int>& lanes, int mask) {
  std::array<bool, kWarpLanes> on{};
  for (int i : lanes) on[static_cast<std::size_t>(i)] = true;
  for (int i : lanes) {
    const int j = i ^ mask;
    if (!on[static_cast<std::size_t>(j)]) continue;
    if (a.lane_addr[static_cast<std::size_t>(i)] != a.lane_addr[static_cast<std::size_t>(j)]) return false;
  }
  return true;
}

// LDS.128, one half-warp h (its active lanes): with active lanes in both quarters, half 0 takes 1
// whenever its lanes together are conflict-free; half 1 only when they also fold by XOR 1 or 2.
// Otherwise the quarters' sum.
int half128(const SmemAccess& a, const std::vector<int>& lanes, int h) {
  std::vector<int> q[2];
  for (int i : lanes) q[(i / 8) % 2].push_back(i);
  const int n = conflict_of(a, q[0]) + conflict_of(a, q[1]);
  if (q[0].empty() || q[1].empty()) return n;
  const bool fold = h == 0 || fold_ok(a, lanes, 1) || fold_ok(a, lanes, 2);
  return fold && conflict_of(a, lanes) == 1 ? 1 : n;
}

// True when every active lane's XOR-`mask` partner is active and on the same address: the warp's
// lanes come in complete pairs (l, l ^ mask) of one address each.
bool pairs_complete(const SmemAccess& a, int mask) {
  for (int i = 0; i < kWarpLanes; ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x >= 0 && a.lane_addr[static_cast<std::size_t>(i ^ mask)] != x) return false;
  }
  return true;
}

// The measured rule for LDS.64 / LDS.128 (see the header and docs/bank_model.md).
int wide_load_wavefronts(const SmemAccess& a) {
  std::vector<int> act, half[2];
  std::set<std::int64_t> addrs;
  for (int i = 0; i < kWarpLanes; ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x < 0) continue;
    act.push_back(i);
    half[i / 16].push_back(i);
    addrs.insert(x);
  }
  if (a.width_bytes == 8) {
    if (addrs.size() == 1) return 1;
    if ((fold_ok(a, act, 1) || fold_ok(a, act, 2)) && conflict_of(a, act) == 1) return 1;
    return conflict_of(a, half[0]) + conflict_of(a, half[1]);
  }
  if (addrs.size() == 1) return act.size() <= 16 ? 1 : 2;
  const int n0 = half128(a, half[0], 0);
  const int n1 = half128(a, half[1], 1);
  const bool merged0 = n0 == 1 && std::any_of(half[0].begin(), half[0].end(), [](int i) { return i < 8; }) &&
                       std::any_of(half[0].begin(), half[0].end(), [](int i) { return i >= 8; });
  // Lane 31 costs one more wavefront after a merged half 0 when half 1 has another active lane,
  // unless the warp's lanes come in complete same-address pairs by XOR 1 or XOR 2 (the H200 sweep:
  // exact on all 14,301 measured cases, docs/bank_model.md).
  const bool lane31_extra = a.lane_addr[31] >= 0 && half[1].size() >= 2 && !pairs_complete(a, 1) && !pairs_complete(a, 2);
  return n0 + n1 + (merged0 && lane31_extra ? 1 : 0);
}

}  // namespace

void validate(const SmemAccess& a) {
  if (is_matrix_op(a.op)) {
    if (a.width_bytes != 16) throw LayoutError(to_string(a.op) + " moves 16-byte rows: --width must be 16");
  } else if (a.width_bytes != 1 && a.width_bytes != 2 && a.width_bytes != 4 && a.width_bytes != 8 &&
             a.width_bytes != 16) {
    throw LayoutError("width must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(a.width_bytes));
  }
  int active = 0;
  for (int i = 0; i < address_lanes(a.op); ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x < -1) throw LayoutError("lane " + std::to_string(i) + ": address " + std::to_string(x) + " is negative (-1 = inactive)");
    if (x == -1) continue;  // an inactive lane (for ldsm/stsm: a row nobody reads, modelled as absent)
    if (x % a.width_bytes != 0)
      throw LayoutError("lane " + std::to_string(i) + ": address " + std::to_string(x) + " is not aligned to " +
                        std::to_string(a.width_bytes) + " bytes");
    if (x > kSmemBytes - a.width_bytes)  // compared without x + width, which could wrap near 2^63
      throw LayoutError("lane " + std::to_string(i) + ": address " + std::to_string(x) + " is beyond the " +
                        std::to_string(kSmemBytes) + " bytes (227 KiB) of shared memory a thread block can address");
    ++active;
  }
  if (active == 0) throw LayoutError("no active lane: at least one address must be >= 0");
}

namespace {

// The wavefronts the active lanes (of the first `lanes`) fill with their bytes, 128 to a wavefront:
// what the hardware's ideal packs (Wavefronts::hw_ideal).
int packed_wavefronts(const SmemAccess& a, int lanes) {
  int active = 0;
  for (int l = 0; l < lanes; ++l) active += a.lane_addr[static_cast<std::size_t>(l)] >= 0;
  return (active * a.width_bytes + 127) / 128;
}

// The lanes in `lanes` (bit i: lane i; one phase): max over banks of the distinct words its active lanes
// touch (0 without an active lane), and, when `out` is given, a BankCollision for every bank with
// more than one distinct word (banks ascending, lanes and words ascending).
// Every (bank, word, lane) the phase touches is one key, sorted: the keys of one bank are then
// adjacent, its words in order, so distinct words are counted in one pass (at most 32 lanes x 4
// words; validate() bounds a word below 2^16, a lane below 2^5).
int need_of(const SmemAccess& a, std::uint32_t lanes, int phase, std::vector<BankCollision>* out) {
  std::array<std::uint64_t, 4 * kWarpLanes> keys;
  int n = 0;
  for (int i = 0; i < kWarpLanes; ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x < 0 || !((lanes >> i) & 1)) continue;
    for (std::int64_t w = word_of(x); w <= word_of(x + a.width_bytes - 1); ++w)
      keys[static_cast<std::size_t>(n++)] = (static_cast<std::uint64_t>(bank_of_word(w)) << 40) | (static_cast<std::uint64_t>(w) << 8) |
                                            static_cast<std::uint64_t>(i);
  }
  std::sort(keys.begin(), keys.begin() + n);
  int need = 0;
  for (int b = 0; b < n;) {  // one bank: keys[b, e)
    const std::uint64_t bank = keys[static_cast<std::size_t>(b)] >> 40;
    int e = b, words = 0;
    for (; e < n && keys[static_cast<std::size_t>(e)] >> 40 == bank; ++e)
      if (e == b || (keys[static_cast<std::size_t>(e)] >> 8) != (keys[static_cast<std::size_t>(e - 1)] >> 8)) ++words;
    need = std::max(need, words);
    if (out && words > 1) {
      BankCollision c{phase, static_cast<int>(bank), {}, {}};
      for (int k = b; k < e; ++k) {
        const std::uint64_t key = keys[static_cast<std::size_t>(k)];
        c.lanes.push_back(static_cast<int>(key & 0xff));
        const std::int64_t word = static_cast<std::int64_t>((key >> 8) & 0xffffffffu);
        if (c.words.empty() || c.words.back() != word) c.words.push_back(word);
      }
      std::sort(c.lanes.begin(), c.lanes.end());
      c.lanes.erase(std::unique(c.lanes.begin(), c.lanes.end()), c.lanes.end());
      out->push_back(std::move(c));
    }
    b = e;
  }
  return need;
}

// The one computation behind analyze_smem_access and count_wavefronts: per-phase needs (into
// `phase_out` and `collisions` when given), the measured wide-load merges, the ideal.
Wavefronts count(const SmemAccess& a, std::vector<int>* phase_out, std::vector<BankCollision>* collisions, bool* merged_out) {
  validate(a);
  Wavefronts r;
  std::array<int, kWarpLanes> needs{};
  int phases = 0;
  const int n = matrix_count(a.op);
  const int size = n ? 8 : a.width_bytes <= 4 ? 32 : a.width_bytes == 8 ? 16 : 8;
  const int total = address_lanes(a.op);
  for (int first = 0; first < total; first += size) {
    const std::uint32_t lanes = static_cast<std::uint32_t>(((std::uint64_t{1} << size) - 1) << first);
    const int need = need_of(a, lanes, phases, collisions);
    needs[static_cast<std::size_t>(phases++)] = need;
    r.wavefronts += need;
    if (need > 0) ++r.ideal;
  }
  if (phase_out) phase_out->assign(needs.begin(), needs.begin() + phases);
  bool merged = false;
  // Measured H100 merges of wide loads (docs/bank_model.md, "The rule").
  if (a.op == SmemOp::ld && (a.width_bytes == 8 || a.width_bytes == 16)) {
    const int merged_wavefronts = wide_load_wavefronts(a);
    if (merged_wavefronts != r.wavefronts) {
      r.wavefronts = merged_wavefronts;
      // The ideal is what the instruction would take with its collisions removed: a merge may
      // save more wavefronts in one half than a collision costs in the other, and that collision
      // must still count (LDS.128 with half 0 merged on one address and a 2-way bank in quarter 2:
      // 4 wavefronts, 3 without the collision). A collision always sits in a phase that is summed
      // (a merged half has none), so it costs exactly need - 1 there.
      int collision_cost = 0;
      for (int k = 0; k < phases; ++k) collision_cost += needs[static_cast<std::size_t>(k)] > 1 ? needs[static_cast<std::size_t>(k)] - 1 : 0;
      r.ideal = std::min(r.ideal, std::max(1, merged_wavefronts - collision_cost));
      merged = true;
      if (merged_out) *merged_out = true;
    }
  }
  r.hw_ideal = r.ideal;
  if (!n && (a.width_bytes == 8 || a.width_bytes == 16)) {  // the hardware packs the active lanes' bytes
    int nonempty = 0, collision = 0;
    for (int k = 0; k < phases; ++k) nonempty += needs[static_cast<std::size_t>(k)] > 0, collision += needs[static_cast<std::size_t>(k)] > 1;
    // A merged load that also has a collision: the hardware's ideal counts every non-empty phase
    // (measured: h100:ld16_rquads_4, 5 wavefronts, ideal 4 where the collision-free count is 3).
    const int base = merged && collision > 0 ? nonempty : r.ideal;
    r.hw_ideal = std::min(base, packed_wavefronts(a, total));
  }
  return r;
}

}  // namespace

BankReport analyze_smem_access(const SmemAccess& a) {
  BankReport r;
  const Wavefronts w = count(a, &r.phase_wavefronts, &r.collisions, &r.broadcast_merge);
  r.wavefronts = w.wavefronts;
  r.ideal = w.ideal;
  r.hw_ideal = w.hw_ideal;
  r.conflict_degree = static_cast<double>(r.wavefronts) / static_cast<double>(r.ideal);
  return r;
}

Wavefronts count_wavefronts(const SmemAccess& a) { return count(a, nullptr, nullptr, nullptr); }

namespace {

// Per phase of `size` lanes: the most active lanes any bank holds, at the lanes' `addr` (a lane
// touches width/4 banks, one for narrower widths; lanes on one word count once each).
std::array<int, kWarpLanes> lane_degrees(const std::array<std::int64_t, kWarpLanes>& addr, const SmemAccess& a, int size) {
  std::array<int, kWarpLanes> out{};
  for (int first = 0, phase = 0; first < kWarpLanes; first += size, ++phase) {
    std::array<int, kBanks> lanes{};
    for (int i = first; i < first + size; ++i) {
      if (a.lane_addr[static_cast<std::size_t>(i)] < 0) continue;
      const std::int64_t x = addr[static_cast<std::size_t>(i)];
      for (std::int64_t word = x / 4; word <= (x + a.width_bytes - 1) / 4; ++word) ++lanes[static_cast<std::size_t>(word % kBanks)];
    }
    out[static_cast<std::size_t>(phase)] = *std::max_element(lanes.begin(), lanes.end());
  }
  return out;
}

int phase_lanes(const SmemAccess& a) { return a.width_bytes <= 4 ? 32 : a.width_bytes == 8 ? 16 : 8; }

}  // namespace

std::optional<Wavefronts> count_ldgsts_measured(const SmemAccess& a, const std::array<std::int64_t, kWarpLanes>& global_addr) {
  validate(a);
  std::optional<std::int64_t> shift;
  bool aligned = true;
  for (int i = 0; i < kWarpLanes; ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x < 0) continue;
    const std::int64_t d = ((global_addr[static_cast<std::size_t>(i)] - x) % 128 + 128) % 128;
    if (shift && *shift != d) aligned = false;
    shift = d;
  }
  // The bounds meet exactly where no phase has both sides conflicting (an active phase has G, S >= 1,
  // and max(G, S) = G + S - 1 iff min(G, S) = 1): there, and on aligned sides, the count is the lower one.
  const WavefrontBounds b = ldgsts_bounds(a, global_addr);
  if (!aligned && b.lo != b.hi) return std::nullopt;  // both sides conflict in some phase: not known
  Wavefronts w;
  w.wavefronts = b.lo;
  const Wavefronts phases = count_wavefronts(a);
  w.ideal = phases.ideal, w.hw_ideal = phases.hw_ideal;
  return w;
}

std::optional<Wavefronts> count_ldgsts_bypass(const SmemAccess& a, const std::array<std::int64_t, kWarpLanes>& global_addr) {
  validate(a);
  std::set<std::int64_t> shared_units, global_units;
  for (int i = 0; i < kWarpLanes; ++i) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(i)];
    if (x < 0) return std::nullopt;  // a lane that does not copy: Nsight Compute's count is not the active lanes'
    shared_units.insert(x / 16);
    global_units.insert(global_addr[static_cast<std::size_t>(i)] / 16);
  }
  if (shared_units.size() != kWarpLanes || global_units.size() != kWarpLanes) return std::nullopt;  // lanes on one unit
  return count_ldgsts_measured(a, global_addr);
}

WavefrontBounds ldgsts_bounds(const SmemAccess& a, const std::array<std::int64_t, kWarpLanes>& global_addr) {
  validate(a);
  const int size = phase_lanes(a);
  const auto g = lane_degrees(global_addr, a, size);
  const auto s = lane_degrees(a.lane_addr, a, size);
  WavefrontBounds b;
  for (int k = 0; k < kWarpLanes / size; ++k) {
    const std::size_t p = static_cast<std::size_t>(k);
    if (s[p] == 0) continue;  // no active lane in this phase
    b.lo += std::max(g[p], s[p]);
    b.hi += g[p] + s[p] - 1;
  }
  return b;
}

AtomicKind atomic_kind(std::string_view text) {
  // The opcode: the first word that is not a guard (@P0, @!P1, @%p1).
  std::size_t b = 0;
  std::string_view op;
  while (b < text.size()) {
    while (b < text.size() && (text[b] == ' ' || text[b] == '\t')) ++b;
    std::size_t e = b;
    while (e < text.size() && text[e] != ' ' && text[e] != '\t') ++e;
    op = text.substr(b, e - b);
    if (op.empty() || op[0] != '@') break;
    b = e;
  }
  static const std::pair<std::string_view, AtomicKind> known[] = {
      {"ATOMS.ADD", AtomicKind::update}, {"ATOMS.AND", AtomicKind::update}, {"ATOMS.EXCH", AtomicKind::update},
      {"ATOMS.EXCH.64", AtomicKind::update}, {"ATOMS.INC", AtomicKind::update}, {"ATOMS.MIN", AtomicKind::update},
      {"ATOMS.MIN.S32", AtomicKind::update}, {"ATOMS.MAX", AtomicKind::update}, {"ATOMS.MAX.S32", AtomicKind::update},
      {"ATOMS.CAS", AtomicKind::cas}, {"ATOMS.CAS.64", AtomicKind::cas}, {"ATOMS.POPC.INC.32", AtomicKind::popc_inc},
      {"atom.shared.add.u32", AtomicKind::update}, {"atom.shared.add.s32", AtomicKind::update},
      {"atom.shared.and.b32", AtomicKind::update}, {"atom.shared.exch.b32", AtomicKind::update},
      {"atom.shared.exch.b64", AtomicKind::update}, {"atom.shared.inc.u32", AtomicKind::update},
      {"atom.shared.min.s32", AtomicKind::update}, {"atom.shared.min.u32", AtomicKind::update},
      {"atom.shared.max.s32", AtomicKind::update}, {"atom.shared.max.u32", AtomicKind::update},
      {"atom.shared.cas.b32", AtomicKind::cas}, {"atom.shared.cas.b64", AtomicKind::cas}};
  for (const auto& [name, kind] : known)
    if (op == name) return kind;
  // Generic atomics whose address is in the shared window take the ATOMS rule of their kind, at
  // the scopes measured (ATOM.E.ADD/EXCH/CAS.STRONG.GPU, 132 cases of h200_generic.jsonl on the
  // H200; ATOM.E.ADD/EXCH/CAS/AND/OR.STRONG.SM, ADD.STRONG.SYS and AND/OR.STRONG.GPU, 396 cases of
  // h100_generic_scoped.jsonl on the H100) and no others. PTX's generic spelling is what ptxas
  // makes them of: the default scope (.gpu) or a measured one, with no memory order or .acq_rel
  // (the measured one).
  static const std::pair<std::string_view, AtomicKind> generic[] = {
      {"ATOM.E.ADD.STRONG.GPU", AtomicKind::update}, {"ATOM.E.EXCH.STRONG.GPU", AtomicKind::update},
      {"ATOM.E.CAS.STRONG.GPU", AtomicKind::cas},    {"ATOM.E.AND.STRONG.GPU", AtomicKind::update},
      {"ATOM.E.OR.STRONG.GPU", AtomicKind::update},  {"ATOM.E.ADD.STRONG.SM", AtomicKind::update},
      {"ATOM.E.EXCH.STRONG.SM", AtomicKind::update}, {"ATOM.E.CAS.STRONG.SM", AtomicKind::cas},
      {"ATOM.E.AND.STRONG.SM", AtomicKind::update},  {"ATOM.E.OR.STRONG.SM", AtomicKind::update},
      {"ATOM.E.ADD.STRONG.SYS", AtomicKind::update}};
  for (const auto& [name, kind] : generic)
    if (op == name) return kind;
  // PTX: atom[.acq_rel][.scope].OP.TYPE, generic (no state space), at the scopes measured for OP.
  static const std::pair<std::string_view, AtomicKind> ptx[] = {
      {"add.u32", AtomicKind::update}, {"add.s32", AtomicKind::update}, {"exch.b32", AtomicKind::update},
      {"and.b32", AtomicKind::update}, {"or.b32", AtomicKind::update},   {"cas.b32", AtomicKind::cas}};
  if (op.rfind("atom.", 0) == 0) {
    std::string_view rest = op.substr(5);
    if (rest.rfind("acq_rel.", 0) == 0) rest.remove_prefix(8);
    bool sys = false;
    for (const std::string_view scope : {"cta.", "gpu.", "sys."})
      if (rest.rfind(scope, 0) == 0) sys = scope == "sys.", rest.remove_prefix(scope.size());
    for (const auto& [name, kind] : ptx)
      if (rest == name && (!sys || name.rfind("add.", 0) == 0)) return kind;
  }
  return AtomicKind::unknown;
}

std::optional<Wavefronts> count_atomic_wavefronts(AtomicKind kind, const SmemAccess& a) {
  SmemAccess st = a;
  st.op = SmemOp::st;
  validate(st);
  if (kind == AtomicKind::unknown || (a.width_bytes != 4 && a.width_bytes != 8)) return std::nullopt;
  if (kind == AtomicKind::popc_inc) return count_wavefronts(st);
  const int size = phase_lanes(st);
  const auto d = lane_degrees(st.lane_addr, st, size);
  Wavefronts w;
  for (int k = 0; k < kWarpLanes / size; ++k) w.wavefronts += d[static_cast<std::size_t>(k)], w.ideal += d[static_cast<std::size_t>(k)] > 0 ? 1 : 0;
  // The hardware's ideal packs the active lanes' bytes, as LDS/STS's does (measured: 64-bit
  // exchanges and CAS on half the lanes of both half-warps, ideal 1 and 2).
  w.hw_ideal = std::min(w.ideal, packed_wavefronts(st, kWarpLanes));
  if (kind == AtomicKind::cas) w.wavefronts *= 2, w.ideal *= 2, w.hw_ideal *= 2;
  return w;
}

}  // namespace layoutproof
