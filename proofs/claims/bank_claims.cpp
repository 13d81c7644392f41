// Bank-conflict claims: the exhaustive oracle, replay of Z3 violations on the bank model, and the
// cross-check that keeps a Z3 PROVED honest (proofs/claims/bank_claims.hpp).
#include "proofs/claims/bank_claims.hpp"

#include <algorithm>
#include <chrono>

#include "model/layout/notation.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::proofs {
namespace {

// The claim as the shared trace scan takes it: 0 for conflict-free, else K.
int max_ways_of(const BankClaim& c) { return c.kind == BankClaim::Kind::conflict_free ? 0 : c.k; }

// The claim fails on this instruction (bank model): conflict-free, more than the ideal wavefronts
// with a collision to show; max-ways:K, a collision of more than K words.
bool breaking(const BankClaim& c, const BankReport& r) {
  if (c.kind == BankClaim::Kind::conflict_free) return r.wavefronts > r.ideal && !r.collisions.empty();
  return std::any_of(r.collisions.begin(), r.collisions.end(), [&](const BankCollision& col) { return col.ways() > c.k; });
}

BankWitness make_witness(const BankSubject& s, i64 k, const TraceInstruction& in, const BankReport& r,
                         const BankCollision& col) {
  BankWitness bw;
  bw.instruction = k;
  bw.where = in.where;
  bw.phase = col.phase;
  bw.bank = col.bank;
  bw.ways = col.ways();
  bw.wavefronts = r.wavefronts;
  bw.ideal = r.ideal;
  bw.degree = r.conflict_degree;
  bw.all_addresses = in.addr;
  for (int l = 0; l < kWarpLanes; ++l)  // trace_of gives (row, col), -1 for inactive lanes
    bw.all_coords[l] = {in.coords[2 * l], in.coords[2 * l + 1]};
  const int nwords = std::max(1, s.width_bytes / 4);
  for (int lane : col.lanes) {
    BankLane bl{lane, bw.all_coords[lane].row, bw.all_coords[lane].col, in.addr[lane], {}};
    for (int j = 0; j < nwords; ++j) {
      const i64 word = word_of(in.addr[lane]) + j;
      if (bank_of_word(word) == col.bank) bl.words.push_back(word);
    }
    bw.lanes.push_back(bl);
  }
  return bw;
}

Witness to_witness(const BankWitness& bw) {
  Witness w;
  for (const auto& l : bw.lanes)
    w.points.push_back({"lane " + std::to_string(l.lane), l.lane,
                        "(" + std::to_string(l.row) + "," + std::to_string(l.col) + ")", l.byte_address, "byte"});
  w.why = describe(bw);
  return w;
}

std::string method_exhaustive(i64 n) { return "exhaustive: bank model on all " + std::to_string(n) + " instructions"; }

std::string holds_text(const BankClaim& c, i64 n) {
  return (c.kind == BankClaim::Kind::conflict_free ? std::string("every instruction needs exactly its ideal wavefronts")
                                                   : "no bank of any phase holds more than " + std::to_string(c.k) +
                                                         " distinct words") +
         " (" + std::to_string(n) + " instructions)";
}

}  // namespace

std::optional<BankClaim> parse_bank_claim(const std::string& text) {
  BankClaim c;
  c.text = text;
  if (text == "conflict-free") return c;
  const std::string p = "max-ways";
  if (text.compare(0, p.size(), p) != 0) return std::nullopt;
  const std::string arg = text.size() > p.size() && text[p.size()] == ':' ? text.substr(p.size() + 1) : "";
  c.kind = BankClaim::Kind::max_ways;
  c.k = static_cast<int>(parse_int_in(arg, "max-ways:K", 1, 999));
  return c;
}

bool is_bank_claim(const std::string& text) {
  return text == "conflict-free" || text.rfind("max-ways", 0) == 0;
}

std::string BankSubject::text() const {
  std::string t = to_string(spec.tile) + ", " + std::to_string(spec.elem_bytes) + "-byte elements x" +
                  std::to_string(spec.vec) + " (" + std::to_string(width_bytes) + " B), " + to_string(spec.pattern);
  if (spec.thread_layout) t += " " + to_string(*spec.thread_layout);
  t += ", " + to_string(op);
  if (spec.base_address) t += ", base " + std::to_string(spec.base_address);
  if (spec.byte_swizzle) t += ", byte swizzle " + to_string(*spec.byte_swizzle);
  return t;
}

int default_vec(int elem_bytes) { return std::max(1, 16 / std::max(1, elem_bytes)); }

BankSubject make_bank_subject(AccessSpec spec, SmemOp op) {
  BankSubject s;
  // The one validation of an op against its pattern and vector, for every caller (prove, spec
  // accesses, synth, catalog): an ldmatrix/stmatrix op moves 16-byte rows of the ldmatrix pattern.
  if (is_matrix_op(op)) {
    if (spec.pattern != PatternKind::ldmatrix)
      throw LayoutError("op " + to_string(op) + " goes with --pattern ldmatrix (pattern: ldmatrix in a spec), not " +
                        to_string(spec.pattern));
    if (checked_mul(spec.elem_bytes, spec.vec) != 16)
      throw LayoutError(to_string(op) + " moves 16-byte rows: vec is " + std::to_string(16 / std::max(1, spec.elem_bytes)) +
                        " for " + std::to_string(spec.elem_bytes) + "-byte elements, not " + std::to_string(spec.vec) +
                        " (or leave it out)");
    spec.ldmatrix_count = matrix_count(op);
    s.width_bytes = 16;
  } else {
    s.width_bytes = spec.elem_bytes * spec.vec;
    if (spec.pattern == PatternKind::ldmatrix)
      throw LayoutError("the ldmatrix pattern needs --op ldsm1|ldsm2|ldsm4|stsm1|stsm2|stsm4");
  }
  if (spec.tile.is_smem_ptr()) {
    // CuTe's swizzle_ptr swizzles the ABSOLUTE byte address (the base included): the smem_ptr form
    // is its inner layout under a byte swizzle, the access model's byte_swizzle. Here, so every
    // caller (prove, spec accesses, synth, catalog) gets the same addresses as trace and tma.
    const AnyLayout& t = spec.tile;
    if (spec.byte_swizzle) throw LayoutError("a byte swizzle on " + to_string(t) + ", which has its own byte swizzle");
    if (t.smem_ptr_bits != 8 * spec.elem_bytes)
      throw LayoutError(to_string(t) + " is a layout of " + std::to_string(t.smem_ptr_bits) + "-bit elements, not " +
                        std::to_string(spec.elem_bytes) + "-byte ones");
    spec.byte_swizzle = t.byte_swizzle;
    spec.tile = t.offset == 0 ? AnyLayout(t.layout) : AnyLayout(Swizzle{0, 0, 0}, t.offset, t.layout);  // Sw<0,0,0>: identity
  }
  s.op = op;
  s.spec = std::move(spec);
  // Every value checked before any proof runs (bad input is exit 2, never a verdict on a wrapped
  // count or an address outside shared memory): widths, base, footprint, instruction count.
  validate_access_spec(s.spec, s.width_bytes);
  try {
    (void)instruction_count(s);
  } catch (const OverflowError&) {
    throw LayoutError("the access has more than 2^63 instructions (" + to_string(s.spec.tile) + ")");
  }
  return s;
}

i64 instruction_count(const BankSubject& s) { return warp_access_count(s.spec); }

std::string describe(const BankWitness& w) {
  std::string s = "instruction " + std::to_string(w.instruction) + " (" + w.where + "), phase " +
                  std::to_string(w.phase) + ": lanes";
  for (std::size_t i = 0; i < w.lanes.size(); ++i) {
    const auto& l = w.lanes[i];
    s += (i ? ", " : " ") + std::to_string(l.lane) + " (" + std::to_string(l.row) + "," + std::to_string(l.col) +
         ") at byte " + std::to_string(l.byte_address);
  }
  s += " hit bank " + std::to_string(w.bank) + " at " + std::to_string(w.ways) + " distinct words: " +
       std::to_string(w.ways) + "-way conflict, " + std::to_string(w.wavefronts) + " wavefronts for an ideal of " +
       std::to_string(w.ideal);
  char b[32];
  std::snprintf(b, sizeof b, " (degree %.2g)", w.degree);
  return s + b;
}

namespace {

// Instruction k of trace_of(s, with_slices), from the pattern's instruction k.
TraceInstruction trace_instruction(const BankSubject& s, std::size_t k, const WarpAccess& w, bool with_slices) {
  const i64 rows = product(s.spec.tile.layout.shape[0]);  // checked by warp_accesses
  const bool per_warp = s.spec.pattern == PatternKind::thread_layout;  // instruction k is warp k
  TraceInstruction in;
  in.op = s.op;
  in.width_bytes = s.width_bytes;
  in.addr = w.byte_address;
  in.warp = per_warp ? static_cast<i64>(k) : 0;
  in.index = per_warp ? 0 : static_cast<i64>(k);
  in.copy_coord = {in.index};
  in.where = w.where;
  in.coord_rank = 2;
  in.coords.assign(2 * kWarpLanes, -1);
  in.slice_len = with_slices ? s.spec.vec : 0;
  in.slice_addrs.assign(static_cast<std::size_t>(in.slice_len) * kWarpLanes, -1);
  in.slice_elems.assign(in.slice_addrs.size(), -1);
  for (int l = 0; l < kWarpLanes; ++l) {
    const LaneCoord c = w.coord[l];
    const bool on = w.byte_address[l] >= 0;
    in.thread[l] = !on ? -1 : per_warp ? checked_add(checked_mul(static_cast<i64>(k), kWarpLanes), l) : l;
    if (!on) continue;
    in.coords[2 * l] = c.row;
    in.coords[2 * l + 1] = c.col;
    for (int j = 0; j < in.slice_len; ++j) {  // the lane's vec elements along the row
      const std::size_t at = static_cast<std::size_t>(l * in.slice_len + j);
      in.slice_addrs[at] = byte_address(s.spec, c.row, c.col + j);
      in.slice_elems[at] = checked_add(c.row, checked_mul(c.col + j, rows));
    }
  }
  return in;
}

}  // namespace

AddressTrace trace_of(const BankSubject& s, bool with_slices) {
  const std::vector<WarpAccess> ws = warp_accesses(s.spec);
  const Layout& tile = s.spec.tile.layout;
  const i64 rows = product(tile.shape[0]), cols = product(tile.shape[1]);  // checked by warp_accesses
  AddressTrace t;
  t.provenance = s.text();
  t.op = s.op;
  t.width_bytes = s.width_bytes;
  t.threads = s.spec.pattern == PatternKind::thread_layout ? size(*s.spec.thread_layout) : kWarpLanes;
  t.element_bytes = s.spec.elem_bytes;
  t.domain_size = checked_mul(rows, cols);
  t.smem_is_destination = is_store(s.op);
  t.instructions.reserve(ws.size());
  for (std::size_t k = 0; k < ws.size(); ++k) t.instructions.push_back(trace_instruction(s, k, ws[k], with_slices));
  return t;
}

BankResult check_bank_exhaustive(const BankSubject& s, const BankClaim& c) {
  BankResult res;
  try {
    const AddressTrace t = trace_of(s, false);
    const i64 n = static_cast<i64>(t.instructions.size());
    BankScan scan;
    scan_bank(t, max_ways_of(c), scan);  // the trace claims' bank path and their choice of the worst failure
    if (const auto& f = scan.worst) {
      if (f->collision < 0)  // the bank model's rule never does this; say so rather than prove
        return {Verdict::error("exhaustive", "instruction " + std::to_string(f->instruction) +
                                                 " exceeds its ideal without a bank collision"),
                std::nullopt};
      res.witness = make_witness(s, f->instruction, t.instructions[f->instruction], f->report,
                                 f->report.collisions[f->collision]);
      res.verdict = Verdict::refuted(method_exhaustive(n), to_witness(*res.witness));
      return res;
    }
    res.verdict = Verdict::proved(method_exhaustive(n), holds_text(c, n));
  } catch (const LayoutError& e) {
    res.verdict = Verdict::error("exhaustive", std::string("invalid access: ") + e.what());
  }
  return res;
}

namespace {

// Replays a Z3 violation: instruction k must break the claim on the bank model, with the lanes
// Z3 chose in the breaking (phase, bank).
BankResult replay_bank(const BankSubject& s, const BankClaim& c, const BankViolation& v, const std::string& method) {
  BankResult res;
  const auto mismatch = [&](const std::string& why) {
    res.verdict = Verdict::error(method, "encoding mismatch: the counterexample does not replay on the bank model (" + why + ")");
    return res;
  };
  // Only the witness instruction is built (a stride-0 tile may have more than 2^20: hostile input H2).
  if (v.instruction < 0 || v.instruction >= instruction_count(s)) return mismatch("no such instruction");
  const TraceInstruction in =
      trace_instruction(s, static_cast<std::size_t>(v.instruction), warp_access_at(s.spec, v.instruction), false);
  const BankReport r = analyze_smem_access(in.access());
  if (!breaking(c, r)) return mismatch("instruction " + std::to_string(v.instruction) + " keeps the claim");
  // The (phase, bank) of Z3's lanes: it must be a collision of the model with more than K words
  // (conflict-free: K = 1) and contain every lane Z3 chose.
  // Of those, the one with the most distinct words (a 16-byte lane touches four banks).
  const int limit = c.kind == BankClaim::Kind::conflict_free ? 1 : c.k;
  const BankCollision* best = nullptr;
  for (const auto& col : r.collisions) {
    if (col.ways() <= limit) continue;
    const bool all = std::all_of(v.lanes.begin(), v.lanes.end(), [&](int l) {
      return std::find(col.lanes.begin(), col.lanes.end(), l) != col.lanes.end();
    });
    if (all && (!best || col.ways() > best->ways())) best = &col;
  }
  if (!best) return mismatch("the lanes z3 chose do not share a conflicting bank there");
  res.witness = make_witness(s, v.instruction, in, r, *best);
  res.verdict = Verdict::refuted(method, to_witness(*res.witness));
  return res;
}

}  // namespace

BankResult prove_bank(const BankSubject& s, const BankClaim& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  BankResult res;
  const auto finish = [&](BankResult r, std::vector<std::string> q = {}) {
    r.verdict.queries = std::move(q);
    r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.verdict = o.smt.deadline.expire(std::move(r.verdict));  // reached after the run's deadline: UNKNOWN
    if (!r.verdict.is_refuted()) r.witness.reset();
    return r;
  };
  if (o.smt.deadline.passed()) return finish({Verdict::unknown("bank", o.smt.deadline.reason()), std::nullopt});
  i64 n = 0;
  try {
    n = instruction_count(s);
  } catch (const LayoutError& e) {
    return finish({Verdict::error("bank", std::string("invalid access: ") + e.what()), std::nullopt});
  }
  const bool enumerable = n <= kBankExhaustiveLimit;
  // auto: small accesses are decided by the bank model on every instruction (a complete check of
  // a finite domain, and the oracle Z3 would be cross-checked against anyway); large ones by Z3.
  const bool small = n <= o.auto_exhaustive_limit;
  if (o.engine == EngineChoice::exhaustive || (o.engine == EngineChoice::automatic && small)) {
    if (!enumerable) return finish({Verdict::error("exhaustive", "more than 2^20 instructions"), std::nullopt});
    return finish(check_bank_exhaustive(s, c));
  }
  // The oracle first: it also validates every instruction (alignment, widths) for the encoding.
  std::optional<BankResult> oracle;
  if (enumerable) {
    oracle = check_bank_exhaustive(s, c);
    if (oracle->verdict.kind == Verdict::Kind::error) return finish(*oracle);
  }
  std::optional<i64> hint;
  std::vector<int> hint_lanes;
  if (oracle && oracle->witness) {
    hint = oracle->witness->instruction;
    for (const auto& l : oracle->witness->lanes) hint_lanes.push_back(l.lane);
  }
  const Outcome<BankViolation> z = check_bank_z3(s, c, o.smt, hint, hint_lanes);
  std::string method = z.method;
  if (enumerable) method += ", cross-checked by the bank model on all " + std::to_string(n) + " instructions";
  switch (z.kind) {
    case OutcomeKind::error: return finish({Verdict::error(method, z.text), std::nullopt}, z.queries);
    case OutcomeKind::unknown: return finish({Verdict::unknown(method, z.text), std::nullopt}, z.queries);
    case OutcomeKind::violated: {
      // Z3 looks for two lanes of one phase on one bank at different words: exactly an instruction
      // above its ideal (the ideal is the wavefronts with the collisions removed, so no wide-load
      // merge absorbs a collision: model/bank/bank.hpp). A bank model that proves is a disagreement.
      BankResult r;
      try {
        r = replay_bank(s, c, z.witness, method);
      } catch (const LayoutError& e) {
        r.verdict = Verdict::error(method, std::string("cannot replay the counterexample: ") + e.what());
      }
      if (r.verdict.is_refuted() && oracle && !oracle->verdict.is_refuted())
        r.verdict = Verdict::error(method, "z3 and the exhaustive evaluation disagree: z3 refutes, the bank model proves");
      // Z3 shrinks towards the smallest failing instruction; its counterexample replayed, the witness
      // shown is the worst one, which the bank model itself found (so it replays by construction).
      if (r.verdict.is_refuted() && oracle && oracle->witness) {
        r.witness = oracle->witness;
        r.verdict = Verdict::refuted(method, to_witness(*r.witness));
      }
      return finish(r, z.queries);
    }
    case OutcomeKind::holds:
      if (!enumerable)  // nothing validated the access (alignment, tile bounds) instruction by instruction
        return finish({Verdict::unknown(method, "z3 found no bank conflict, but with more than 2^20 instructions the "
                                                "access itself (alignment, tile bounds) is not validated; split the tile"),
                       std::nullopt},
                      z.queries);
      if (oracle && !oracle->verdict.is_proved())
        return finish({Verdict::error(method, "z3 and the exhaustive evaluation disagree: z3 proves, the bank model refutes (" +
                                                  oracle->verdict.witness.why + ")"),
                       std::nullopt},
                      z.queries);
      return finish({Verdict::proved(method, z.text), std::nullopt}, z.queries);
  }
  return finish({Verdict::error(method, "unreachable"), std::nullopt});
}

}  // namespace layoutproof::proofs
