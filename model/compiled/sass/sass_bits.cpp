// Bit counts and warp votes in SASS, lowered to the PTX operations the one executor runs:
//   POPC Rd, Ra            popc.b32   (set bits)
//   BREV Rd, Ra            brev.b32   (bit reversal)
//   FLO.U32|S32 Rd, Ra     bfind.u32|s32: the most significant (non-sign) bit's position,
//                          0xffffffff where there is none; .SH: bfind.shiftamt (31 - position)
//   VOTE.ANY|ALL|UNI Rd, Pd, Ps   Rd = vote.ballot(Ps) over the lanes that run it together, Pd =
//                          vote.any|all|uni(Ps) (PT: discarded)
//   MATCH.ANY[.U64] Rd, Ra match.any.sync.b32|b64 (.U64: the pair Ra, Ra+1): the lanes holding the
//                          same value (cooperative groups and cuda::pipeline group the lanes on
//                          one address so). MATCH.ALL is not modelled: no listing here shows its
//                          operands.
// and their uniform forms (UPOPC, UBREV, UFLO, VOTEU: one value for the warp, as the executor
// computes it per lane). Warp-aggregated atomics and cooperative groups' leader election
// (VOTEU.ANY, UFLO, ISETP.EQ against SR_LANEID; BREV, FLO.U32.SH: the lowest lane) are built so.
// Example: VOTE.ANY R11, PT, PT with lanes 0-7 running it gives R11 = 0xff in each of them.
#include "model/compiled/sass/sass_lower.hpp"

namespace layoutproof::compiled::sass {

void Lowering::lower_bits(const SassInstr& i) {
  if (i.ops.size() != 2 || i.is_pred(0)) return not_modelled(i.ops, 1, false);
  if (i.base == "POPC") return emit(op(Op::popc, TypeKind::b, 32), {i.D(0), i.S(1)});
  if (i.base == "BREV") return emit(op(Op::brev, TypeKind::b, 32), {i.D(0), i.S(1)});
  // FLO: .U32 unless .S32 (nvdisasm prints the type); any other modifier is outside the model.
  for (const std::string& m : i.mods)
    if (m != "U32" && m != "S32" && m != "SH") return not_modelled(i.ops, 1, false);
  Opcode c = op(Op::bfind, i.has("S32") ? TypeKind::s : TypeKind::u, 32);
  c.shiftamt = i.has("SH");
  return emit(c, {i.D(0), i.S(1)});
}

void Lowering::lower_vote(const SassInstr& i) {
  VoteMode mode = VoteMode::none;
  for (const std::string& m : i.mods) {
    if (m == "ANY") mode = VoteMode::any;
    else if (m == "ALL") mode = VoteMode::all;
    else if (m == "UNI") mode = VoteMode::uni;
    else return not_modelled(i.ops, 1, false);
  }
  if (mode == VoteMode::none || i.ops.size() != 3 || i.is_pred(0) || !i.is_pred(1) || !i.is_pred(2)) return not_modelled(i.ops, 1, false);
  Opcode ballot = op(Op::vote, TypeKind::b, 32);
  ballot.vote = VoteMode::ballot;
  const Operand p = i.S(2);
  emit(ballot, {i.D(0), p, imm(-1)});
  Opcode pred = op(Op::vote, TypeKind::pred, 1);
  pred.vote = mode;
  return emit(pred, {i.D(1), p, imm(-1)});
}

void Lowering::lower_match(const SassInstr& i) {
  for (const std::string& m : i.mods)
    if (m != "ANY" && m != "U32" && m != "U64") return not_modelled(i.ops, 1, false);
  if (!i.has("ANY") || i.ops.size() != 2 || i.is_pred(0) || i.is_pred(1)) return not_modelled(i.ops, 1, false);
  const bool wide = i.has("U64");
  Opcode c = op(Op::match, TypeKind::b, wide ? 64 : 32);
  c.vote = VoteMode::any;
  Operand a = i.S(1);
  if (wide) {
    const RegName r = reg_name(i.ops[1].first);
    if (!r.ok) return not_modelled(i.ops, 1, false);
    const u32 t = tmp();
    emit(op(Op::mov, TypeKind::b, 64), {reg(t), r.reg < 0 ? imm(0) : vec({reg(static_cast<u32>(r.reg)), reg(static_cast<u32>(r.reg) + 1)})});
    a = reg(t);
  }
  return emit(c, {i.D(0), a, imm(-1)});
}

}  // namespace layoutproof::compiled::sass
