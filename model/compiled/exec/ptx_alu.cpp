// Per-lane semantics of PTX's integer and bit opcodes (ptx_machine.hpp), as the PTX ISA defines
// them at every width (.b8 .. .b64, .u/.s): results are masked to the type's bits; signed
// operations sign-extend their operands from that width first. execute_alu checks what every
// opcode needs (a type, at most 64 bits, no floating point, no carry chain) and hands the issue to
// its opcode class (alu.hpp).
#include <bit>
#include <optional>

#include "model/compiled/exec/alu.hpp"
#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {

namespace alu {

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

}  // namespace alu

using namespace alu;

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
        case Special::ctaid_x: v.v = static_cast<u64>(m.launch.cta[0]), v.cta = true; break;
        case Special::ctaid_y: v.v = static_cast<u64>(m.launch.cta[1]), v.cta = true; break;
        case Special::ctaid_z: v.v = static_cast<u64>(m.launch.cta[2]), v.cta = true; break;
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
  if (o.neg) v.sym = 0, v.lowk = 0;             // not a term, nor partly known
  return v;
}

void write_operand(Lane& ln, const Function& f, const Operand& o, Val v, int bits) {
  (void)f;
  if (o.kind != OK::reg) return;
  truncate(v, bits);
  reg(ln, o.index) = v;
}

void write_unknown(Lane& ln, const Function& f, const Operand& o, u32 why) {
  if (o.kind == OK::vec) {
    for (u32 k = 0; k < o.count; ++k) write_unknown(ln, f, f.operands[o.index + k], why);
    return;
  }
  if (o.kind == OK::reg) write_operand(ln, f, o, unknown(why), 64);
}

void execute_alu(Machine& m, Group& g, const Function& f, const Instr& in) {
  const Opcode& c = in.code;
  const u32 n = in.count;
  if (n == 0 || g.mask == 0) return;
  const Operand& dst = arg(f, in, 0);
  alu::Issue x{m, g, f, in, c, n, dst, g.lanes.data(), dst.kind == OK::reg ? g.file.row(g.reg_base + dst.index) : nullptr,
          in.dual && n > 1 && arg(f, in, 1).kind == OK::reg ? g.file.row(g.reg_base + arg(f, in, 1).index) : nullptr,
          in.dual ? 2 : 1, 0, false, false};
  if (c.op == Op::unknown) {
    return x.all_unknown(m.reason_once(in, 1, [&] {
      const std::string mn = m.mnemonic(in);
      return c.float_op ? mn + ": floating-point arithmetic (not modelled)" : mn + " is not modelled";
    }));
  }
  if (c.op == Op::mbarrier_wait) {  // the wait completes (ptx_ir.hpp)
    each(g.mask, [&](int k) { x.put(k, Val{1, 0, -1, false}, 1); });
    return;
  }
  const Type t = c.type;
  if (t.kind == TypeKind::none) return x.not_modelled(m.mnemonic(in) + ": no type suffix");
  if (t.bits > 64) return x.not_modelled(m.mnemonic(in) + ": 128-bit arithmetic (not modelled)");
  x.bits = t.bits;
  x.sgn = t.is_signed();
  x.fl = t.is_float();
  switch (c.op) {  // moves and conversions first: they take floating-point types too
    case Op::mov: case Op::cvta: return x.move();
    case Op::cvt: return x.convert();
    case Op::rcp: return x.reciprocal();
    default: break;
  }
  if (x.fl) return c.op == Op::setp ? x.select() : x.floating();
  if (c.carry) return x.not_modelled(m.mnemonic(in) + ": carry chains (.cc) are not modelled");
  switch (c.op) {
    case Op::add: case Op::sub: case Op::mul: case Op::mad: case Op::mul24: case Op::mad24: case Op::div: case Op::rem:
    case Op::min: case Op::max:
      return x.arithmetic();
    case Op::abs: case Op::neg: case Op::not_: case Op::cnot: case Op::clz: case Op::popc: case Op::brev: case Op::bfind:
      return x.unary();
    case Op::and_: case Op::or_: case Op::xor_: case Op::shl: case Op::shr: case Op::shf: case Op::bfe: case Op::bfi: case Op::prmt:
    case Op::lop3:
      return x.logic();
    case Op::setp: case Op::selp: return x.select();
    default: return x.not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled
