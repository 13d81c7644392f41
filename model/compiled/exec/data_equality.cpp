#include "model/compiled/exec/data_equality.hpp"

namespace layoutproof::compiled {
namespace {

using OK = Operand::Kind;

bool writes(const Function& f, const Instr& in, u32 r) {
  const Op o = in.code.op;
  if (o == Op::st || o == Op::red || o == Op::stmatrix || o == Op::cp_async || o == Op::bra || o == Op::nop) return false;
  for (u32 j = 0; j < (in.dual ? 2u : 1u) && j < in.count; ++j) {
    const Operand& d = arg(f, in, j);
    if (d.kind == OK::reg && d.index == r) return true;
    if (d.kind == OK::vec)
      for (u32 m = 0; m < d.count; ++m)
        if (f.operands[d.index + m].kind == OK::reg && f.operands[d.index + m].index == r) return true;
  }
  return false;
}

}  // namespace

std::vector<char> branch_targets(const Function& f) {
  std::vector<char> t(f.code.size() + 1, 0);
  for (const Instr& in : f.code)
    for (u32 j = 0; j < in.count; ++j)
      if (const Operand& o = arg(f, in, j); o.kind == OK::label && o.index < t.size()) t[o.index] = 1;
  return t;
}

std::optional<DataEquality> equality_test(const Function& f, const std::vector<char>& targets, u32 pc) {
  const Instr& b = f.code.at(pc);
  if (b.guard < 0 || targets.at(pc)) return std::nullopt;
  const u32 g = static_cast<u32>(b.guard);
  for (u32 k = pc; k-- > 0;) {
    const Instr& in = f.code[k];
    const Op o = in.code.op;
    if (!writes(f, in, g)) {
      if (o == Op::bra || o == Op::call || o == Op::ret || o == Op::exit || targets[k]) return std::nullopt;
      continue;
    }
    // The writer of g: setp.eq|ne of two values, g its first destination, unguarded.
    if (o != Op::setp || in.guard >= 0 || (in.code.cmp != Cmp::eq && in.code.cmp != Cmp::ne) || arg(f, in, 0).kind != OK::reg ||
        arg(f, in, 0).index != g || targets[k])
      return std::nullopt;
    const u32 src = in.dual ? 2 : 1;
    const bool combined = in.code.boolop != BoolOp::none;
    if (in.count < src + 2 + (combined ? 1 : 0)) return std::nullopt;
    DataEquality e;
    e.setp = k, e.x = arg(f, in, src), e.y = arg(f, in, src + 1);
    if (combined) {
      if (in.code.boolop != BoolOp::and_) return std::nullopt;  // g = (x cmp y) && c: only c true says x cmp y
      e.combine = arg(f, in, src + 2);
    }
    if (e.x.kind != OK::reg || (e.y.kind != OK::reg && e.y.kind != OK::imm) || e.x.neg || e.y.neg) return std::nullopt;
    e.when = in.code.cmp == Cmp::eq;
    for (u32 j = k + 1; j < pc; ++j)
      for (const Operand* r : {&e.x, &e.y, &e.combine})
        if (r->kind == OK::reg && writes(f, f.code[j], r->index)) return std::nullopt;
    return e;
  }
  return std::nullopt;
}

}  // namespace layoutproof::compiled
