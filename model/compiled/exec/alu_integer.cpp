// The ALU's integer arithmetic (alu.hpp), as the PTX ISA defines it at every width: results
// masked to the type's bits, signed operations sign-extending their operands from that width.
#include "model/compiled/exec/alu.hpp"

#include <algorithm>
#include <cstdint>

namespace layoutproof::compiled::alu {

// add, sub (.sat), mul/mad (.lo .hi .wide, 24-bit), div, rem, min, max.
void Issue::arithmetic() {
  Col s0, s1, s2;
  switch (c.op) {
    case Op::add: case Op::sub: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        if ((a.why | b.why) &&
            ((!c.sat && affine(k, {&a, &b}, c.op == Op::add ? one_placement({&a, &b}) : (b.placement < 0 ? a.placement : -1),
                               [&](std::array<Term, 4>& t, const std::array<bool, 4>&) -> std::optional<Term> {
                                 const u64 sg = c.op == Op::add ? 1 : ~u64{0};
                                 t[0].c0 += sg * t[1].c0;
                                 for (int i = 0; i < kMaxSymbols; ++i) t[0].c[static_cast<std::size_t>(i)] += sg * t[1].c[static_cast<std::size_t>(i)];
                                 return t[0];
                               })) ||
             (!c.sat && partly_low(k, {&a, &b}, c.op == Op::add ? a.v + b.v : a.v - b.v, bits)) || unknown_of(k, {&a, &b})))
          return;
        u64 r = c.op == Op::add ? a.v + b.v : a.v - b.v;
        if (c.sat) {
          const i64 x = sign_extend(a.v, 32), y = sign_extend(b.v, 32);
          i64 sum = c.op == Op::add ? x + y : x - y;
          sum = std::min<i64>(std::max<i64>(sum, INT32_MIN), INT32_MAX);
          r = static_cast<u64>(sum);
        }
        const int p = c.op == Op::add ? one_placement({&a, &b}) : (b.placement < 0 ? a.placement : -1);
        put(k, result(r, {&a, &b}, p), bits);
      });
    }
    case Op::mul: case Op::mad: case Op::mul24: case Op::mad24: {
      const bool mad = c.op == Op::mad || c.op == Op::mad24;
      gather(s0, 0), gather(s1, 1);
      if (mad) gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = mad ? s2[k] : Val{};
        if ((a.why | b.why | cc.why) &&
            ((!c.wide && !c.hi && (c.op == Op::mul || c.op == Op::mad) &&
              affine(k, {&a, &b, &cc}, mad && a.placement < 0 && b.placement < 0 ? cc.placement : -1,
                     [&](std::array<Term, 4>& t, const std::array<bool, 4>& sy) -> std::optional<Term> {
                       if (sy[0] && sy[1]) return std::nullopt;  // a product of two terms
                       Term r = sy[0] ? t[0] : t[1];
                       const u64 f = sy[0] ? t[1].c0 : t[0].c0;
                       r.c0 *= f;
                       for (u64& x : r.c) x *= f;
                       r.c0 += t[2].c0;  // mad's addend (0 for mul)
                       for (int i = 0; i < kMaxSymbols; ++i) r.c[static_cast<std::size_t>(i)] += t[2].c[static_cast<std::size_t>(i)];
                       return r;
                     })) ||
             (!c.wide && !c.hi && (c.op == Op::mul || c.op == Op::mad) &&
              partly_low(k, {&a, &b, mad ? &cc : nullptr}, a.v * b.v + (mad ? cc.v : 0), bits)) ||
             unknown_of(k, {&a, &b, mad ? &cc : nullptr})))
          return;
        u64 r;
        int w = bits;
        if (c.op == Op::mul24 || c.op == Op::mad24) {
          if (c.hi) return put(k, unknown(m.reason_at(in, m.mnemonic(in) + ": .hi of a 24-bit product (not modelled)")), 64);
          const u64 x = sgn ? static_cast<u64>(sign_extend(a.v, 24)) : mask_bits(a.v, 24);
          const u64 y = sgn ? static_cast<u64>(sign_extend(b.v, 24)) : mask_bits(b.v, 24);
          r = x * y;
        } else if (c.wide) {
          const u64 x = sgn ? static_cast<u64>(sign_extend(a.v, bits)) : mask_bits(a.v, bits);
          const u64 y = sgn ? static_cast<u64>(sign_extend(b.v, bits)) : mask_bits(b.v, bits);
          r = x * y;
          w = std::min(2 * bits, 64);
        } else if (c.hi) {
          using i128 = __int128;
          using u128 = unsigned __int128;
          const u128 prod = sgn ? static_cast<u128>(static_cast<i128>(sign_extend(a.v, bits)) * static_cast<i128>(sign_extend(b.v, bits)))
                                : static_cast<u128>(mask_bits(a.v, bits)) * static_cast<u128>(mask_bits(b.v, bits));
          r = static_cast<u64>(prod >> bits);
        } else {
          r = a.v * b.v;
        }
        if (mad) r += cc.v;
        const int p = mad && a.placement < 0 && b.placement < 0 ? cc.placement : -1;
        put(k, result(r, {&a, &b, &cc}, p), w);
      });
    }
    case Op::div: case Op::rem: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        if ((a.why | b.why) && unknown_of(k, {&a, &b})) return;
        if (mask_bits(b.v, bits) == 0) return put(k, unknown(m.reason_at(in, "a division by zero (the result is unspecified)")), 64);
        u64 r;
        if (sgn) {
          const i64 x = sign_extend(a.v, bits), y = sign_extend(b.v, bits);
          if (y == -1 && x == (bits >= 64 ? INT64_MIN : -(i64{1} << (bits - 1))))
            return put(k, unknown(m.reason_at(in, "a signed division overflow (the result is unspecified)")), 64);
          r = static_cast<u64>(c.op == Op::div ? x / y : x % y);
        } else {
          r = c.op == Op::div ? mask_bits(a.v, bits) / mask_bits(b.v, bits) : mask_bits(a.v, bits) % mask_bits(b.v, bits);
        }
        put(k, result(r, {&a, &b}), bits);
      });
    }
    case Op::min: case Op::max: {
      gather(s0, 0), gather(s1, 1);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k];
        if ((a.why | b.why) && unknown_of(k, {&a, &b})) return;
        const bool lt = compare(Cmp::lt, a.v, b.v, bits, sgn);
        const Val& pick = (c.op == Op::min) == lt ? a : b;
        put(k, result(pick.v, {&a, &b}, pick.placement), bits);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

// abs, neg, not, cnot, clz, popc, brev, bfind.
void Issue::unary() {
  Col s0;
  switch (c.op) {
    case Op::abs: case Op::neg: case Op::not_: case Op::cnot: case Op::clz: case Op::popc: case Op::brev: case Op::bfind: {
      gather(s0, 0);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k];
        if (a.why && c.op == Op::not_ && bits == 1 && cond_of(a)) {  // not.pred of a condition
          const u32 x = m.cond_not(cond_of(a));
          if (x != Machine::kNoCond) return put(k, cond_val(x, a.why, a.cta), 1);
        }
        if (a.why && (((c.op == Op::neg || c.op == Op::not_) &&
                       affine(k, {&a}, -1, [&](std::array<Term, 4>& t, const std::array<bool, 4>&) -> std::optional<Term> {
                         t[0].c0 = 0 - t[0].c0;  // neg: -x; not: ~x = -x - 1
                         for (u64& x : t[0].c) x = 0 - x;
                         if (c.op == Op::not_) t[0].c0 -= 1;
                         return t[0];
                       })) ||
                      ((c.op == Op::neg || c.op == Op::not_) && partly_low(k, {&a}, c.op == Op::neg ? 0 - a.v : ~a.v, bits)) ||
                      unknown_of(k, {&a})))
          return;
        const u64 x = mask_bits(a.v, bits);
        u64 r = 0;
        int w = bits;
        switch (c.op) {
          case Op::abs: r = static_cast<u64>(sign_extend(x, bits) < 0 ? -sign_extend(x, bits) : sign_extend(x, bits)); break;
          case Op::neg: r = 0 - x; break;
          case Op::not_: r = ~x; break;
          case Op::cnot: r = x == 0 ? 1 : 0; break;
          case Op::clz: r = static_cast<u64>(bits - (x ? std::bit_width(x) : 0)), w = 32; break;
          case Op::popc: r = static_cast<u64>(std::popcount(x)), w = 32; break;
          case Op::brev: for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i); break;
          default: {  // bfind: the most significant non-sign bit, 0xffffffff when none
            const u64 y = sgn && sign_extend(x, bits) < 0 ? mask_bits(~x, bits) : x;
            w = 32;
            if (y == 0) r = 0xffffffffu;
            else {
              const u64 msb = static_cast<u64>(std::bit_width(y) - 1);
              r = c.shiftamt ? static_cast<u64>(bits - 1) - msb : msb;
            }
          }
        }
        put(k, result(r, {&a}), w);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled::alu
