// The ALU's bit operations (alu.hpp): and/or/xor, shifts and funnel shifts, bit-field extract
// and insert, byte permute, lop3's truth table; a term stays one where masked_term says so.
#include "model/compiled/exec/alu.hpp"

#include <algorithm>
#include <cstdint>

namespace layoutproof::compiled::alu {

// and, or, xor, shl, shr, shf, bfe, bfi, prmt, lop3.
void Issue::logic() {
  Col s0, s1, s2, s3;
  switch (c.op) {
    case Op::and_: case Op::or_: case Op::xor_: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        if ((a.why | b.why) && (a.known() || b.known()) && (a.sym || b.sym)) {
          // With a constant: a term again where masked_term says so (a truncation, known low bits
          // set or cleared), else not affine (below).
          const u64 mask = a.sym ? b.v : a.v;
          const auto op = [&](u64 x) { return c.op == Op::and_ ? x & mask : c.op == Op::or_ ? x | mask : x ^ mask; };
          if (bitwise(k, a.sym ? a : b, {&a, &b}, op(0), op(~u64{0}))) return;
        }
        if ((a.why | b.why) && unknown_of(k, {&a, &b})) return;
        const u64 r = c.op == Op::and_ ? a.v & b.v : c.op == Op::or_ ? a.v | b.v : a.v ^ b.v;
        put(k, result(r, {&a, &b}, one_placement({&a, &b})), bits);
      });
    }
    case Op::shl: case Op::shr: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        if ((a.why | b.why) &&
            ((c.op == Op::shl && b.known() &&
              affine(k, {&a}, -1, [&](std::array<Term, 4>& t, const std::array<bool, 4>&) -> std::optional<Term> {
                const u64 sh = mask_bits(b.v, 32), f = sh >= 64 ? 0 : u64{1} << sh;  // x << sh = x * 2^sh (mod 2^bits)
                t[0].c0 *= f;
                for (u64& x : t[0].c) x *= f;
                return t[0];
              })) ||
             unknown_of(k, {&a, &b})))
          return;
        const u64 sh = mask_bits(b.v, 32);
        u64 r;
        if (c.op == Op::shl) r = sh >= static_cast<u64>(bits) ? 0 : a.v << sh;
        else if (sgn) r = static_cast<u64>(sign_extend(a.v, bits) >> std::min<u64>(sh, static_cast<u64>(bits - 1)));
        else r = sh >= static_cast<u64>(bits) ? 0 : mask_bits(a.v, bits) >> sh;
        put(k, result(r, {&a, &b}), bits);
      });
    }
    case Op::shf: {  // funnel shift of {b, a} (32-bit halves)
      gather(s0, 0), gather(s1, 1), gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], sa = s2[k];
        if ((a.why | b.why | sa.why) && unknown_of(k, {&a, &b, &sa})) return;
        const u64 amount = c.clamp ? std::min<u64>(mask_bits(sa.v, 32), 32) : (sa.v & 31);
        const u64 both = (mask_bits(b.v, 32) << 32) | mask_bits(a.v, 32);
        const u64 r = c.left ? (amount == 0 ? b.v : (both << amount) >> 32) : (both >> amount);
        put(k, result(r, {&a, &b, &sa}), 32);
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
        if ((a.why | b.why | cc.why) && unknown_of(k, {&a, &b, &cc})) return;
        put(k, result(bfe(mask_bits(a.v, bits), b.v, cc.v, bits, sgn), {&a, &b, &cc}), bits);
      });
    }
    case Op::bfi: {
      gather(s0, 0), gather(s1, 1), gather(s2, 2), gather(s3, 3);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = s2[k], d = s3[k];
        if ((a.why | b.why | cc.why | d.why) && unknown_of(k, {&a, &b, &cc, &d})) return;
        put(k, result(bfi(a.v, b.v, cc.v, d.v, bits), {&a, &b, &cc, &d}), bits);
      });
    }
    case Op::prmt: {
      if (!c.prmt_default) return not_modelled(m.mnemonic(in) + ": a prmt mode (not modelled)");
      gather(s0, 0), gather(s1, 1), gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = s2[k];
        if ((a.why | b.why | cc.why) && unknown_of(k, {&a, &b, &cc})) return;
        put(k, result(prmt(a.v, b.v, cc.v), {&a, &b, &cc}), 32);
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
        if ((a.why | b.why | cc.why | lut.why) && unknown_of(k, {&a, &b, &cc, &lut})) return;
        put(k, result(lop3(a.v, b.v, cc.v, lut.v & 0xff, bits), {&a, &b, &cc}, one_placement({&a, &b, &cc})), bits);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled::alu
