// The derived symbols' two definitions agree (model/compiled/ptx_exec.hpp Derived): Z3's encoding
// (proofs/smt/trace_z3.cpp, asked for a model with both operands fixed by one-value ranges) and
// the concrete one (compiled::symbol_values), for every operation, at 16, 32 and 64 bits, over
// edge values (0, 1, -1, the signed extremes, shift amounts past the width) and random ones; and
// with a narrower operand read zero-extended and a constant one (the forms widened() and the
// loop summary's parity make).
#include <gtest/gtest.h>

#include <random>

#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::proofs {
namespace {

using compiled::Derived;
using compiled::u64;

compiled::Symbol param(std::size_t i, int bits) {
  compiled::Symbol s;
  s.param = i;
  s.bits = bits;
  s.name = "p" + std::to_string(i);
  return s;
}

// The derived symbol op(a, b) at in_w bits over its two parameters (indexes ia, ib).
compiled::Symbol derived(Derived::Op op, int in_w, std::size_t ia, std::size_t ib) {
  compiled::Symbol s;
  s.kind = compiled::Symbol::Kind::derived;
  s.bits = in_w;
  s.def.op = op, s.def.w = s.def.in_w = in_w;
  s.def.a.c[ia] = 1, s.def.a.w = in_w;
  s.def.b.c[ib] = 1, s.def.b.w = in_w;
  return s;
}

// Per pair (a, b), op(a, b) by both definitions: Z3's model (one query for up to kPairs pairs,
// each operand fixed by a one-value range) and symbol_values.
constexpr std::size_t kPairs = compiled::kMaxSymbols / 3;
void compare(Derived::Op op, int w, const std::vector<std::pair<u64, u64>>& pairs, int& compared) {
  SymbolicQuery q;
  q.kind = SymbolicQuery::Kind::satisfiable;
  q.name = "derived";
  std::vector<u64> operands;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    q.symbols.push_back(param(2 * k, w)), q.symbols.push_back(param(2 * k + 1, w));
    operands.push_back(pairs[k].first), operands.push_back(pairs[k].second);
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) q.symbols.push_back(derived(op, w, 2 * k, 2 * k + 1));
  for (const compiled::Symbol& s : q.symbols) q.symbol_bits.push_back(s.bits);
  for (const u64 v : operands) {
    const i64 x = compiled::sign_extend(v, w);
    q.ranges.push_back(std::pair<i64, i64>{x, x});
  }
  q.ranges.resize(q.symbols.size());
  const Outcome<SymbolicViolation> z = check_symbolic_z3(q, SmtOptions{});
  ASSERT_EQ(z.kind, OutcomeKind::violated) << "op " << static_cast<int>(op) << " w " << w << ": " << z.text;
  const std::vector<u64> want = compiled::symbol_values(q.symbols, operands);
  for (std::size_t k = 0; k < pairs.size(); ++k, ++compared)
    EXPECT_EQ(z.witness.values.at(2 * pairs.size() + k), want.at(2 * pairs.size() + k))
        << "op " << static_cast<int>(op) << " w " << w << " a " << pairs[k].first << " b " << pairs[k].second;
}

TEST(DerivedSymbol, TheEncodingAndTheConcreteTwinAgree) {
  using Op = Derived::Op;
  const std::vector<Op> ops = {Op::add,   Op::sub,   Op::mul,   Op::mulhi_u, Op::mulhi_s, Op::div_u, Op::div_s, Op::rem_u, Op::rem_s,
                               Op::min_u, Op::min_s, Op::max_u, Op::max_s,   Op::and_,    Op::or_,   Op::xor_,  Op::shl,   Op::shr_u,
                               Op::shr_s};
  std::mt19937_64 rng(20261203);
  int compared = 0;
  for (const int w : {16, 32, 64}) {
    const u64 top = w == 64 ? ~u64{0} : (u64{1} << w) - 1, min = u64{1} << (w - 1);
    std::vector<u64> values = {0, 1, 2, 3, 7, 31, 32, 33, 63, 64, top, top - 1, min, min - 1};
    for (int r = 0; r < 6; ++r) values.push_back(rng() & top);
    for (const Op op : ops) {
      const bool shift = op == Op::shl || op == Op::shr_u || op == Op::shr_s;
      if (shift && w < 32) continue;  // shifts are derived at 32 and 64 bits only (alu_derived.cpp)
      std::vector<std::pair<u64, u64>> pairs;
      for (std::size_t i = 0; i < values.size(); i += 3)
        for (std::size_t j = 0; j < values.size(); j += 2) {
          const u64 a = values[i], b = values[j];
          const bool division = op == Op::div_u || op == Op::div_s || op == Op::rem_u || op == Op::rem_s;
          if (division && (b == 0 || b == top)) continue;  // derived only for known divisors other than 0 and -1
          pairs.push_back({a, b});
          if (pairs.size() == kPairs) compare(op, w, pairs, compared), pairs.clear();
        }
      if (!pairs.empty()) compare(op, w, pairs, compared);
    }
  }
  EXPECT_GT(compared, 1500);
}

// op(a, b) with a a term of aw bits over a parameter (read zero-extended: alu_derived.cpp widened,
// the loop summary's parity i & 1) and b the constant `b`, at w bits, by both definitions, for each
// of `values` (at most half the run's symbols: the other half are the results).
void compare_narrow(Derived::Op op, u64 b, int w, int aw, const std::vector<u64>& values, int& compared) {
  SymbolicQuery q;
  q.kind = SymbolicQuery::Kind::satisfiable;
  q.name = "derived.narrow";
  for (std::size_t k = 0; k < values.size(); ++k) q.symbols.push_back(param(k, w));
  for (std::size_t k = 0; k < values.size(); ++k) {
    compiled::Symbol d = derived(op, w, k, k);
    d.def.a.w = aw;
    d.def.b = compiled::Term{};
    d.def.b.c0 = b, d.def.b.w = w;
    q.symbols.push_back(d);
  }
  for (const compiled::Symbol& x : q.symbols) q.symbol_bits.push_back(x.bits);
  std::vector<u64> operands;
  for (const u64 v : values) {
    operands.push_back(compiled::mask_bits(v, w));
    const i64 x = compiled::sign_extend(operands.back(), w);
    q.ranges.push_back(std::pair<i64, i64>{x, x});
  }
  q.ranges.resize(q.symbols.size());
  const Outcome<SymbolicViolation> z = check_symbolic_z3(q, SmtOptions{});
  ASSERT_EQ(z.kind, OutcomeKind::violated) << z.text;
  const std::vector<u64> want = compiled::symbol_values(q.symbols, operands);
  for (std::size_t k = 0; k < values.size(); ++k, ++compared) {
    const u64 a = compiled::mask_bits(values[k], aw);  // the operand as the register holds it
    const u64 expect = compiled::mask_bits(op == Derived::Op::add ? a + b : op == Derived::Op::and_ ? (a & b) : (a ^ b), w);
    EXPECT_EQ(want.at(values.size() + k), expect) << "w " << w << " aw " << aw << " value " << values[k];
    EXPECT_EQ(z.witness.values.at(values.size() + k), expect) << "w " << w << " aw " << aw << " value " << values[k];
  }
}

TEST(DerivedSymbol, NarrowOperandsAndConstantsAgree) {
  using Op = Derived::Op;
  const std::vector<std::pair<Op, u64>> forms = {{Op::add, 0}, {Op::and_, 1}, {Op::add, 7}, {Op::xor_, 1}};
  const std::vector<std::vector<u64>> values = {{0, 1, 2, 3, 0x1f, 0x20, 0xff, 0x1234}, {0xffffffffu, ~u64{0}, 0x80000000u, 0x7fff}};
  int compared = 0;
  for (const int w : {32, 64})
    for (const int aw : {1, 2, 5, 8, 16})
      for (const auto& [op, b] : forms)
        for (const std::vector<u64>& v : values) compare_narrow(op, b, w, aw, v, compared);
  EXPECT_EQ(compared, 2 * 5 * 4 * 12);
}

}  // namespace
}  // namespace layoutproof::proofs
