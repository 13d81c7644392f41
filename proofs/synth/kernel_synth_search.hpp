#pragma once
// The search of `synth --kernel` (proofs/synth/kernel_synth.hpp): every member of the family
// deduplicated, vector-checked and scored on the copies' traces. Internal to proofs/kernel_synth*.
//
// Two engines compute the same KernelSynthResult fields (family_size, duplicates, ranked in
// enumeration order, rejected, copies, preferred, bank_evaluations aside):
//   reference  every instruction of every copy re-addressed on every member (the definition);
//   classes    (the default) the instructions of a copy grouped, per member, into classes whose
//              addresses are the same up to a multiple of 128 bytes, each class evaluated once.
//
// Why the classes are exact. Write an instruction as its base b (the (m,k,stage) coordinate of
// its first active element) plus per-lane offsets rel; two instructions of one *group* have the
// same rel (and the same op and width). A member L is *periodic* along mode d with period P_d and
// step C_d when L(x + P_d e_d) = L(x) + C_d for every x with both points in the tile. Then for two
// instructions i, j of one group with b_j - b_i = (a P_0, c P_1, s P_2), every lane's address
// moves by the same t = (a C_0 + c C_1 + s C_2) * e bytes (walk from x to x + delta one period at a
// time; every point on the way is in the tile). When t is a multiple of 128, the two instructions
// have the same BankMemo key (bank, word and address equalities are kept), the same wavefronts and
// ideal, and the same vector-legality (alignment to a width <= 16 and contiguity are kept). The
// class key of an instruction is therefore
//     (group, b_d mod P_d for each periodic d (b_d itself otherwise),
//      sum_d floor(b_d / P_d) * C_d * e  mod 128)
// and its class is evaluated on its first instruction; counts are weighted by the class size.
// Periods: a plain (unswizzled) member is checked periodic with the atom's extents (1 when padded)
// and the stage, on its whole offset table, once; Sw<B,M,S> o P keeps a period of P whose step C
// is a multiple of 2^(B+M+S) (Sw reads and writes only bits below B+M+S, so Sw(z + C) = Sw(z) + C).
//   Example: (128,64,3) half_t, Sw<3,3,3> o (8,64):(64,1): P = (8, 64, 1), C = (512, 8192, 8192)
//   elements; the 192 LDSM x4 instructions fall into 16 classes (m0 mod 8 and the phase).
// Duplicates: a member periodic along the stage is determined by its first stage and C_2, so the
// duplicate test compares those (every member of the family is checked to be so; otherwise whole
// tables are compared).
#include <string>

#include "proofs/claims/bank_memo.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs::detail {

// Fills out.copies, out.preferred, out.family_size, out.duplicates, out.ranked (enumeration
// order), out.rejected and out.bank_evaluations. @pre out.element_bytes is set.
void run_search(const KernelSynthRequest& r, KernelSynthResult& out);

// The tile (MN,K[,STAGES]) laid out column-major: the layout every copy is traced on once.
Layout compact_tile(const std::vector<i64>& shape);

// The vector-legal claim on a copy's trace: "" when it holds, else the refutation's sentence.
std::string vector_refutation(const AddressTrace& t);

// The bank model on every instruction of a copy's trace (memoized when memo is given).
// @pre the trace is vector-legal (its addresses are aligned: the bank model refuses others).
CopyScore bank_score(const AddressTrace& t, BankMemo* memo);

}  // namespace layoutproof::proofs::detail
