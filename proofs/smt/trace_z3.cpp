// The Z3 encoding of the bank claims over an address trace (proofs/claims/trace_claims.hpp), symbolic
// over the instruction index i, the lanes and their word picks. The trace's addresses are data:
//
//   table    W_l(i) = addr(i, l) / 4 (the lane's first 32-bit word), -1 when lane l is inactive,
//            one term per lane l < U (U = 8N for ldsmN/stsmN: lanes >= 8N are ignored, else 32):
//            a balanced ite tree over i (ite(i < mid, left, right)) whose subtrees with one value
//            collapse to that constant, so a lane with a regular address pattern costs little
//   pick p   lane l_p < U and word j_p < max(1, width/4):
//            W_p: (l_p == l) -> (W_p == W_l(i)) for each l < U,  active_p: W_p >= 0
//            word w_p = W_p + j_p,  bank b_p = w_p mod 32,  phase p_p = l_p / P
//            P = 32 (width <= 4), 16 (width 8), 8 (width 16 and ldsm/stsm)
//
// conflict-free:  sat? lo <= i < hi, l_0 < l_1, both active, p_0 == p_1,
//                 b_0 == b_1, w_0 != w_1
// max-ways:K:     sat? K+1 picks l_0 < ... < l_K, all active, one phase, one bank, pairwise
//                 distinct words (a lane's <= 4 consecutive words lie in distinct banks, so the
//                 lanes are distinct and ordering them loses nothing)
//
// The instructions are split into chunks [lo, hi) of kChunk, one query each (the table of a query
// has at most 32 x kChunk leaves): every chunk unsat proves the claim; the first sat chunk gives
// a violation, which the caller replays on the bank model. This is the bank model's rule, exactly:
// for conflict-free, an instruction keeps its ideal iff no phase has a collision (the ideal is the
// wavefronts with the collisions removed, so a wide-load merge never absorbs one: model/bank/bank.hpp),
// and max-ways:K is a phase-level bound by definition.
#include "proofs/smt/encode.hpp"
#include "proofs/smt/session.hpp"
#include "proofs/claims/ptx_claims.hpp"
#include "proofs/claims/trace_claims.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace layoutproof::proofs {
namespace {

using smt::Encoder;
using smt::Session;

// Instructions per query: measured on 3000 ldsm4 instructions, 128-256 is fastest (more queries
// cost their setup, larger tables make each query superlinearly harder).
constexpr i64 kChunk = 256;

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }
i64 value(const z3::model& m, const z3::expr& e) { return m.eval(e, true).get_numeral_int64(); }

int phase_size(const AddressTrace& t) {
  if (is_matrix_op(t.op)) return 8;
  return t.width_bytes <= 4 ? 32 : t.width_bytes == 8 ? 16 : 8;
}

// W_l(i) for i in [lo, hi) as a balanced ite tree over i.
class LaneTables {
 public:
  struct Node {
    z3::expr expr;
    bool constant;
    i64 value;
  };
  LaneTables(const AddressTrace& t, const Encoder& e, const z3::expr& i, i64 lo, i64 hi) : e_(e), i_(i) {
    const int lanes = address_lanes(t.op);
    std::vector<Node> words;
    for (int l = 0; l < lanes; ++l) {
      words.clear();
      for (i64 k = lo; k < hi; ++k) {
        const i64 a = t.instructions[at(k)].addr[at(l)];
        words.push_back(leaf(a < 0 ? -1 : word_of(a)));
      }
      tables_.push_back(tree(words, lo, 0, hi - lo).expr);
    }
  }
  // From leaves given per lane: leaves[l][k] = W_l(lo + k), a constant (leaf()) or a term.
  LaneTables(const Encoder& e, const z3::expr& i, i64 lo, const std::vector<std::vector<Node>>& leaves) : e_(e), i_(i) {
    for (const auto& words : leaves) tables_.push_back(tree(words, lo, 0, static_cast<i64>(words.size())).expr);
  }
  Node leaf(i64 v) const { return {e_.k(v), true, v}; }
  // W_{lane}(i) as a fresh variable w: (lane == l) -> (w == W_l(i)) for every used lane l (the
  // caller asserts lane < the number of used lanes). Not an ite chain over the lanes: with Z3 4.8
  // such a chain over large tables makes the context's teardown take seconds.
  z3::expr word(const z3::expr& lane, const std::string& name, std::vector<z3::expr>& defs) const {
    const z3::expr w = e_.var(name);
    for (std::size_t l = 0; l < tables_.size(); ++l)
      defs.push_back(z3::implies(lane == e_.k(static_cast<i64>(l)), w == tables_[l]));
    return w;
  }

 private:
  // Leaves [a, b) of `words` (instruction lo + a ...).
  Node tree(const std::vector<Node>& words, i64 lo, i64 a, i64 b) const {
    if (b - a == 1) return words[at(a)];
    const i64 mid = a + (b - a) / 2;
    Node left = tree(words, lo, a, mid), right = tree(words, lo, mid, b);
    if (left.constant && right.constant && left.value == right.value) return left;
    return {z3::ite(z3::slt(i_, e_.k(lo + mid)), left.expr, right.expr), false, 0};
  }
  const Encoder& e_;
  z3::expr i_;
  std::vector<z3::expr> tables_;
};

// The largest magnitude the encoding builds: words, word + j, the instruction index, lanes.
i64 bound_for(const AddressTrace& t) {
  i64 b = std::max<i64>(static_cast<i64>(t.instructions.size()), 64);
  for (const auto& in : t.instructions)
    for (const i64 a : in.addr) b = std::max(b, checked_add(word_of(a), 8));
  return b;
}

struct Picks {
  std::vector<z3::expr> lanes, domain, bad;
};

// The lanes and words of `picks` picks, and the negated claim over the chunk's table.
Picks encode_picks(const AddressTrace& t, const Encoder& e, const LaneTables& table, int picks) {
  Picks p;
  const int nwords = std::max(1, t.width_bytes / 4), psize = phase_size(t);
  std::vector<z3::expr> word, bank, phase;
  for (int q = 0; q < picks; ++q) {
    const z3::expr l = e.var("l" + std::to_string(q)), j = e.var("j" + std::to_string(q));
    p.domain.push_back(z3::ult(l, e.k(address_lanes(t.op))));
    p.domain.push_back(z3::ult(j, e.k(nwords)));
    const z3::expr w0 = table.word(l, "w" + std::to_string(q), p.domain);
    p.bad.push_back(z3::sge(w0, e.k(0)));  // active
    word.push_back(w0 + j);
    bank.push_back(z3::urem(word.back(), e.k(kBanks)));  // bank_of_word (model/bank/bank.hpp) as a term
    phase.push_back(z3::udiv(l, e.k(psize)));
    p.lanes.push_back(l);
  }
  for (int q = 1; q < picks; ++q) {
    p.bad.push_back(z3::ult(p.lanes[at(q - 1)], p.lanes[at(q)]));
    p.bad.push_back(phase[at(q)] == phase[0]);
    p.bad.push_back(bank[at(q)] == bank[0]);
    for (int r = 0; r < q; ++r) p.bad.push_back(word[at(q)] != word[at(r)]);
  }
  return p;
}

std::vector<z3::expr> concat(std::vector<z3::expr> a, const std::vector<z3::expr>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The instruction domain of chunk [lo, hi).
std::vector<z3::expr> chunk_domain(const Encoder& e, const z3::expr& i, i64 lo, i64 hi) {
  return {z3::sge(i, e.k(lo)), z3::slt(i, e.k(hi))};
}

class TraceSearch {
 public:
  TraceSearch(const AddressTrace& t, const TraceClaim& c, Session& ss)
      : t_(t), ss_(ss), e_(ss.ctx(), smt::width_for(bound_for(t))), i_(e_.var("i")),
        conflict_free_(c.kind == TraceClaim::Kind::conflict_free), picks_(conflict_free_ ? 2 : c.k + 1), name_(c.text) {}

  Outcome<TraceZ3Violation> run(const std::optional<TraceViolation>& expect) {
    Outcome<TraceZ3Violation> out;
    const i64 n = static_cast<i64>(t_.instructions.size());
    const i64 chunks = ceil_div(n, kChunk);
    out.method = "z3 (symbolic over " + std::to_string(n) + " instructions x " + std::to_string(address_lanes(t_.op)) +
                 " lanes, " + std::to_string(picks_) + " picks; the trace's addresses as a per-lane table" +
                 (chunks > 1 ? ", " + std::to_string(chunks) + " queries of up to " + std::to_string(kChunk) + " instructions" : "") + ")";
    if (picks_ > phase_size(t_)) {  // a bank of a phase holds at most one word per lane
      out.kind = OutcomeKind::holds;
      out.method = "counting";
      out.text = "a phase has " + std::to_string(phase_size(t_)) + " lanes, each with at most one word per bank";
      return out;
    }
    std::string unknown;
    bool vacuity_checked = false;
    for (i64 lo = 0; lo < n; lo += kChunk) {
      const i64 hi = std::min(n, lo + kChunk);
      const LaneTables table(t_, e_, i_, lo, hi);
      const Picks p = encode_picks(t_, e_, table, picks_);
      const std::vector<z3::expr> dom = concat(chunk_domain(e_, i_, lo, hi), p.domain);
      const std::string suffix = chunks > 1 ? "[" + std::to_string(lo) + "-" + std::to_string(hi - 1) + "]" : "";
      if (!vacuity_checked && !vacuity_ok(dom, p, lo)) {
        out.kind = OutcomeKind::error;
        out.text = "vacuous: no active lane in the domain of " + name_ + suffix;
        return out;
      }
      vacuity_checked = true;
      const auto a = ss_.check(name_ + ".violation" + suffix, concat(dom, p.bad));
      if (a.result == z3::unknown) {
        if (unknown.empty()) unknown = "z3 unknown on " + name_ + ".violation" + suffix + ": " + a.reason;
        continue;
      }
      if (a.result == z3::unsat) continue;
      out.kind = OutcomeKind::violated;
      out.witness.found.instruction = value(*a.model, i_);
      for (const auto& l : p.lanes) out.witness.found.lanes.push_back(static_cast<int>(value(*a.model, l)));
      out.witness.confirmed = expect && confirm(*expect);
      return out;
    }
    if (!unknown.empty()) {
      out.kind = OutcomeKind::unknown;
      out.text = unknown;
      return out;
    }
    out.kind = OutcomeKind::holds;
    out.text = (conflict_free_ ? std::string("no two active lanes of one phase hit one bank at different words")
                            : "no bank of any phase holds " + std::to_string(picks_) + " distinct words") +
               ", in any of the " + std::to_string(n) + " instructions";
    return out;
  }

 private:
  // The domain alone, with one active pick, is satisfiable (at one instruction x of it: the table
  // then simplifies to that instruction's row instead of being bit-blasted once more).
  bool vacuity_ok(const std::vector<z3::expr>& dom, const Picks& p, i64 x) {
    std::vector<z3::expr> q = dom;
    q.push_back(i_ == e_.k(x));
    q.push_back(p.bad[0]);  // pick 0 active
    return ss_.check(name_ + ".vacuity", q).result == z3::sat;
  }

  // Z3 also finds the violation the exhaustive engine reports: instruction x with exactly its lanes.
  bool confirm(const TraceViolation& x) {
    if (x.instruction < 0 || x.instruction >= static_cast<i64>(t_.instructions.size()) ||
        static_cast<int>(x.lanes.size()) != picks_)
      return false;
    const LaneTables table(t_, e_, i_, x.instruction, x.instruction + 1);
    const Picks p = encode_picks(t_, e_, table, picks_);
    std::vector<z3::expr> q = concat(concat(p.domain, p.bad), {i_ == e_.k(x.instruction)});
    for (int r = 0; r < picks_; ++r) q.push_back(p.lanes[at(r)] == e_.k(x.lanes[at(r)]));
    return ss_.check(name_ + ".at_worst", q).result == z3::sat;
  }

  const AddressTrace& t_;
  Session& ss_;
  Encoder e_;
  z3::expr i_;
  bool conflict_free_;
  int picks_;
  std::string name_;
};

}  // namespace

Outcome<TraceZ3Violation> check_trace_z3(const AddressTrace& t, const TraceClaim& c, const SmtOptions& o,
                                         const std::optional<TraceViolation>& expect) {
  Outcome<TraceZ3Violation> out;
  out.method = "z3";
  if (c.kind != TraceClaim::Kind::conflict_free && c.kind != TraceClaim::Kind::max_ways) {
    out.text = c.text + " has no z3 encoding (exhaustive only)";
    return out;
  }
  if (t.instructions.empty()) {
    out.text = "the trace has no instruction";
    return out;
  }
  try {
    Session ss(o, c.text, t.provenance.empty() ? "address trace" : t.provenance);
    out = TraceSearch(t, c, ss).run(expect);
    out.queries = ss.query_names();
  } catch (const z3::exception& e) {
    out.kind = OutcomeKind::error;
    out.text = std::string("z3: ") + e.msg();
  } catch (const std::exception& e) {
    out.kind = OutcomeKind::error;
    out.text = e.what();
  }
  return out;
}

namespace {

// Issues per query of a symbolic claim: each lane's word is a term, so tables are heavier than
// trace constants.
constexpr std::size_t kSymbolicChunk = 32;

// The claims of proofs/claims/ptx_claims.hpp ("Free parameters") over the symbols P_i.
class SymbolicSearch {
 public:
  SymbolicSearch(const SymbolicQuery& q, Session& ss)
      // Addresses are below 2^32 (the shared window), plus the width: no encoding value wraps.
      : q_(q), ss_(ss), e_(ss.ctx(), smt::width_for((i64{1} << 32) + 64)), i_(e_.var("i")) {
    auto& c = ss.ctx();
    for (std::size_t i = 0; i < q.symbol_bits.size(); ++i) {
      const unsigned b = static_cast<unsigned>(q.symbol_bits[i]);
      p_.push_back(c.bv_const(("p" + std::to_string(i)).c_str(), b));
      if (q.ranges[i]) {
        domain_.push_back(z3::sge(p_.back(), c.bv_val(static_cast<int64_t>(q.ranges[i]->first), b)));
        domain_.push_back(z3::sle(p_.back(), c.bv_val(static_cast<int64_t>(q.ranges[i]->second), b)));
      }
    }
    launch_domain();
    for (std::size_t i = 0; i < q.symbols.size() && i < p_.size(); ++i)
      if (q.symbols[i].kind == compiled::Symbol::Kind::derived) domain_.push_back(p_[i] == derived(q.symbols[i].def));
    if (q.assumptions)
      for (const compiled::Assumption& a : *q.assumptions) domain_.push_back(assumed(a.expr) != e64(0));
  }

  Outcome<SymbolicViolation> run() {
    Outcome<SymbolicViolation> out;
    std::string unknown;
    if (q_.kind == SymbolicQuery::Kind::satisfiable) {
      const auto a = ss_.check(q_.name + ".satisfiable", domain_);
      out.kind = a.result == z3::sat ? OutcomeKind::violated : a.result == z3::unsat ? OutcomeKind::holds : OutcomeKind::unknown;
      if (a.result == z3::unknown) out.text = "z3 unknown on " + q_.name + ".satisfiable: " + a.reason;
      if (a.result == z3::sat)
        for (const z3::expr& p : p_) out.witness.values.push_back(a.model->eval(p, true).get_numeral_uint64());
      return out;
    }
    for (std::size_t lo = 0; lo < q_.issues.size(); lo += kSymbolicChunk) {
      const std::size_t hi = std::min(q_.issues.size(), lo + kSymbolicChunk);
      const std::string suffix = q_.issues.size() > kSymbolicChunk ? "[" + std::to_string(lo) + "-" + std::to_string(hi - 1) + "]" : "";
      const bool bank = q_.kind == SymbolicQuery::Kind::conflict_free || q_.kind == SymbolicQuery::Kind::max_ways;
      std::vector<z3::expr> qs = domain_;
      std::optional<Picks> picks;
      std::vector<std::pair<z3::expr, std::pair<std::size_t, int>>> bad;  // lane claims: (violation, (issue, lane))
      if (bank) {
        AddressTrace shape;
        shape.op = q_.op;
        shape.width_bytes = q_.width_bytes;
        const int lanes = address_lanes(q_.op);
        std::vector<std::vector<LaneTables::Node>> leaves(at(lanes));
        const LaneTables proto(e_, i_, 0, {});
        for (int l = 0; l < lanes; ++l)
          for (std::size_t k = lo; k < hi; ++k) {
            const compiled::SymbolicIssue& is = *q_.issues[k];
            if (!is.active[at(l)]) leaves[at(l)].push_back(proto.leaf(-1));
            else if (is.when[at(l)]) leaves[at(l)].push_back({z3::ite(lane_on(is, l), z3::lshr(address(is.addr[at(l)]), e_.k(2)), e_.k(-1)), false, 0});
            else leaves[at(l)].push_back({z3::lshr(address(is.addr[at(l)]), e_.k(2)), false, 0});
          }
        const LaneTables table(e_, i_, static_cast<i64>(lo), leaves);
        for (std::size_t k = lo; k < hi; ++k)  // the picked issue is one the bank model takes
          if (const auto ok = valid(*q_.issues[k])) qs.push_back(z3::implies(i_ == e_.k(static_cast<i64>(k)), *ok));
        for (const std::size_t k : q_.valid_issues)  // and so are these, whichever is picked
          if (const auto ok = valid(*q_.issues.at(k), false)) qs.push_back(*ok);
        picks = encode_picks(shape, e_, table, q_.kind == SymbolicQuery::Kind::conflict_free ? 2 : q_.k + 1);
        qs = concat(concat(qs, chunk_domain(e_, i_, static_cast<i64>(lo), static_cast<i64>(hi))), picks->domain);
        qs = concat(qs, picks->bad);
      } else if (q_.kind == SymbolicQuery::Kind::some_valid || q_.kind == SymbolicQuery::Kind::some_active) {
        z3::expr_vector any(ss_.ctx());
        for (std::size_t k = lo; k < hi; ++k)
          if (const auto ok = q_.kind == SymbolicQuery::Kind::some_valid ? valid(*q_.issues[k]) : some_on(*q_.issues[k])) any.push_back(*ok);
        if (any.empty()) continue;
        qs.push_back(z3::mk_or(any));
        // Whether a launch runs it (is valid) is asked of iterations below 2^24 only, as a
        // violation is (below): an iteration the summary admits past them may be none a launch runs.
        iterations_a_launch_runs(qs);
      } else {
        z3::expr_vector any(ss_.ctx());
        for (std::size_t k = lo; k < hi; ++k)
          for (int l = 0; l < address_lanes(q_.op); ++l) {  // the lanes the instruction reads an address from
            const compiled::SymbolicIssue& is = *q_.issues[k];
            if (!is.active[at(l)]) continue;
            const z3::expr a = address(is.addr[at(l)]);
            z3::expr b = ss_.ctx().bool_val(false);
            if (q_.kind == SymbolicQuery::Kind::valid) {
              b = invalid(a);
            } else if (q_.kind == SymbolicQuery::Kind::aligned) {
              b = z3::urem(a, e_.k(q_.width_bytes)) != e_.k(0);
            } else {
              const auto [blo, bhi] = q_.bounds[k][at(l)];
              b = z3::ult(a, e_.k(blo)) || z3::ugt(a + e_.k(q_.width_bytes), e_.k(bhi));
            }
            if (is.when[at(l)]) b = lane_on(is, l) && b;
            bad.push_back({b, {k, l}});
            any.push_back(b);
          }
        if (any.empty()) continue;
        qs.push_back(z3::mk_or(any));
      }
      const auto a = ss_.check(q_.name + ".violation" + suffix, qs);
      if (a.result == z3::unknown) {
        if (unknown.empty()) unknown = "z3 unknown on " + q_.name + ".violation" + suffix + ": " + a.reason;
        continue;
      }
      if (a.result == z3::unsat) continue;
      // A witness a reader can replay by hand: where one exists, every symbol within +-1024 (the
      // CTA and grid within 1024), asked once more; else the first model.
      auto small = a;
      if (bank || q_.kind == SymbolicQuery::Kind::aligned || q_.kind == SymbolicQuery::Kind::in_bounds) {
        std::vector<z3::expr> bounded = qs;
        for (std::size_t i = 0; i < p_.size(); ++i) {
          const unsigned b = p_[i].get_sort().bv_size();
          if (b <= 11) continue;
          if (i < q_.symbols.size() && q_.symbols[i].kind == compiled::Symbol::Kind::derived) continue;  // defined by the others
          const bool cta = i < q_.symbols.size() && q_.symbols[i].kind != compiled::Symbol::Kind::param;
          if (cta) bounded.push_back(z3::ule(p_[i], ss_.ctx().bv_val(1024, b)));
          else bounded.push_back(z3::sle(p_[i], ss_.ctx().bv_val(1024, b)) && z3::sge(p_[i], ss_.ctx().bv_val(-1024, b)));
        }
        const auto b2 = ss_.check(q_.name + ".violation" + suffix + ".small", bounded);
        if (b2.result == z3::sat) small = b2;
        // A summarized loop admits iterations past the ones a launch runs (its condition read one
        // iteration back: a counter that wraps around meets it again). A violation only there is
        // no launch's: asked again with every iteration below 2^24, and not decided when none.
        std::vector<z3::expr> runs = qs;
        iterations_a_launch_runs(runs);
        if (b2.result != z3::sat && runs.size() > qs.size()) {
          const auto b3 = ss_.check(q_.name + ".violation" + suffix + ".iterations", runs);
          if (b3.result == z3::sat) {
            small = b3;
          } else {
            if (unknown.empty())
              unknown = "a violation only at an iteration past 2^24 of a loop summarized over its iterations (where its counter wraps "
                        "around: an iteration no launch may run): not decided";
            continue;
          }
        }
      }
      out.kind = OutcomeKind::violated;
      const auto& m = small;
      for (const z3::expr& p : p_) out.witness.values.push_back(m.model->eval(p, true).get_numeral_uint64());
      if (q_.kind == SymbolicQuery::Kind::some_valid || q_.kind == SymbolicQuery::Kind::some_active) return out;
      if (picks) {
        out.witness.issue = static_cast<std::size_t>(value(*m.model, i_));
        for (const auto& l : picks->lanes) out.witness.lanes.push_back(static_cast<int>(value(*m.model, l)));
      } else {
        for (const auto& [b, where] : bad)
          if (m.model->eval(b, true).is_true()) {
            out.witness.issue = where.first;
            out.witness.lanes = {where.second};
            break;
          }
        if (out.witness.lanes.empty()) {
          out.kind = OutcomeKind::error;
          out.text = "z3's model satisfies no lane's violation";
        }
      }
      return out;
    }
    if (!unknown.empty()) {
      out.kind = OutcomeKind::unknown;
      out.text = unknown;
      return out;
    }
    out.kind = OutcomeKind::holds;
    return out;
  }

 private:
  // The CTA and grid: 0 <= ctaid_d < nctaid_d; nctaid_d the launch's, or 1..2^31-1 (x),
  // 1..65535 (y, z) when every grid is meant (a symbol, or a fresh variable where only %ctaid was read).
  void launch_domain() {
    auto& c = ss_.ctx();
    std::array<std::optional<z3::expr>, 3> n;
    for (std::size_t i = 0; i < q_.symbols.size() && i < p_.size(); ++i)
      if (q_.symbols[i].kind == compiled::Symbol::Kind::nctaid) n[at(q_.symbols[i].dim)] = p_[i];
    for (std::size_t i = 0; i < q_.symbols.size() && i < p_.size(); ++i) {
      if (q_.symbols[i].kind != compiled::Symbol::Kind::ctaid) continue;
      const int d = q_.symbols[i].dim;
      if (!n[at(d)]) n[at(d)] = q_.every_grid ? c.bv_const(("nctaid" + std::to_string(d)).c_str(), 32) : c.bv_val(static_cast<uint64_t>(q_.grid[at(d)]), 32);
      domain_.push_back(z3::ult(p_[i], *n[at(d)]));
    }
    for (int d = 0; d < 3; ++d)
      if (n[at(d)] && q_.every_grid) {
        domain_.push_back(z3::uge(*n[at(d)], c.bv_val(1, 32)));
        domain_.push_back(z3::ule(*n[at(d)], c.bv_val(d == 0 ? (uint64_t{1} << 31) - 1 : 65535, 32)));
      }
  }

  // A derived symbol's definition (ptx_exec.hpp Derived) at its width.
  z3::expr derived(const compiled::Derived& d) const {
    using Op = compiled::Derived::Op;
    const unsigned in = static_cast<unsigned>(d.in_w);
    const z3::expr a = term_bv(d.a, d.in_w);
    const z3::expr b = d.op == Op::shl || d.op == Op::shr_u || d.op == Op::shr_s
                           ? (in > 32 ? z3::zext(term_bv(d.b, 32), in - 32) : term_bv(d.b, 32))
                           : term_bv(d.b, d.in_w);
    switch (d.op) {
      case Op::add: return a + b;
      case Op::sub: return a - b;
      case Op::mul: return a * b;
      case Op::mulhi_u: return (z3::zext(a, in) * z3::zext(b, in)).extract(2 * in - 1, in);
      case Op::mulhi_s: return (z3::sext(a, in) * z3::sext(b, in)).extract(2 * in - 1, in);
      case Op::mulwide_u: return z3::zext(a, in) * z3::zext(b, in);
      case Op::mulwide_s: return z3::sext(a, in) * z3::sext(b, in);
      case Op::div_u: return z3::udiv(a, b);
      case Op::div_s: return a / b;
      case Op::rem_u: return z3::urem(a, b);
      case Op::rem_s: return z3::srem(a, b);
      case Op::min_u: return z3::ite(z3::ult(a, b), a, b);
      case Op::min_s: return z3::ite(a < b, a, b);
      case Op::max_u: return z3::ite(z3::ugt(a, b), a, b);
      case Op::max_s: return z3::ite(a > b, a, b);
      case Op::and_: return a & b;
      case Op::or_: return a | b;
      case Op::xor_: return a ^ b;
      case Op::shl: return z3::shl(a, b);
      case Op::shr_u: return z3::lshr(a, b);
      case Op::shr_s: return z3::ashr(a, b);
      default: throw LayoutError("a derived symbol with an operation the encoding does not take");
    }
  }

  z3::expr e64(i64 v) const { return ss_.ctx().bv_val(static_cast<int64_t>(v), 64); }
  // The symbol of kind k (dimension or parameter slot/offset) among the query's, if the run has one.
  std::optional<std::size_t> symbol_of(compiled::Symbol::Kind k, int dim, std::size_t param = 0, i64 offset = 0) const {
    for (std::size_t i = 0; i < q_.symbols.size() && i < p_.size(); ++i) {
      const compiled::Symbol& s = q_.symbols[i];
      if (s.kind != k) continue;
      if (k == compiled::Symbol::Kind::param ? s.param == param && s.offset == offset : s.dim == dim) return i;
    }
    return std::nullopt;
  }
  // An assumption (model/compiled/assume.hpp) as a 64-bit value: a parameter its bits sign-extended
  // (the run's symbol, or a fresh variable where the kernel never read it), the grid and CTA zero-
  // extended (fresh ones bounded as launch_domain bounds them); comparisons and logic give 0 or 1.
  z3::expr assumed(const compiled::AssumeExpr& e) {
    using K = compiled::AssumeExpr::Kind;
    auto& c = ss_.ctx();
    const auto b2v = [&](const z3::expr& b) { return z3::ite(b, e64(1), e64(0)); };
    switch (e.kind) {
      case K::num: return e64(e.value);
      case K::name: throw LayoutError("an assumption's name '" + e.name + "' is not bound");
      case K::param: {
        const auto i = symbol_of(compiled::Symbol::Kind::param, 0, e.param, e.offset);
        const z3::expr v = i ? p_[*i] : c.bv_const(("param" + std::to_string(e.param) + "_" + std::to_string(e.offset)).c_str(), static_cast<unsigned>(e.bits));
        const unsigned b = v.get_sort().bv_size();
        return b < 64 ? z3::sext(v, 64 - b) : v;
      }
      case K::grid: case K::cta: {
        const bool grid = e.kind == K::grid;
        const auto i = symbol_of(grid ? compiled::Symbol::Kind::nctaid : compiled::Symbol::Kind::ctaid, e.dim);
        if (i) return z3::zext(p_[*i], 32);
        const std::string d = std::to_string(e.dim);
        const z3::expr n = c.bv_const(("nctaid" + d).c_str(), 32);
        domain_.push_back(z3::uge(n, c.bv_val(1, 32)));
        domain_.push_back(z3::ule(n, c.bv_val(e.dim == 0 ? (uint64_t{1} << 31) - 1 : 65535, 32)));
        if (grid) return z3::zext(n, 32);
        const z3::expr k = c.bv_const(("ctaid" + d).c_str(), 32);
        domain_.push_back(z3::ult(k, n));
        return z3::zext(k, 32);
      }
      case K::unary: {
        const z3::expr a = assumed(e.args[0]);
        return e.op == "!" ? b2v(a == e64(0)) : e.op == "-" ? -a : ~a;
      }
      case K::binary: break;
    }
    const z3::expr x = assumed(e.args[0]), y = assumed(e.args[1]);
    const std::string& o = e.op;
    if (o == "&&") return b2v(x != e64(0) && y != e64(0));
    if (o == "||") return b2v(x != e64(0) || y != e64(0));
    if (o == "|") return x | y;
    if (o == "^") return x ^ y;
    if (o == "&") return x & y;
    if (o == "==") return b2v(x == y);
    if (o == "!=") return b2v(x != y);
    if (o == "<") return b2v(z3::slt(x, y));
    if (o == "<=") return b2v(z3::sle(x, y));
    if (o == ">") return b2v(z3::sgt(x, y));
    if (o == ">=") return b2v(z3::sge(x, y));
    if (o == "<<") return z3::shl(x, y);
    if (o == ">>") return z3::ashr(x, y);
    if (o == "+") return x + y;
    if (o == "-") return x - y;
    if (o == "*") return x * y;
    if (o == "/") return x / y;  // bvsdiv, C's: toward zero (y a positive literal)
    if (o == "%") return z3::srem(x, y);  // C's: the dividend's sign
    throw LayoutError("an assumption with an operator the encoding does not know: " + o);
  }

  // A term's value at `w` bits: the term in 64 bits, reduced to its own width, zero-extended.
  z3::expr term_bv(const compiled::Term& t, int w) const {
    auto& c = ss_.ctx();
    z3::expr sum = c.bv_val(static_cast<uint64_t>(t.c0), 64);
    for (std::size_t i = 0; i < p_.size(); ++i) {
      if (t.c[i] == 0) continue;
      const unsigned b = p_[i].get_sort().bv_size();
      const z3::expr wide = b < 64 ? z3::zext(p_[i], 64 - b) : p_[i];
      sum = sum + c.bv_val(static_cast<uint64_t>(t.c[i]), 64) * wide;
    }
    const unsigned tw = static_cast<unsigned>(std::clamp(std::min(t.w, w), 1, 64)), uw = static_cast<unsigned>(w);
    const z3::expr low = tw < 64 ? sum.extract(tw - 1, 0) : sum;
    return tw < uw ? z3::zext(low, uw - tw) : low;
  }

  // Condition x of the run's table (ptx_exec.hpp Cond) as a formula; 0 is true.
  z3::expr cond(compiled::u32 x) {
    auto& c = ss_.ctx();
    if (x == 0 || !q_.conds) return c.bool_val(true);
    if (const auto it = cond_memo_.find(x); it != cond_memo_.end()) return it->second;
    const compiled::Cond& k = q_.conds->at(x);
    z3::expr r = c.bool_val(true);
    switch (k.kind) {
      case compiled::Cond::Kind::not_: r = !cond(k.x); break;
      case compiled::Cond::Kind::and_: r = cond(k.x) && cond(k.y); break;
      case compiled::Cond::Kind::or_: r = cond(k.x) || cond(k.y); break;
      case compiled::Cond::Kind::xor_: r = cond(k.x) != cond(k.y); break;
      case compiled::Cond::Kind::data:  // a free Boolean: every value the kernel's data may take
        r = c.bool_const(("data" + std::to_string(k.a.c0)).c_str());
        break;
      case compiled::Cond::Kind::cmp: {
        const z3::expr a = term_bv(k.a, k.w), b = term_bv(k.b, k.w);
        switch (k.cmp) {
          case compiled::Cmp::eq: r = a == b; break;
          case compiled::Cmp::ne: r = a != b; break;
          case compiled::Cmp::lt: r = k.is_signed ? z3::slt(a, b) : z3::ult(a, b); break;
          case compiled::Cmp::le: r = k.is_signed ? z3::sle(a, b) : z3::ule(a, b); break;
          case compiled::Cmp::gt: r = k.is_signed ? z3::sgt(a, b) : z3::ugt(a, b); break;
          case compiled::Cmp::ge: r = k.is_signed ? z3::sge(a, b) : z3::uge(a, b); break;
          case compiled::Cmp::lo: r = z3::ult(a, b); break;
          case compiled::Cmp::ls: r = z3::ule(a, b); break;
          case compiled::Cmp::hi: r = z3::ugt(a, b); break;
          case compiled::Cmp::hs: r = z3::uge(a, b); break;
          default: throw LayoutError("a condition with a comparison the encoding does not take");
        }
        break;
      }
    }
    cond_memo_.emplace(x, r);
    return r;
  }
  // Whether lane l of the issue is active: always, or where its condition holds.
  z3::expr lane_on(const compiled::SymbolicIssue& is, int l) { return cond(is.when[at(l)]); }

  // An address the bank model refuses (bank.hpp validate): not a multiple of the width, or its
  // bytes past kSmemBytes.
  z3::expr invalid(const z3::expr& a) const {
    return z3::urem(a, e_.k(q_.width_bytes)) != e_.k(0) || z3::ugt(a, e_.k(kSmemBytes - q_.width_bytes));
  }

  // The issue is a valid access: every active address lane's address is valid. nullopt: no such lane.
  // With `on`, some lane must be active too (an issue no lane executes is no access).
  std::optional<z3::expr> valid(const compiled::SymbolicIssue& is, bool on = true) {
    z3::expr_vector ok(ss_.ctx()), some(ss_.ctx());
    for (int l = 0; l < address_lanes(q_.op); ++l)
      if (is.active[at(l)]) {
        ok.push_back(z3::implies(lane_on(is, l), !invalid(address(is.addr[at(l)]))));
        some.push_back(lane_on(is, l));
      }
    if (ok.empty()) return std::nullopt;
    return on ? z3::mk_and(ok) && z3::mk_or(some) : z3::mk_and(ok);
  }
  // Some lane of the issue is active (nullopt: none can be).
  std::optional<z3::expr> some_on(const compiled::SymbolicIssue& is) {
    z3::expr_vector some(ss_.ctx());
    for (int l = 0; l < address_lanes(q_.op); ++l)
      if (is.active[at(l)]) some.push_back(lane_on(is, l));
    if (some.empty()) return std::nullopt;
    return z3::mk_or(some);
  }

  // A lane's byte address: the Term in 64 bits (as the executor computes it), reduced to its
  // width, zero-extended to the encoder's.
  z3::expr address(const compiled::Term& t) const {
    const int w = std::clamp(t.w, 1, 32);
    return z3::zext(term_bv(t, w), e_.width() - static_cast<unsigned>(w));
  }

  // Every iteration symbol below 2^24: the iterations a launch may run (a summarized loop admits
  // others, where its counter wraps around).
  void iterations_a_launch_runs(std::vector<z3::expr>& qs) const {
    for (std::size_t i = 0; i < p_.size() && i < q_.symbols.size(); ++i)
      if (q_.symbols[i].kind == compiled::Symbol::Kind::iteration) qs.push_back(z3::ult(p_[i], ss_.ctx().bv_val(uint64_t{1} << 24, 64)));
  }

  const SymbolicQuery& q_;
  Session& ss_;
  Encoder e_;
  z3::expr i_;
  std::vector<z3::expr> p_, domain_;
  std::unordered_map<compiled::u32, z3::expr> cond_memo_;
};

}  // namespace

Outcome<SymbolicViolation> check_symbolic_z3(const SymbolicQuery& q, const SmtOptions& o) {
  Outcome<SymbolicViolation> out;
  if (q.issues.empty() && q.kind != SymbolicQuery::Kind::satisfiable) {
    out.kind = OutcomeKind::holds;
    return out;
  }
  if (q.kind == SymbolicQuery::Kind::max_ways) {
    AddressTrace shape;
    shape.op = q.op;
    shape.width_bytes = q.width_bytes;
    if (q.k + 1 > phase_size(shape)) {  // a bank of a phase holds at most one word per lane
      out.kind = OutcomeKind::holds;
      return out;
    }
  }
  try {
    Session ss(o, q.name, "compiled issues with free parameters");
    out = SymbolicSearch(q, ss).run();
    out.queries = ss.query_names();
  } catch (const z3::exception& e) {
    out.kind = OutcomeKind::error;
    out.text = std::string("z3: ") + e.msg();
  } catch (const std::exception& e) {
    out.kind = OutcomeKind::error;
    out.text = e.what();
  }
  return out;
}

}  // namespace layoutproof::proofs
