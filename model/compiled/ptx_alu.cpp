// Per-lane semantics of PTX's integer and bit opcodes (ptx_machine.hpp), as the PTX ISA defines
// them at every width (.b8 .. .b64, .u/.s): results are masked to the type's bits; signed
// operations sign-extend their operands from that width first.
#include <bit>

#include "model/compiled/ptx_machine.hpp"

namespace layoutproof::ptx {
namespace {

using OK = Operand::Kind;

const Operand& arg(const Function& f, const Instr& in, u32 k) { return f.operands[in.first + k]; }

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
  for (const Val* v : inputs) r.cta = r.cta || (v && v->cta);
  return r;
}

// The one input derived from a symbol (-1 when none or several).
int one_placement(std::initializer_list<const Val*> vs) {
  int p = -1, n = 0;
  for (const Val* v : vs)
    if (v && v->placement >= 0) p = v->placement, ++n;
  return n == 1 ? p : -1;
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
    case OK::reg: v = ln.regs[ln.stack.back().reg_base + o.index]; break;
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
  return v;
}

void write_operand(Lane& ln, const Function& f, const Operand& o, Val v, int bits) {
  (void)f;
  if (o.kind != OK::reg) return;
  if (v.known()) v.v = mask_bits(v.v, bits);
  ln.regs[ln.stack.back().reg_base + o.index] = v;
}

void write_unknown(Lane& ln, const Function& f, const Operand& o, u32 why) {
  if (o.kind == OK::vec) {
    for (u32 k = 0; k < o.count; ++k) write_unknown(ln, f, f.operands[o.index + k], why);
    return;
  }
  if (o.kind == OK::reg) write_operand(ln, f, o, unknown(why), 64);
}

void execute_alu(Machine& m, Lane& ln, const Function& f, const Instr& in) {
  const Opcode& c = in.code;
  const u32 n = in.count;
  if (n == 0) return;
  const Operand& dst = arg(f, in, 0);
  const auto not_modelled = [&](const std::string& what) {
    const u32 why = m.reason_at(in, what);  // not hot: a lane meets each unmodelled opcode once per execution
    write_unknown(ln, f, dst, why);
    if (in.dual && n > 1) write_unknown(ln, f, arg(f, in, 1), why);
  };
  if (c.op == Op::unknown) {
    const u32 why = m.reason_once(in, 1, [&] {
      const std::string mn = m.mnemonic(in);
      return c.float_op ? mn + ": floating-point arithmetic (not modelled)" : mn + " is not modelled";
    });
    write_unknown(ln, f, dst, why);
    if (in.dual && n > 1) write_unknown(ln, f, arg(f, in, 1), why);
    return;
  }
  const int src0 = in.dual ? 2 : 1;  // the first source operand
  const auto src = [&](int k) -> Val {
    const u32 i = static_cast<u32>(src0 + k);
    return i < n ? read_operand(m, ln, f, arg(f, in, i), in) : unknown(m.reason_at(in, "a missing operand"));
  };
  Type t = c.type;
  if (t.kind == TypeKind::none) return not_modelled(m.mnemonic(in) + ": no type suffix");
  if (t.bits > 64) return not_modelled(m.mnemonic(in) + ": 128-bit arithmetic (not modelled)");
  const int bits = t.bits;
  const bool sgn = t.is_signed();
  const bool fl = t.is_float();
  const auto put = [&](const Val& v, int w) { write_operand(ln, f, dst, v, w); };
  const auto unknown_of = [&](std::initializer_list<const Val*> vs) -> bool {
    if (const u32 why = first_unknown(vs)) {
      put(unknown(why), 64);
      if (in.dual && n > 1) write_operand(ln, f, arg(f, in, 1), unknown(why), 64);
      return true;
    }
    return false;
  };

  switch (c.op) {
    case Op::mov: {
      const Operand& s = arg(f, in, 1);
      if (s.kind == OK::vec) {  // pack {%r1, %r2} into one register
        const int part = bits / static_cast<int>(std::max<u32>(s.count, 1));
        u64 r = 0;
        Val out;
        for (u32 k = 0; k < s.count; ++k) {
          const Val e = read_operand(m, ln, f, f.operands[s.index + k], in);
          if (!e.known()) return put(unknown(e.why), 64);
          r |= mask_bits(e.v, part) << (part * static_cast<int>(k));
          out.cta = out.cta || e.cta;
        }
        out.v = r;
        return put(out, bits);
      }
      const Val a = read_operand(m, ln, f, s, in);
      if (dst.kind == OK::vec) {  // unpack one register into {%r1, %r2}
        const int part = bits / static_cast<int>(std::max<u32>(dst.count, 1));
        for (u32 k = 0; k < dst.count; ++k) {
          Val e = a;
          e.placement = -1;
          if (a.known()) e.v = mask_bits(a.v >> (part * static_cast<int>(k)), part);
          write_operand(ln, f, f.operands[dst.index + k], e, part);
        }
        return;
      }
      return put(a, bits);
    }
    case Op::cvta: {
      const Val a = src(0);
      return put(a, bits);  // shared <-> generic windows: the offset is kept (see ptx_exec.hpp)
    }
    case Op::cvt: {
      const Val a = src(0);
      if (fl || c.src.is_float() || c.src.kind == TypeKind::none) return not_modelled(m.mnemonic(in) + ": a floating-point conversion (not modelled)");
      if (unknown_of({&a})) return;
      const int sb = c.src.bits;
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
      return put(result(v, {&a}, a.placement), bits);
    }
    default: break;
  }
  if (fl) return not_modelled(m.mnemonic(in) + ": floating-point arithmetic (not modelled)");
  if (c.carry) return not_modelled(m.mnemonic(in) + ": carry chains (.cc) are not modelled");

  switch (c.op) {
    case Op::add: case Op::sub: {
      const Val a = src(0), b = src(1);
      if (unknown_of({&a, &b})) return;
      u64 r = c.op == Op::add ? a.v + b.v : a.v - b.v;
      if (c.sat) {
        const i64 x = sign_extend(a.v, 32), y = sign_extend(b.v, 32);
        i64 s = c.op == Op::add ? x + y : x - y;
        s = std::min<i64>(std::max<i64>(s, INT32_MIN), INT32_MAX);
        r = static_cast<u64>(s);
      }
      const int p = c.op == Op::add ? one_placement({&a, &b}) : (b.placement < 0 ? a.placement : -1);
      return put(result(r, {&a, &b}, p), bits);
    }
    case Op::mul: case Op::mad: case Op::mul24: case Op::mad24: {
      const bool mad = c.op == Op::mad || c.op == Op::mad24;
      const Val a = src(0), b = src(1), cc = mad ? src(2) : Val{};
      if (unknown_of({&a, &b, mad ? &cc : nullptr})) return;
      u64 r;
      int w = bits;
      if (c.op == Op::mul24 || c.op == Op::mad24) {
        if (c.hi) return not_modelled(m.mnemonic(in) + ": .hi of a 24-bit product (not modelled)");
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
      return put(result(r, {&a, &b, &cc}, p), w);
    }
    case Op::div: case Op::rem: {
      const Val a = src(0), b = src(1);
      if (unknown_of({&a, &b})) return;
      if (mask_bits(b.v, bits) == 0) return put(unknown(m.reason_at(in, "a division by zero (the result is unspecified)")), 64);
      u64 r;
      if (sgn) {
        const i64 x = sign_extend(a.v, bits), y = sign_extend(b.v, bits);
        if (y == -1 && x == (bits >= 64 ? INT64_MIN : -(i64{1} << (bits - 1))))
          return put(unknown(m.reason_at(in, "a signed division overflow (the result is unspecified)")), 64);
        r = static_cast<u64>(c.op == Op::div ? x / y : x % y);
      } else {
        r = c.op == Op::div ? mask_bits(a.v, bits) / mask_bits(b.v, bits) : mask_bits(a.v, bits) % mask_bits(b.v, bits);
      }
      return put(result(r, {&a, &b}), bits);
    }
    case Op::abs: case Op::neg: case Op::not_: case Op::cnot: case Op::clz: case Op::popc: case Op::brev: case Op::bfind: {
      const Val a = src(0);
      if (unknown_of({&a})) return;
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
      return put(result(r, {&a}), w);
    }
    case Op::min: case Op::max: {
      const Val a = src(0), b = src(1);
      if (unknown_of({&a, &b})) return;
      const bool lt = compare(Cmp::lt, a.v, b.v, bits, sgn);
      const Val& pick = (c.op == Op::min) == lt ? a : b;
      return put(result(pick.v, {&a, &b}, pick.placement), bits);
    }
    case Op::and_: case Op::or_: case Op::xor_: {
      const Val a = src(0), b = src(1);
      if (unknown_of({&a, &b})) return;
      const u64 r = c.op == Op::and_ ? a.v & b.v : c.op == Op::or_ ? a.v | b.v : a.v ^ b.v;
      return put(result(r, {&a, &b}, one_placement({&a, &b})), bits);
    }
    case Op::shl: case Op::shr: {
      const Val a = src(0), b = src(1);
      if (unknown_of({&a, &b})) return;
      const u64 s = mask_bits(b.v, 32);
      u64 r;
      if (c.op == Op::shl) r = s >= static_cast<u64>(bits) ? 0 : a.v << s;
      else if (sgn) r = static_cast<u64>(sign_extend(a.v, bits) >> std::min<u64>(s, static_cast<u64>(bits - 1)));
      else r = s >= static_cast<u64>(bits) ? 0 : mask_bits(a.v, bits) >> s;
      return put(result(r, {&a, &b}), bits);
    }
    case Op::shf: {  // funnel shift of {b, a} (32-bit halves)
      const Val a = src(0), b = src(1), s = src(2);
      if (unknown_of({&a, &b, &s})) return;
      const u64 amount = c.clamp ? std::min<u64>(mask_bits(s.v, 32), 32) : (s.v & 31);
      const u64 both = (mask_bits(b.v, 32) << 32) | mask_bits(a.v, 32);
      const u64 r = c.left ? (amount == 0 ? b.v : (both << amount) >> 32) : (both >> amount);
      return put(result(r, {&a, &b, &s}), 32);
    }
    case Op::bfe: {
      const Val a = src(0), b = src(1), cc = src(2);
      if (unknown_of({&a, &b, &cc})) return;
      return put(result(bfe(mask_bits(a.v, bits), b.v, cc.v, bits, sgn), {&a, &b, &cc}), bits);
    }
    case Op::bfi: {
      const Val a = src(0), b = src(1), cc = src(2), d = src(3);
      if (unknown_of({&a, &b, &cc, &d})) return;
      return put(result(bfi(a.v, b.v, cc.v, d.v, bits), {&a, &b, &cc, &d}), bits);
    }
    case Op::prmt: {
      if (!c.prmt_default) return not_modelled(m.mnemonic(in) + ": a prmt mode (not modelled)");
      const Val a = src(0), b = src(1), cc = src(2);
      if (unknown_of({&a, &b, &cc})) return;
      return put(result(prmt(a.v, b.v, cc.v), {&a, &b, &cc}), 32);
    }
    case Op::lop3: {
      const Val a = src(0), b = src(1), cc = src(2), lut = src(3);
      if (unknown_of({&a, &b, &cc, &lut})) return;
      return put(result(lop3(a.v, b.v, cc.v, lut.v & 0xff, bits), {&a, &b, &cc}, one_placement({&a, &b, &cc})), bits);
    }
    case Op::setp: {
      if (c.cmp == Cmp::none || c.cmp == Cmp::unordered) return not_modelled(m.mnemonic(in) + ": this comparison is not modelled");
      const Val a = src(0), b = src(1);
      const bool has_c = static_cast<int>(n) > src0 + 2;
      const Val cc = has_c ? src(2) : Val{};
      if (unknown_of({&a, &b, has_c ? &cc : nullptr})) return;
      const bool p = compare(c.cmp, a.v, b.v, bits, sgn);
      const auto combine = [&](bool x) {
        if (!has_c) return x;
        const bool y = cc.v != 0;
        return c.boolop == BoolOp::and_ ? x && y : c.boolop == BoolOp::or_ ? x || y : x != y;
      };
      put(result(combine(p), {&a, &b, &cc}), 1);
      if (in.dual) write_operand(ln, f, arg(f, in, 1), result(combine(!p), {&a, &b, &cc}), 1);
      return;
    }
    case Op::selp: {
      const Val a = src(0), b = src(1), p = src(2);
      if (unknown_of({&p})) return;
      const Val& pick = p.v ? a : b;
      if (!pick.known()) return put(pick, 64);
      return put(result(pick.v, {&pick, &p}, pick.placement), bits);
    }
    default:
      return not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::ptx
