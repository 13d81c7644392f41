#pragma once
// Bank-conflict claims over every warp-wide instruction of an access pattern.
//
// The access (model/trace/access.hpp) gives, for instruction k = 0..count-1, each lane's byte address
// a_l; the bank model (model/bank/bank.hpp) splits the instruction into phases (32 lanes for widths
// <= 4 bytes, half-warps for 8, quarter-warps for 16, one per 8x16B matrix for ldsm/stsm) and a
// lane of width w touches the 32-bit words a_l/4 + j, 0 <= j < max(1, w/4), in banks word % 32.
//
//   conflict-free   forall k: wavefronts(k) <= ideal(k)              (bank model)
//                   Z3:   not exists k, (l1,j1), (l2,j2): active(k,l1), active(k,l2),
//                         phase(l1) == phase(l2), bank(w1) == bank(w2), w1 != w2
//   max-ways:K      forall k, phase p, bank b: #distinct words of p in b <= K
//                   Z3:   not exists k, (l_0,j_0) .. (l_K,j_K) in one phase, one bank,
//                         pairwise distinct words
// The two agree on the bank model's rule (a phase needs max over banks of its distinct words;
// a phase without a collision needs one wavefront). Soundness: a Z3 violation is replayed on the
// bank model (ERROR "encoding mismatch" unless the model shows the conflict there), and a Z3
// PROVED is cross-checked against the exhaustive evaluation of every instruction whenever there
// are at most kBankExhaustiveLimit of them (ERROR when they disagree, never PROVED).
//
// Example: Sw<2,2,3> o (32,40):(40,1), f32, 16-byte vectors, row-per-lane: instruction
// "rows 0-31, columns 0-3" has lanes 0 and 5 of phase 0 in bank 0 at words 0 and 192:
// REFUTED, 8 wavefronts for an ideal of 4 (measured on the H100: 8).
#include <optional>
#include <string>
#include <vector>

#include "model/trace/access.hpp"
#include "model/bank/bank.hpp"
#include "model/trace/trace.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {

struct BankClaim {
  enum class Kind { conflict_free, max_ways };
  Kind kind = Kind::conflict_free;
  int k = 1;          // max-ways:K
  std::string text;   // as written
};
// "conflict-free" | "max-ways:K" (K >= 1); nullopt for any other claim name. Throws LayoutError
// on a malformed max-ways argument.
std::optional<BankClaim> parse_bank_claim(const std::string& text);
bool is_bank_claim(const std::string& text);

// The one default vector width of an access (prove --vec, a spec's `vec:`, synth --vec): 16 bytes
// per lane, the widest shared-memory access (LDS.128/STS.128, cp.async of 16 B, an ldmatrix row),
// so max(1, 16 / elem_bytes) elements. @pre elem_bytes >= 1.
//   default_vec(2) == 8 (f16 x8)   default_vec(4) == 4 (f32 x4)   default_vec(1) == 16   default_vec(32) == 1
int default_vec(int elem_bytes);

// The access whose instructions the claim ranges over.
struct BankSubject {
  AccessSpec spec;
  SmemOp op = SmemOp::ld;
  int width_bytes = 4;   // bytes per lane (16 for ldsm/stsm)
  std::string text() const;  // e.g. "Sw<2,2,3> o 0 o (32,40):(40,1), f32 x4 (16 B), row-per-lane, ld"
};
// spec.ldmatrix_count follows the op for ldsmN/stsmN; width = elem_bytes * vec (16 for matrices).
// @pre pattern ldmatrix needs a matrix op, a matrix op needs pattern ldmatrix and 16-byte rows
//      (elem_bytes * vec == 16); LayoutError otherwise, for every caller alike.
// An smem_ptr tile `Sw o smem_ptr[Nb](unset) o L` becomes L under byte_swizzle = Sw, which acts on
// the absolute byte address base + L(x)*elem_bytes, as CuTe's swizzle_ptr does (N must be
// 8*elem_bytes). Example: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1) at base 128: (0,0) is
// at byte 144, where the element form Sw<3,3,3> o (8,64):(64,1) puts it at 128.
BankSubject make_bank_subject(AccessSpec spec, SmemOp op);

// Number of instructions of the pattern, computed in closed form (model/trace/access.hpp warp_access_count).
i64 instruction_count(const BankSubject& s);

// The pattern as an address trace (model/trace/trace.hpp), the one type the exhaustive bank path reads:
// instruction k of warp_accesses(s.spec), one warp issuing them all (thread = lane, index k) or,
// for the thread-layout pattern, instruction k as warp k (threads 32k..32k+31); coordinates
// (row, col); logical index row + col * rows in the (rows, cols) tile; with_slices: each lane's
// `vec` elements (row, col + j) as its CPY slice (the bank claims skip them: vec times the work).
// Throws LayoutError as warp_accesses does.
AddressTrace trace_of(const BankSubject& s, bool with_slices = true);

// A replayed witness: one instruction, the (phase, bank) with too many words and its lanes.
struct BankLane {
  int lane = 0;
  i64 row = -1, col = -1;
  i64 byte_address = 0;
  std::vector<i64> words;   // the words of this lane in the witness bank
};
struct BankWitness {
  i64 instruction = 0;
  std::string where;            // the instruction, as model/trace/access.hpp names it
  int phase = 0;
  int bank = 0;
  int ways = 0;                 // distinct words in that bank of that phase
  int wavefronts = 0, ideal = 0;
  double degree = 1.0;          // wavefronts / ideal
  std::vector<BankLane> lanes;  // the lanes touching the bank in that phase
  std::array<i64, kWarpLanes> all_addresses{};  // every lane of the instruction (-1 inactive)
  std::array<LaneCoord, kWarpLanes> all_coords{};
};

struct BankResult {
  Verdict verdict;
  std::optional<BankWitness> witness;  // REFUTED only
};

inline constexpr i64 kBankExhaustiveLimit = i64{1} << 20;  // instructions

// Decides the claim: engine z3 -> Z3 plus replay plus the exhaustive cross-check; exhaustive ->
// the bank model on every instruction; automatic -> exhaustive up to o.auto_exhaustive_limit
// instructions, else as z3. Never throws for a well-formed subject:
// invalid accesses and engine errors become ERROR.
BankResult prove_bank(const BankSubject& s, const BankClaim& c, const ProveOptions& o);

// The exhaustive oracle alone and the Z3 engine alone (tests compare them). The oracle reads
// trace_of(s) through the trace claims' bank scan (proofs/claims/trace_claims.hpp: scan_bank) and reports
// the worst failing instruction, as the trace claims do: max-ways:K the (phase, bank) with the most
// distinct words; conflict-free the instruction with the most wavefronts per ideal and in it the
// bank with the most distinct words; ties: the smallest instruction, phase and bank.
BankResult check_bank_exhaustive(const BankSubject& s, const BankClaim& c);

// A raw Z3 violation: instruction k and the lanes it picked (before replay).
struct BankViolation {
  i64 instruction = 0;
  std::vector<int> lanes;
};
// first_bad, hint_lanes: the exhaustive oracle's first failing instruction and the smallest lanes
// of its breaking collision, hints for shrinking only (the result is replayed either way).
Outcome<BankViolation> check_bank_z3(const BankSubject& s, const BankClaim& c, const SmtOptions& o,
                                     std::optional<i64> first_bad = std::nullopt, const std::vector<int>& hint_lanes = {});

// One sentence for a witness: "instruction 0 (rows 0-31, columns 0-3): lanes 0 (0,0) at byte 0, ..."
std::string describe(const BankWitness& w);

}  // namespace layoutproof::proofs
