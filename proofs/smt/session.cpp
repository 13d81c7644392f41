#include "proofs/smt/session.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>

#ifndef LAYOUTPROOF_VERSION
#define LAYOUTPROOF_VERSION "0.1.0"
#endif

namespace layoutproof::proofs::smt {

std::string z3_version() {
  unsigned major = 0, minor = 0, build = 0, rev = 0;
  Z3_get_version(&major, &minor, &build, &rev);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build);
}

Session::Session(const SmtOptions& o, std::string claim, std::string layout)
    : opts_(o), claim_(std::move(claim)), layout_(std::move(layout)) {
  // Z3 only has a process-wide memory limit; sessions may run on several threads (-j), so the
  // global parameter is set under a lock and only when it changes.
  static std::mutex param_mutex;
  static unsigned current_mb = 0;
  const std::lock_guard<std::mutex> lock(param_mutex);
  if (current_mb != opts_.memory_mb) {
    z3::set_param("memory_max_size", static_cast<int>(opts_.memory_mb));
    current_mb = opts_.memory_mb;
  }
}

static std::string sanitize(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '-') ch = '_';
  return s.substr(0, 80);
}

namespace {

const char* strategy_text(Session::Strategy how) {
  switch (how) {
    case Session::Strategy::quantified: return "BV solver";
    case Session::Strategy::bit_blast: return "tactic simplify, propagate-values, solve-eqs, bit-blast, sat";
    case Session::Strategy::nonlinear_integers: return "QF_NIA solver";
    case Session::Strategy::qf_bv: break;
  }
  return "QF_BV solver";
}

}  // namespace

Session::Answer Session::check(const std::string& name, const std::vector<z3::expr>& assertions, Strategy how) {
  // Quantified queries are pure bit-vector formulas: the "BV" logic's solver decides them where the
  // default one gives up with "incomplete quantifiers" (e.g. surjective:1007 on
  // Sw<1,2,3> o ((8,4,16,1,8)):((1,8,32,512,512)); tests/regressions/z3_quantified_bv_test.cpp).
  z3::solver s = how == Strategy::quantified            ? z3::solver(ctx_, "BV")
                 : how == Strategy::nonlinear_integers ? z3::solver(ctx_, "QF_NIA")
                                                       : z3::solver(ctx_, "QF_BV");
  if (how == Strategy::bit_blast) {
    // The formula goes to CNF at once: the word-level rewrites first (constants folded, equalities
    // solved), then the SAT solver. Complete for QF_BV, like the solver it replaces.
    z3::tactic t = z3::tactic(ctx_, "simplify") & z3::tactic(ctx_, "propagate-values") & z3::tactic(ctx_, "solve-eqs") &
                   z3::tactic(ctx_, "bit-blast") & z3::tactic(ctx_, "sat");
    s = t.mk_solver();
  }
  z3::params p(ctx_);
  p.set("timeout", opts_.deadline.clip_ms(opts_.timeout_ms));  // never past the run's deadline
  p.set("random_seed", opts_.seed);
  s.set(p);
  for (const auto& a : assertions) s.add(a);
  names_.push_back(name);
  if (!opts_.dump_dir.empty()) {
    // Numbered across the whole process, so the queries of every claim (and thread) keep their files.
    static std::atomic<unsigned> query_number{0};
    std::filesystem::create_directories(opts_.dump_dir);
    char num[16];
    std::snprintf(num, sizeof num, "%04u", ++query_number);
    std::ofstream f(std::filesystem::path(opts_.dump_dir) / (std::string(num) + "-" + sanitize(name) + ".smt2"));
    f << "; layoutproof " << LAYOUTPROOF_VERSION << ", Z3 " << z3_version() << "\n"
      << "; query: " << name << "\n; claim: " << claim_ << "\n; layout: " << layout_ << "\n"
      << "; seed: " << opts_.seed << "  timeout_ms: " << opts_.timeout_ms << "  solved by: " << strategy_text(how) << "\n"
      << "; sat means the claim is violated (the assertions are the domain and the negated claim)\n"
      << s.to_smt2();
  }
  Answer a;
  a.result = s.check();
  if (a.result == z3::sat) a.model = s.get_model();
  if (a.result == z3::unknown) a.reason = s.reason_unknown();
  return a;
}

}  // namespace layoutproof::proofs::smt
