// The ALU's comparisons and selections (alu.hpp): setp (with its boolean combination and
// second destination), selp.
#include "model/compiled/exec/alu.hpp"
#include "model/compiled/exec/float_arith.hpp"

#include <algorithm>
#include <cstdint>

namespace layoutproof::compiled::alu {

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
