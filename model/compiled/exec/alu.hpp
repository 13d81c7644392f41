#pragma once
// The ALU's shared parts (model/compiled/exec/ptx_alu.cpp execute_alu): one instruction's issue
// over the lanes of a group, its operands gathered as columns, its results written back, and the
// rules every opcode class shares (an unknown input makes the result unknown, naming why; a result
// affine in the free parameters stays a term). Each opcode class is one member, in its own file:
//   move        mov, cvta                                 alu_move.cpp
//   convert     cvt                                       alu_move.cpp
//   arithmetic  add, sub, mul, mad (.lo .hi .wide, 24), div, rem, min, max      alu_integer.cpp
//   unary       abs, neg, not, cnot, clz, popc, brev, bfind                      alu_integer.cpp
//   logic       and, or, xor, shl, shr, shf, bfe, bfi, prmt, lop3               alu_logic.cpp
//   select      setp (integer and f32/f64), selp          alu_compare.cpp
//   floating    f32/f64 add sub mul fma div min max abs neg   alu_float.cpp (float_arith.hpp)
// Internal to model/compiled/.
#include <array>
#include <bit>
#include <initializer_list>
#include <optional>
#include <string>

#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled::alu {

using OK = Operand::Kind;

inline Val unknown(u32 why) {
  Val v;
  v.why = why;
  return v;
}

// The first unknown input's reason, 0 when all are known.
inline u32 first_unknown(std::initializer_list<const Val*> vs) {
  for (const Val* v : vs)
    if (v && !v->known()) return v->why;
  return 0;
}

inline Val result(u64 bits, std::initializer_list<const Val*> inputs, int placement = -1) {
  Val r;
  r.v = bits;
  r.placement = placement;
  for (const Val* v : inputs) r.cta = r.cta || (v && v->cta), r.window = r.window || (v && v->window);
  return r;
}

// The one input derived from a symbol (-1 when none or several).
inline int one_placement(std::initializer_list<const Val*> vs) {
  int p = -1, n = 0;
  for (const Val* v : vs)
    if (v && v->placement >= 0) p = v->placement, ++n;
  return n == 1 ? p : -1;
}

// Whether v is a symbol itself (P_i, no offset) at a width holding all its bits: then v == P_i
// exactly (0 <= P_i < 2^bits_i never wraps), at every wider width too. Example: ld.param.u16 then
// cvt.u32.u16: the zero-extended 16-bit term is P itself, and 4 * P at 32 bits is affine.
inline bool whole_symbol(const Machine& m, const Val& v) {
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
std::optional<Masked> masked_term(Term t, int w, int bits, u64 f0, u64 f1);

inline u64 bfe(u64 a, u64 pos, u64 len, int bits, bool is_signed) {
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

inline u64 bfi(u64 f, u64 b, u64 pos, u64 len, int bits) {
  pos &= 0xff, len &= 0xff;
  u64 d = b;
  for (u64 i = 0; i < len && pos + i < static_cast<u64>(bits); ++i) {
    const u64 bit = (f >> i) & 1;
    d = (d & ~(u64{1} << (pos + i))) | (bit << (pos + i));
  }
  return mask_bits(d, bits);
}

inline u64 prmt(u64 a, u64 b, u64 c) {
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

inline u64 lop3(u64 a, u64 b, u64 c, u64 lut, int bits) {
  u64 d = 0;
  for (int i = 0; i < bits; ++i) {
    const u64 idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
    d |= ((lut >> idx) & 1) << i;
  }
  return d;
}

// Partly known values (Val::lowk). Of a function f of up to three inputs each of whose result
// bits is one input bit, or a function of the inputs' bits at one position (and/or/xor/lop3 bit by
// bit, shifts, funnel shifts, bfe, bfi, prmt): how many low bits of f(v) are known, at `bits`,
// when only the low low[i] bits of input i are (v[i]'s). They are the bits on which f agrees at
// every fill of the inputs' unknown bits with all zeros or all ones, input by input: each result
// bit then sees every value of the unknown bits it depends on. Example: prmt(0, x, 0x7610) with x
// unknown keeps x's two high bytes, so its low 16 bits are known (0).
template <class F>
int bitwise_low(F&& f, const std::array<u64, 3>& v, const std::array<int, 3>& low, int bits) {
  u64 first = 0, agree = ~u64{0};
  for (int fill = 0; fill < 8; ++fill) {
    std::array<u64, 3> x{};
    for (std::size_t i = 0; i < 3; ++i) {
      const u64 known = low[i] >= 64 ? ~u64{0} : (u64{1} << low[i]) - 1;
      x[i] = (v[i] & known) | (((fill >> i) & 1) ? ~known : 0);
    }
    const u64 r = f(x[0], x[1], x[2]);
    if (fill == 0) first = r;
    else agree &= ~(r ^ first);
  }
  return std::min(std::countr_one(agree), bits);
}

inline bool compare(Cmp c, u64 a, u64 b, int bits, bool is_signed) {
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


// One instruction's issue over the active lanes of a group: the operands, the destination rows,
// the type, and the helpers each opcode class writes its results through.
struct Issue {
  Machine& m;
  Group& g;
  const Function& f;
  const Instr& in;
  const Opcode& c;
  u32 n;                 // operands
  const Operand& dst;
  Lane* lanes;
  Val* out;              // the destination's row (nullptr: not a register, `_`)
  Val* out2;             // the second destination of `%p|%q`
  int src0;              // the first source operand
  int bits;              // the type's width
  bool sgn, fl;          // signed, floating point

  // Writes lane k's result (masked to `w` bits); a non-register destination (`_`) is ignored.
  __attribute__((always_inline)) void put(int k, Val v, int w) {
    if (!out) return;
    truncate(v, w);
    out[k] = v;
  }
  __attribute__((always_inline)) void put2(int k, Val v, int w) {
    if (!out2) return;
    truncate(v, w);
    out2[k] = v;
  }
  // Every lane's destination (and the second one of `%p|%q`) becomes unknown with `why`.
  void all_unknown(u32 why) {
    each(g.mask, [&](int k) __attribute__((always_inline)) {
      write_unknown(lanes[k], f, dst, why);
      if (in.dual && n > 1) write_unknown(lanes[k], f, arg(f, in, 1), why);
    });
  }
  void not_modelled(const std::string& what) { all_unknown(m.reason_at(in, what)); }
  // Source operand k (0: the first source) as a column over the group's lanes.
  void gather(Col& col, int k) {
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
  }
  // Lane k: true (and its destinations unknown) when one of the inputs is not known.
  __attribute__((always_inline)) bool unknown_of(int k, std::initializer_list<const Val*> vs) {
    if (u32 why = first_unknown(vs)) {
      bool sym = false, other = false;
      for (const Val* v : vs)
        if (v && !v->known()) (v->sym ? sym : other) = true;
      if (sym && !other && derive(k, vs)) return true;  // a symbol of its own, defined by the operation
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
  }
  // Lane k's result as an affine term when every input is known or symbolic with at least the
  // operation's width (a narrower term is zero-extended: its wrap-around is not affine) and one is
  // symbolic: `make(terms, symbolic)` builds it (nullopt: not affine). False when not done.
  template <class Make>
  bool affine(int k, std::initializer_list<const Val*> vs, int placement, Make&& make) {
    std::array<Term, 4> ts{};
    std::array<bool, 4> sy{};
    std::size_t i = 0;
    u32 why = 0;
    bool cta = false;
    for (const Val* v : vs) {
      if (!v->known()) {
        if (!v->sym) return false;
        if (v->symw < bits && !whole_symbol(m, *v)) {
          // A narrower term wraps at its width: as a symbol of its own (its zero-extended value),
          // it is one whole symbol to the operation (K & 3 in K - (K & 3), ptxas's trip count).
          const std::optional<Term> w = widened(*v);
          if (!w) return false;
          ts[i] = *w, sy[i] = true;
          if (!why) why = v->why;
          cta = cta || v->cta;
          ++i;
          continue;
        }
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
  }
  // Lane k's result of a bitwise operation on the term x with every other input known (f0, f1:
  // the result with x's bits all 0 / all 1): a term again when masked_term says so. False when not.
  bool bitwise(int k, const Val& x, std::initializer_list<const Val*> vs, u64 f0, u64 f1) {
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
  }

  // Partly known inputs (Val::lowk), none a term: lane k's result `value` with its low `known`
  // bits known (a known value where they cover w). False, nothing written, where none is known.
  // low(v): how many low bits of an input are known.
  static int low(const Val* v) { return !v || v->known() ? 64 : v->sym ? 0 : v->lowk; }
  bool partly(int k, std::initializer_list<const Val*> vs, u64 value, int known, int w) {
    for (const Val* v : vs)
      if (v && v->sym) return false;
    known = std::min(known, w);
    if (known <= 0) return false;
    Val r = result(value, vs);
    if (known < w) r.why = first_unknown(vs), r.lowk = static_cast<u8>(known);
    put(k, r, w);
    return true;
  }
  // A bitwise f of up to three inputs (bitwise_low says which of its bits are known).
  template <class F>
  bool partly_bitwise(int k, const std::array<const Val*, 3>& vs, int w, F&& f) {
    std::array<u64, 3> v{};
    std::array<int, 3> lows{};
    for (std::size_t i = 0; i < 3; ++i) v[i] = vs[i] ? vs[i]->v : 0, lows[i] = low(vs[i]);
    return partly(k, {vs[0], vs[1], vs[2]}, f(v[0], v[1], v[2]), bitwise_low(f, v, lows, w), w);
  }
  // add, sub, mul.lo, mad.lo, neg, not: a result's low j bits depend on its inputs' low j bits
  // alone, so it has as many known as the input with the fewest.
  bool partly_low(int k, std::initializer_list<const Val*> vs, u64 value, int w) {
    int known = 64;
    for (const Val* v : vs) known = std::min(known, low(v));
    return partly(k, vs, value, known, w);
  }

  // The opcode classes (the table above); each handles the opcodes it lists.
  void move();
  void convert();
  // alu_float.cpp: conversions with a floating-point side, and rcp, evaluated concretely.
  void float_convert();
  void reciprocal();
  // add sub mul fma div min max abs neg on .f32/.f64 (float_arith.hpp); their setp is select's
  void floating();
  void arithmetic();
  void unary();
  void logic();
  void select();
  bool symbolic_compare(int k, const Val& a, const Val& b, const Val* cc);
  // alu_derived.cpp: lane k's result of an operation on terms that is not affine in them, as a
  // derived symbol (ptx_exec.hpp Derived). False, nothing written, for an operation it does not
  // define or when the symbols are all in use.
  bool derive(int k, std::initializer_list<const Val*> vs);
  // The term of a derived symbol equal to v's narrower term zero-extended to the operation's
  // width (alu_derived.cpp); nullopt where it is not worth one (a lane's own constant in it, as
  // (tid + K) & 3 has: one symbol per lane) or the symbols are spent.
  std::optional<Term> widened(const Val& v);
  bool cond_logic(int k, const Val& a, const Val& b);
};

}  // namespace layoutproof::compiled::alu
