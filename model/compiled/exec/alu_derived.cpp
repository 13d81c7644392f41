// Operations on terms that are not affine in them (alu.hpp Issue::derive): a derived symbol each.
#include "model/compiled/exec/alu.hpp"

#include <array>
#include <optional>

namespace layoutproof::compiled::alu {
namespace {

using D = Derived::Op;
constexpr std::size_t kKeptForLoops = 4;

// The derived operation of an opcode at its type (Op::none: not one it defines).
D derived_op(const Opcode& c, bool sgn) {
  switch (c.op) {
    case Op::add: return c.sat ? D::none : D::add;
    case Op::sub: return c.sat ? D::none : D::sub;
    case Op::mul: return c.wide ? (sgn ? D::mulwide_s : D::mulwide_u) : c.hi ? (sgn ? D::mulhi_s : D::mulhi_u) : D::mul;
    case Op::div: return sgn ? D::div_s : D::div_u;
    case Op::rem: return sgn ? D::rem_s : D::rem_u;
    case Op::min: return sgn ? D::min_s : D::min_u;
    case Op::max: return sgn ? D::max_s : D::max_u;
    case Op::and_: return D::and_;
    case Op::or_: return D::or_;
    case Op::xor_: return D::xor_;
    case Op::shl: return D::shl;
    case Op::shr: return sgn ? D::shr_s : D::shr_u;
    default: return D::none;
  }
}

// v as an operand of a derived symbol: its constant, or its term at its width (Derived: read
// zero-extended, as the register holds it).
Term operand(const Machine& m, const Val& v) {
  Term t;
  if (v.known()) {
    t.c0 = v.v;
    return t;
  }
  t = m.terms[v.sym];
  t.w = v.symw;
  t.c0 = mask_bits(t.c0, v.symw);
  for (u64& x : t.c) x = mask_bits(x, v.symw);
  return t;
}

}  // namespace

bool Issue::derive(int k, std::initializer_list<const Val*> vs) {
  std::array<const Val*, 2> in2{};
  std::size_t n = 0;
  for (const Val* v : vs)
    if (v) {
      if (n == 2) return false;
      in2[n++] = v;
    }
  if (n != 2 || fl || c.float_op || bits < 8 || bits > 64) return false;
  const D op = derived_op(c, sgn);
  if (op == D::none) return false;
  const Val& a = *in2[0];
  const Val& b = *in2[1];
  if ((op == D::shl || op == D::shr_u || op == D::shr_s) && bits < 32) return false;
  // A division by a symbol may divide by zero (unspecified): only known nonzero divisors (and not
  // -1, whose signed overflow is unspecified too).
  if (op == D::div_u || op == D::div_s || op == D::rem_u || op == D::rem_s)
    if (!b.known() || mask_bits(b.v, bits) == 0 || (sgn && sign_extend(b.v, bits) == -1)) return false;
  // A widening product is a global address's (one per lane): never worth a symbol. And the last
  // symbols are kept for the CTA and a loop's iteration, which lanes share.
  if (op == D::mulwide_u || op == D::mulwide_s) return false;
  if (m.symbols.size() + kKeptForLoops >= static_cast<std::size_t>(kMaxSymbols)) return false;
  Derived d;
  d.op = op;
  d.in_w = bits;
  d.w = op == D::mulwide_u || op == D::mulwide_s ? 2 * bits : bits;
  d.a = operand(m, a);
  d.b = operand(m, b);
  const int s = m.derived(d, "line " + std::to_string(in.line) + ": " + m.mnemonic(in));
  if (s < 0) return false;
  Term t;
  t.w = d.w;
  t.c[static_cast<std::size_t>(s)] = 1;
  Val r = m.symbolic(t, d.w, a.sym ? a.why : b.why, -1, a.cta || b.cta);
  if (!r.sym) return false;
  put(k, r, d.w);
  return true;
}

std::optional<Term> Issue::widened(const Val& v) {
  if (!v.sym || v.symw >= bits || bits < 8 || bits > 64) return std::nullopt;
  const Term a = operand(m, v);
  if (a.c0 != 0) return std::nullopt;
  if (m.symbols.size() + kKeptForLoops >= static_cast<std::size_t>(kMaxSymbols)) return std::nullopt;
  Derived d;
  d.op = D::add;  // a + 0: the term's value, zero-extended to `bits`
  d.in_w = d.w = bits;
  d.a = a;
  const int s = m.derived(d, "line " + std::to_string(in.line) + ": " + m.mnemonic(in) + " of a " + std::to_string(v.symw) + "-bit value");
  if (s < 0) return std::nullopt;
  Term t;
  t.w = bits;
  t.c[static_cast<std::size_t>(s)] = 1;
  return t;
}

}  // namespace layoutproof::compiled::alu
