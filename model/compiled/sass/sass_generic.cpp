// Generic memory instructions in SASS: LD, ST, ATOM, RED through a 64-bit address desc[URx][Rn.64+off]
// (cooperative groups', templated code's and opaque pointers' accesses), and SR_SWINHI, the high word
// of the shared window. ptxas makes a generic pointer to shared memory from the window's high word
// (S2R Rh, SR_SWINHI) and the shared address as the low word; the hardware sends an access whose
// address is in the window to shared memory, where it takes the wavefronts LDS/STS/ATOMS of its width
// would (measured on the H200: docs/bank_model.md, "Generic accesses"). The lowering reads the pair
// (Rn, Rn+1) into one address with cvta's SASS form (exec/alu_move.cpp): the low word, marked as in
// the window exactly where the high word is SR_SWINHI's (ptx_ir.hpp kSharedWindowHi), so the
// executor counts the lanes in the window as a shared access and the others as global.
#include <algorithm>

#include "model/compiled/sass/sass_lower.hpp"

namespace layoutproof::compiled::sass {

// S2R Rd, SR_SWINHI: the window's high word, marked as the window's (cvta.shared of it).
void Lowering::lower_swinhi(const SassInstr& i) {
  Opcode c = op(Op::cvta, TypeKind::u, 32);
  c.space = Space::shared;
  emit(c, {i.D(0), imm(static_cast<i64>(kSharedWindowHi))});
}

// [Rn.64+off], desc[URx][Rn.64+off] or [Rn+off] (ATOM.E.CAS prints its pair so): the address the
// pair (Rn, Rn+1) makes, off added to the low word (a shared address never carries into the high
// word). RZ.64: address off. nullopt for any other form.
std::optional<Operand> Lowering::generic_address(std::string_view s, std::size_t at) {
  if (starts_with(s, "desc[")) {
    const std::size_t close = s.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    s = s.substr(close + 1);
  }
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
  std::string_view in = s.substr(1, s.size() - 2);
  i64 off = 0;
  if (const std::size_t plus = in.find_first_of("+-", 1); plus != std::string_view::npos) {
    const auto v = parse_int(trim(in.substr(plus + 1)));
    if (!v) return std::nullopt;
    off = in[plus] == '-' ? -*v : *v;
    in = trim(in.substr(0, plus));
  }
  const RegName r = reg_name(in);  // Rn.64 or URn.64 (or Rn: the pair all the same)
  if (!r.ok || r.pred) return std::nullopt;
  if (r.reg < 0) return addr(imm(0), off);
  (void)at;
  const u32 t = tmp();
  Opcode c = op(Op::cvta, TypeKind::u, 32);
  c.space = Space::generic;
  // Unguarded: it writes a temporary alone, and the address must be known where the guard is not.
  emit(c, {reg(t), reg(static_cast<u32>(r.reg)), reg(static_cast<u32>(r.reg) + 1)}, false, false);
  return addr(reg(t), off);
}

// LD[.E][.U8|.S8|.U16|.S16|.64|.128][.qualifiers] Rd, [a]; ST... [a], Rs; ATOM.E.op[.64][.qual] Pd, Rd,
// [a], Rs[, Rt]; RED.E.op [a], Rs. Memory-order and cache qualifiers (STRONG, SM, GPU, SYS, EF, EL,
// LU, EU, NA, CONSTANT) do not change which bytes are touched; a form outside this stays not modelled
// (listed as a generic access that may touch shared memory, never silently left out).
void Lowering::lower_generic(const SassInstr& i) {
  static const char* const qualifiers[] = {"E", "STRONG", "SM", "GPU", "SYS", "CTA", "EF", "EL", "LU", "EU", "NA", "CONSTANT", "WEAK"};
  const auto qualifier = [](const std::string& m) { return std::any_of(std::begin(qualifiers), std::end(qualifiers), [&](const char* q) { return m == q; }); };
  const bool memory = i.base == "LD" || i.base == "ST";
  Opcode c;
  c.op = i.base == "LD" ? Op::ld : i.base == "ST" ? Op::st : i.base == "ATOM" ? Op::atom : Op::red;
  c.space = Space::generic;
  c.type = Type{TypeKind::b, 32};
  int regs = 1;
  bool e = false;
  for (const std::string& m : i.mods) {
    if (m == "E") e = true;
    if (qualifier(m)) continue;
    if (memory && m == "U8") c.type = Type{TypeKind::u, 8};
    else if (memory && m == "S8") c.type = Type{TypeKind::s, 8};
    else if (memory && m == "U16") c.type = Type{TypeKind::u, 16};
    else if (memory && m == "S16") c.type = Type{TypeKind::s, 16};
    else if (m == "64") memory ? (c.vec = 2, regs = 2) : (c.type = Type{TypeKind::b, 64}, regs = 2);
    else if (memory && m == "128") c.vec = 4, regs = 4;
    else if (!memory && (m == "ADD" || m == "EXCH" || m == "CAS" || m == "AND" || m == "OR" || m == "XOR" || m == "MIN" ||
                         m == "MAX" || m == "INC" || m == "DEC" || m == "S32" || m == "U32"))
      continue;
    else return not_modelled(i.ops, regs, false);
  }
  if (!e) return not_modelled(i.ops, regs, false);  // a 32-bit generic address: not seen from ptxas
  // The operand that is an address, and the register operands around it.
  std::size_t ak = i.ops.size();
  for (std::size_t k = 0; k < i.ops.size(); ++k)
    if (i.ops[k].first.find('[') != std::string_view::npos) {
      ak = k;
      break;
    }
  if (ak == i.ops.size()) return not_modelled(i.ops, regs, false);
  const auto a = generic_address(i.ops[ak].first, i.ops[ak].second);
  if (!a) return not_modelled(i.ops, regs, false);
  if (c.op == Op::ld) {
    if (ak != 1) return not_modelled(i.ops, regs, false);
    const Operand d = dst_n(i.ops[0].first, i.ops[0].second, regs);
    std::vector<Operand> parts;
    if (d.kind == OK::vec)
      for (u32 j = 0; j < d.count; ++j) parts.push_back(f.operands[d.index + j]);
    else
      parts.assign(static_cast<std::size_t>(regs), d);
    return emit(c, {regs == 1 ? d : vec(parts), *a});
  }
  if (c.op == Op::st || c.op == Op::red) {
    if (ak != 0 || i.ops.size() < 2) return not_modelled(i.ops, regs, false);
    const RegName r = reg_name(i.ops[1].first);
    if (!r.ok || r.pred) return not_modelled(i.ops, regs, false);
    std::vector<Operand> parts;
    for (int k = 0; k < regs; ++k) parts.push_back(r.reg < 0 ? imm(0) : reg(static_cast<u32>(r.reg) + static_cast<u32>(k)));
    if (c.op == Op::red) return emit(c, {*a, parts[0]});
    return emit(c, {*a, regs == 1 ? parts[0] : vec(parts)});
  }
  // ATOM: [Pd,] Rd, [a], ...: the destination (a pair for .64) is written, not known (data).
  if (ak == 0) return not_modelled(i.ops, regs, false);
  const Operand d = dst_n(i.ops[ak - 1].first, i.ops[ak - 1].second, regs);
  return emit(c, {d, *a});
}

}  // namespace layoutproof::compiled::sass
