// A synthesized layout re-proves: the winner of `synth --tile` and of
// `synth --kernel`, re-proved with the OTHER engine. The searches rank candidates on the bank model
// and prove their winner with the automatic engine (exhaustive at these sizes); here every claim of
// the winner is proved again by Z3: bijective (swizzle-permutes for a padded tile, whose swizzle
// permutes its own footprint) and contiguous:V of the swizzled tile (prove()), each
// access's conflict-free (prove_bank), and for kernels each copy's conflict-free on the re-traced
// copy (prove_trace) and the layout's bijectivity (injective when padded).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/source/kernel_expr.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/synth/kernel_synth.hpp"
#include "proofs/synth/synth.hpp"
#include "proofs/claims/trace_claims.hpp"
#include "properties/kernels.hpp"
#include "properties/check.hpp"

namespace layoutproof {
namespace {

proofs::ProveOptions z3_only() {
  proofs::ProveOptions o;
  o.engine = proofs::EngineChoice::z3;
  o.largest_v = false;
  return o;
}

}  // namespace

LP_PROP(SynthReprove, TileWinnerReprovesWithZ3, 60, ()) {
  const int eb = *rc::gen::element(2, 4, 1).as("elem bytes");
  const int vec = *rc::gen::element(16 / eb, 1, 8 / eb > 0 ? 8 / eb : 1).as("vec");
  const i64 rows = *rc::gen::element<i64>(8, 16, 32).as("rows");
  const i64 cols = vec * *rc::gen::element<i64>(8, 4, 16).as("chunks");
  const i64 pad = *rc::gen::element<i64>(0, vec).as("pad");
  const PatternKind pattern = *rc::gen::element(PatternKind::row_per_lane, PatternKind::linear).as("pattern");
  proofs::SynthRequest q;
  q.tile = Layout(IntTuple::tuple({IntTuple(rows), IntTuple(cols)}), IntTuple::tuple({IntTuple(cols + pad), IntTuple(1)}));
  q.elem_bytes = eb;
  q.vec = vec;
  q.accesses = proofs::make_accesses({pattern}, {});
  q.gf2 = false;
  const proofs::SynthResult r = proofs::synthesize(q);
  RC_CLASSIFY(r.found, "found");
  if (!r.found) return;
  const AnyLayout winner(r.ranked.front().sw, 0, q.tile);
  proofs::Subject s;
  s.layout = winner;
  for (const std::string claim : {std::string(pad ? "swizzle-permutes" : "bijective"), "contiguous:" + std::to_string(vec)}) {
    const proofs::Verdict v = proofs::prove(s, proofs::parse_claim(claim), z3_only());
    RC_ASSERT(v.is_proved());
  }
  for (const proofs::SynthAccess& a : q.accesses) {
    const proofs::BankSubject b = proofs::make_bank_subject(make_access(winner, eb, vec, a.pattern), a.op);
    const proofs::BankResult br = proofs::prove_bank(b, *proofs::parse_bank_claim("conflict-free"), z3_only());
    RC_ASSERT(br.verdict.is_proved());
  }
  // The search's own proofs (automatic engine) agree.
  for (const proofs::SynthProof& p : r.proofs) RC_ASSERT(p.verdict.is_proved());
}

LP_PROP(SynthReprove, KernelWinnerReprovesWithZ3, 16, ()) {
  // A cp.async store and, half the time, an LDSM read of the same smem tile, half_t.
  const i64 k = *rc::gen::element<i64>(32, 64).as("K");
  const i64 mn = *rc::gen::element<i64>(32, 64).as("MN");
  const bool with_ldsm = *rc::gen::arbitrary<bool>().as("ldsm read");
  proofs::KernelSynthRequest q;
  q.shape = {mn, k};
  q.element = "half_t";
  q.copies.push_back({parse_tiled_copy("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, " +
                                       gen::cute_layout_cpp(128 / (k / 8), k / 8, true) +
                                       ", Layout<Shape<_1,_8>>{})"),
                      CopySide::D});
  if (with_ldsm) {
    const TiledMma mma = parse_tiled_mma("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
    q.copies.push_back({parse_tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", mma), CopySide::S});
  }
  const proofs::KernelSynthResult r = proofs::synthesize_kernel(q);
  RC_CLASSIFY(r.found, "found");
  if (!r.found) return;
  for (const proofs::KernelProof& p : r.proofs) RC_ASSERT(p.verdict.is_proved());
  for (const proofs::KernelSynthCopy& c : q.copies) {
    const AddressTrace t = trace_copy(c.copy, r.layout, c.side);
    const proofs::TraceResult tr = proofs::prove_trace(t, *proofs::parse_trace_claim("conflict-free"), z3_only());
    RC_ASSERT(tr.verdict.is_proved());
  }
  proofs::Subject s;
  s.layout = r.layout;
  const bool padded = r.ranked.front().c.padded();
  RC_ASSERT(proofs::prove(s, proofs::parse_claim(padded ? "injective" : "bijective"), z3_only()).is_proved());
}

}  // namespace layoutproof
