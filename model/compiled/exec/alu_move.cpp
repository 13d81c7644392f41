// The ALU's moves and conversions (alu.hpp): mov (packing and unpacking vectors), cvta between
// the shared and generic windows, cvt between integer widths (.sat clamps).
#include "model/compiled/exec/alu.hpp"

#include <algorithm>
#include <cstdint>

namespace layoutproof::compiled::alu {

// mov, cvta: the value kept, its placement and window with it.
void Issue::move() {
  switch (c.op) {
    case Op::mov: {
      const Operand& s = arg(f, in, 1);
      if (s.kind == OK::vec) {  // pack {%r1, %r2} into one register
        const int part = bits / static_cast<int>(std::max<u32>(s.count, 1));
        return each(g.mask, [&](int k) __attribute__((always_inline)) {
          u64 r = 0;
          Val o;
          for (u32 e = 0; e < s.count; ++e) {
            const Val x = read_operand(m, lanes[k], f, f.operands[s.index + e], in);
            if (!x.known()) return put(k, unknown(x.why), 64);
            r |= mask_bits(x.v, part) << (part * static_cast<int>(e));
            o.cta = o.cta || x.cta;
            o.window = o.window || x.window;
          }
          o.v = r;
          put(k, o, bits);
        });
      }
      Col a;
      gather(a, 0);
      if (dst.kind == OK::vec) {  // unpack one register into {%r1, %r2}
        const int part = bits / static_cast<int>(std::max<u32>(dst.count, 1));
        return each(g.mask, [&](int k) __attribute__((always_inline)) {
          const Val x = a[k];
          for (u32 e = 0; e < dst.count; ++e) {
            Val p = x;
            p.placement = -1;
            p.sym = 0;  // a part of a term is not a term
            const int from = part * static_cast<int>(e);
            p.v = mask_bits(from >= 64 ? 0 : x.v >> from, part);
            p.lowk = x.sym ? 0 : static_cast<u8>(std::clamp(x.lowk - from, 0, part));  // a partly known value's known bits in this part
            write_operand(lanes[k], f, f.operands[dst.index + e], p, part);
          }
        });
      }
      return each(g.mask, [&](int k) __attribute__((always_inline)) { put(k, a[k], bits); });
    }
    case Op::cvta: {  // shared <-> generic windows: the offset is kept (see ptx_exec.hpp)
      Col a;
      gather(a, 0);
      if (c.space == Space::generic && in.count == 3) {  // SASS: a generic address's two words (lo, hi)
        Col hi;
        gather(hi, 1);
        return each(g.mask, [&](int k) __attribute__((always_inline)) {
          const Val& h = hi[k];
          if (!h.known() && !h.sym) return put(k, h, bits);  // not known whether it is in the window
          Val v = a[k];
          if (h.window && (h.sym || h.v != kSharedWindowHi))
            return put(k, unknown(m.reason_at(in, "a generic address whose high word was computed from SR_SWINHI and differs from it")), bits);
          v.window = h.window;  // in the shared window exactly where the high word is SR_SWINHI's
          put(k, v, bits);
        });
      }
      // cvta.shared makes a generic address in the shared window (a generic access through it
      // touches shared memory: ptx_sites.cpp); cvta.to.shared makes a shared-space one again.
      const bool shared = c.space == Space::shared || c.space == Space::shared_cluster;
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        Val v = a[k];
        if (shared) v.window = !c.to;
        put(k, v, bits);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

// cvt: integer to integer, sign- or zero-extended from the source's width, clamped by .sat.
void Issue::convert() {
  switch (c.op) {
    case Op::cvt: {
      if (c.src.kind == TypeKind::none) return not_modelled(m.mnemonic(in) + ": a conversion without a source type");
      if (fl || c.src.is_float()) return float_convert();
      Col ca;
      gather(ca, 0);
      const int sb = c.src.bits;
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = ca[k];
        if (a.sym && !c.sat && !(c.src.is_signed() && a.symw >= sb && bits > sb)) {
          // The term mod 2^min(w, source bits), zero-extended: a sign extension of a term whose
          // sign bit may be set is not affine (unknown below).
          Val r = a;
          r.symw = static_cast<u8>(std::min<int>(a.symw, sb));
          return put(k, r, bits);
        }
        // A partly known source: its known low bits survive an extension (all bits where they cover
        // the source: then its sign bit is known too) and a truncation.
        if (a.why && !c.sat && !a.sym && a.lowk > 0) {
          const u64 ext = c.src.is_signed() ? static_cast<u64>(sign_extend(a.v, sb)) : mask_bits(a.v, sb);
          if (partly(k, {&a}, ext, a.lowk >= sb ? 64 : a.lowk, bits)) return;
        }
        if (a.why && unknown_of(k, {&a})) return;
        u64 v = c.src.is_signed() ? static_cast<u64>(sign_extend(a.v, sb)) : mask_bits(a.v, sb);
        if (c.sat) {  // clamp to the destination's range
          const bool from_neg = c.src.is_signed() && sign_extend(a.v, sb) < 0;
          if (sgn) {
            const i64 lo = bits >= 64 ? INT64_MIN : -(i64{1} << (bits - 1)), hi = bits >= 64 ? INT64_MAX : (i64{1} << (bits - 1)) - 1;
            if (from_neg) v = static_cast<u64>(std::max(lo, static_cast<i64>(v)));
            else v = static_cast<u64>(std::min<u64>(v, static_cast<u64>(hi)));
          } else {
            const u64 hi = bits >= 64 ? ~u64{0} : (u64{1} << bits) - 1;
            v = from_neg ? 0 : std::min(v, hi);
          }
        }
        put(k, result(v, {&a}, a.placement), bits);
      });
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled::alu
