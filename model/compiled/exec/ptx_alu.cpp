// Per-lane semantics of PTX's integer and bit opcodes (ptx_machine.hpp), as the PTX ISA defines
// them at every width (.b8 .. .b64, .u/.s): results are masked to the type's bits; signed
// operations sign-extend their operands from that width first.
#include <bit>
#include <optional>

#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {
namespace {

using OK = Operand::Kind;

Val unknown(u32 why) {
  Val v;
  v.why = why;
  return v;
}

// The first unknown input's reason, 0 when all are known.
u32 first_unknown(std::initializer_list<const Val*> vs) {
  for (const Val* v : vs)
    if (v && !v->known()) return v->why;
  return 0;
}

Val result(u64 bits, std::initializer_list<const Val*> inputs, int placement = -1) {
  Val r;
  r.v = bits;
  r.placement = placement;
  for (const Val* v : inputs) r.cta = r.cta || (v && v->cta), r.window = r.window || (v && v->window);
  return r;
}

// The one input derived from a symbol (-1 when none or several).
int one_placement(std::initializer_list<const Val*> vs) {
  int p = -1, n = 0;
  for (const Val* v : vs)
    if (v && v->placement >= 0) p = v->placement, ++n;
  return n == 1 ? p : -1;
}

// Whether v is a symbol itself (P_i, no offset) at a width holding all its bits: then v == P_i
// exactly (0 <= P_i < 2^bits_i never wraps), at every wider width too. Example: ld.param.u16 then
// cvt.u32.u16: the zero-extended 16-bit term is P itself, and 4 * P at 32 bits is affine.
bool whole_symbol(const Machine& m, const Val& v) {
  const Term& t = m.terms[v.sym];
  if (mask_bits(t.c0, v.symw) != 0) return false;
  int n = 0;
  for (std::size_t i = 0; i < t.c.size(); ++i) {
    const u64 c = mask_bits(t.c[i], v.symw);
    if (c == 0) continue;
    if (c != 1 || i >= m.symbols.size() || v.symw < m.symbols[i].bits) return false;
    ++n;
  }
  return n == 1;
}

// A bitwise operation on a term x whose other operands are known (and/or/xor with a constant,
// lop3, bfe from bit 0): bit by bit the result is f0 where x's bit is 0 and f1 where it is 1 (f0,
// f1: the operation with x replaced by all zeros / all ones), so it is (x & K) ^ f0 with
// K = f0 ^ f1. x = (c0 + sum c_i P_i) mod 2^w, zero-extended to `bits`: its low j bits are c0's,
// j the fewest trailing zeros of a coefficient. The result is again one term exactly when
//   K has no bit from j on (the result is a constant), or K's bits from j on are the low mask of
//   bits j..k-1 (x truncated to k bits, its known low bits masked by K), and
//   f0 flips only known low bits (below j), bit k-1 (x ^ 2^(k-1) = x + 2^(k-1) mod 2^k) and no bit
//   from k on (constant ones above a truncated term are not one term).
// Examples (w = 32, t a lane's known 0..31): (16 P) | 5 = 16 P + 5; (16 P) & 0xfff0 = 16 P mod
// 2^16; (32 P) ^ t = 32 P + t; (P & 0xffff) = P mod 2^16; P & 0xfffffff0 = 16 (P >> 4): none.
// w of the result 0: the constant t.c0.
struct Masked {
  Term t;
  int w = 0;
};
std::optional<Masked> masked_term(Term t, int w, int bits, u64 f0, u64 f1) {
  w = std::min(w, bits);
  f0 = mask_bits(f0, bits), f1 = mask_bits(f1, bits);
  t.c0 = mask_bits(t.c0, w);
  int j = w;
  for (u64& c : t.c) {
    c = mask_bits(c, w);
    if (c) j = std::min(j, std::countr_zero(c));
  }
  const u64 keep = f0 ^ f1, low = mask_bits(t.c0, j);
  const u64 above = j < 64 ? mask_bits(keep >> j, w - j) : 0;
  if (above == 0) return Masked{Term{64, mask_bits((low & keep) ^ f0, bits), {}}, 0};
  if ((above & (above + 1)) != 0) return std::nullopt;
  const int k = j + std::bit_width(above);
  if (k < 64 && (f0 >> k) != 0) return std::nullopt;
  const u64 flips = f0 & ~mask_bits(~u64{0}, j);  // f0's bits j..k-1
  if (flips != 0 && flips != u64{1} << (k - 1)) return std::nullopt;
  t.c0 = ((t.c0 - low + (low & keep)) ^ mask_bits(f0, j)) + flips;
  t.w = k;
  return Masked{t, k};
}

u64 bfe(u64 a, u64 pos, u64 len, int bits, bool is_signed) {
  pos &= 0xff, len &= 0xff;
  const int msb = bits - 1;
  bool sbit = false;
  if (is_signed && len != 0) sbit = (a >> std::min<u64>(pos + len - 1, static_cast<u64>(msb))) & 1;
  u64 d = 0;
  for (int i = 0; i < bits; ++i) {
    bool bit;
    if (static_cast<u64>(i) < len && pos + static_cast<u64>(i) <= static_cast<u64>(msb)) bit = (a >> (pos + static_cast<u64>(i))) & 1;
    else bit = sbit;
    d |= static_cast<u64>(bit) << i;
  }
  return d;
}

u64 bfi(u64 f, u64 b, u64 pos, u64 len, int bits) {
  pos &= 0xff, len &= 0xff;
  u64 d = b;
  for (u64 i = 0; i < len && pos + i < static_cast<u64>(bits); ++i) {
    const u64 bit = (f >> i) & 1;
    d = (d & ~(u64{1} << (pos + i))) | (bit << (pos + i));
  }
  return mask_bits(d, bits);
}

u64 prmt(u64 a, u64 b, u64 c) {
  const u64 tmp = (mask_bits(b, 32) << 32) | mask_bits(a, 32);
  u64 d = 0;
  for (int i = 0; i < 4; ++i) {
    const u64 sel = (c >> (4 * i)) & 0xf;
    u64 byte = (tmp >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d;
}

u64 lop3(u64 a, u64 b, u64 c, u64 lut, int bits) {
  u64 d = 0;
  for (int i = 0; i < bits; ++i) {
    const u64 idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
    d |= ((lut >> idx) & 1) << i;
  }
  return d;
}

bool compare(Cmp c, u64 a, u64 b, int bits, bool is_signed) {
  const u64 ua = mask_bits(a, bits), ub = mask_bits(b, bits);
  const i64 sa = sign_extend(a, bits), sb = sign_extend(b, bits);
  switch (c) {
    case Cmp::eq: return ua == ub;
    case Cmp::ne: return ua != ub;
    case Cmp::lt: return is_signed ? sa < sb : ua < ub;
    case Cmp::le: return is_signed ? sa <= sb : ua <= ub;
    case Cmp::gt: return is_signed ? sa > sb : ua > ub;
    case Cmp::ge: return is_signed ? sa >= sb : ua >= ub;
    case Cmp::lo: return ua < ub;
    case Cmp::ls: return ua <= ub;
    case Cmp::hi: return ua > ub;
    case Cmp::hs: return ua >= ub;
    default: return false;
  }
}

}  // namespace

Val Machine::symbolic(const Term& t0, int w, u32 why, int placement, bool cta) {
  Term t = t0;
  t.w = w;
  t.c0 = mask_bits(t.c0, w);
  bool constant = true;
  for (u64& c : t.c) c = mask_bits(c, w), constant = constant && c == 0;
  Val v;
  v.placement = placement;
  v.cta = cta;
  if (constant) {  // the symbols cancelled (x - x, 0 * x): a known value
    v.v = t.c0;
    return v;
  }
  if (terms.size() >= kMaxTerms) {
    v.why = reason("more than " + std::to_string(kMaxTerms) + " values computed from free parameters: the rest are not kept");
    return v;
  }
  terms.push_back(t);
  v.why = why;
  v.sym = static_cast<u32>(terms.size() - 1);
  v.symw = static_cast<u8>(w);
  return v;
}

u32 Machine::reason(const std::string& text) {
  const auto it = reason_ids.find(text);
  if (it != reason_ids.end()) return it->second;
  reasons.push_back(text);
  const u32 id = static_cast<u32>(reasons.size() - 1);
  reason_ids.emplace(text, id);
  return id;
}

std::string Machine::mnemonic(const Instr& in) const {
  const std::string t = program.text_of(in);
  std::size_t b = 0;
  if (!t.empty() && t[0] == '@') b = t.find(' ') == std::string::npos ? t.size() : t.find(' ') + 1;
  const std::size_t e = t.find(' ', b);
  return t.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

Val read_operand(Machine& m, const Lane& ln, const Function& f, const Operand& o, const Instr& in) {
  Val v;
  switch (o.kind) {
    case OK::reg: v = reg(ln, o.index); break;
    case OK::imm: v.v = static_cast<u64>(o.imm); break;
    case OK::special: {
      const auto& b = m.launch.block;
      const auto& g = m.launch.grid;
      const u64 lane = static_cast<u64>(ln.lane);
      switch (o.special) {
        case Special::tid_x: v.v = static_cast<u64>(ln.tid[0]); break;
        case Special::tid_y: v.v = static_cast<u64>(ln.tid[1]); break;
        case Special::tid_z: v.v = static_cast<u64>(ln.tid[2]); break;
        case Special::ntid_x: v.v = static_cast<u64>(b[0]); break;
        case Special::ntid_y: v.v = static_cast<u64>(b[1]); break;
        case Special::ntid_z: v.v = static_cast<u64>(b[2]); break;
        case Special::ctaid_x: case Special::ctaid_y: case Special::ctaid_z: v.v = 0, v.cta = true; break;
        case Special::nctaid_x: v.v = static_cast<u64>(g[0]); break;
        case Special::nctaid_y: v.v = static_cast<u64>(g[1]); break;
        case Special::nctaid_z: v.v = static_cast<u64>(g[2]); break;
        case Special::laneid: v.v = lane; break;
        case Special::lanemask_eq: v.v = u64{1} << lane; break;
        case Special::lanemask_lt: v.v = (u64{1} << lane) - 1; break;
        case Special::lanemask_le: v.v = (u64{2} << lane) - 1; break;
        case Special::lanemask_gt: v.v = mask_bits(~((u64{2} << lane) - 1), 32); break;
        case Special::lanemask_ge: v.v = mask_bits(~((u64{1} << lane) - 1), 32); break;
        case Special::warpid:
          v = unknown(m.reason("%warpid is the hardware's warp slot (it may differ from tid/32 and change); use %tid"));
          break;
        default: v = unknown(m.reason_at(in, "a special register whose value is not modelled")); break;
      }
      break;
    }
    case OK::shared: {
      const int p = o.index < m.placement_of_symbol.size() ? m.placement_of_symbol[o.index] : -1;
      if (p < 0) return unknown(m.reason_at(in, "a shared symbol without a placement"));
      v.v = static_cast<u64>(m.placements[static_cast<std::size_t>(p)].base);
      v.placement = p;
      break;
    }
    case OK::var: return unknown(m.reason_at(in, "the address of a .global/.const/.local variable (not modelled)"));
    case OK::param: return unknown(m.reason_at(in, "the address of a parameter (not modelled)"));
    case OK::unknown_name:
      return unknown(m.reason_at(in, "'" + f.unknown_names[o.index] + "' is declared nowhere in this file"));
    default: return unknown(m.reason_at(in, "an operand that has no value here"));
  }
  if (o.neg && v.known()) v.v = v.v ? 0 : 1;  // `!%p`
  if (o.neg) v.sym = 0;                         // not a term
  return v;
}

void write_operand(Lane& ln, const Function& f, const Operand& o, Val v, int bits) {
  (void)f;
  if (o.kind != OK::reg) return;
  if (v.known()) v.v = mask_bits(v.v, bits);
  else if (v.sym && v.symw > bits) v.symw = static_cast<u8>(bits);  // a truncation of the term: exact
  reg(ln, o.index) = v;
}

void write_unknown(Lane& ln, const Function& f, const Operand& o, u32 why) {
  if (o.kind == OK::vec) {
    for (u32 k = 0; k < o.count; ++k) write_unknown(ln, f, f.operands[o.index + k], why);
    return;
  }
  if (o.kind == OK::reg) write_operand(ln, f, o, unknown(why), 64);
}

namespace {

// Calls f(k) for every lane k in `mask`, lowest first.
template <class F>
__attribute__((always_inline)) inline void each(u32 mask, F&& f) {
  while (mask) {
    f(std::countr_zero(mask));
    mask &= mask - 1;
  }
}

// One source operand for the lanes of a group: a register's row (read in place), an immediate
// (one value for every lane), or values read lane by lane into Machine::scratch (specials,
// symbols, `!%p`, ...). Not copyable: `p` may point to `one`.
struct Col {
  const Val* p = nullptr;
  std::size_t stride = 0;  // 1: per lane; 0: one value for every lane
  Val one;
  Col() = default;
  Col(const Col&) = delete;
  Col& operator=(const Col&) = delete;
  const Val& operator[](int k) const { return p[static_cast<std::size_t>(k) * stride]; }
};

}  // namespace

void execute_alu(Machine& m, Group& g, const Function& f, const Instr& in) {
  const Opcode& c = in.code;
  const u32 n = in.count;
  if (n == 0 || g.mask == 0) return;
  const Operand& dst = arg(f, in, 0);
  Lane* const lanes = g.lanes.data();
  Val* const out = dst.kind == OK::reg ? g.file.row(g.reg_base + dst.index) : nullptr;
  Val* const out2 = in.dual && n > 1 && arg(f, in, 1).kind == OK::reg ? g.file.row(g.reg_base + arg(f, in, 1).index) : nullptr;
  // Writes lane k's result (masked to `w` bits); a non-register destination (`_`) is ignored.
  const auto put = [&](int k, Val v, int w) {
    if (!out) return;
    if (v.known()) v.v = mask_bits(v.v, w);
    else if (v.sym && v.symw > w) v.symw = static_cast<u8>(w);  // a truncation of the term: exact
    out[k] = v;
  };
  const auto put2 = [&](int k, Val v, int w) {
    if (!out2) return;
    if (v.known()) v.v = mask_bits(v.v, w);
    out2[k] = v;
  };
  // Every lane's destination (and the second one of `%p|%q`) becomes unknown with `why`.
  const auto all_unknown = [&](u32 why) {
    each(g.mask, [&](int k) __attribute__((always_inline)) {
      write_unknown(lanes[k], f, dst, why);
      if (in.dual && n > 1) write_unknown(lanes[k], f, arg(f, in, 1), why);
    });
  };
  const auto not_modelled = [&](const std::string& what) { all_unknown(m.reason_at(in, what)); };
  if (c.op == Op::unknown) {
    return all_unknown(m.reason_once(in, 1, [&] {
      const std::string mn = m.mnemonic(in);
      return c.float_op ? mn + ": floating-point arithmetic (not modelled)" : mn + " is not modelled";
    }));
  }
  const int src0 = in.dual ? 2 : 1;  // the first source operand
  const auto gather = [&](Col& col, int k) {
    const u32 i = static_cast<u32>(src0 + k);
    if (i >= n) {
      col.one = unknown(m.reason_at(in, "a missing operand"));
      col.p = &col.one;
      return;
    }
    const Operand& o = arg(f, in, i);
    if (o.kind == OK::reg && !o.neg) {
      col.p = g.file.row(g.reg_base + o.index);
      col.stride = 1;
    } else if (o.kind == OK::imm) {
      col.one.v = static_cast<u64>(o.imm);
      col.p = &col.one;
    } else {
      auto& own = m.scratch[static_cast<std::size_t>(k)];
      each(g.mask, [&](int l) { own[static_cast<std::size_t>(l)] = read_operand(m, lanes[l], f, o, in); });
      col.p = own.data();
      col.stride = 1;
    }
  };
  Type t = c.type;
  if (t.kind == TypeKind::none) return not_modelled(m.mnemonic(in) + ": no type suffix");
  if (t.bits > 64) return not_modelled(m.mnemonic(in) + ": 128-bit arithmetic (not modelled)");
  const int bits = t.bits;
  const bool sgn = t.is_signed();
  const bool fl = t.is_float();
  // Lane k: true (and its destinations unknown) when one of the inputs is not known.
  const auto unknown_of = [&](int k, std::initializer_list<const Val*> vs) __attribute__((always_inline)) -> bool {
    if (u32 why = first_unknown(vs)) {
      bool sym = false, other = false;
      for (const Val* v : vs)
        if (v && !v->known()) (v->sym ? sym : other) = true;
      if (sym && !other)  // only symbols: what the operation does to them is not an affine term
        why = m.reason_once(in, 2, [&] {
          return m.mnemonic(in) + " of a value computed from a free parameter: not affine in it (not decided for every value)";
        });
      else if (sym)  // the other unknown input says why (a symbol's own reason only says it is free)
        for (const Val* v : vs)
          if (v && !v->known() && !v->sym) {
            why = v->why;
            break;
          }
      put(k, unknown(why), 64);
      put2(k, unknown(why), 64);
      return true;
    }
    return false;
  };
  // Lane k's result as an affine term when every input is known or symbolic with at least the
  // operation's width (a narrower term is zero-extended: its wrap-around is not affine) and one is
  // symbolic: `make(terms, symbolic)` builds it (nullopt: not affine). False when not done.
  const auto affine = [&](int k, std::initializer_list<const Val*> vs, int placement, auto&& make) -> bool {
    std::array<Term, 4> ts{};
    std::array<bool, 4> sy{};
    std::size_t i = 0;
    u32 why = 0;
    bool cta = false;
    for (const Val* v : vs) {
      if (!v->known()) {
        if (!v->sym || (v->symw < bits && !whole_symbol(m, *v))) return false;
        // Reduced to its width (exact: the operation's bits are at most that width, or it is a
        // whole symbol, whose reduced term is P_i itself).
        ts[i] = m.terms[v->sym], sy[i] = true;
        ts[i].c0 = mask_bits(ts[i].c0, v->symw);
        for (u64& x : ts[i].c) x = mask_bits(x, v->symw);
        if (!why) why = v->why;
      } else {
        ts[i].c0 = v->v;
      }
      cta = cta || v->cta;
      ++i;
    }
    if (!why) return false;
    const std::optional<Term> t = make(ts, sy);
    if (!t) return false;
    Val r = m.symbolic(*t, bits, why, placement, cta);
    for (const Val* v : vs) r.window = r.window || v->window;
    put(k, r, bits);
    return true;
  };

  // Lane k's result of a bitwise operation on the term x with every other input known (f0, f1:
  // the result with x's bits all 0 / all 1): a term again when masked_term says so. False when not.
  const auto bitwise = [&](int k, const Val& x, std::initializer_list<const Val*> vs, u64 f0, u64 f1) -> bool {
    const std::optional<Masked> r = masked_term(m.terms[x.sym], x.symw, bits, f0, f1);
    if (!r) return false;
    bool cta = false;
    for (const Val* v : vs) cta = cta || v->cta;
    if (r->w == 0) {
      Val v = result(r->t.c0, vs, one_placement(vs));
      put(k, v, bits);
      return true;
    }
    Val v = m.symbolic(r->t, r->w, x.why, one_placement(vs), cta);
    for (const Val* u : vs) v.window = v.window || u->window;  // a shared-window address stays one
    put(k, v, bits);
    return true;
  };

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
            if (x.known()) p.v = mask_bits(x.v >> (part * static_cast<int>(e)), part);
            write_operand(lanes[k], f, f.operands[dst.index + e], p, part);
          }
        });
      }
      return each(g.mask, [&](int k) __attribute__((always_inline)) { put(k, a[k], bits); });
    }
    case Op::cvta: {  // shared <-> generic windows: the offset is kept (see ptx_exec.hpp)
      Col a;
      gather(a, 0);
      // cvta.shared makes a generic address in the shared window (a generic access through it
      // touches shared memory: ptx_sites.cpp); cvta.to.shared makes a shared-space one again.
      const bool shared = c.space == Space::shared || c.space == Space::shared_cluster;
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        Val v = a[k];
        if (shared) v.window = !c.to;
        put(k, v, bits);
      });
    }
    case Op::cvt: {
      if (fl || c.src.is_float() || c.src.kind == TypeKind::none) return not_modelled(m.mnemonic(in) + ": a floating-point conversion (not modelled)");
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
    default: break;
  }
  if (fl) return not_modelled(m.mnemonic(in) + ": floating-point arithmetic (not modelled)");
  if (c.carry) return not_modelled(m.mnemonic(in) + ": carry chains (.cc) are not modelled");

  Col s0, s1, s2, s3;
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
             unknown_of(k, {&a, &b})))
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
    case Op::abs: case Op::neg: case Op::not_: case Op::cnot: case Op::clz: case Op::popc: case Op::brev: case Op::bfind: {
      gather(s0, 0);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k];
        if (a.why && (((c.op == Op::neg || c.op == Op::not_) &&
                       affine(k, {&a}, -1, [&](std::array<Term, 4>& t, const std::array<bool, 4>&) -> std::optional<Term> {
                         t[0].c0 = 0 - t[0].c0;  // neg: -x; not: ~x = -x - 1
                         for (u64& x : t[0].c) x = 0 - x;
                         if (c.op == Op::not_) t[0].c0 -= 1;
                         return t[0];
                       })) ||
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
    case Op::setp: {
      if (c.cmp == Cmp::none || c.cmp == Cmp::unordered) return not_modelled(m.mnemonic(in) + ": this comparison is not modelled");
      const bool has_c = static_cast<int>(n) > src0 + 2;
      gather(s0, 0), gather(s1, 1);
      if (has_c) gather(s2, 2);
      return each(g.mask, [&](int k) __attribute__((always_inline)) {
        const Val a = s0[k], b = s1[k], cc = has_c ? s2[k] : Val{};
        if ((a.why | b.why | cc.why) && unknown_of(k, {&a, &b, has_c ? &cc : nullptr})) return;
        const bool p = compare(c.cmp, a.v, b.v, bits, sgn);
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

}  // namespace layoutproof::compiled
