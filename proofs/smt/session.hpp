#pragma once
// The one Z3 boundary (conventions.md #1): only proofs/smt/ includes z3++.h.
// A Session holds the context and the options (timeout, seed, memory limit), runs named queries
// on fresh solvers, dumps each as SMT-LIB2 when asked, and reports sat / unsat / unknown without
// ever reading unknown as either.
#include <z3++.h>

#include <optional>
#include <string>
#include <vector>

#include "proofs/claims/engine.hpp"

namespace layoutproof::proofs::smt {

class Session {
 public:
  // claim and layout go into the dump headers.
  Session(const SmtOptions& o, std::string claim, std::string layout);
  z3::context& ctx() { return ctx_; }

  struct Answer {
    z3::check_result result = z3::unknown;
    std::string reason;               // unknown: Z3's reason_unknown()
    std::optional<z3::model> model;   // sat
  };
  // How a query is solved; its dump names it.
  //   qf_bv       Z3's QF_BV solver
  //   quantified  the BV logic's solver, for formulas with quantifiers
  //   bit_blast   the tactic simplify, propagate-values, solve-eqs, bit-blast, then the SAT solver:
  //               for narrow words (proofs/smt/scheduler_z3.cpp: 17 bits at M, N <= 64),
  //               where the QF_BV solver's word-level search is what takes the time
  //   nonlinear_integers  the QF_NIA solver, for lemmas over the integers (a product's monotonicity)
  enum class Strategy { qf_bv, quantified, bit_blast, nonlinear_integers };
  // Checks the conjunction of `assertions` as query `name`. Throws z3::exception (the engine
  // turns it into ERROR).
  Answer check(const std::string& name, const std::vector<z3::expr>& assertions, Strategy how);
  Answer check(const std::string& name, const std::vector<z3::expr>& assertions, bool quantified = false) {
    return check(name, assertions, quantified ? Strategy::quantified : Strategy::qf_bv);
  }
  const std::vector<std::string>& query_names() const { return names_; }

 private:
  SmtOptions opts_;
  std::string claim_, layout_;
  z3::context ctx_;
  std::vector<std::string> names_;
};

std::string z3_version();

}  // namespace layoutproof::proofs::smt
