// The Z3 encoding of the bank claims (proofs/claims/bank_claims.hpp), symbolic over the instruction
// index k and the lanes. For pick i (a lane l_i and one of its words j_i):
//
//   row-per-lane   g = k / chunks, c = k % chunks, rows_g = (g == G-1 ? R - 32(G-1) : min(32,R))
//                  row = 32g + l % rows_g, col = c*vec, always active
//   linear         v = 32k + l, active: v < R*chunks, row = v / chunks, col = (v % chunks)*vec
//   ldmatrix .xN   m = l / 8, mat = N*k + m, active: l < 8N and mat < (R/8)*chunks,
//                  row = 8*(mat / chunks) + l % 8, col = (mat % chunks)*vec
//   thread layout  t = 32k + l, active: t < size(T), x = T(t), row = x % R, col = x / R
//
//   byte  a   = base + tile(row, col) * E   (then the byte swizzle)     tile(row,col) =
//             Sw(off + mode0(row) + mode1(col)) with mode_i at an index as in encode.hpp
//   word  w_i = a / 4 + j_i,  0 <= j_i < max(1, width/4);  bank b_i = w_i % 32
//   phase p_i = l_i / P,  P = 32 (width <= 4), 16 (width 8), 8 (width 16 and ldsm/stsm)
//
// conflict-free:  sat? 0 <= k < n, l_0 < l_1, both active, p_0 == p_1, b_0 == b_1, w_0 != w_1
// max-ways:K:     sat? K+1 picks l_0 < ... < l_K, all active, one phase, one bank, pairwise
//                 distinct words (a lane's <= 4 consecutive words lie in distinct banks, so
//                 lanes are distinct and ordering them loses nothing)
// unsat proves the claim; sat gives k (minimized) and the lanes, replayed by the caller.
#include "model/layout/notation.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/smt/encode.hpp"
#include "proofs/smt/session.hpp"

namespace layoutproof::proofs {
namespace {

using smt::Encoder;
using smt::Session;

i64 value(const z3::model& m, const z3::expr& e) { return static_cast<i64>(m.eval(e, true).get_numeral_uint64()); }

struct LaneTerms {
  z3::expr active, word, phase, bank;
};

class BankEncoding {
 public:
  BankEncoding(const BankSubject& s, const Encoder& e, z3::context& ctx, i64 n) : s_(s), e_(e), ctx_(ctx), n_(n) {
    const Layout& l = s.spec.tile.layout;
    rows_ = product(l.shape[0]);
    cols_ = product(l.shape[1]);
    chunks_ = cols_ / s.spec.vec;
    nwords_ = std::max(1, s.width_bytes / 4);
    phase_size_ = is_matrix_op(s.op) ? 8 : s.width_bytes <= 4 ? 32 : s.width_bytes == 8 ? 16 : 8;
  }
  int words_per_lane() const { return nwords_; }
  int phase_size() const { return phase_size_; }

  // The terms of pick (lane l, word j) of instruction k. Divisions by non-powers of two are
  // introduced as fresh quotient/remainder variables q, r with x = q*d + r, r < d (cheaper for
  // the bit-blaster than bvudiv/bvurem); `defs` holds those definitions.
  LaneTerms lane(const z3::expr& k, const z3::expr& l, const z3::expr& j, const std::string& tag) const {
    z3::expr active = ctx_.bool_val(true), row = e_.k(0), col = e_.k(0), defs = ctx_.bool_val(true);
    const i64 vec = s_.spec.vec;
    // x = q*d + r with 0 <= r < d and q <= xmax/d (x <= xmax on every active lane), so q*d + r
    // stays below the encoding's bound and cannot wrap: returns (q, r).
    auto divmod = [&](const z3::expr& x, i64 d, i64 xmax, const std::string& name) {
      const z3::expr q = e_.var(name + "_q" + tag), r = e_.var(name + "_r" + tag);
      defs = defs && x == q * e_.k(d) + r && z3::ult(r, e_.k(d)) && z3::ule(q, e_.k(xmax / d));
      return std::make_pair(q, r);
    };
    switch (s_.spec.pattern) {
      case PatternKind::row_per_lane: {
        const i64 groups = (rows_ + 31) / 32, last = rows_ - 32 * (groups - 1), full = std::min<i64>(32, rows_);
        const auto [g, c] = divmod(k, chunks_, n_, "k");
        z3::expr r = z3::urem(l, e_.k(full));
        if (last != full) r = z3::ite(g == e_.k(groups - 1), z3::urem(l, e_.k(last)), r);
        row = g * e_.k(32) + r;
        col = c * e_.k(vec);
        break;
      }
      case PatternKind::linear: {
        const z3::expr v = k * e_.k(32) + l;
        active = z3::ult(v, e_.k(rows_ * chunks_));
        const auto [q, r] = divmod(v, chunks_, rows_ * chunks_, "v");
        row = q;
        col = r * e_.k(vec);
        break;
      }
      case PatternKind::ldmatrix: {
        const i64 n = s_.spec.ldmatrix_count;
        const z3::expr mat = k * e_.k(n) + z3::udiv(l, e_.k(8));
        active = z3::ult(l, e_.k(8 * n)) && z3::ult(mat, e_.k(rows_ / 8 * chunks_));
        const auto [q, r] = divmod(mat, chunks_, rows_ / 8 * chunks_, "mat");
        row = q * e_.k(8) + z3::urem(l, e_.k(8));
        col = r * e_.k(vec);
        break;
      }
      case PatternKind::thread_layout: {
        const Layout& tl = *s_.spec.thread_layout;
        const z3::expr t = k * e_.k(32) + l;
        active = z3::ult(t, e_.k(size(tl)));
        const auto [q, r] = divmod(e_.at_index(tl, t), rows_, rows_ * cols_, "x");
        row = r;
        col = q;
        break;
      }
    }
    const AnyLayout& tile = s_.spec.tile;
    const z3::expr inner = e_.at_index(tile.layout.mode(0), row) + e_.at_index(tile.layout.mode(1), col);
    z3::expr byte = e_.k(s_.spec.base_address) + e_.compose(tile, inner) * e_.k(s_.spec.elem_bytes);
    if (s_.spec.byte_swizzle) byte = e_.swizzle(*s_.spec.byte_swizzle, byte);
    // word_of and bank_of_word (model/bank/bank.hpp), as terms over the byte address.
    const z3::expr word = z3::udiv(byte, e_.k(kBankBytes)) + j;
    return {active && defs, word, z3::udiv(l, e_.k(phase_size_)), z3::urem(word, e_.k(kBanks))};
  }

 private:
  const BankSubject& s_;
  const Encoder& e_;
  z3::context& ctx_;
  i64 n_ = 0, rows_ = 0, cols_ = 0, chunks_ = 0;
  int nwords_ = 1, phase_size_ = 32;
};

i64 bound_for(const BankSubject& s, i64 n) {
  i64 b = checked_add(checked_mul(smt::magnitude(s.spec.tile), s.spec.elem_bytes), s.spec.base_address < 0 ? -s.spec.base_address : s.spec.base_address);
  b = checked_add(b, 64);
  if (s.spec.byte_swizzle) b = std::max(b, i64{1} << std::min(s.spec.byte_swizzle->span_bits(), 60));
  if (s.spec.thread_layout) b = std::max(b, smt::magnitude(AnyLayout(*s.spec.thread_layout)));
  b = std::max(b, checked_mul(n + 1, 64));
  const Layout& l = s.spec.tile.layout;
  return std::max(b, checked_mul(product(l.shape[0]), product(l.shape[1])) * 8 + 64);
}

Outcome<BankViolation> search(const BankSubject& s, const BankClaim& c, Session& ss, i64 n, std::optional<i64> first_bad,
                              const std::vector<int>& hint_lanes) {
  Outcome<BankViolation> out;
  z3::context& ctx = ss.ctx();
  const Encoder e(ctx, smt::width_for(bound_for(s, n)));
  const BankEncoding enc(s, e, ctx, n);
  const int picks = c.kind == BankClaim::Kind::conflict_free ? 2 : c.k + 1;
  out.method = "z3 (symbolic over " + std::to_string(n) + " instructions x " + std::to_string(picks) + " lanes)";
  if (picks > enc.phase_size()) {  // a bank of a phase holds at most one word per lane
    out.kind = OutcomeKind::holds;
    out.method = "counting";
    out.text = "a phase has " + std::to_string(enc.phase_size()) + " lanes, each with at most one word per bank";
    return out;
  }
  const z3::expr k = e.var("k");
  std::vector<z3::expr> lanes, dom{z3::sge(k, e.k(0)), z3::slt(k, e.k(n))}, bad;
  std::vector<LaneTerms> terms;
  for (int i = 0; i < picks; ++i) {
    const z3::expr l = e.var("l" + std::to_string(i)), j = e.var("j" + std::to_string(i));
    dom.push_back(z3::ult(l, e.k(32)));
    dom.push_back(z3::ult(j, e.k(enc.words_per_lane())));
    lanes.push_back(l);
    terms.push_back(enc.lane(k, l, j, std::to_string(i)));
  }
  // Vacuity first: the instruction and lane domains alone.
  const std::string name = c.kind == BankClaim::Kind::conflict_free ? "conflict-free" : "max-ways:" + std::to_string(c.k);
  const auto vac = ss.check(name + ".vacuity", dom);
  if (vac.result != z3::sat) {
    out.kind = OutcomeKind::error;
    out.text = "vacuous: the instruction and lane domain of " + name + " is unsatisfiable or undecided";
    return out;
  }
  bad = dom;
  for (int i = 0; i < picks; ++i) {
    bad.push_back(terms[i].active);
    if (i > 0) {
      bad.push_back(z3::ult(lanes[i - 1], lanes[i]));
      bad.push_back(terms[i].phase == terms[0].phase);
      bad.push_back(terms[i].bank == terms[0].bank);
    }
    for (int q = 0; q < i; ++q) bad.push_back(terms[i].word != terms[q].word);
  }
  auto a = ss.check(name + ".violation", bad);
  if (a.result == z3::unknown) {
    out.kind = OutcomeKind::unknown;
    out.text = "z3 unknown on " + name + ".violation: " + a.reason;
    return out;
  }
  if (a.result == z3::unsat) {
    out.kind = OutcomeKind::holds;
    out.text = (c.kind == BankClaim::Kind::conflict_free
                    ? std::string("no two active lanes of one phase hit one bank at different words")
                    : "no bank of any phase holds " + std::to_string(picks) + " distinct words") +
               ", for all " + std::to_string(n) + " instructions";
    return out;
  }
  // Shrink: the smallest instruction index. With the oracle's first failing instruction as a hint,
  // one query confirms it (minimality is presentation, not soundness: the witness is replayed
  // either way); else binary search (unknown stops with the best so far).
  z3::model best = *a.model;
  i64 lo = 0, hi = value(best, k);
  if (first_bad && *first_bad < hi) {
    std::vector<z3::expr> q = bad;
    q.push_back(k == e.k(*first_bad));
    const auto m = ss.check(name + ".at_first", q);
    if (m.result == z3::sat) best = *m.model, hi = lo = *first_bad;
  } else if (first_bad && *first_bad == hi) {
    lo = hi;
  }
  for (int step = 1; lo < hi; ++step) {
    const i64 mid = lo + (hi - lo) / 2;
    std::vector<z3::expr> q = bad;
    q.push_back(z3::sle(k, e.k(mid)));
    const auto m = ss.check(name + ".min" + std::to_string(step), q);
    if (m.result == z3::sat) best = *m.model, hi = value(best, k);
    else if (m.result == z3::unsat) lo = mid + 1;
    else break;
  }
  // Shrink the lanes the same way: the oracle's lanes (smallest of its breaking collision) when
  // z3 confirms them at that instruction.
  if (hint_lanes.size() >= static_cast<std::size_t>(picks) && value(best, k) == hi) {
    std::vector<z3::expr> q = bad;
    q.push_back(k == e.k(hi));
    for (int i = 0; i < picks; ++i) q.push_back(lanes[i] == e.k(hint_lanes[i]));
    const auto m = ss.check(name + ".lanes", q);
    if (m.result == z3::sat) best = *m.model;
  }
  out.kind = OutcomeKind::violated;
  out.witness.instruction = value(best, k);
  for (const auto& l : lanes) out.witness.lanes.push_back(static_cast<int>(value(best, l)));
  return out;
}

}  // namespace

Outcome<BankViolation> check_bank_z3(const BankSubject& s, const BankClaim& c, const SmtOptions& o, std::optional<i64> first_bad,
                                     const std::vector<int>& hint_lanes) {
  Outcome<BankViolation> out;
  out.method = "z3";
  try {
    const i64 n = instruction_count(s);
    Session ss(o, c.text, s.text());
    out = search(s, c, ss, n, first_bad, hint_lanes);
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
