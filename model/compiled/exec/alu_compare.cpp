// The ALU's comparisons and selections (alu.hpp): setp (with its boolean combination and
// second destination), selp.
#include "model/compiled/exec/alu.hpp"
#include "model/compiled/exec/float_arith.hpp"

#include <algorithm>
#include <cstdint>

namespace layoutproof::compiled::alu {

// setp of terms (ptx_exec.hpp Cond): an integer comparison where each side is known or a term and
// the combined predicate known or a condition, written as a condition (cond_val); false when it
// is not one (the caller makes it unknown). A side narrower than the comparison is its term mod
// 2^symw zero-extended: the Cond keeps each side's width.
bool Issue::symbolic_compare(int k, const Val& a, const Val& b, const Val* cc) {
  const auto side = [&](const Val& v, Term& t) {
    if (v.known()) {
      t = Term{};
      t.c0 = mask_bits(v.v, bits);
      return true;
    }
    if (!v.sym) return false;
    t = m.terms[v.sym];
    t.w = std::min<int>(v.symw, bits);
    return true;
  };
  Cond c;
  c.cmp = this->c.cmp;
  c.is_signed = sgn;
  c.w = bits;
  if (!side(a, c.a) || !side(b, c.b)) return false;
  const u32 acc = cc ? cond_of(*cc) : 0;
  if (cc && !cc->known() && !acc) return false;
  const bool sym = !a.known() || !b.known();
  u32 p = 0;
  if (sym && (p = m.cond(c)) == Machine::kNoCond) return false;
  const bool cta = a.cta || b.cta || (cc && cc->cta);
  const u32 why = m.reason_once(in, 3, [&] {
    return m.mnemonic(in) + " compares values computed from free parameters or %ctaid: a condition, decided for every value";
  });
  // x (a condition, or the known comparison when no side is a term) combined with the predicate.
  const auto combine = [&](bool negate) -> std::optional<Val> {
    u32 x = p;
    bool known = false, kv = false;
    if (!sym) known = true, kv = compare(c.cmp, a.v, b.v, bits, sgn) != negate;
    else if (negate && (x = m.cond_not(x)) == Machine::kNoCond) return std::nullopt;
    if (cc) {
      if (cc->known()) {
        const bool y = cc->v != 0;
        if (known) kv = this->c.boolop == BoolOp::and_ ? kv && y : this->c.boolop == BoolOp::or_ ? kv || y : kv != y;
        else if (this->c.boolop == BoolOp::and_ && !y) known = true, kv = false;
        else if (this->c.boolop == BoolOp::or_ && y) known = true, kv = true;
        else if (this->c.boolop == BoolOp::xor_ && y && (x = m.cond_not(x)) == Machine::kNoCond) return std::nullopt;
      } else {
        Cond j;
        j.kind = this->c.boolop == BoolOp::and_ ? Cond::Kind::and_ : this->c.boolop == BoolOp::or_ ? Cond::Kind::or_ : Cond::Kind::xor_;
        if (known) {  // a known comparison with a condition
          if ((j.kind == Cond::Kind::and_ && !kv) || (j.kind == Cond::Kind::or_ && kv)) return result(kv, {&a, &b});
          x = j.kind == Cond::Kind::xor_ && kv ? m.cond_not(acc) : acc;
          if (x == Machine::kNoCond) return std::nullopt;
          return cond_val(x, why, cta);
        }
        j.x = x, j.y = acc;
        if ((x = m.cond(j)) == Machine::kNoCond) return std::nullopt;
      }
    }
    if (known) return result(kv, {&a, &b});
    return cond_val(x, why, cta);
  };
  const auto r = combine(false);
  const auto r2 = in.dual && n > 1 ? combine(true) : std::optional<Val>(Val{});
  if (!r || !r2) return false;
  put(k, *r, 1);
  if (in.dual && n > 1) write_operand(lanes[k], f, arg(f, in, 1), *r2, 1);
  return true;
}

// setp, selp.
void Issue::select() {
  Col s0, s1, s2;
  switch (c.op) {
    case Op::setp: {
      // Integer comparisons (lo .. hs: unsigned), and on .f32/.f64 the floating-point ones, NaN
      // aware (float_arith.hpp: eq .. ge, equ .. nan).
      const bool float_cmp = fl && (bits == 32 || bits == 64) && c.cmp != Cmp::none && (c.cmp < Cmp::lo || c.cmp >= Cmp::equ);
      const bool int_cmp = !fl && c.cmp != Cmp::none && c.cmp < Cmp::equ;
      if (!float_cmp && !int_cmp) return not_modelled(m.mnemonic(in) + ": this comparison is not modelled");
      const bool has_c = static_cast<int>(n) > src0 + 2;
      gather(s0, 0), gather(s1, 1);
      if (has_c) gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = has_c ? s2[k] : Val{};
        if ((a.why | b.why | cc.why) && int_cmp && symbolic_compare(k, a, b, has_c ? &cc : nullptr)) return;
        if ((a.why | b.why | cc.why) && unknown_of(k, {&a, &b, has_c ? &cc : nullptr})) return;
        const bool p = fl ? *float_compare(c.cmp, bits, c.ftz, a.v, b.v) : compare(c.cmp, a.v, b.v, bits, sgn);
        const auto combine = [&](bool x) {
          if (!has_c) return x;
          const bool y = cc.v != 0;
          return c.boolop == BoolOp::and_ ? x && y : c.boolop == BoolOp::or_ ? x || y : x != y;
        };
        put(k, result(combine(p), {&a, &b, &cc}), 1);
        if (in.dual && n > 1) write_operand(lanes[k], f, arg(f, in, 1), result(combine(!p), {&a, &b, &cc}), 1);
      });
    }
    case Op::selp: {
      gather(s0, 0), gather(s1, 1), gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], p = s2[k];
        if (p.why && unknown_of(k, {&p})) return;
        const Val& pick = p.v ? a : b;
        if (!pick.known()) return put(k, pick, pick.sym ? bits : 64);
        put(k, result(pick.v, {&pick, &p}, pick.placement), bits);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled::alu
