// The ALU's bit operations (alu.hpp): and/or/xor, shifts and funnel shifts, bit-field extract
// and insert, byte permute, lop3's truth table; a term stays one where masked_term says so.
#include "model/compiled/exec/alu.hpp"

#include <algorithm>
#include <cstdint>

namespace layoutproof::compiled::alu {

// and/or/xor.pred where an operand is a condition over the symbols (ptx_machine.hpp cond_of) and
// the other known or one: a condition again (a known side decides or passes the other on).
bool Issue::cond_logic(int k, const Val& a, const Val& b) {
  if ((!a.known() && !cond_of(a)) || (!b.known() && !cond_of(b))) return false;
  const u32 why = cond_of(a) ? a.why : b.why;
  const bool cta = a.cta || b.cta;
  const auto out = [&](u32 x) {
    if (x == Machine::kNoCond) return false;
    put(k, cond_val(x, why, cta), 1);
    return true;
  };
  if (a.known() || b.known()) {
    const bool y = (a.known() ? a.v : b.v) & 1;
    const u32 x = cond_of(a.known() ? b : a);
    if (c.op == Op::and_ && !y) return put(k, result(0, {&a, &b}), 1), true;
    if (c.op == Op::or_ && y) return put(k, result(1, {&a, &b}), 1), true;
    return out(c.op == Op::xor_ && y ? m.cond_not(x) : x);
  }
  Cond j;
  j.kind = c.op == Op::and_ ? Cond::Kind::and_ : c.op == Op::or_ ? Cond::Kind::or_ : Cond::Kind::xor_;
  j.x = cond_of(a), j.y = cond_of(b);
  return out(m.cond(j));
}

// and, or, xor, shl, shr, shf, bfe, bfi, prmt, lop3.
void Issue::logic() {
  Col s0, s1, s2, s3;
  switch (c.op) {
    case Op::and_: case Op::or_: case Op::xor_: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        if ((a.why | b.why) && bits == 1 && (cond_of(a) || cond_of(b)) && cond_logic(k, a, b)) return;
        if ((a.why | b.why) && (a.known() || b.known()) && (a.sym || b.sym)) {
          // With a constant: a term again where masked_term says so (a truncation, known low bits
          // set or cleared), else not affine (below).
          const u64 mask = a.sym ? b.v : a.v;
          const auto op = [&](u64 x) { return c.op == Op::and_ ? x & mask : c.op == Op::or_ ? x | mask : x ^ mask; };
          if (bitwise(k, a.sym ? a : b, {&a, &b}, op(0), op(~u64{0}))) return;
        }
        const auto f = [&](u64 x, u64 y, u64) { return c.op == Op::and_ ? x & y : c.op == Op::or_ ? x | y : x ^ y; };
        if ((a.why | b.why) && (partly_bitwise(k, {&a, &b, nullptr}, bits, f) || unknown_of(k, {&a, &b}))) return;
        const u64 r = f(a.v, b.v, 0);
        put(k, result(r, {&a, &b}, one_placement({&a, &b})), bits);
      });
    }
    case Op::shl: case Op::shr: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        const u64 sh = mask_bits(b.v, 32);
        const auto f = [&](u64 x, u64, u64) {
          if (c.op == Op::shl) return sh >= static_cast<u64>(bits) ? 0 : x << sh;
          if (sgn) return static_cast<u64>(sign_extend(x, bits) >> std::min<u64>(sh, static_cast<u64>(bits - 1)));
          return sh >= static_cast<u64>(bits) ? 0 : mask_bits(x, bits) >> sh;
        };
        if ((a.why | b.why) &&
            ((c.op == Op::shl && b.known() &&
              affine(k, {&a}, -1, [&](std::array<Term, 4>& t, const std::array<bool, 4>&) -> std::optional<Term> {
                const u64 sh = mask_bits(b.v, 32), f = sh >= 64 ? 0 : u64{1} << sh;  // x << sh = x * 2^sh (mod 2^bits)
                t[0].c0 *= f;
                for (u64& x : t[0].c) x *= f;
                return t[0];
              })) ||
             (b.known() && partly_bitwise(k, {&a, nullptr, nullptr}, bits, f)) || unknown_of(k, {&a, &b})))
          return;
        put(k, result(f(a.v, 0, 0), {&a, &b}), bits);
      });
    }
    case Op::shf: {  // funnel shift of {b, a} (32-bit halves)
      gather(s0, 0), gather(s1, 1), gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], sa = s2[k];
        const u64 amount = c.clamp ? std::min<u64>(mask_bits(sa.v, 32), 32) : (sa.v & 31);
        const auto f = [&](u64 x, u64 y, u64) {
          const u64 both = (mask_bits(y, 32) << 32) | mask_bits(x, 32);
          return c.left ? (amount == 0 ? y : (both << amount) >> 32) : (both >> amount);
        };
        if ((a.why | b.why | sa.why) && ((sa.known() && partly_bitwise(k, {&a, &b, nullptr}, 32, f)) || unknown_of(k, {&a, &b, &sa})))
          return;
        put(k, result(f(a.v, b.v, 0), {&a, &b, &sa}), 32);
      });
    }
    case Op::bfe: {
      gather(s0, 0), gather(s1, 1), gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = s2[k];
        // The low len bits of a term, zero-extended: its truncation (bitwise in the term).
        if (a.sym && !sgn && b.known() && (b.v & 0xff) == 0 && cc.known() &&
            bitwise(k, a, {&a, &b, &cc}, 0, bfe(~u64{0}, 0, cc.v, bits, false)))
          return;
        const auto f = [&](u64 x, u64, u64) { return bfe(mask_bits(x, bits), b.v, cc.v, bits, sgn); };
        if ((a.why | b.why | cc.why) &&
            ((b.known() && cc.known() && partly_bitwise(k, {&a, nullptr, nullptr}, bits, f)) || unknown_of(k, {&a, &b, &cc})))
          return;
        put(k, result(f(a.v, 0, 0), {&a, &b, &cc}), bits);
      });
    }
    case Op::bfi: {
      gather(s0, 0), gather(s1, 1), gather(s2, 2), gather(s3, 3);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = s2[k], d = s3[k];
        const auto f = [&](u64 x, u64 y, u64) { return bfi(x, y, cc.v, d.v, bits); };
        if ((a.why | b.why | cc.why | d.why) &&
            ((cc.known() && d.known() && partly_bitwise(k, {&a, &b, nullptr}, bits, f)) || unknown_of(k, {&a, &b, &cc, &d})))
          return;
        put(k, result(f(a.v, b.v, 0), {&a, &b, &cc, &d}), bits);
      });
    }
    case Op::prmt: {
      if (!c.prmt_default) return not_modelled(m.mnemonic(in) + ": a prmt mode (not modelled)");
      gather(s0, 0), gather(s1, 1), gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = s2[k];
        const auto f = [&](u64 x, u64 y, u64) { return prmt(x, y, cc.v); };
        if ((a.why | b.why | cc.why) && ((cc.known() && partly_bitwise(k, {&a, &b, nullptr}, 32, f)) || unknown_of(k, {&a, &b, &cc})))
          return;
        put(k, result(f(a.v, b.v, 0), {&a, &b, &cc}), 32);
      });
    }
    case Op::lop3: {
      gather(s0, 0), gather(s1, 1), gather(s2, 2), gather(s3, 3);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = s2[k], lut = s3[k];
        if ((a.why | b.why | cc.why) && lut.known() && (a.sym != 0) + (b.sym != 0) + (cc.sym != 0) == 1 && (a.sym || a.known()) &&
            (b.sym || b.known()) && (cc.sym || cc.known())) {  // one term, the rest known: a bitwise operation on the term
          const auto at = [&](u64 x) { return lop3(a.sym ? x : a.v, b.sym ? x : b.v, cc.sym ? x : cc.v, lut.v & 0xff, bits); };
          if (bitwise(k, a.sym ? a : b.sym ? b : cc, {&a, &b, &cc}, at(0), at(~u64{0}))) return;
        }
        const auto f = [&](u64 x, u64 y, u64 z) { return lop3(x, y, z, lut.v & 0xff, bits); };
        if ((a.why | b.why | cc.why | lut.why) &&
            ((lut.known() && partly_bitwise(k, {&a, &b, &cc}, bits, f)) || unknown_of(k, {&a, &b, &cc, &lut})))
          return;
        put(k, result(f(a.v, b.v, cc.v), {&a, &b, &cc}, one_placement({&a, &b, &cc})), bits);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled::alu
