// The SASS float rules (model/compiled/sass/sass_lower.hpp): FADD, FMUL, FFMA, FSETP, FMNMX and
// FSEL lowered to the IR's f32 arithmetic, which the executor evaluates as the GPU does
// (model/compiled/exec/float_arith.hpp, measured on the H200). A form outside those rules (FMUL's
// .D2/.M4 scalings, FFMA.FMZ, FMNMX.NAN, a 64-bit or paired operand) is not modelled: what it
// writes is unknown, naming it.
//   FADD[.FTZ][.RZ|.RM|.RP][.SAT] Rd, a, b          add.f32
//   FMUL[.FTZ][.RZ|.RM|.RP][.SAT] Rd, a, b          mul.f32
//   FFMA[.FTZ][.RZ|.RM|.RP][.SAT] Rd, a, b, c       fma.f32: a * b + c, one rounding
//   FSETP.<cmp>[.FTZ].<AND|OR|XOR> Pd, Pq, a, b, Pc setp.<cmp>.f32 combined with Pc; Pq the complement's
//   FMNMX[.FTZ] Rd, a, b, Pp                        Pp ? min(a, b) : max(a, b)
//   FSEL Rd, a, b, Pp                               Pp ? a : b (float immediates read as floats)
// Operands: -x and |x| act on the sign bit; an integer-looking immediate is a float (fsrc).
#include <algorithm>
#include <map>
#include <string>

#include "model/compiled/sass/sass_lower.hpp"

namespace layoutproof::compiled::sass {
namespace {

Operand float_operand(Lowering& l, const SassInstr& i, std::size_t k) {
  if (k >= i.ops.size()) {
    l.fail(i.at, i.base + ": a missing operand");
    return Lowering::imm(0);
  }
  return l.fsrc(i.ops[k].first, i.ops[k].second);
}

// The rounding, .FTZ and .SAT of FADD/FMUL/FFMA; false for a modifier outside them.
bool arithmetic_modifiers(const SassInstr& i, Opcode& c) {
  for (const std::string& m : i.mods) {
    if (m == "FTZ") c.ftz = true;
    else if (m == "SAT") c.sat = true;
    else if (m == "RN") c.rnd = Round::rn;
    else if (m == "RZ") c.rnd = Round::rz;
    else if (m == "RM") c.rnd = Round::rm;
    else if (m == "RP") c.rnd = Round::rp;
    else if (m == "F32") continue;
    else return false;
  }
  return true;
}

}  // namespace

void Lowering::lower_fadd(const SassInstr& i) {
  const Op o = i.base == "FADD" ? Op::add : i.base == "FMUL" ? Op::mul : Op::mad;
  const std::size_t sources = o == Op::mad ? 3 : 2;
  Opcode c = op(o, TypeKind::f, 32);
  if (!arithmetic_modifiers(i, c) || i.ops.size() != sources + 1 || i.is_pred(0)) return not_modelled(i.ops, 1, true);
  std::vector<Operand> ops = {i.D(0)};
  for (std::size_t k = 1; k <= sources; ++k) ops.push_back(float_operand(*this, i, k));
  return emit(c, ops);
}

void Lowering::lower_fsetp(const SassInstr& i) {
  if (i.ops.size() != 5) return not_modelled(i.ops, 1, false);
  Opcode s = op(Op::setp, TypeKind::f, 32);
  static const std::map<std::string, Cmp> cmps = {{"EQ", Cmp::eq},   {"NE", Cmp::ne},   {"LT", Cmp::lt},   {"LE", Cmp::le},
                                                  {"GT", Cmp::gt},   {"GE", Cmp::ge},   {"EQU", Cmp::equ}, {"NEU", Cmp::neu},
                                                  {"LTU", Cmp::ltu}, {"LEU", Cmp::leu}, {"GTU", Cmp::gtu}, {"GEU", Cmp::geu},
                                                  {"NUM", Cmp::num}, {"NAN", Cmp::nan}};
  for (const std::string& m : i.mods) {
    if (cmps.count(m)) s.cmp = cmps.at(m);
    else if (m == "AND") s.boolop = BoolOp::and_;
    else if (m == "OR") s.boolop = BoolOp::or_;
    else if (m == "XOR") s.boolop = BoolOp::xor_;
    else if (m == "FTZ") s.ftz = true;
    else return not_modelled(i.ops, 1, false);
  }
  if (s.cmp == Cmp::none || s.boolop == BoolOp::none) return not_modelled(i.ops, 1, false);
  return emit(s, {i.D(0), i.D(1), float_operand(*this, i, 2), float_operand(*this, i, 3), i.S(4)}, true);
}

void Lowering::lower_fmnmx(const SassInstr& i) {
  Opcode mn = op(Op::min, TypeKind::f, 32), mx = op(Op::max, TypeKind::f, 32);
  for (const std::string& m : i.mods) {
    if (m != "FTZ") return not_modelled(i.ops, 1, true);
    mn.ftz = mx.ftz = true;
  }
  if (i.ops.size() != 4 || !i.is_pred(3)) return not_modelled(i.ops, 1, true);
  const Operand a = float_operand(*this, i, 1), b = float_operand(*this, i, 2);
  const std::string_view p = trim(i.ops[3].first);
  if (p == "PT") return emit(mn, {i.D(0), a, b});
  if (p == "!PT") return emit(mx, {i.D(0), a, b});
  const u32 lo = tmp(), hi = tmp();
  emit(mn, {reg(lo), a, b});
  emit(mx, {reg(hi), a, b});
  return emit(op(Op::selp, TypeKind::b, 32), {i.D(0), reg(lo), reg(hi), i.S(3)});
}

void Lowering::lower_fsel(const SassInstr& i) {
  if (i.ops.size() != 4) return fail(i.at, i.base + " needs four operands");
  return emit(op(Op::selp, TypeKind::b, 32), {i.D(0), float_operand(*this, i, 1), float_operand(*this, i, 2), i.S(3)});
}

}  // namespace layoutproof::compiled::sass
