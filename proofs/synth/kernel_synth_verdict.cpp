// The kernel layout synthesis as one verdict (proofs/synth/kernel_synth.hpp kernel_synth_verdict) and
// the statements its verdict and the command's view (cli/commands/synth/kernel_synth_view.hpp) share.
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs {
namespace {

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

std::string side_text(CopySide s) { return s == CopySide::S ? "S" : "D"; }

// The placement refuted every member conflict-free at base 0 (r.placement_failures).
bool placement_refuted_all(const KernelSynthResult& r) {
  return !r.found && !r.ranked.empty() && r.ranked.front().conflict_free() && !r.placement_failures.empty();
}

}  // namespace

std::string kernel_op_text(SmemOp op, int width) {
  return is_matrix_op(op) ? to_string(op) : to_string(op) + "." + (width ? std::to_string(8 * width) : "auto");
}

std::string kernel_ratio_text(int wavefronts, int ideal) { return std::to_string(wavefronts) + "/" + std::to_string(ideal); }

std::string kernel_descriptor_kind(const KernelSynthRequest& q) { return is_umma_operand(q) ? "UMMA" : "GMMA"; }

std::string kernel_none_statement(const KernelSynthResult& r) {
  if (r.deadline_cut) return "the deadline was reached before every member was decided: nothing is claimed about the others";
  if (r.ranked.empty()) return "no member of the family keeps every copy vector-legal";
  if (placement_refuted_all(r))
    return "no member of the family is conflict-free on every copy " + r.placement_text + ": the " +
           std::to_string(r.placement_failures.size()) + " members conflict-free at base 0 break a copy (or TMA's swizzle) at another base";
  return "no member of the family is conflict-free on every copy: the best worst-copy ratio is " +
         kernel_ratio_text(r.best_wavefronts, r.best_ideal) + " wavefronts/ideal";
}

std::string kernel_proof_subject(const KernelSynthRequest& q, const KernelSynthResult& r, const KernelProof& p) {
  if (p.copy < 0) return "the layout";
  const KernelCopyInfo& c = r.copies[at(p.copy)];
  return "copy " + std::to_string(p.copy) + " (" + side_text(q.copies[at(p.copy)].side) + ", " +
         kernel_op_text(c.op, c.width_bytes) + ")";
}

Verdict kernel_synth_verdict(const KernelSynthRequest& q0, const ProveOptions& o) {
  KernelSynthRequest q = q0;
  q.prove = o;
  q.progress = nullptr;
  const KernelSynthResult r = synthesize_kernel(q);
  std::string method = "synth --kernel over all " + std::to_string(r.family_size) + " members";
  if (!r.ranked.empty()) method += r.found ? ": winner " + candidate_text(r.ranked.front().c) : ": best " + candidate_text(r.ranked.front().c) + " at " + kernel_ratio_text(r.best_wavefronts, r.best_ideal);
  if (r.found) {
    for (const auto& p : r.proofs) {
      if (p.verdict.is_proved()) continue;
      const std::string what = p.claim + " of " + kernel_proof_subject(q, r, p) + " of the winner " + r.notation;
      if (p.verdict.is_refuted()) return Verdict::error(method, what + " is REFUTED, against the search: " + p.verdict.witness.why);
      return Verdict::unknown(method, what + ": " + p.verdict.detail);
    }
    std::string atoms;
    for (const auto& a : r.cutlass_atoms) atoms += (atoms.empty() ? " (CUTLASS's " : ", ") + a;
    if (!atoms.empty()) atoms += ")";
    std::string descriptor;  // a GMMA operand: say so, and which TMA swizzle was proved with it
    if (q.descriptor) {
      descriptor = ", read by " + q.descriptor_mma + " through a " + kernel_descriptor_kind(q) + " descriptor (the family is CUTLASS's " +
                   kernel_descriptor_kind(q) + " atoms only)";
      for (const auto& p : r.proofs)
        if (p.claim.rfind("tma:", 0) == 0) descriptor += ", TMA's " + p.claim + " proved";
    }
    return Verdict::proved(method, "winner " + candidate_text(r.ranked.front().c) + atoms + descriptor + ", every copy at its ideal wavefronts, vector-legal and covering, " +
                                       "the layout " + (r.ranked.front().c.padded() ? "injective" : "bijective") + ": " + r.cpp +
                                       " notation: " + r.notation);
  }
  if (r.deadline_cut)
    return Verdict::unknown(method, q.prove.smt.deadline.reason() +
                                        " before every member was decided: neither a winner nor 'none exists' is claimed");
  if (r.placement_undecided)  // the members were ranked at base 0, which this lone base is not
    return Verdict::unknown(method, "no member conflict-free at base 0 is conflict-free " + r.placement_text +
                                        "; members were ranked at base 0 only, so 'none exists' is not proved off the 128-byte grid");
  Witness w;
  std::string best;
  if (!r.ranked.empty()) best = " (" + candidate_text(r.ranked.front().c) + ")";
  for (const auto& p : r.proofs)
    if (p.verdict.is_refuted()) {
      w = p.verdict.witness;
      if (p.witness && w.why.empty()) w.why = p.witness->why;
      w.why = kernel_proof_subject(q, r, p) + " of " + candidate_text(r.ranked[at(p.member)].c) + ": " + w.why;
      break;
    }
  if (w.why.empty() && !r.rejected.empty()) w.why = candidate_text(r.rejected.front().c) + ": " + r.rejected.front().illegal_why;
  if (w.why.empty()) return Verdict::error(method, kernel_none_statement(r) + ", but no member's refutation replayed");
  w.why = kernel_none_statement(r) + best + "; " + w.why;
  return Verdict::refuted(method, w);
}

}  // namespace layoutproof::proofs
