// Kernel traces and rasterizations of the soak. A trace case builds a random make_tiled_copy of a
// one-thread atom (UniversalCopy, cp.async) over a random (swizzled, padded, staged) smem layout,
// as the C++ a kernel writes; the product traces it (model/trace/tv.hpp) and its instructions are
// compared with the reference partition before the claims are compared.
#include <map>
#include <memory>

#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "model/raster/raster.hpp"
#include "proofs/raster/raster.hpp"
#include "proofs/claims/trace_claims.hpp"
#include "tests/soak/reference.hpp"
#include "tests/soak/soak.hpp"

namespace soak {

using namespace soakref;
namespace lp = layoutproof;
namespace pf = layoutproof::proofs;

std::string verdict_name(pf::Verdict::Kind k);

namespace {

std::string layout_cpp(std::int64_t m, std::int64_t n, bool row_major) {
  const std::string shape = "Shape<_" + std::to_string(m) + ",_" + std::to_string(n) + ">";
  return row_major ? "Layout<" + shape + ",Stride<_" + std::to_string(n) + ",_1>>{}" : "Layout<" + shape + ">{}";
}

// (m, n) with m * n == p, both powers of two.
std::pair<std::int64_t, std::int64_t> split(Rng& r, std::int64_t p) {
  std::int64_t m = 1;
  while (m < p && coin(r)) m *= 2;
  return {m, p / m};
}

// A reference partition in the product's order: (warp, copy_coord) -> instruction.
using Key = std::pair<std::int64_t, std::vector<std::int64_t>>;

// The first difference between the product's trace and the reference partition, "" when none.
std::string compare_trace(const lp::AddressTrace& t, const std::vector<RefCopyInstr>& ref) {
  std::map<Key, const RefCopyInstr*> want;
  for (const RefCopyInstr& in : ref) want[{in.warp, in.copy_coord}] = &in;
  if (t.instructions.size() != ref.size())
    return "trace has " + std::to_string(t.instructions.size()) + " instructions, reference " + std::to_string(ref.size());
  for (const lp::TraceInstruction& in : t.instructions) {
    auto it = want.find({in.warp, in.copy_coord});
    if (it == want.end()) return "instruction " + in.where + ": no reference instruction with its copy coordinate";
    const RefCopyInstr& w = *it->second;
    for (int l = 0; l < 32; ++l) {
      if (in.addr[static_cast<std::size_t>(l)] != w.addr[static_cast<std::size_t>(l)])
        return "instruction " + in.where + " lane " + std::to_string(l) + ": address " +
               std::to_string(in.addr[static_cast<std::size_t>(l)]) + ", reference " + std::to_string(w.addr[static_cast<std::size_t>(l)]);
      for (int j = 0; j < in.slice_len && !w.slice_addr[static_cast<std::size_t>(l)].empty(); ++j)
        if (in.slice_addrs[static_cast<std::size_t>(l * in.slice_len + j)] != w.slice_addr[static_cast<std::size_t>(l)][static_cast<std::size_t>(j)])
          return "instruction " + in.where + " lane " + std::to_string(l) + " slice element " + std::to_string(j) + " differs";
    }
  }
  return "";
}

// Reference verdict of a trace claim on the reference partition.
std::string ref_trace_claim(const std::vector<RefCopyInstr>& ref, Op op, int width, int eb, std::int64_t domain,
                            bool store, const std::string& claim, int k) {
  bool valid = true, holds = true;
  if (claim == "conflict-free" || claim == "max-ways") {
    for (const RefCopyInstr& in : ref) {
      Instr x{op, width, in.addr};
      const BankEval e = ref_bank(x);
      if (!e.valid) valid = false;
      if (k == 0 ? e.wavefronts > e.ideal : e.most_ways > k) holds = false;
    }
    return !valid ? "invalid" : holds ? "holds" : "fails";
  }
  if (claim == "vector-legal") {
    for (const RefCopyInstr& in : ref)
      for (int l = 0; l < 32; ++l) {
        const auto& s = in.slice_addr[static_cast<std::size_t>(l)];
        if (s.empty()) continue;
        if (s[0] % width != 0) return "fails";
        for (std::size_t j = 0; j < s.size(); ++j)
          if (s[j] != s[0] + static_cast<std::int64_t>(j) * eb) return "fails";
      }
    return "holds";
  }
  // covers: each element read at least once (loads) / written exactly once (stores), and no two
  // elements at one address.
  std::vector<std::int64_t> count(static_cast<std::size_t>(domain), 0);
  std::map<std::int64_t, std::int64_t> at;  // address -> element
  for (const RefCopyInstr& in : ref)
    for (int l = 0; l < 32; ++l)
      for (std::size_t j = 0; j < in.slice_elem[static_cast<std::size_t>(l)].size(); ++j) {
        const std::int64_t e = in.slice_elem[static_cast<std::size_t>(l)][j], a = in.slice_addr[static_cast<std::size_t>(l)][j];
        ++count[static_cast<std::size_t>(e)];
        auto [it, fresh] = at.emplace(a, e);
        if (!fresh && it->second != e) return "fails";
      }
  for (std::int64_t c : count)
    if (c == 0 || (store && c != 1)) return "fails";
  return "holds";
}

}  // namespace

Case trace_case(Rng& r) {
  Case c;
  c.kind = "trace";
  struct Elem {
    const char* name;
    int bytes;
  };
  const Elem el = pick(r, std::vector<Elem>{{"half_t", 2}, {"half_t", 2}, {"float", 4}, {"int8_t", 1}, {"double", 8}});
  const bool cp_async = coin(r, 35) && el.bytes <= 16;
  int bits = static_cast<int>(pick(r, std::vector<std::int64_t>{32, 64, 128, 128}));
  while (bits < 8 * el.bytes) bits *= 2;
  if (!cp_async && coin(r, 20)) bits = 8 * el.bytes;
  const std::string reg = "uint" + std::to_string(bits) + "_t";
  RefCopy rc;
  rc.atom_vals = bits / (8 * el.bytes);
  const std::int64_t threads = pick(r, std::vector<std::int64_t>{32, 32, 64, 128, 16});
  std::tie(rc.thr_m, rc.thr_n) = split(r, threads);
  rc.thr_row_major = coin(r);
  std::tie(rc.val_m, rc.val_n) = split(r, rc.atom_vals * pick(r, std::vector<std::int64_t>{1, 1, 2}));
  rc.val_row_major = coin(r);
  const std::int64_t tm = rc.val_m * rc.thr_m, tn = rc.val_n * rc.thr_n;
  std::vector<std::int64_t> shape{tm * pick(r, std::vector<std::int64_t>{1, 1, 2}), tn * pick(r, std::vector<std::int64_t>{1, 2})};
  if (coin(r, 30)) shape.push_back(2);
  const std::string side = cp_async || coin(r, 30) ? "D" : "S";
  const std::string atom = cp_async ? "SM80_CP_ASYNC_CACHEALWAYS<" + reg + ">" : "UniversalCopy<" + reg + ">";
  const std::string copy = "make_tiled_copy(Copy_Atom<" + atom + ", " + el.name + ">{}, " +
                           layout_cpp(rc.thr_m, rc.thr_n, rc.thr_row_major) + ", " + layout_cpp(rc.val_m, rc.val_n, rc.val_row_major) + ")";
  // smem: K-major (E0,E1):(E1+pad,1) or MN-major (E0,E1):(1,E0+pad), stages one cosize apart;
  // sometimes a swizzle, a repeated element (stride 0) or a stage overlap.
  const bool kmajor = coin(r);
  const std::int64_t pad = coin(r, 25) ? uniform(r, 1, 4) : 0;
  RLayout smem;
  const std::int64_t d0 = kmajor ? shape[1] + pad : 1, d1 = kmajor ? 1 : shape[0] + pad;
  std::vector<Node> modes{leaf(shape[0], coin(r, 5) ? 0 : d0, coin(r)), leaf(shape[1], d1, coin(r))};
  if (shape.size() > 2) modes.push_back(leaf(2, coin(r, 10) ? 8 : shape[0] * shape[1] + shape[0] * pad + shape[1] * pad, coin(r)));
  smem.inner = tuple(modes);
  if (coin(r, 60)) {
    Swz s;
    s.B = static_cast<int>(uniform(r, 1, 3));
    int lv = 0;
    while ((std::int64_t{1} << lv) < rc.atom_vals) ++lv;
    s.M = static_cast<int>(coin(r, 80) ? lv + uniform(r, 0, 2) : uniform(r, 0, 4));  // sometimes misaligning
    s.S = s.B + static_cast<int>(uniform(r, 0, 3));
    smem.sw = s;
  }
  const std::int64_t base = coin(r, 80) ? 0 : 128 * uniform(r, 1, 8);
  std::int64_t domain = 1;
  for (std::int64_t e : shape) domain *= e;
  std::string claim = pick(r, std::vector<std::string>{"conflict-free", "conflict-free", "max-ways", "vector-legal", "covers"});
  int k = 0;
  if (claim == "max-ways") k = static_cast<int>(uniform(r, 1, 4));
  const std::string claim_text = k ? "max-ways:" + std::to_string(k) : claim;
  c.claim = claim;
  c.subject = smem.text() + " | " + copy + " | side " + side;
  c.repro = "layoutproof trace --side " + side + " --element " + el.name + " --smem " + sh(smem.text()) + " --copy " + sh(copy) +
            (base ? " --base " + std::to_string(base) : "") + " --claim " + claim_text + " --engine z3   # and --engine exhaustive";
  const bool store = side == "D";
  const Op op = cp_async ? Op::ldgsts : store ? Op::st : Op::ld;
  const std::vector<RefCopyInstr> ref = ref_partition(rc, smem, shape, el.bytes, base);
  c.reference = ref_trace_claim(ref, op, bits / 8, el.bytes, domain, store, claim, k);
  try {
    const lp::TiledCopy tc = lp::parse_tiled_copy(copy);
    const lp::AnyLayout sl = lp::parse_smem_layout(smem.text());
    lp::TraceOptions to;
    to.base_address = base;
    const lp::AddressTrace t = lp::trace_copy(tc, sl, store ? lp::CopySide::D : lp::CopySide::S, to);
    if (const std::string diff = compare_trace(t, ref); !diff.empty()) {
      c.exhaustive = c.z3 = "TRACE-MISMATCH";
      c.detail = diff;
      return c;
    }
    const auto tcl = pf::parse_trace_claim(claim_text);
    const bool has_z3 = claim == "conflict-free" || claim == "max-ways";
    for (const pf::EngineChoice e : {pf::EngineChoice::exhaustive, pf::EngineChoice::z3}) {
      if (e == pf::EngineChoice::z3 && !has_z3) {
        c.z3 = "n/a";  // vector-legal and covers have no z3 encoding (proofs/claims/trace_claims.cpp)
        continue;
      }
      pf::ProveOptions o;
      o.engine = e;
      o.smt.timeout_ms = 20000;
      const pf::TraceResult res = pf::prove_trace(t, *tcl, o);
      (e == pf::EngineChoice::z3 ? c.z3 : c.exhaustive) = verdict_name(res.verdict.kind);
      c.detail += std::string(e == pf::EngineChoice::z3 ? "z3: " : "exhaustive: ") +
                  (res.witness ? res.witness->why : res.verdict.method + ": " + res.verdict.detail) + "\n";
    }
  } catch (const std::exception& e) {
    c.exhaustive = c.z3 = "ERROR";
    c.detail = std::string("input: ") + e.what();
    // A copy CuTe refuses to compile (its static_asserts, named in the message and checked against
    // CuTe itself by kernels.cute_refusals) is invalid input: the reference partition, which does
    // not model CuTe's compile-time conditions, has no verdict to compare with.
    if (std::string(e.what()).find("a compile error in CuTe") != std::string::npos) c.reference = "invalid";
  }
  return c;
}

namespace {

RExpr draw_expr(Rng& r, int depth) {
  RExpr e;
  if (depth == 0 || coin(r, 30)) {
    const int v = static_cast<int>(uniform(r, 0, 6));
    if (v >= 5) {
      e.op = RExpr::Op::c;
      e.value = static_cast<std::uint32_t>(uniform(r, 0, 4));
    } else {
      e.op = static_cast<RExpr::Op>(v + 1);
    }
    return e;
  }
  e.op = static_cast<RExpr::Op>(uniform(r, static_cast<int>(RExpr::Op::add), static_cast<int>(RExpr::Op::max)));
  e.k = {draw_expr(r, depth - 1), draw_expr(r, depth - 1)};
  // A literal 0 divisor is refused by the formula parser (undefined in CUDA C++): divide by 1 instead.
  if ((e.op == RExpr::Op::div || e.op == RExpr::Op::rem) && e.k[1].op == RExpr::Op::c && e.k[1].value == 0) e.k[1].value = 1;
  return e;
}

RExpr var(RExpr::Op op) {
  RExpr e;
  e.op = op;
  return e;
}

}  // namespace

Case raster_case(Rng& r) {
  Case c;
  c.kind = "raster";
  RasterRef rr;
  rr.kind = static_cast<RKind>(uniform(r, 0, 5));
  rr.max_grid = static_cast<std::uint32_t>(uniform(r, 1, 8));
  const bool param_kind = rr.kind == RKind::seed || rr.kind == RKind::seed_fixed || rr.kind == RKind::cutlass || rr.kind == RKind::formula;
  if (param_kind && coin(r, 40))
    rr.param = static_cast<std::uint32_t>(rr.kind == RKind::cutlass ? uniform(r, 0, 3) : uniform(r, 1, 6));
  if (rr.kind == RKind::formula) {
    // Half the time a perturbation of a bijection (row-major, or a transpose through the
    // linear block id), so both verdicts occur.
    if (coin(r)) {
      rr.fx = var(RExpr::Op::bx);
      rr.fy = var(RExpr::Op::by);
      if (coin(r)) {
        RExpr e;
        e.op = pick(r, std::vector<RExpr::Op>{RExpr::Op::bxor, RExpr::Op::add, RExpr::Op::min, RExpr::Op::rem});
        e.k = {rr.fx, draw_expr(r, 1)};
        rr.fx = e;
      }
    } else {
      rr.fx = draw_expr(r, 2);
      rr.fy = draw_expr(r, 2);
    }
  }
  const RClaim claim = static_cast<RClaim>(uniform(r, 0, 3));
  static const char* kinds[] = {"row-major", "seed", "seed-fixed", "cutlass", "morton", "formula"};
  static const char* claims[] = {"bijective", "injective", "in-bounds", "surjective"};
  const std::string formula = rr.kind == RKind::formula ? "x = " + rr.fx.text() + "; y = " + rr.fy.text() : "";
  std::string args = std::string(kinds[static_cast<int>(rr.kind)]);
  if (rr.param) args += std::string(rr.kind == RKind::cutlass ? " --log-tile " : " --tile-size ") + std::to_string(*rr.param);
  if (!formula.empty()) args += " --formula " + sh(formula);
  args += " --max-grid " + std::to_string(rr.max_grid) + " --claim " + claims[static_cast<int>(claim)];
  c.claim = claims[static_cast<int>(claim)];
  c.subject = args;
  c.repro = "layoutproof raster prove " + args + " --engine z3   # and --engine exhaustive";
  c.reference = ref_raster_claim(rr, claim) ? "holds" : "fails";
  try {
    pf::RasterSubject s;
    s.kind = lp::raster::parse_kind(kinds[static_cast<int>(rr.kind)]);
    s.param = rr.param;
    if (!formula.empty()) s.formula = std::make_shared<const lp::raster::Formula>(lp::raster::parse_formula(formula));
    s.max_grid = rr.max_grid;
    const pf::RasterClaim pc = pf::parse_raster_claim(claims[static_cast<int>(claim)]);
    for (const pf::EngineChoice e : {pf::EngineChoice::exhaustive, pf::EngineChoice::z3}) {
      pf::ProveOptions o;
      o.engine = e;
      o.smt.timeout_ms = 20000;
      const pf::RasterResult res = pf::prove_raster(s, pc, o);
      (e == pf::EngineChoice::z3 ? c.z3 : c.exhaustive) = verdict_name(res.verdict.kind);
      c.detail += std::string(e == pf::EngineChoice::z3 ? "z3: " : "exhaustive: ") +
                  (res.witness ? res.witness->describe(s) : res.verdict.method + ": " + res.verdict.detail) + "\n";
    }
  } catch (const std::exception& e) {
    c.exhaustive = c.z3 = "ERROR";
    c.detail = std::string("input: ") + e.what();
  }
  return c;
}

}  // namespace soak
