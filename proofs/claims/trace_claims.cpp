// Claims over an address trace (proofs/claims/trace_claims.hpp): the exhaustive engine (the bank model on
// every instruction, every CPY slice, an element count), the routing to Z3, and the cross-check
// that keeps a Z3 verdict honest (replay on the bank model, agreement with the exhaustive verdict).
#include "proofs/claims/trace_claims.hpp"

#include <algorithm>
#include <chrono>
#include <set>

#include "proofs/claims/bank_claims.hpp"

namespace layoutproof::proofs {
namespace {

using Kind = TraceClaim::Kind;

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

std::string tuple_text(const i64* first, std::size_t n) {
  std::string s = "(";
  for (std::size_t i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(first[i]);
  return s + ")";
}

// The CuTe coordinate of lane l's first element, "" when the producer gave none.
std::string coord_text(const TraceInstruction& in, int lane) {
  const auto rank = static_cast<std::size_t>(std::max(in.coord_rank, 0));
  if (rank == 0 || in.coords.size() < (at(lane) + 1) * rank) return "";
  return tuple_text(in.coords.data() + at(lane) * rank, rank);
}

// "lane 3 (thread 35, (0,8))".
std::string lane_text(const TraceInstruction& in, int lane) {
  std::string s = "lane " + std::to_string(lane);
  const i64 thread = in.thread[at(lane)];
  const std::string coord = coord_text(in, lane);
  if (thread < 0 && coord.empty()) return s;
  s += " (";
  if (thread >= 0) s += "thread " + std::to_string(thread) + (coord.empty() ? "" : ", ");
  return s + coord + ")";
}

// "instruction 5 (warp 1, copy index (0,1,0,0))": the producer's `where`, else warp and copy_coord.
std::string instruction_text(const AddressTrace& t, i64 k) {
  const TraceInstruction& in = t.instructions[at(k)];
  const std::string where = !in.where.empty() ? in.where
                                              : "warp " + std::to_string(in.warp) + ", copy index " +
                                                    tuple_text(in.copy_coord.data(), in.copy_coord.size());
  return "instruction " + std::to_string(k) + " (" + where + ")";
}

// SASS-like: ldsm4, ld.128, st.32, ldgsts.64.
std::string op_text(const AddressTrace& t) {
  return is_matrix_op(t.op) ? to_string(t.op) : to_string(t.op) + "." + std::to_string(8 * t.width_bytes);
}

i64 warp_count(const AddressTrace& t) {
  std::set<i64> warps;
  for (const auto& in : t.instructions) warps.insert(in.warp);
  return static_cast<i64>(warps.size());
}

std::string domain_text(const AddressTrace& t) {
  const i64 n = static_cast<i64>(t.instructions.size()), w = warp_count(t);
  return "all " + std::to_string(n) + " instructions (" + std::to_string(w) + (w == 1 ? " warp)" : " warps)");
}

// The logical index of lane l's first element (-1 without slices).
i64 first_elem(const TraceInstruction& in, int lane) {
  if (in.slice_len <= 0 || in.slice_elems.size() < (at(lane) + 1) * at(in.slice_len)) return -1;
  return in.slice_elems[at(lane) * at(in.slice_len)];
}

WitnessPoint lane_point(const TraceInstruction& in, int lane, const std::string& role_prefix = "") {
  std::string role = role_prefix + "lane " + std::to_string(lane);
  if (in.thread[at(lane)] >= 0) role += " (thread " + std::to_string(in.thread[at(lane)]) + ")";
  return {role, first_elem(in, lane), coord_text(in, lane), in.addr[at(lane)], "byte"};
}

// ---------------------------------------------------------------------------------------------
// Trace shape: what every claim relies on before it reads an instruction.

// Empty when the trace is well formed, else why not.
std::string malformed(const AddressTrace& t, bool needs_slices) {
  if (t.instructions.empty()) return "the trace has no instruction";
  for (std::size_t k = 0; k < t.instructions.size(); ++k) {
    const TraceInstruction& in = t.instructions[k];
    const std::string at_k = "instruction " + std::to_string(k) + ": ";
    if (in.op != t.op || in.width_bytes != t.width_bytes)
      return at_k + to_string(in.op) + " of " + std::to_string(in.width_bytes) + " bytes in a trace of " + op_text(t);
    if (in.coord_rank < 0 || in.coords.size() != at(in.coord_rank) * kWarpLanes)
      return at_k + std::to_string(in.coords.size()) + " coordinates for rank " + std::to_string(in.coord_rank) + " x 32 lanes";
    if (!needs_slices) continue;
    if (in.slice_len <= 0) return at_k + "no CPY slices (slice_len " + std::to_string(in.slice_len) + ")";
    const std::size_t want = at(in.slice_len) * kWarpLanes;
    if (in.slice_addrs.size() != want || in.slice_elems.size() != want)
      return at_k + "slices of " + std::to_string(in.slice_addrs.size()) + " addresses and " +
             std::to_string(in.slice_elems.size()) + " elements, not slice_len x 32 = " + std::to_string(want);
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Bank claims (conflict-free, max-ways:K) on the bank model.

// nullopt when report r keeps the claim, else the index of the collision that breaks it (first:
// the first one in (phase, bank) order, as the bank claims have always reported; else the one
// with the most ways, ties: first), -1 for an instruction over its ideal without a collision
// (not produced by the bank model's rule: a phase without a collision takes one wavefront).
std::optional<int> breaking(const BankReport& r, int max_ways, bool first) {
  if (max_ways == 0 && r.wavefronts <= r.ideal) return std::nullopt;
  int best = -1;
  for (int i = 0; i < static_cast<int>(r.collisions.size()); ++i) {
    const int ways = r.collisions[at(i)].ways();
    if (max_ways != 0 && ways <= max_ways) continue;
    if (first) return i;
    if (best < 0 || ways > r.collisions[at(best)].ways()) best = i;
  }
  if (best < 0 && max_ways != 0) return std::nullopt;
  return best;
}

// a is worse than b: conflict-free by wavefronts / ideal, max-ways by the breaking bank's ways.
bool worse(const BankFailure& a, const BankFailure& b, int max_ways) {
  if (max_ways == 0) return a.report.wavefronts * b.report.ideal > b.report.wavefronts * a.report.ideal;
  return a.report.collisions[at(a.collision)].ways() > b.report.collisions[at(b.collision)].ways();
}

// The lane's words (byte address / 4 + j) that lie in `bank`.
std::vector<i64> words_in_bank(const TraceInstruction& in, int lane, int bank) {
  std::vector<i64> ws;
  const i64 a = in.addr[at(lane)];
  for (i64 w = word_of(a); w <= word_of(a + in.width_bytes - 1); ++w)
    if (bank_of_word(w) == bank) ws.push_back(w);
  return ws;
}

std::string lanes_sentence(const TraceInstruction& in, const std::vector<int>& lanes, int bank) {
  std::string s;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    s += (i ? ", " : "") + lane_text(in, lanes[i]) + " at byte " + std::to_string(in.addr[at(lanes[i])]);
    for (const i64 w : words_in_bank(in, lanes[i], bank)) s += " word " + std::to_string(w);
  }
  return s;
}

TraceResult bank_refuted(const AddressTrace& t, const TraceClaim& c, const BankScan& scan, std::string method) {
  const BankFailure& f = *scan.worst;
  const TraceInstruction& in = t.instructions[at(f.instruction)];
  TraceWitness w;
  w.instruction = f.instruction;
  w.warp = in.warp;
  w.copy_coord = in.copy_coord;
  w.wavefronts = f.report.wavefronts;
  w.ideal = f.report.ideal;
  w.why = instruction_text(t, f.instruction) + ": " + std::to_string(w.wavefronts) + " wavefronts for an ideal of " +
          std::to_string(w.ideal);
  if (f.collision >= 0) {
    const BankCollision& col = f.report.collisions[at(f.collision)];
    w.phase = col.phase;
    w.bank = col.bank;
    w.ways = col.ways();
    w.lanes = col.lanes;
    w.why += "; phase " + std::to_string(col.phase) + ", bank " + std::to_string(col.bank) + " holds " +
             std::to_string(col.ways()) + " distinct words" +
             (c.kind == Kind::max_ways ? ", more than " + std::to_string(c.k) : std::string()) + ": " +
             lanes_sentence(in, col.lanes, col.bank);
  } else {  // not reached with the bank model's rule (no phase collision keeps the ideal); kept honest
    for (int l = 0; l < kWarpLanes; ++l)
      if (is_active_lane(in, l)) w.lanes.push_back(l);
  }
  w.why += " (" + std::to_string(scan.failing) + " of " + std::to_string(scan.instructions) + " instructions " +
           (c.kind == Kind::conflict_free ? "exceed their ideal)" : "break the bound)");
  Witness vw;
  for (const int l : w.lanes) vw.points.push_back(lane_point(in, l));
  vw.why = w.why;
  return {Verdict::refuted(std::move(method), std::move(vw)), std::move(w)};
}

// "(96 x ldsm4, 4 wavefronts each)" or "(96 x ld.128: 64 at 4 wavefronts, 32 at 2)".
std::string wavefront_summary(const AddressTrace& t, const BankScan& scan) {
  std::string s = "(" + std::to_string(scan.instructions) + " x " + op_text(t);
  if (scan.wavefronts.size() == 1)
    return s + ", " + std::to_string(scan.wavefronts.begin()->first) +
           (scan.wavefronts.begin()->first == 1 ? " wavefront each)" : " wavefronts each)");
  s += ":";
  bool first = true;
  for (auto it = scan.wavefronts.rbegin(); it != scan.wavefronts.rend(); ++it, first = false)
    s += (first ? " " : ", ") + std::to_string(it->second) + " at " + std::to_string(it->first) + (first ? " wavefronts" : "");
  return s + ")";
}

std::string bank_holds(const AddressTrace& t, const TraceClaim& c, const BankScan& scan) {
  if (c.kind == Kind::conflict_free) return "every instruction takes its ideal wavefronts " + wavefront_summary(t, scan);
  return "no phase of any instruction holds more than " + std::to_string(c.k) + (c.k == 1 ? " word" : " distinct words") +
         " in one bank (" +
         std::to_string(scan.instructions) + " x " + op_text(t) + "; at most " + std::to_string(scan.most_ways) + ")";
}

TraceResult bank_exhaustive(const AddressTrace& t, const TraceClaim& c, BankScan& scan) {
  const std::string method = "exhaustive: bank model on " + domain_text(t);
  try {
    scan_bank(t, c.kind == Kind::conflict_free ? 0 : c.k, scan);
  } catch (const LayoutError& e) {
    const std::string where = scan.invalid_at >= 0 ? instruction_text(t, scan.invalid_at) + ": " : "";
    return {Verdict::error(method, "invalid instruction: " + where + e.what()), std::nullopt};
  }
  if (scan.worst) return bank_refuted(t, c, scan, method);
  return {Verdict::proved(method, bank_holds(t, c, scan)), std::nullopt};
}

// ---------------------------------------------------------------------------------------------
// vector-legal: each active lane's slice is contiguous from an aligned address.

TraceResult slice_refuted(const AddressTrace& t, i64 k, int lane, std::string why, std::vector<WitnessPoint> points,
                          const std::string& method) {
  const TraceInstruction& in = t.instructions[at(k)];
  TraceWitness w;
  w.instruction = k;
  w.warp = in.warp;
  w.copy_coord = in.copy_coord;
  w.lanes = {lane};
  w.why = std::move(why);
  return {Verdict::refuted(method, Witness{std::move(points), w.why}), std::move(w)};
}

std::string bytes_list(const TraceInstruction& in, int lane) {
  std::string s;
  for (int j = 0; j < in.slice_len; ++j)
    s += (j ? ", " : "") + std::to_string(in.slice_addrs[at(lane) * at(in.slice_len) + at(j)]);
  return s;
}

// The witness for lane `lane` of instruction k, or nullopt when its slice is legal.
std::optional<TraceResult> lane_vector_check(const AddressTrace& t, i64 k, int lane, const std::string& method) {
  const TraceInstruction& in = t.instructions[at(k)];
  const i64 a = in.addr[at(lane)];
  // Built only for a refutation: this runs on every lane of every instruction.
  const auto who = [&] { return instruction_text(t, k) + ": " + lane_text(in, lane); };
  if (a % in.width_bytes != 0)
    return slice_refuted(t, k, lane,
                         "misaligned: " + who() + " at byte " + std::to_string(a) + " is not a multiple of " +
                             std::to_string(in.width_bytes) + ": the instruction faults",
                         {lane_point(in, lane, "misaligned ")}, method);
  for (int j = 0; j < in.slice_len; ++j) {
    const std::size_t s = at(lane) * at(in.slice_len) + at(j);
    const i64 want = checked_add(a, checked_mul(j, t.element_bytes));
    if (in.slice_addrs[s] == want) continue;
    std::vector<WitnessPoint> pts{lane_point(in, lane, "slice element 0 of "),
                                  {"slice element " + std::to_string(j) + " (expected byte " + std::to_string(want) + ")",
                                   in.slice_elems[s], "", in.slice_addrs[s]}};
    return slice_refuted(t, k, lane,
                         "not contiguous: " + who() + "'s elements are at bytes " + bytes_list(in, lane) + " (element " +
                             std::to_string(j) + " at byte " + std::to_string(in.slice_addrs[s]) + ", not " +
                             std::to_string(want) + "): CuTe cannot issue one " + std::to_string(in.width_bytes) +
                             "-byte instruction (the copy splits or does not compile)",
                         std::move(pts), method);
  }
  return std::nullopt;
}

TraceResult vector_legal(const AddressTrace& t) {
  const std::string method = "exhaustive: every active lane's CPY slice in " + domain_text(t);
  if (const std::string why = malformed(t, true); !why.empty()) return {Verdict::error(method, "malformed trace: " + why), std::nullopt};
  if (t.element_bytes <= 0)
    return {Verdict::error(method, "sub-byte elements: element_bytes is 0, so byte contiguity cannot be judged"), std::nullopt};
  const i64 slice_bytes = checked_mul(t.instructions.front().slice_len, t.element_bytes);
  if (slice_bytes != t.width_bytes)
    return {Verdict::error(method, "malformed trace: a slice of " + std::to_string(t.instructions.front().slice_len) + " x " +
                                       std::to_string(t.element_bytes) + "-byte elements is not one " +
                                       std::to_string(t.width_bytes) + "-byte access"),
            std::nullopt};
  i64 lanes = 0;
  for (i64 k = 0; k < static_cast<i64>(t.instructions.size()); ++k)
    for (int l = 0; l < kWarpLanes; ++l) {
      if (!is_active_lane(t.instructions[at(k)], l)) continue;
      lanes = checked_add(lanes, 1);
      if (auto bad = lane_vector_check(t, k, l, method)) return *bad;
    }
  return {Verdict::proved(method, "every active lane's " + std::to_string(t.instructions.front().slice_len) +
                                      "-element CPY slice is contiguous and " + std::to_string(t.width_bytes) +
                                      "-byte aligned (" + std::to_string(lanes) + " lanes of " +
                                      std::to_string(t.instructions.size()) + " x " + op_text(t) + ")"),
          std::nullopt};
}

// ---------------------------------------------------------------------------------------------
// covers: stores write every element of the smem tensor exactly once; loads read each at least once.

inline constexpr i64 kCoverLimit = i64{1} << 28;  // elements (two 8-byte tables of this size)

struct Mover {  // one (instruction, lane, slice position) that moves an element
  i64 instruction = -1;
  int lane = -1, slot = -1;
};

std::string mover_text(const AddressTrace& t, const Mover& m) {
  const TraceInstruction& in = t.instructions[at(m.instruction)];
  return instruction_text(t, m.instruction) + " " + lane_text(in, m.lane) + " at byte " +
         std::to_string(in.slice_addrs[at(m.lane) * at(in.slice_len) + at(m.slot)]);
}

WitnessPoint mover_point(const AddressTrace& t, const Mover& m, i64 elem, const std::string& role) {
  const TraceInstruction& in = t.instructions[at(m.instruction)];
  return {role + ": instruction " + std::to_string(m.instruction) + " lane " + std::to_string(m.lane), elem,
          coord_text(in, m.lane), in.slice_addrs[at(m.lane) * at(in.slice_len) + at(m.slot)], "byte"};
}

TraceResult twice_written(const AddressTrace& t, i64 elem, const Mover& a, const Mover& b, const std::string& method) {
  TraceWitness w;
  w.instruction = b.instruction;
  w.warp = t.instructions[at(b.instruction)].warp;
  w.copy_coord = t.instructions[at(b.instruction)].copy_coord;
  w.lanes = a.instruction == b.instruction ? std::vector<int>{a.lane, b.lane} : std::vector<int>{b.lane};
  w.why = "element " + std::to_string(elem) + " is written twice: by " + mover_text(t, a) + " and by " + mover_text(t, b);
  Witness vw{{mover_point(t, a, elem, "first write"), mover_point(t, b, elem, "second write")}, w.why};
  return {Verdict::refuted(method, std::move(vw)), std::move(w)};
}

TraceResult never_moved(const AddressTrace& t, i64 elem, const std::string& method) {
  TraceWitness w;
  w.instruction = -1;
  w.warp = -1;
  w.why = "element " + std::to_string(elem) + " of " + std::to_string(t.domain_size) + " is never " +
          (t.smem_is_destination ? "written" : "read") + ": no active lane of the " +
          std::to_string(t.instructions.size()) + " instructions moves it";
  Witness vw{{{"missing", elem, "", -1}}, w.why};
  return {Verdict::refuted(method, std::move(vw)), std::move(w)};
}

// Two distinct elements whose byte ranges overlap in shared memory: a store overwrites one with
// the other, a load reads one element's bytes for the other. Counting logical elements alone
// would call such a copy covering (found by the hostile-input campaign: (128,8):(1,64) stores).
// first[e] is a mover of element e (every element is moved). Sub-byte elements: not judged here.
std::optional<TraceResult> aliased_elements(const AddressTrace& t, const std::vector<Mover>& first, const std::string& method) {
  if (t.element_bytes <= 0) return std::nullopt;
  std::vector<std::pair<i64, i64>> at_byte;  // (byte address, element)
  at_byte.reserve(first.size());
  for (i64 e = 0; e < static_cast<i64>(first.size()); ++e) {
    const Mover& m = first[at(e)];
    const TraceInstruction& in = t.instructions[at(m.instruction)];
    at_byte.push_back({in.slice_addrs[at(m.lane) * at(in.slice_len) + at(m.slot)], e});
  }
  std::sort(at_byte.begin(), at_byte.end());
  for (std::size_t i = 1; i < at_byte.size(); ++i) {
    if (at_byte[i].first >= checked_add(at_byte[i - 1].first, t.element_bytes)) continue;
    const i64 a = at_byte[i - 1].second, b = at_byte[i].second;
    TraceWitness w;
    w.instruction = first[at(b)].instruction;
    w.warp = t.instructions[at(w.instruction)].warp;
    w.copy_coord = t.instructions[at(w.instruction)].copy_coord;
    w.lanes = {first[at(b)].lane};
    w.why = "elements " + std::to_string(a) + " and " + std::to_string(b) + " share shared memory at byte " +
            std::to_string(at_byte[i].first) + " (" + (t.smem_is_destination ? "one store overwrites the other" : "one is read for the other") +
            "): " + mover_text(t, first[at(a)]) + "; " + mover_text(t, first[at(b)]) + ". The smem layout is not injective";
    Witness vw{{mover_point(t, first[at(a)], a, "element " + std::to_string(a)), mover_point(t, first[at(b)], b, "element " + std::to_string(b))},
               w.why};
    return TraceResult{Verdict::refuted(method, std::move(vw)), std::move(w)};
  }
  return std::nullopt;
}

TraceResult covers(const AddressTrace& t) {
  const std::string method = "exhaustive: element count over the CPY slices of " + domain_text(t) + ", domain of " +
                             std::to_string(t.domain_size) + " elements";
  if (const std::string why = malformed(t, true); !why.empty()) return {Verdict::error(method, "malformed trace: " + why), std::nullopt};
  if (t.domain_size <= 0) return {Verdict::error(method, "unknown domain: the trace gives no element count (domain_size 0)"), std::nullopt};
  if (t.domain_size > kCoverLimit) return {Verdict::error(method, "domain of more than 2^28 elements"), std::nullopt};
  std::vector<Mover> first(at(t.domain_size));
  std::vector<i64> count(at(t.domain_size), 0);
  for (i64 k = 0; k < static_cast<i64>(t.instructions.size()); ++k) {
    const TraceInstruction& in = t.instructions[at(k)];
    for (int l = 0; l < kWarpLanes; ++l) {
      if (!is_active_lane(in, l)) continue;
      for (int j = 0; j < in.slice_len; ++j) {
        const i64 e = in.slice_elems[at(l) * at(in.slice_len) + at(j)];
        if (e < 0 || e >= t.domain_size)
          return {Verdict::error(method, "malformed trace: " + instruction_text(t, k) + " lane " + std::to_string(l) +
                                             " moves logical index " + std::to_string(e) + ", outside [0, " +
                                             std::to_string(t.domain_size) + ")"),
                  std::nullopt};
        const Mover m{k, l, j};
        if (count[at(e)]++ == 0) first[at(e)] = m;
        else if (t.smem_is_destination) return twice_written(t, e, first[at(e)], m, method);
      }
    }
  }
  for (i64 e = 0; e < t.domain_size; ++e)
    if (count[at(e)] == 0) return never_moved(t, e, method);
  if (auto aliased = aliased_elements(t, first, method)) return *aliased;
  const i64 most = *std::max_element(count.begin(), count.end());
  const std::string n = std::to_string(t.domain_size), ops = std::to_string(t.instructions.size()) + " x " + op_text(t);
  return {Verdict::proved(method, t.smem_is_destination
                                      ? "each of the " + n + " elements is written exactly once (" + ops + ")"
                                      : "each of the " + n + " elements is read at least once (" + ops + "; at most " +
                                            std::to_string(most) + " times)"),
          std::nullopt};
}

// ---------------------------------------------------------------------------------------------
// Z3: replay and cross-check.

// The lanes of the worst collision Z3 is asked to confirm: one lane per distinct word (the
// smallest lane on it), for the first `picks` words, ascending (a lane has at most one word in a
// bank, so they are distinct).
std::vector<int> hint_lanes(const TraceInstruction& in, const BankCollision& col, int picks) {
  std::vector<int> lanes;
  for (std::size_t i = 0; i < col.words.size() && static_cast<int>(lanes.size()) < picks; ++i)
    for (const int l : col.lanes) {
      const std::vector<i64> ws = words_in_bank(in, l, col.bank);
      if (std::find(ws.begin(), ws.end(), col.words[i]) == ws.end()) continue;
      lanes.push_back(l);
      break;
    }
  std::sort(lanes.begin(), lanes.end());
  return lanes;
}

// Empty when Z3's violation replays on the bank model (the instruction breaks the claim and the
// lanes Z3 chose lie in one of its breaking collisions), else why not.
std::string replay_failure(const AddressTrace& t, const TraceClaim& c, const TraceViolation& v) {
  if (v.instruction < 0 || v.instruction >= static_cast<i64>(t.instructions.size())) return "no such instruction";
  const BankReport r = analyze_smem_access(t.instructions[at(v.instruction)].access());
  const int max_ways = c.kind == Kind::conflict_free ? 0 : c.k;
  if (!breaking(r, max_ways, true)) return "instruction " + std::to_string(v.instruction) + " keeps the claim";
  for (const auto& col : r.collisions) {
    if (col.ways() <= std::max(max_ways, 1)) continue;
    if (std::all_of(v.lanes.begin(), v.lanes.end(),
                    [&](int l) { return std::find(col.lanes.begin(), col.lanes.end(), l) != col.lanes.end(); }))
      return "";
  }
  return "the lanes z3 chose do not share a conflicting bank of instruction " + std::to_string(v.instruction);
}

std::string lanes_list(const std::vector<int>& lanes) {
  std::string s;
  for (std::size_t i = 0; i < lanes.size(); ++i) s += (i ? ", " : "") + std::to_string(lanes[i]);
  return s;
}

TraceResult z3_bank(const AddressTrace& t, const TraceClaim& c, const ProveOptions& o, const TraceResult& oracle,
                    const BankScan& scan) {
  std::optional<TraceViolation> expect;
  if (scan.worst && scan.worst->collision >= 0) {
    const int picks = c.kind == Kind::conflict_free ? 2 : c.k + 1;
    const BankCollision& col = scan.worst->report.collisions[at(scan.worst->collision)];
    expect = TraceViolation{scan.worst->instruction, hint_lanes(t.instructions[at(scan.worst->instruction)], col, picks)};
  }
  const Outcome<TraceZ3Violation> z = check_trace_z3(t, c, o.smt, expect);
  const std::string method = z.method + ", cross-checked by the bank model on " + domain_text(t);
  const auto done = [&](Verdict v, std::optional<TraceWitness> w = std::nullopt) {
    v.queries = z.queries;
    return TraceResult{std::move(v), std::move(w)};
  };
  switch (z.kind) {
    case OutcomeKind::error: return done(Verdict::error(method, z.text));
    case OutcomeKind::unknown: return done(Verdict::unknown(method, z.text));
    case OutcomeKind::holds:
      if (!oracle.verdict.is_proved())
        return done(Verdict::error(method, "z3 and the bank model disagree: z3 proves, the bank model refutes (" +
                                               oracle.verdict.witness.why + ")"));
      return done(Verdict::proved(method, z.text));
    case OutcomeKind::violated: {
      if (const std::string why = replay_failure(t, c, z.witness.found); !why.empty())
        return done(Verdict::error(method, "encoding mismatch: the counterexample does not replay on the bank model (" + why + ")"));
      if (!oracle.verdict.is_refuted())
        return done(Verdict::error(method, "z3 and the bank model disagree: z3 refutes, the bank model proves"));
      if (expect && !z.witness.confirmed)
        return done(Verdict::error(method, "z3 and the bank model disagree: z3 finds no violation at the bank model's worst " +
                                               instruction_text(t, expect->instruction)));
      TraceResult r = oracle;
      r.verdict.method = method + " (z3's violation: instruction " + std::to_string(z.witness.found.instruction) + ", lanes " +
                         lanes_list(z.witness.found.lanes) + ", replayed; witness: the worst instruction)";
      r.verdict.queries = z.queries;
      return r;
    }
  }
  return done(Verdict::error(method, "unreachable"));
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::optional<TraceClaim> parse_trace_claim(const std::string& text) {
  TraceClaim c;
  c.text = text;
  if (text == "vector-legal") c.kind = Kind::vector_legal;
  else if (text == "covers") c.kind = Kind::covers;
  else if (const auto b = parse_bank_claim(text)) {  // conflict-free | max-ways:K (throws on a bad K)
    c.kind = b->kind == BankClaim::Kind::conflict_free ? Kind::conflict_free : Kind::max_ways;
    c.k = b->k;
  } else {
    return std::nullopt;
  }
  return c;
}

void scan_bank(const AddressTrace& t, int max_ways, BankScan& scan) {
  scan.instructions = static_cast<i64>(t.instructions.size());
  for (i64 k = 0; k < scan.instructions; ++k) {
    scan.invalid_at = k;
    const BankReport r = analyze_smem_access(t.instructions[at(k)].access());
    scan.invalid_at = -1;
    scan.wavefronts[r.wavefronts] = checked_add(scan.wavefronts[r.wavefronts], 1);
    for (const auto& col : r.collisions) scan.most_ways = std::max(scan.most_ways, col.ways());
    const std::optional<int> first = breaking(r, max_ways, true);
    if (!first) continue;
    scan.failing = checked_add(scan.failing, 1);
    if (!scan.first) scan.first = BankFailure{k, r, *first};
    BankFailure f{k, r, *breaking(r, max_ways, false)};
    if (!scan.worst || worse(f, *scan.worst, max_ways)) scan.worst = std::move(f);
  }
}

TraceResult check_trace_exhaustive(const AddressTrace& t, const TraceClaim& c) {
  try {
    if (c.kind == Kind::vector_legal) return vector_legal(t);
    if (c.kind == Kind::covers) return covers(t);
    if (const std::string why = malformed(t, false); !why.empty())
      return {Verdict::error("exhaustive", "malformed trace: " + why), std::nullopt};
    BankScan scan;
    return bank_exhaustive(t, c, scan);
  } catch (const LayoutError& e) {  // OverflowError from the checked arithmetic included
    return {Verdict::error("exhaustive", e.what()), std::nullopt};
  }
}

TraceResult prove_trace(const AddressTrace& t, const TraceClaim& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto finish = [&](TraceResult r) {
    r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.verdict = o.smt.deadline.expire(std::move(r.verdict));  // reached after the run's deadline: UNKNOWN
    if (!r.verdict.is_refuted()) r.witness.reset();
    return r;
  };
  if (o.smt.deadline.passed()) return finish({Verdict::unknown("deadline", o.smt.deadline.reason()), std::nullopt});
  // automatic is the exhaustive engine: a trace is a finite list, so enumerating it is a complete
  // check; Z3 runs only when asked, and then against that check.
  const bool bank = c.kind == Kind::conflict_free || c.kind == Kind::max_ways;
  if (o.engine != EngineChoice::z3 || !bank) {
    TraceResult r = check_trace_exhaustive(t, c);
    if (o.engine == EngineChoice::z3) r.verdict.method += " (z3 was asked: " + c.text + " has no z3 encoding)";
    return finish(std::move(r));
  }
  BankScan scan;
  TraceResult oracle;
  try {
    if (const std::string why = malformed(t, false); !why.empty())
      return finish({Verdict::error("z3", "malformed trace: " + why), std::nullopt});
    oracle = bank_exhaustive(t, c, scan);
  } catch (const LayoutError& e) {
    return finish({Verdict::error("exhaustive", e.what()), std::nullopt});
  }
  // An invalid instruction (misaligned, no active lane) has no bank-model meaning to encode.
  if (oracle.verdict.kind == Verdict::Kind::error) return finish(std::move(oracle));
  return finish(z3_bank(t, c, o, oracle, scan));
}

}  // namespace layoutproof::proofs
