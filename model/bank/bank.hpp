#pragma once
// The shared-memory bank model: how many shared-memory wavefronts one warp-wide LDS/STS/LDSM/STSM
// (and LDGSTS, ATOMS: below) needs on NVIDIA sm_80..sm_90 (calibrated on an H100 and an H200; rule
// and measurements: docs/bank_model.md).
//
// Definitions. Shared memory has 32 banks of 4 bytes; byte address a lies in 32-bit word a/4 and
// bank (a/4) % 32. An instruction is split into *phases* of lanes:
//   ld/st, width 1, 2 or 4 bytes   one phase of 32 lanes
//   ld/st, width 8                 two phases: lanes 0-15, 16-31 (half-warps)
//   ld/st, width 16                four phases: lanes 0-7, 8-15, 16-23, 24-31 (quarter-warps)
//   ldsmN/stsmN (N = 1, 2, 4)      N phases: matrix m = the 16-byte rows given by lanes 8m..8m+7;
//                                  lanes >= 8N are ignored
// A phase with active lanes needs max over banks of the number of *distinct* words its active
// lanes touch in that bank (lanes touching the same word are merged, whatever their bytes); a
// phase with no active lane needs none. The instruction needs the sum over its phases.
// Cross-phase merges of wide LOADS measured on the H100 and the H200 (stores never merge; widths
// <= 4 and ldmatrix/stmatrix follow the phase sum exactly). "Fold by XOR m" below means: no two
// active lanes l, l^m read different addresses.
//   LDS.64: all active lanes on one address -> 1. Else, if the warp folds by XOR 1 or XOR 2 and all
//     its active lanes together are conflict-free (1 distinct word per bank) -> 1. Else the sum of
//     the two half-warp phases.
//   LDS.128: all active lanes on one address -> 1 if <= 16 lanes are active, else 2. Else the two
//     half-warps never merge; a half-warp with active lanes in BOTH its quarters takes 1 if its
//     active lanes together are conflict-free (half 1: and fold by XOR 1 or XOR 2), else the sum of
//     its two quarters; a half with one non-empty quarter takes that quarter's count. Plus 1 when
//     half 0 merged both its quarters into one wavefront, lane 31 is active and is not the only
//     active lane of half 1, unless every active lane's XOR-1 partner (or every one's XOR-2
//     partner) is active on the same address. Example: lanes 0-15 on one address and 16-31 on
//     another -> 2 (pairs by XOR 1); odd lanes on distinct conflict-free addresses -> 3.
// The rule equals every measured case: 3,096 on the H100, 11,206 on the H200 (docs/bank_model.md).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layoutproof {

// ldgsts: cp.async (LDGSTS) writing shared memory; it takes the wavefronts of an STS of the same
// width and lane addresses (measured on the H100: 15 of 15 CuTe copies, shared/hardware; 8 of 8
// copies here, docs/gpu_check.md) when its global reads are coalesced as the copy's thread layout
// intends. With scattered global reads (lanes 32 bytes apart) the H100 took 4x the shared
// wavefronts of the same shared addresses: the model does not see the global side.
enum class SmemOp { ld, st, ldsm1, ldsm2, ldsm4, stsm1, stsm2, stsm4, ldgsts };

constexpr int kWarpLanes = 32;
constexpr int kBanks = 32;
constexpr int kBankBytes = 4;  // a bank is one 32-bit word wide

// The one bank formula (the definitions above), for a byte address a >= 0:
//   word_of(a) = a / 4         the 32-bit word a lies in
//   bank_of_word(w) = w % 32   the bank word w lies in
//   bank_of(a) = (a / 4) % 32  the bank a lies in
// Every room computes banks through these; the Z3 encodings (proofs/smt/bank_z3.cpp,
// proofs/smt/trace_z3.cpp) state the same arithmetic as bit-vector terms, each naming this one.
// Example: bank_of(140) == 3 (word 35); bank_of(128) == 0; bank_of(4100) == 1; a 16-byte access
// at byte 124 touches words word_of(124) .. word_of(139) = 31 .. 34, banks 31, 0, 1, 2.
constexpr std::int64_t word_of(std::int64_t byte) { return byte / kBankBytes; }
constexpr int bank_of_word(std::int64_t word) { return static_cast<int>(word % kBanks); }
constexpr int bank_of(std::int64_t byte) { return bank_of_word(word_of(byte)); }

// The shared memory one thread block can address on the modelled GPUs: 227 KiB = 232,448 bytes.
// An H100 (sm_90) SM has 228 KiB of shared memory, of which a block may opt in to 227 KiB (the
// CUDA C++ Programming Guide's per-compute-capability table; sm_80: 163 KiB, also below it). Every
// byte an instruction touches lies in [0, kSmemBytes): validate() refuses anything beyond, so no
// address, word or count derived from a larger (or wrapped) address ever reaches a proof.
constexpr std::int64_t kSmemBytes = 227 * 1024;
// The most threads a CUDA thread block has (sm_80, sm_90): a TiledMMA, a TiledCopy or a
// --thread-layout larger than this is bad input.
constexpr std::int64_t kMaxBlockThreads = 1024;
// CUDA's launch limits on the same GPUs (the Programming Guide's compute-capability table;
// cudaLaunchKernel refuses more): a block's x and y are at most 1024, its z at most 64 (and
// x*y*z at most kMaxBlockThreads); a grid's x is at most 2^31 - 1, its y and z at most 65535.
constexpr std::int64_t kMaxBlockDims[3] = {1024, 1024, 64};
constexpr std::int64_t kMaxGridDims[3] = {(std::int64_t{1} << 31) - 1, 65535, 65535};

// One warp-wide instruction: its op, the bytes per lane (16 for ldsm/stsm rows) and each lane's
// byte address in shared memory (-1: lane inactive).
struct SmemAccess {
  SmemOp op = SmemOp::ld;
  int width_bytes = 4;
  std::array<std::int64_t, kWarpLanes> lane_addr{};
};

// A bank that needs more than one wavefront in one phase: the lanes and the distinct words.
struct BankCollision {
  int phase = 0;
  int bank = 0;
  std::vector<int> lanes;            // active lanes that touch this bank in this phase, ascending
  std::vector<std::int64_t> words;   // the distinct 32-bit word indices (byte address / 4), ascending
  int ways() const { return static_cast<int>(words.size()); }
};

struct BankReport {
  int wavefronts = 0;                 // predicted shared-memory wavefronts for the instruction
  int ideal = 0;                      // wavefronts with no bank conflict (see analyze_smem_access)
  int hw_ideal = 0;                   // the ideal the hardware reports (Wavefronts::hw_ideal)
  double conflict_degree = 1.0;       // wavefronts / ideal
  std::vector<int> phase_wavefronts;  // per phase, 0 for phases without active lanes
  std::vector<BankCollision> collisions;  // every (phase, bank) with ways() > 1, by phase then bank
  bool broadcast_merge = false;       // a measured wide-load merge rule changed the phase sum
};

// "ld", "st", "ldsm1", ..., "ldgsts"; nullopt for anything else.
// is_store: st, stsm1/2/4 and ldgsts write shared memory.
bool is_store(SmemOp op);
std::optional<SmemOp> parse_smem_op(std::string_view s);
std::string to_string(SmemOp op);
bool is_matrix_op(SmemOp op);  // ldsmN / stsmN
int matrix_count(SmemOp op);   // N of ldsmN / stsmN, 0 otherwise
// The lanes whose addresses the instruction reads, [0, address_lanes(op)): ldsmN/stsmN take the
// 16-byte row addresses of N 8x8 matrices from lanes 0..8N-1 (whatever lanes 8N..31 hold is not an
// address: the PTX ISA's ldmatrix/stmatrix operand table), every other op one address per lane.
// Every consumer that asks which lanes address memory (the bank model, traces, the claims and
// their Z3 encodings, witness replay) asks this. Example: ldsm2 -> 16, st -> 32.
int address_lanes(SmemOp op);
// The phases of an instruction (see the definitions above), as lanes [first, first + count):
// ld.128 -> (0,8),(8,8),(16,8),(24,8); ldsm2 -> (0,8),(8,8). Reports draw a phase with these.
std::vector<std::pair<int, int>> phases_of(const SmemAccess& a);

// Throws LayoutError when `a` is not a valid instruction: width not 1/2/4/8/16 (16 for matrix ops),
// an address below -1 or not a multiple of the width, bytes at or past kSmemBytes, or no active
// lane (lanes >= 8N of a matrix op are ignored).
void validate(const SmemAccess& a);

// Predicted wavefronts of one instruction (rule above).
// ideal = the wavefronts the instruction would take with each phase's collisions removed: per merge
// group, 1 if the group merges, else its number of phases with an active lane (N for matrix ops),
// plus LDS.128's lane-31 extra wavefront (not a bank conflict). Every merge needs its group
// conflict-free as a whole, so a collision always sits in a summed phase, costs exactly need - 1
// there and is never absorbed: ideal = wavefronts - sum(need - 1 over phases) (<= the non-empty
// phases, >= 1), and conflict_degree = wavefronts / ideal is 1 (conflict-free) iff no phase has a
// collision. Example: ld.128 with half 0 on one address (merged: 1) and lanes 20, 22 2-way in
// quarter 2: wavefronts 1 + 2 + 1 = 4, ideal 1 + 1 + 1 = 3 (the old ideal, non-empty phases
// lowered to the wavefronts, was 4 and called it conflict-free).
// @pre validate(a) passes (it is called; LayoutError otherwise).
// @post wavefronts >= ideal >= 1; wavefronts == sum(phase_wavefronts) unless broadcast_merge.
// Example: ld, width 4, lane i at byte 128*i -> every lane in bank 0, 32 distinct words:
//   wavefronts 32, ideal 1, conflict_degree 32, one collision {phase 0, bank 0, lanes 0..31}.
BankReport analyze_smem_access(const SmemAccess& a);

// The wavefronts and ideal of analyze_smem_access(a), computed by the same code without building
// the report (no phase list, no collisions): what a counter of many issues needs.
// @pre validate(a) passes (LayoutError otherwise). @post equal to analyze_smem_access(a)'s fields.
// ideal: the wavefronts with every bank collision removed (what conflict-free compares with:
// wavefronts == ideal <=> no phase has a collision). hw_ideal: the ideal the hardware reports
// (Nsight Compute's shared ideal wavefronts, what every count table prints): for LDS/STS .64/.128
// the fewer of ideal and the wavefronts the active lanes' bytes fill, ceil(lanes * width / 128),
// measured on every one of the 5,753 wide sweep patterns (h200_sweep_ldst.jsonl); ideal otherwise.
// Example: STS.128 by lanes 0-3 and 16-19 on 128 distinct bytes: 2 wavefronts (two phases), ideal
// 2 (no collision), hw_ideal 1.
struct Wavefronts {
  int wavefronts = 0;
  int ideal = 0;
  int hw_ideal = 0;
};
Wavefronts count_wavefronts(const SmemAccess& a);

// LDGSTS.E (cp.async.ca) of any width with its global addresses known, measured on the H200
// (docs/bank_model.md, "cp.async"): the copy reads the L1 data banks at its global words and writes
// the shared banks at its shared words, one lane each (lanes on one word never merge). Per phase (the
// STS phases of the width), let G and S be the most active lanes any bank holds on the global and on
// the shared side. When every phase has G <= 1 or S <= 1, or every active lane's global and shared
// byte addresses differ by the same amount mod 128 (the global banks a rotation of the shared
// ones), the instruction takes the sum over phases of max(G, S): exact on all 359 such cases
// measured. Otherwise nullopt: the count depends on how the two sides pair and is not known
// (measured: never below that sum, above it in 214 of those 339 cases). The ideal is
// count_wavefronts(a).ideal. Example: 4 bytes, lane l at shared 4l, global 32l (stride 32: 8 lanes
// per global bank, S = 1) -> 8; every lane on shared word 0 from global 4l -> 32.
// @pre validate(a) passes; global_addr >= 0 for every active lane.
std::optional<Wavefronts> count_ldgsts_measured(const SmemAccess& a, const std::array<std::int64_t, kWarpLanes>& global_addr);

// LDGSTS.E.BYPASS.128 (cp.async.cg, 16 bytes) with its global addresses known, issued with at most
// one other .cg copy of its warp in flight, measured on the H200 (gpu_check/probes/cg_ideal.cu, 60
// arrangements: tests/bank/data/h200_cg_probe.jsonl). Where all 32 lanes copy and no two lanes
// share a 16-byte unit on either side, count_ldgsts_measured's count (equal on all 6 such cases,
// with ideal and hw_ideal the packed bytes'); anything else nullopt, not known:
//   - a lane that does not copy (predicated off, exited): Nsight Compute's count is not the active
//     lanes' (measured 25 and 29 wavefronts for 8 and 4 contiguous lanes whose addresses give 1,
//     its ideal the whole warp's 4);
//   - lanes sharing a unit: .cg merges lanes on one shared unit where .ca does not (3 for .ca's 4)
//     and splits lanes on one global unit (6 for 4).
// A .cg copy issued with two or more in flight is not known either (the compiled-kernel executor
// says so: gpu_check/probes/cg_stages.cu). Example: 32 lanes, shared 16l, global 16l -> 4.
// @pre as count_ldgsts_measured; width_bytes == 16.
std::optional<Wavefronts> count_ldgsts_bypass(const SmemAccess& a, const std::array<std::int64_t, kWarpLanes>& global_addr);

// The measured bounds of any LDGSTS.E (cp.async.ca) with its global addresses known, where
// count_ldgsts_measured has no count too: per phase (G, S as above, phases with an active lane)
//   lo = sum of max(G, S),  hi = sum of (G + S - 1).
// Every one of the 698 cp.async.ca cases of the H200 sweep lies in [lo, hi] (docs/bank_model.md,
// "cp.async"): the 339 whose two sides both conflict at 4, 8 and 16 bytes spread over the whole
// interval (125 at lo, 136 at hi, 78 between), so within it the hardware's count depends on how the
// two sides pair, which the model does not know. Where one side of every phase is conflict-free the
// two bounds meet (max(G, 1) = G + 1 - 1): the measured rule's count.
// Example: 4 bytes, every lane on shared bank 0 at distinct words (S = 32) from global 32l (G = 8)
// -> [32, 39].
// @pre as count_ldgsts_measured.
struct WavefrontBounds {
  int lo = 0;
  int hi = 0;
};
WavefrontBounds ldgsts_bounds(const SmemAccess& a, const std::array<std::int64_t, kWarpLanes>& global_addr);

// Shared-memory atomics (ATOMS), measured on the H200 (docs/bank_model.md, "Atomics": 440 cases of
// 10 instructions, all exact). Each lane's update is its own: lanes on one word never merge.
//   update    ATOMS.ADD/AND/EXCH/INC/MIN/MAX (32-bit) and ATOMS.EXCH.64: per phase (one of 32 lanes
//             for 4 bytes, two half-warps for 8 bytes), the most active lanes any bank holds; summed
//   cas       ATOMS.CAS / CAS.64: twice that
//   popc_inc  ATOMS.POPC.INC (what ptxas makes of `red.shared.add.u32 [a], 1`): lanes on one word
//             merge, as for a load: the phase sum of count_wavefronts
//   unknown   everything else: 64-bit add/or, f32/f64 add (ptxas emits a loop of LDS and
//             ATOMS.CAST.SPIN, data-dependent), ATOMS.CAST.SPIN itself, OR/XOR/DEC (not measured), and
//             PTX `red` (ptxas may turn it into POPC.INC or ADD: the PTX does not say which)
// Ideal: the non-empty phases (twice that for cas). Example: atom.shared.add.u32 with every lane on
// one word -> 32 (ideal 1); lanes 2k and 2k+1 on word k -> 2; ATOMS.POPC.INC on one word -> 1.
enum class AtomicKind { update, cas, popc_inc, unknown };
// The kind of a SASS ("ATOMS.CAS.64 R4, [R2], ...") or PTX ("@%p1 atom.shared.add.u32 %r1, [%r2], 1;")
// statement; unknown for anything not listed above.
AtomicKind atomic_kind(std::string_view statement);
// Wavefronts of one atomic instruction of `kind` (unknown -> nullopt); a.op is ignored, a.width_bytes
// must be 4 or 8. @pre validate(a) passes (LayoutError otherwise).
std::optional<Wavefronts> count_atomic_wavefronts(AtomicKind kind, const SmemAccess& a);

}  // namespace layoutproof
