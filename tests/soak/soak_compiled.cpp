// The compiled-kernel kind of the soak (soak.hpp): one abstract kernel (compiled_kernel.hpp) per
// case, printed as PTX and as SASS, each run in-process through the path `layoutproof ptx` and
// `layoutproof sass` take (proofs/claims/ptx_claims.hpp plan_ptx_launches, run_ptx_kernel) with
// every claim, and each verdict compared with the brute-force truth (reference_compiled.cpp).
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/sass/sass_parse.hpp"
#include "proofs/claims/ptx_claims.hpp"
#include "tests/soak/compiled_kernel.hpp"
#include "tests/soak/soak.hpp"

namespace soak {

using namespace soakc;
namespace pf = layoutproof::proofs;
namespace px = layoutproof::compiled;

namespace {

// The UNKNOWN reasons, by the sentence the product writes (proofs/claims/ptx_claims.cpp,
// ptx_symbolic.cpp, model/compiled/exec/ptx_warp.cpp).
std::string reason_class(const std::string& d) {
  static const std::vector<std::pair<const char*, const char*>> classes = {
      {"calls nested deeper than", "a call nested deeper than 64 (cut)"},
      {"is not counted", "a listed form (not counted)"},
      {"no rule for atomics", "atom/red: no bank rule"},
      {"no-overlap is not decided where addresses depend on free parameters", "no-overlap with free parameters"},
      {"whether their data is equal is not known", "overlapping stores, data not known"},
      {"vacuous", "vacuous: no valid parameter value"},
      {"decides a branch", "a branch on a value not known (lane stopped)"},
      {"not affine", "a free parameter's value not affine"},
      {"narrower than 32 bits", "a free parameter's term narrower than 32 bits plus an offset"},
      {"loaded from", "data loaded from memory (opaque)"},
      {"divergent", "divergent grouping"},
      {"lane stopped early", "a lane stopped early"},
      {"free parameter", "a free parameter (other)"},
      {"timeout", "z3 timeout"},
      {"canceled", "z3 timeout"}};
  for (const auto& [needle, name] : classes)
    if (d.find(needle) != std::string::npos) return name;
  return d.substr(0, 70);
}

// Where a truth allows a verdict: "" when it does, else the failure's kind.
std::string judge(Truth t, pf::Verdict::Kind v) {
  using K = pf::Verdict::Kind;
  if (v == K::unknown || v == K::error) return "";
  const bool proved = v == K::proved;
  switch (t) {
    case Truth::holds: case Truth::vacuous: case Truth::valid_holds: return proved ? "" : "wrong REFUTED";
    case Truth::fails: return proved ? "wrong PROVED" : "";
    default: return proved ? "wrong PROVED" : "wrong REFUTED";  // unknowable, invalid, no_rule, not_applicable
  }
}

std::string file_for(const std::string& dir, std::uint64_t seed, std::int64_t index, Format f) {
  return dir + "/case_" + std::to_string(seed) + "_" + std::to_string(index) + (f == Format::ptx ? ".ptx" : ".sass");
}

struct Run {
  Format f;
  const Kernel& k;
  const Printed& printed;
  const Truths& truth;
  const CompiledOptions& opt;
  CompiledTally& tally;
  std::uint64_t seed;
  std::int64_t index;
  std::vector<std::string> problems;  // this run's failures, one line each
  std::string claims_args;

  void problem(const std::string& kind, const std::string& what) {
    if (kind == "wrong PROVED") ++tally.wrong_proved;
    else if (kind == "wrong REFUTED") ++tally.wrong_refuted;
    else ++tally.other_failures;
    problems.push_back(kind + ": " + what);
  }

  void count(const std::string& claim, Truth t, const pf::Verdict& v) {
    ++tally.verdicts[pf::to_string(v.kind)];
    if (truth.cut) ++tally.cut_verdicts[pf::to_string(v.kind)];
    if (k.symbolic()) ++tally.symbolic_verdicts[pf::to_string(v.kind)];
    ++tally.table[claim + " " + truth_name(t)][pf::to_string(v.kind)];
    if (v.kind == pf::Verdict::Kind::unknown) ++tally.unknown_by_reason[reason_class(v.detail)];
    if (const char* dbg = std::getenv("LAYOUTPROOF_SOAK_VERDICTS"); dbg && v.detail.find(dbg) != std::string::npos)
      std::cerr << "verdict: kernel " << index << (f == Format::ptx ? " ptx " : " sass ") << claim << ": " << v.detail << "\n";
    if (v.kind == pf::Verdict::Kind::error) {
      // The message without its numbers: one line per kind of error.
      std::string m;
      for (const char ch : v.detail.substr(0, 160))
        if (!std::isdigit(static_cast<unsigned char>(ch)) || m.empty() || m.back() != '#') m += std::isdigit(static_cast<unsigned char>(ch)) ? '#' : ch;
      ++tally.errors_by_reason[m];
    }
  }

  void compare(const pf::PtxKernelResult& r) {
    const px::KernelRun& run = *r.run;
    const bool stopped = !run.stopped.empty();
    if (truth.cut && !stopped) problem("cut call not seen", "a call nested 64 deep or more ran without the lane stopping");
    if (!truth.cut && stopped && !k.symbolic()) problem("lane stopped", "the run stopped a lane: " + run.stopped);
    if (truth.cut) ++tally.cut_runs;
    for (const auto& [id, st] : truth.sites) {
      const u32 line = printed.line.at(id);
      std::size_t si = run.sites.size();
      for (std::size_t i = 0; i < run.sites.size(); ++i)
        if (run.sites[i].line == line) si = i;
      if (si == run.sites.size()) {
        problem("site missing", "the access at line " + std::to_string(line) + " is not counted");
        continue;
      }
      const px::Site& site = run.sites[si];
      const Access* a = access_of(id);
      const bool lea = printed.lea_lop3.count(id) > 0;
      for (int c = 0; c < kClaims; ++c) {
        const pf::PtxClaimResult& v = r.verdicts[si][static_cast<std::size_t>(c)];
        const Truth t = st.claim[static_cast<std::size_t>(c)];
        const std::string claim = claim_text(c, k.ways);
        if (!v.applicable) {
          if (t != Truth::not_applicable) problem("not applied", "line " + std::to_string(line) + " " + claim + ": the product applies no verdict, truth " + truth_name(t));
          continue;
        }
        // Known defect classes (being fixed elsewhere; --skip-known leaves them out).
        std::string known;
        if (a && (a->kind == Access::Kind::ldsm || a->kind == Access::Kind::stsm) && a->matrices < 4 && !site.symbolic.empty() &&
            (c == kAligned || c == kInBounds))
          known = "ldmatrix/stmatrix .x1/.x2 " + claim + " with a free parameter checks lanes >= 8N";
        if (lea) known = "SASS LEA/LOP3 of a free parameter's value in the symbolic path";
        if (!known.empty() && opt.skip_known) {
          ++tally.skipped_known;
          continue;
        }
        count(claim, t, v.verdict);
        std::string bad = judge(t, v.verdict.kind);
        if (bad.empty() && truth.cut && v.verdict.is_proved()) bad = "wrong PROVED";  // nothing is proved past a cut
        if (bad.empty()) continue;
        if (!known.empty()) ++tally.known_class;
        problem(bad, "line " + std::to_string(line) + " " + claim + ": " + pf::to_string(v.verdict.kind) + ", truth " + truth_name(t) +
                         (st.why[static_cast<std::size_t>(c)].empty() ? "" : " (" + st.why[static_cast<std::size_t>(c)] + ")") +
                         (known.empty() ? "" : " [known class: " + known + "]") + "\n      product: " +
                         (v.witness ? v.witness->why : v.verdict.detail).substr(0, 600));
      }
      // One value: the issues themselves, against the brute force.
      // (Not where the product says its grouping is not modelled: paths that meet before their join.)
      const bool grouped = site.divergent.empty();
      if (truth.values == 1 && st.issues_known && site.unknown_issues == 0 && site.symbolic.empty() && !stopped && grouped) {
        std::set<std::array<i64, 32>> got;
        for (const auto& in : site.trace.instructions) got.insert(in.addr);
        ++tally.traces_compared;
        if (got != st.issues || site.executed != st.executed)
          problem("trace mismatch", "line " + std::to_string(line) + ": " + std::to_string(site.executed) + " issues executed (" +
                                        std::to_string(got.size()) + " distinct), the brute force " + std::to_string(st.executed) + " (" +
                                        std::to_string(st.issues.size()) + " distinct)" + first_difference(got, st.issues));
      }
      if (truth.values == 1 && site.bank_modelled && site.counts_known && st.counts_known && !stopped && grouped) {
        ++tally.counts_compared;
        if (site.wavefronts != st.wavefronts || site.ideal != st.ideal)
          problem("count mismatch", "line " + std::to_string(line) + ": " + std::to_string(site.wavefronts) + " wavefronts for an ideal of " +
                                        std::to_string(site.ideal) + ", the soak's bank model " + std::to_string(st.wavefronts) + " for " +
                                        std::to_string(st.ideal));
      }
    }
    for (const int id : truth.listed) {
      const u32 line = printed.line.at(id);
      bool found = false;
      for (std::size_t n = 0; n < run.not_counted.size(); ++n) {
        if (run.not_counted[n].line != line) continue;
        found = true;
        for (int c = 0; c < kClaims; ++c) {
          const pf::PtxClaimResult& v = r.not_counted[n][static_cast<std::size_t>(c)];
          if (!v.applicable) continue;
          count(claim_text(c, k.ways), Truth::unknowable, v.verdict);
          if (v.verdict.kind != pf::Verdict::Kind::unknown)
            problem(v.verdict.is_proved() ? "wrong PROVED" : "wrong REFUTED", "listed form at line " + std::to_string(line) + ": " + pf::to_string(v.verdict.kind));
        }
      }
      if (!found && !stopped) problem("listed form missing", "the access at line " + std::to_string(line) + " is not listed as not counted");
    }
    if (truth.cut)
      for (const auto& row : r.not_counted)
        for (const auto& v : row)
          if (v.applicable && v.verdict.is_proved()) problem("wrong PROVED", "PROVED on a listed access past a cut");
  }

  static std::string first_difference(const std::set<std::array<i64, 32>>& got, const std::set<std::array<i64, 32>>& want) {
    const auto show = [](const std::array<i64, 32>& a) {
      std::string t;
      for (int l = 0; l < 32; ++l) t += (l ? "," : "") + std::to_string(a[static_cast<std::size_t>(l)]);
      return t;
    };
    for (const auto& x : got)
      if (!want.count(x)) return "; the product's issue [" + show(x) + "] is not the brute force's";
    for (const auto& x : want)
      if (!got.count(x)) return "; the brute force's issue [" + show(x) + "] is not the product's";
    return "";
  }

  const Access* access_of(int id) const {
    const Access* out = nullptr;
    find(k.body, id, out);
    return out;
  }
  static void find(const std::vector<Stmt>& b, int id, const Access*& out) {
    for (const Stmt& s : b) {
      if (s.kind == Stmt::Kind::access && s.a.id == id) out = &s.a;
      find(s.then_, id, out);
      find(s.else_, id, out);
      find(s.body, id, out);
    }
  }

  void go() {
    const std::string file = f == Format::ptx ? "soak.ptx" : "soak.sass";
    std::vector<pf::PtxClaim> claims;
    for (int c = 0; c < kClaims; ++c) {
      claims.push_back(*pf::parse_ptx_claim(claim_text(c, k.ways)));
      claims_args += " --claim " + claim_text(c, k.ways);
    }
    try {
      px::Program p = f == Format::ptx ? px::parse_ptx(printed.text, file) : px::parse_sass(printed.text, file);
      pf::PtxLaunchRequest req;
      req.block = std::array<i64, 3>{k.bx, k.by, 1};
      for (std::size_t i = 0; i + 1 < printed.args.size(); i += 2) {
        const std::string& flag = printed.args[i];
        const std::string& v = printed.args[i + 1];
        const std::size_t eq = v.find('=');
        if (flag == "--param") {
          pf::PtxParamRequest pr;
          pr.key = v.substr(0, eq);
          pr.value = pf::parse_ptx_param_value(v.substr(eq + 1), "--param " + v);
          pr.what = "--param " + v;
          req.params.push_back(pr);
        }
        if (flag == "--param-range") {
          const std::size_t dots = v.find("..");
          pf::PtxParamRequest pr;
          pr.key = v.substr(0, eq);
          pr.range = {std::stoll(v.substr(eq + 1, dots - eq - 1)), std::stoll(v.substr(dots + 2))};
          pr.what = "--param-range " + v;
          req.params.push_back(pr);
        }
        if (flag == "--smem-bytes") req.smem_bytes = std::stoll(v);
      }
      const std::vector<pf::PtxKernelLaunch> plans = pf::plan_ptx_launches(p, "", req);
      pf::decode_ptx_launches(p, plans);  // as `layoutproof ptx` does before it runs a kernel
      pf::ProveOptions o;
      o.smt.timeout_ms = opt.timeout_ms;
      const pf::PtxKernelResult r = pf::run_ptx_kernel(p, plans.at(0), claims, o);
      compare(r);
    } catch (const std::exception& e) {
      problem("refused", std::string("the product refused the kernel: ") + e.what());
    }
  }
};

}  // namespace

void compiled_case(std::int64_t index, const CompiledOptions& opt, CompiledTally& tally) {
  const std::uint64_t s = opt.seed * 1000003u + static_cast<std::uint64_t>(index);
  GenOptions g;
  g.symbolic = std::mt19937_64(s)() % 100 < static_cast<std::uint64_t>(opt.symbolic_percent);
  const Kernel k = generate(s, g);
  ++tally.kernels;
  if (k.symbolic()) ++tally.symbolic;
  for (const Format f : {Format::ptx, Format::sass}) {
    const Printed printed = f == Format::ptx ? print_ptx(k) : print_sass(k);
    const auto t0 = std::chrono::steady_clock::now();
    const Truths truth = reference(k, f);
    const auto t1 = std::chrono::steady_clock::now();
    tally.reference_s += std::chrono::duration<double>(t1 - t0).count();
    if (opt.show) std::cout << "---- kernel " << index << (f == Format::ptx ? " PTX" : " SASS") << "\n" << printed.text;
    ++tally.runs;
    Run run{f, k, printed, truth, opt, tally, opt.seed, index, {}, {}};
    run.go();
    tally.product_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    if (run.problems.empty()) continue;
    ++tally.failing_runs;
    if (tally.reports.size() >= 30) continue;
    std::error_code ec;
    std::filesystem::create_directories(opt.keep_dir, ec);
    const std::string path = file_for(opt.keep_dir, opt.seed, index, f);
    std::ofstream(path) << printed.text;
    std::string cmd = std::string("layoutproof ") + (f == Format::ptx ? "ptx " : "sass ") + path;
    for (const std::string& a : printed.args) cmd += " " + a;
    std::ostringstream o;
    o << "DISAGREEMENT kernel " << index << " (" << (f == Format::ptx ? "PTX" : "SASS") << (k.symbolic() ? ", free parameters" : "")
      << "; seed " << opt.seed << ", replay: soundness_soak --kinds compiled --seed " << opt.seed << " --first " << index << " --kernels 1)\n"
      << "  reproducer: " << cmd << run.claims_args << " --json\n";
    for (const std::string& p : run.problems) o << "  " << p << "\n";
    tally.reports.push_back(o.str());
  }
}

}  // namespace soak

namespace soak {

void CompiledTally::merge(const CompiledTally& o) {
  kernels += o.kernels, symbolic += o.symbolic, runs += o.runs, failing_runs += o.failing_runs, cut_runs += o.cut_runs;
  reference_s += o.reference_s, product_s += o.product_s, traces_compared += o.traces_compared, counts_compared += o.counts_compared;
  known_class += o.known_class;
  wrong_proved += o.wrong_proved, wrong_refuted += o.wrong_refuted, other_failures += o.other_failures, skipped_known += o.skipped_known;
  for (const auto& [k, n] : o.verdicts) verdicts[k] += n;
  for (const auto& [k, n] : o.symbolic_verdicts) symbolic_verdicts[k] += n;
  for (const auto& [k, n] : o.cut_verdicts) cut_verdicts[k] += n;
  for (const auto& [k, m] : o.table)
    for (const auto& [v, n] : m) table[k][v] += n;
  for (const auto& [k, n] : o.unknown_by_reason) unknown_by_reason[k] += n;
  for (const auto& [k, n] : o.errors_by_reason) errors_by_reason[k] += n;
  for (const std::string& r : o.reports)
    if (reports.size() < 30) reports.push_back(r);
}

}  // namespace soak
