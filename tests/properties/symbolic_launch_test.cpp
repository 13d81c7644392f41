// Claims over every CTA and every parameter value agree with every concrete launch. For random
// small PTX kernels whose shared accesses sit behind conditions over %ctaid and a free parameter
// k (an early exit, an if without else, a guarded store, an if/else storing on both sides, one
// nested in another, a branch whose sides meet before its join, a loop over k), each claim
// (conflict-free, in-bounds, aligned) decided once for every CTA of grid G and every k of LO..HI
// (symbols, Z3: proofs/claims/ptx_claims.hpp run_ptx_kernel) must equal the kernel run with each
// CTA and each k (--cta c --param 1=k):
//   PROVED   every concrete launch that runs the instruction proves it, and one runs it;
//   REFUTED  some concrete launch refutes it (the witness is replayed by the claims themselves);
//   UNKNOWN  only NOT RUN where no launch runs it, or a bank claim no launch makes valid.
// A PROVED that a concrete launch contradicts is the worst bug the every-launch path can have. The
// kernel is generated from small integers, so a failure shrinks to the simplest kernel.
#include <algorithm>
#include <array>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/compiled/ptx_parse.hpp"
#include "proofs/claims/ptx_claims.hpp"
#include "properties/check.hpp"

namespace layoutproof {
namespace {

using i64 = std::int64_t;
using compiled::u32;

// The kernel's shape: every field a small choice, 0 the simplest.
struct Shape {
  int form = 0;                     // exit, if, guard, cta, ifelse, nested, shared, loop
  int wide = 0;                     // 4- or 8-byte stores
  int a = 0, b = 0, c = 0, d = 0, e = 0, b2 = 0, e2 = 0, cmp = 0, t = 0;
  int grid = 0, lo = 0;
};

const char* const kForms[] = {"exit", "if", "guard", "cta", "ifelse", "nested", "shared", "loop"};

void showValue(const Shape& s, std::ostream& o) {
  o << kForms[s.form] << (s.wide ? " 8-byte" : " 4-byte") << " a" << s.a << " b" << s.b << " c" << s.c << " d" << s.d << " e" << s.e
    << " b2 " << s.b2 << " e2 " << s.e2 << " cmp" << s.cmp << " t" << s.t << " grid" << s.grid << " lo" << s.lo;
}

std::string ptx(const Shape& s) {
  const int width = s.wide ? 8 : 4;
  const int a = std::array{1, 32, 64}[s.a], b = std::array{1, 2, 3, 4, 32}[s.b], c = std::array{0, 1, 8, 32}[s.c];
  const int d = std::array{0, 1, 4}[s.d], b2 = std::array{1, 2, 4, 32}[s.b2];
  const std::string cmp = std::array{"lt", "ge", "ne", "le"}[s.cmp];
  const std::string form = kForms[s.form];
  std::ostringstream o;
  o << ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n"
    << ".reqntid 32, 1, 1\n{\n.reg .b32 %r<32>;\n.reg .pred %p<8>;\n.shared .align " << width << " .b8 s[2048];\n"
    << "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nld.param.u32 %r3, [k_param_1];\n"
    << "mad.lo.s32 %r4, %r1, " << a << ", %r2;\n";
  const bool on_cta = form == "cta" || form == "shared";
  o << "setp." << cmp << ".s32 %p1, " << (on_cta ? "%r1" : "%r4") << ", %r3;\n";
  // The access: s + 4 * (tid * b + ctaid * c + k * d + e) words of `width` bytes.
  o << "mul.lo.s32 %r5, %r2, " << b * width / 4 << ";\nmad.lo.s32 %r6, %r1, " << c * width / 4 << ", %r5;\n"
    << "mad.lo.s32 %r7, %r3, " << d << ", %r6;\nadd.s32 %r8, %r7, " << s.e << ";\nshl.b32 %r9, %r8, 2;\n"
    << "mov.u32 %r10, s;\nadd.s32 %r11, %r10, %r9;\n";
  const auto store = [&](const std::string& at) {
    return width == 8 ? "st.shared.v2.u32 [" + at + "], {%r2, %r2};\n" : "st.shared.u32 [" + at + "], %r2;\n";
  };
  const std::string other = "mul.lo.s32 %r13, %r2, " + std::to_string(b2 * width / 4) + ";\nadd.s32 %r13, %r13, " +
                            std::to_string(s.e2) + ";\nshl.b32 %r13, %r13, 2;\nadd.s32 %r14, %r10, %r13;\n";
  const std::string load = "ld.shared.u32 %r12, [%r10];\n";
  if (form == "exit" || form == "cta") {
    o << "@%p1 bra $EXIT;\n" << store("%r11") << load << "$EXIT:\n";
  } else if (form == "if") {
    o << "@%p1 bra $JOIN;\n" << store("%r11") << "$JOIN:\n" << load;
  } else if (form == "guard") {
    o << "@!%p1 " << store("%r11") << load;
  } else if (form == "ifelse" || form == "nested") {
    std::string taken = store("%r11");
    if (form == "nested")
      taken = "setp.gt.s32 %p2, %r1, " + std::to_string(s.t) + ";\n@%p2 bra $IN;\n" + store("%r11") + "bra.uni $INJ;\n$IN:\n" +
              "setp.lt.u32 %p3, %r2, 16;\n@%p3 bra $INJ;\n" + other + store("%r14") + "$INJ:\n";
    o << "@%p1 bra $ELSE;\n" << other << store("%r14") << "bra.uni $JOIN;\n$ELSE:\n" << taken << "$JOIN:\n" << load;
  } else if (form == "shared") {
    o << "mov.u32 %r14, %r10;\n@%p1 bra $T;\n" << store("%r11") << "setp.lt.u32 %p2, %r2, 8;\n@%p2 bra $J;\n$M:\n" << store("%r14")
      << "bra.uni $J;\n$T:\nadd.s32 %r14, %r11, " << width << ";\nbra.uni $M;\n$J:\n" << load;
  } else {  // loop: for (j = 0; j < k; ++j) store at tid * b + j * d words, the body an if/else on the CTA
    o << "mov.u32 %r20, 0;\nsetp.lt.s32 %p4, %r20, %r3;\n@!%p4 bra $DONE;\n$LOOP:\n"
      << "mad.lo.s32 %r21, %r20, " << 4 * d << ", %r5;\nshl.b32 %r21, %r21, " << (width == 8 ? 1 : 0) << ";\nadd.s32 %r22, %r10, %r21;\n"
      << "setp.gt.u32 %p5, %r1, " << s.t << ";\n@%p5 bra $B;\n" << store("%r22") << "bra.uni $BJ;\n$B:\n" << other << store("%r14")
      << "$BJ:\nadd.s32 %r20, %r20, 1;\nsetp.lt.s32 %p4, %r20, %r3;\n@%p4 bra $LOOP;\n$DONE:\n" << load;
  }
  o << "ret;\n}\n";
  return o.str();
}

rc::Gen<Shape> shapes() {
  return rc::gen::build<Shape>(rc::gen::set(&Shape::form, rc::gen::elementOf(std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7})), rc::gen::set(&Shape::wide, rc::gen::inRange(0, 2)),
                               rc::gen::set(&Shape::a, rc::gen::inRange(0, 3)), rc::gen::set(&Shape::b, rc::gen::inRange(0, 5)),
                               rc::gen::set(&Shape::c, rc::gen::inRange(0, 4)), rc::gen::set(&Shape::d, rc::gen::inRange(0, 3)),
                               rc::gen::set(&Shape::e, rc::gen::inRange(0, 3)), rc::gen::set(&Shape::b2, rc::gen::inRange(0, 4)),
                               rc::gen::set(&Shape::e2, rc::gen::inRange(0, 2)), rc::gen::set(&Shape::cmp, rc::gen::inRange(0, 4)),
                               rc::gen::set(&Shape::t, rc::gen::inRange(0, 3)), rc::gen::set(&Shape::grid, rc::gen::inRange(0, 2)),
                               rc::gen::set(&Shape::lo, rc::gen::inRange(0, 3)));
}

const std::vector<std::string> kClaims = {"conflict-free", "in-bounds", "aligned"};

// (site line, claim) -> verdict of the launch `request` plans.
std::map<std::pair<u32, std::size_t>, proofs::Verdict> verdicts(const compiled::Program& p, const compiled::PtxLaunchRequest& request) {
  std::vector<proofs::PtxKernelLaunch> launches = proofs::plan_ptx_launches(p, "k", request);
  compiled::Program program = p;
  proofs::decode_ptx_launches(program, launches);
  std::vector<proofs::PtxClaim> claims;
  for (const std::string& c : kClaims) claims.push_back(*proofs::parse_ptx_claim(c));
  const proofs::PtxKernelResult r = proofs::run_ptx_kernel(program, launches.at(0), claims, proofs::ProveOptions{});
  std::map<std::pair<u32, std::size_t>, proofs::Verdict> out;
  for (std::size_t s = 0; s < r.verdicts.size(); ++s)
    for (std::size_t c = 0; c < r.verdicts[s].size(); ++c) out[{r.run->sites[s].line, c}] = r.verdicts[s][c].verdict;
  return out;
}

bool not_run(const proofs::Verdict& v) { return v.kind == proofs::Verdict::Kind::unknown && v.detail.rfind("NOT RUN", 0) == 0; }

LP_PROP(SymbolicLaunch, EveryCtaAndParameterAgreesWithEveryConcreteLaunch, 60, (void)) {
  const Shape s = *shapes();
  const std::string text = ptx(s);
  RC_TAG(kForms[s.form]);
  const compiled::Program program = compiled::parse_ptx(text, "k.ptx");
  const i64 grid = 2 + s.grid, lo = std::array<i64, 3>{0, -2, 30}[s.lo], hi = lo + 3;
  compiled::PtxLaunchRequest every;
  every.grid = {grid, 1, 1};
  every.grid_given = true;
  every.params.push_back({"1", std::nullopt, {lo, hi}, "--param-range 1=" + std::to_string(lo) + ".." + std::to_string(hi)});
  const auto symbolic = verdicts(program, every);
  RC_ASSERT(!symbolic.empty());
  std::map<std::pair<i64, i64>, std::map<std::pair<u32, std::size_t>, proofs::Verdict>> concrete;
  for (i64 cta = 0; cta < grid; ++cta)
    for (i64 k = lo; k <= hi; ++k) {
      compiled::PtxLaunchRequest one;
      one.grid = {grid, 1, 1};
      one.grid_given = true;
      one.cta = std::array<i64, 3>{cta, 0, 0};
      one.params.push_back({"1", compiled::parse_ptx_param_value(std::to_string(k), "k"), {0, 0}, "--param 1=" + std::to_string(k)});
      concrete[{cta, k}] = verdicts(program, one);
    }
  for (const auto& [key, v] : symbolic) {
    const bool bank = key.second == 0;
    std::vector<proofs::Verdict::Kind> runs;  // the verdicts of the launches that run it
    for (const auto& [launch, table] : concrete) {
      const auto it = table.find(key);
      RC_ASSERT(it != table.end());
      if (not_run(it->second)) continue;
      if (bank && it->second.kind == proofs::Verdict::Kind::error) continue;  // not a valid access there: aligned decides
      runs.push_back(it->second.kind);
    }
    const std::string what = "line " + std::to_string(key.first) + " " + kClaims[key.second] + ": " + v.method + " " + v.detail + "\n" + text;
    if (v.kind == proofs::Verdict::Kind::proved) {
      RC_ASSERT(!runs.empty());
      for (const auto k : runs) RC_ASSERT(k == proofs::Verdict::Kind::proved);
    } else if (v.kind == proofs::Verdict::Kind::refuted) {
      RC_ASSERT(std::count(runs.begin(), runs.end(), proofs::Verdict::Kind::refuted) > 0);
    } else {
      const bool vacuous = bank && v.detail.rfind("vacuous", 0) == 0 && runs.empty();
      // A loop over k may leave a claim UNKNOWN, with the summary's reason (a violation only
      // where its counter wraps, past 2^24 iterations: loop_summary.hpp); nothing else may.
      const bool loop_reason = std::string(kForms[s.form]) == "loop" && v.detail.find("loop") != std::string::npos;
      if (!(not_run(v) && runs.empty()) && !vacuous && !loop_reason) RC_FAIL("undecided: " + what);
    }
  }
}

}  // namespace
}  // namespace layoutproof
