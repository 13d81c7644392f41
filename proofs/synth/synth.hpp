#pragma once
// Swizzle synthesis: search the Swizzle<B,M,S> family for a swizzle that keeps a tile a
// bijection, keeps V-element vectors contiguous and makes every given access conflict-free; or
// prove that none exists, then search XOR-linear maps over GF(2) (proofs/synth/gf2.hpp).
//
// The family. With n = bit width of the tile's largest offset (cosize - 1), every Sw<B,M,S> with
//   1 <= B, 0 <= M, B <= |S|, M + B + |S| <= n, both signs of S,  plus the identity Sw<0,0,0>.
// (A swizzle with a bit at or above n is the identity on those bits or moves offsets out of the
// image, so the bound loses nothing that can work; n <= 14 for tiles up to 128x128.)
//
// For each candidate Sw (C = Sw o 0 o L, L the plain tile):
//  (a) bijective   C has L's image: Sw(o) is in image(L) for every o in image(L). Sw is an
//                  involution (|S| >= B), hence injective, so into the finite set means onto it.
//                  Checked on every offset.
//  (b) contiguous:V  along the unit-stride mode (proofs/claims/claim.hpp's definition), every element.
//  (c) per access (pattern, op): the bank model (model/bank/bank.hpp) on every instruction.
// Candidates failing (a) or (b) are rejected with their witness; the others are ranked by
//   1. total wavefronts over all instructions of all accesses (fewest first),
//   2. smallest B,
//   3. CUTLASS's conventions: M == log2(V) first; then M + S == log2(row pitch) (the bits read are
//      the row index: Sw<3,3,3> on (8,64):(64,1) f16, Sw<5,0,6> on (32,64):(64,1) f32); then S > 0;
//      then smallest |S|, then smallest M.
// The winner is then re-proved through the project's engines (prove() for bijective and
// contiguous:V, prove_bank() for conflict-free of each access); a disagreement with the search is
// an ERROR.
#include <optional>
#include <string>
#include <vector>

#include "model/trace/access.hpp"
#include "model/bank/bank.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/synth/gf2.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {

struct SynthAccess {
  PatternKind pattern = PatternKind::row_per_lane;
  SmemOp op = SmemOp::ld;
  std::string text() const;  // "row-per-lane ld"
};

struct SynthRequest {
  Layout tile;                       // plain (rows, cols) layout
  int elem_bytes = 4;
  int vec = 1;
  std::vector<SynthAccess> accesses;
  bool cache = true;                 // share bank-model evaluations of equivalent instructions (synth.cpp)
  bool gf2 = true;                   // search GF(2) maps when the family has no conflict-free member
  ProveOptions prove;                // for the winner's proofs
};

// Default accesses for patterns: ld and st for row-per-lane / linear, ldsm4 and stsm4 for ldmatrix;
// with ops given, each op goes with the patterns it fits (matrix ops with ldmatrix, ld/st with
// the others). Throws LayoutError when a pattern gets no op.
std::vector<SynthAccess> make_accesses(const std::vector<PatternKind>& patterns, const std::vector<SmemOp>& ops);

// The first instruction that is not conflict-free, from the bank model.
struct SynthConflict {
  int access = 0;          // index into SynthRequest::accesses
  i64 instruction = 0;
  std::string where;
  int phase = 0, bank = 0;
  std::vector<int> lanes;
  std::vector<i64> words;
  int wavefronts = 0, ideal = 0;
};

struct Candidate {
  Swizzle sw;
  enum class Status { ok, not_bijective, not_contiguous } status = Status::ok;
  std::string reject_why;               // (a)/(b) witness
  i64 wavefronts = 0, ideal = 0;         // totals over every instruction of every access
  std::vector<i64> access_wavefronts;    // per access
  double worst_degree = 1;               // max over instructions of wavefronts / ideal
  std::optional<SynthConflict> conflict; // first instruction that is not conflict-free
  bool conflict_free() const { return status == Status::ok && !conflict; }
};

struct SynthProof {
  std::string claim;   // "bijective", "contiguous:4", "conflict-free (row-per-lane ld)"
  Verdict verdict;
};

struct Gf2Outcome {
  bool applicable = false;
  std::string why_not;        // when not applicable
  Gf2Search search;
  bool verified = false;      // the bank model on every instruction (found only)
  i64 wavefronts = 0, ideal = 0;
  std::string verify_detail;
  std::vector<std::vector<i64>> row_xor;  // [row][chunk] unit XOR (found only)
};

struct SynthResult {
  int offset_bits = 0;                    // n
  int row_bits = -1;                      // log2(row pitch) when a power of two
  std::vector<i64> instructions;          // per access
  std::vector<Candidate> ranked;          // status ok, best first
  std::vector<Candidate> rejected;        // failed (a) or (b)
  std::size_t family_size = 0;
  bool found = false;                     // ranked.front() is conflict-free
  std::vector<SynthProof> proofs;         // the winner's (found only)
  double best_degree = 0;                 // smallest worst_degree over ranked
  i64 best_wavefronts = 0;                // smallest total over ranked
  std::optional<Gf2Outcome> gf2;          // when !found and requested
  double search_ms = 0, proof_ms = 0, gf2_ms = 0;
  std::string cut;                        // non-empty: the run's deadline (--deadline-s) stopped the
                                          // search; nothing above is decided (UNKNOWN, exit 3)
  std::string bounds_text() const;        // "B <= 5, M <= 10, B <= |S| <= 11, M+B+|S| <= 11"
};

// @pre rank(tile) == 2, vec divides the unit-stride mode, at least one access (LayoutError).
SynthResult synthesize(const SynthRequest& r);

std::string describe(const SynthConflict& c, const std::vector<SynthAccess>& accesses);

}  // namespace layoutproof::proofs
