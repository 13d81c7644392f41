// The built-in checks of layoutproof-gpu: every CUTLASS atom (model/atoms/cutlass_atoms.hpp) with
// its claims, the seed cases of shared/hardware/h100_shared_memory_wavefronts.jsonl, and claims
// that are deliberately wrong (the model refutes them; the device must too), and the shared-memory
// instructions of the real kernel configurations (model/source/kernel_configs.hpp), traced as CuTe
// partitions them.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gpu_check/checks.hpp"
#include "model/atoms/cutlass_atoms.hpp"
#include "model/source/kernel_configs.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::gpu {
namespace {

struct SeedRow {
  const char* name;
  const char* op;
  const char* tile;
  int elem_bytes, vec;
  const char* swizzle;
  const char* pattern;
  int chunk, row0;
  double measured;
};
const SeedRow kSeeds[] =
#include "gpu_check/seeds.inc"
    ;

struct ExplicitRow {
  const char* name;
  const char* op;
  int width;
  std::int64_t addr[32];
  double measured;
};
const ExplicitRow kExplicit[] =
#include "gpu_check/seeds_explicit.inc"
    ;

Check make(std::string name, CheckKind kind, std::string claim) {
  Check c;
  c.name = std::move(name);
  c.kind = kind;
  c.claim = std::move(claim);
  return c;
}

// An access check: a round trip through the access, or the wavefronts of its instructions.
void add_access(std::vector<Check>& out, CheckKind kind, const std::string& name, const AccessSpec& spec, bool store,
                bool matrix, const std::string& what) {
  const std::string suffix = kind == CheckKind::round_trip ? " round trip" : ": wavefronts";
  Check c = make(name, kind, what + (store ? " stores" : " loads") + suffix);
  c.spec = spec;
  c.store = store;
  c.matrix = matrix;
  out.push_back(c);
}

void add_round_trip(std::vector<Check>& out, const std::string& name, const AccessSpec& spec, bool store, bool matrix,
                    const std::string& what) {
  add_access(out, CheckKind::round_trip, name, spec, store, matrix, what);
}

void add_bank(std::vector<Check>& out, const std::string& name, const AccessSpec& spec, bool store, bool matrix,
              const std::string& what) {
  add_access(out, CheckKind::bank, name, spec, store, matrix, what);
}

void add_atom(std::vector<Check>& out, const CutlassAtom& a) {
  const std::string name = a.name + "/" + std::to_string(a.element_bits) + "b";
  Check bij = make(name, CheckKind::bijective, "bijective: " + a.element_layout);
  bij.layout = a.layout();
  out.push_back(bij);

  // Accesses run along the row: an MN-major atom is viewed transposed, a 4-bit atom in bytes.
  const AccessView view = access_view(a.layout(), a.element_bits);
  const int e = view.elem_bytes;
  const AnyLayout& tile = view.tile;
  const std::string along = view.transposed ? " (along mode 0, tile transposed)" : "";
  AccessSpec v16 = make_access(tile, e, 16 / e, PatternKind::row_per_lane);
  for (bool store : {false, true}) add_round_trip(out, name, v16, store, false, "16B vector" + along);
  AccessSpec bank = v16;
  if (predict_vector(v16).verdict != VectorVerdict::ok) {
    bank.vec = widest_allowed_vec(v16);
    const std::string w = std::to_string(bank.vec * e) + "B vector" + along;
    for (bool store : {false, true}) add_round_trip(out, name, bank, store, false, w + " (widest allowed)");
  }
  const std::string w = std::to_string(bank.vec * e) + "B row-per-lane" + along;
  for (bool store : {false, true}) add_bank(out, name, bank, store, false, w);
  if (e != 2) return;
  const i64 rows = product(tile.layout.shape[0]), cols = product(tile.layout.shape[1]);
  const i64 matrices = (rows / 8) * (cols / 8);
  const int n = matrices >= 4 ? 4 : static_cast<int>(matrices);
  if (rows % 8 != 0 || matrices % n != 0) return;
  AccessSpec m = make_access(tile, 2, 8, PatternKind::ldmatrix, n);
  const std::string x = ".x" + std::to_string(n) + along;
  for (bool store : {false, true}) {
    add_round_trip(out, name, m, store, true, (store ? "stmatrix" : "ldmatrix") + x);
    add_bank(out, name, m, store, true, (store ? "stmatrix" : "ldmatrix") + x);
  }
}

AnyLayout seed_tile(const SeedRow& s) {
  const std::string sw = s.swizzle;
  return parse_any_layout(sw == "none" ? std::string(s.tile) : sw + " o " + s.tile);
}

void add_seeds(std::vector<Check>& out) {
  std::set<std::string> round_trips;
  for (const SeedRow& s : kSeeds) {
    const PatternKind p = parse_pattern(s.pattern);
    const std::string op = s.op;
    const int n = op.rfind("ldsm", 0) == 0 ? op.back() - '0' : 4;
    AccessSpec spec = make_access(seed_tile(s), s.elem_bytes, s.vec, p, n);
    const std::vector<WarpAccess> ws = warp_accesses(spec);
    const i64 chunks = product(spec.tile.layout.shape[1]) / s.vec;
    const std::size_t k = p == PatternKind::ldmatrix ? 0 : static_cast<std::size_t>((s.row0 / 32) * chunks + s.chunk);
    Check c = make(std::string("seed:") + s.name, CheckKind::bank,
                   op + " " + std::string(s.pattern) + " on " + to_string(spec.tile) + ": wavefronts");
    c.spec = spec;
    c.matrix = p == PatternKind::ldmatrix;
    SmemAccess a;
    a.op = *parse_smem_op(op);
    a.width_bytes = c.matrix ? 16 : s.vec * s.elem_bytes;
    for (int lane = 0; lane < 32; ++lane) a.lane_addr[lane] = ws.at(k).byte_address[lane];
    c.explicit_instructions = {a};
    c.reference = s.measured;
    out.push_back(c);
    const std::string key = to_string(spec.tile) + "|" + std::to_string(s.elem_bytes) + "|" + std::to_string(s.vec) + "|" + s.pattern + "|" + std::to_string(n);
    if (!round_trips.insert(key).second) continue;
    const std::string what = c.matrix ? "ldmatrix.x" + std::to_string(n) : std::to_string(s.vec * s.elem_bytes) + "B vector";
    add_round_trip(out, std::string("seed:") + s.name, spec, false, c.matrix, what + " on " + to_string(spec.tile));
  }
  for (const ExplicitRow& x : kExplicit) {
    Check c = make(std::string("seed:") + x.name, CheckKind::bank, std::string(x.op) + " explicit addresses: wavefronts");
    SmemAccess a;
    a.op = *parse_smem_op(x.op);
    a.width_bytes = x.width;
    for (int lane = 0; lane < 32; ++lane) a.lane_addr[lane] = x.addr[lane];
    c.explicit_instructions = {a};
    c.reference = x.measured;
    out.push_back(c);
  }
}

void add_wrong_claims(std::vector<Check>& out) {
  Check bij = make("wrong:non-bijective", CheckKind::bijective, "bijective: (4,4):(1,2)");
  bij.layout = parse_any_layout("(4,4):(1,2)");
  bij.deliberately_wrong = true;
  out.push_back(bij);

  // The 32x64 f32 column read through Sw<5,0,8>: the model predicts a 4-way conflict.
  Check col = make("wrong:conflicting-swizzle", CheckKind::bank, "conflict-free: 4B column reads on Sw<5,0,8> o (32,64):(64,1)");
  col.spec = make_access(parse_any_layout("Sw<5,0,8> o (32,64):(64,1)"), 4, 1, PatternKind::row_per_lane);
  col.claims_conflict_free = true;
  col.deliberately_wrong = true;
  out.push_back(col);

  Check ldsm = make("wrong:unswizzled-ldmatrix", CheckKind::bank, "conflict-free: ldmatrix.x4 on (8,64):(64,1) f16");
  ldsm.spec = make_access(parse_any_layout("(8,64):(64,1)"), 2, 8, PatternKind::ldmatrix, 4);
  ldsm.matrix = true;
  ldsm.claims_conflict_free = true;
  ldsm.deliberately_wrong = true;
  out.push_back(ldsm);

  // Sw<3,1,3> keeps only pairs of f32 together: a 16-byte vector starts at byte 72 in row 1.
  Check mis = make("wrong:misaligned-vector", CheckKind::round_trip, "16B vector loads round trip on Sw<3,1,3> o (8,16):(16,1) f32");
  mis.spec = make_access(parse_any_layout("Sw<3,1,3> o (8,16):(16,1)"), 4, 4, PatternKind::row_per_lane);
  mis.deliberately_wrong = true;
  out.push_back(mis);

  // Columns 0-3 of a row are 128 elements apart (mode (4,4):(128,32)): aligned starts, wrong data.
  Check nc = make("wrong:non-contiguous-vector", CheckKind::round_trip, "16B vector loads round trip on (8,(4,4)):(4,(128,32)) f32");
  nc.spec = make_access(parse_any_layout("(8,(4,4)):(4,(128,32))"), 4, 4, PatternKind::row_per_lane);
  nc.deliberately_wrong = true;
  out.push_back(nc);
  Check ncs = nc;
  ncs.claim = "16B vector stores round trip on (8,(4,4)):(4,(128,32)) f32";
  ncs.store = true;
  out.push_back(ncs);

  // The brief's candidate: 16-byte vectors on Sw<3,2,3> o (8,8):(8,1) f32. Sw<3,2,3> moves
  // 4-element (16-byte) blocks whole, so the model says the claim holds (not a wrong claim).
  Check ok = make("allowed:sw323-f32-v4", CheckKind::round_trip, "16B vector loads round trip on Sw<3,2,3> o (8,8):(8,1) f32");
  ok.spec = make_access(parse_any_layout("Sw<3,2,3> o (8,8):(8,1)"), 4, 4, PatternKind::row_per_lane);
  out.push_back(ok);
}

}  // namespace

SmemAccess shift_to_first_bank_row(SmemAccess a) {
  std::int64_t lo = -1;
  for (std::int64_t x : a.lane_addr)
    if (x >= 0 && (lo < 0 || x < lo)) lo = x;
  if (lo < 0) return a;
  const std::int64_t shift = lo / 128 * 128;
  for (std::int64_t& x : a.lane_addr)
    if (x >= 0) x -= shift;
  return a;
}

namespace {

// One bank check per copy of each kernel configuration: the distinct instructions of its trace,
// each shifted so its lowest address lies in [0, 128) (shift_to_first_bank_row).
void add_kernel_traces(std::vector<Check>& out) {
  for (const KernelConfig& k : kernel_configs()) {
    const TracedConfig traced = trace_config(k);
    for (std::size_t i = 0; i < k.copies.size(); ++i) {
      const KernelCopy& kc = k.copies[i];
      const AddressTrace& t = traced.traces[i];
      std::set<std::string> seen;
      Check c = make("kernel:" + k.name + ": " + kc.what, CheckKind::bank, "");
      for (const TraceInstruction& in : t.instructions) {
        const SmemAccess a = shift_to_first_bank_row(in.access());
        if (seen.insert(instruction_key(a)).second) c.explicit_instructions.push_back(a);
      }
      c.claim = kc.copy + ": " + std::to_string(c.explicit_instructions.size()) + " distinct of " +
                std::to_string(t.instructions.size()) + " x " + to_string(t.op) + "." + std::to_string(8 * t.width_bytes) +
                " (up to 128-byte shifts)";
      out.push_back(std::move(c));
    }
  }
}

}  // namespace

std::vector<Check> builtin_checks() {
  std::vector<Check> out;
  for (const CutlassAtom& a : cutlass_atoms()) add_atom(out, a);
  add_seeds(out);
  add_wrong_claims(out);
  add_kernel_traces(out);
  return out;
}

}  // namespace layoutproof::gpu
