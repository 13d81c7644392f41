#pragma once
// gpu_check host logic (plain C++, no CUDA): the claims the driver confirms on a GPU, and the
// host-side halves of each check -- what the model predicts, the plans the kernels execute, the
// probe-case export and the comparison of predicted with measured values. Kernels: kernels.cu.
//
// A check is one claim about one layout:
//   bijective    every logical index i lands on its own slot L(i), and the slots are exactly the
//                codomain: [0, cosize) for a plain layout, { Sw(offset + j) : j < cosize(inner) }
//                for a swizzled one.
//   round trip   a tile goes global -> shared -> global (load) or the other way (store) through the
//                claimed access (vectors of V*E bytes at the pattern's lane addresses, or
//                ldmatrix/stmatrix .xN) while the other side uses one scalar access per element at
//                tile(row, col) * E; the result must be bit-identical. The host predicts first
//                whether the vector is allowed: every lane's V elements must lie at consecutive
//                offsets (else "non-contiguous": wrong data) starting at a multiple of V*E bytes
//                (else "misaligned": the access faults).
//   bank         every distinct instruction of the pattern: the wavefronts model/bank/bank.hpp predicts
//                against the wavefronts measured (Nsight Compute through bank_probe/, or a clock64
//                throughput estimate calibrated per instruction kind).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/trace/access.hpp"
#include "model/bank/bank.hpp"
#include "model/layout/composed.hpp"
#include "model/layout/flat_layout.hpp"

namespace layoutproof::gpu {

enum class CheckKind { bijective, round_trip, bank };
std::string to_string(CheckKind k);

// Whether a vector access of spec.vec elements is allowed at every lane of the pattern.
enum class VectorVerdict { ok, non_contiguous, misaligned };
std::string to_string(VectorVerdict v);

struct VectorPrediction {
  VectorVerdict verdict = VectorVerdict::ok;
  std::string witness;  // the first offending lane access, e.g. "row 1, col 0: byte 72 is not 16-byte aligned"
};

// @post verdict == misaligned iff some active lane's byte address is not a multiple of
//       vec * elem_bytes; else non_contiguous iff some lane's element e (0 < e < vec) is not at
//       byte address(row, col) + e * elem_bytes; else ok.
// Example: Sw<3,1,3> o (8,16):(16,1), 4-byte elements, vec 4, row-per-lane: row 1 starts at
//          element 18 (byte 72): misaligned.
VectorPrediction predict_vector(const AccessSpec& spec);

// The widest vector (in elements, elem_bytes * vec <= 16) that predict_vector allows; 1 at least
// when elements are scalar-accessible.
int widest_allowed_vec(AccessSpec spec);

// ldmatrix/stmatrix .xN fragment layout (PTX ISA, m8n8 b16): register j of lane t holds two b16
// elements of matrix j, row t / 4, columns 2 * (t % 4) and 2 * (t % 4) + 1.
struct FragmentElement {
  int matrix = 0, row = 0, col = 0;
};
// @pre 0 <= lane < 32, 0 <= reg < 4, half in {0, 1}.
FragmentElement ldmatrix_fragment(int lane, int reg, int half);

// What a round-trip kernel executes. Addresses are byte offsets into dynamic shared memory;
// logical element (row, col) lives at global index row * cols + col.
struct RoundTripPlan {
  FlatLayout layout;        // the tile (row, col) -> element offset, evaluated by the kernel
  std::int64_t rows = 0, cols = 0;
  int elem_bytes = 4;
  bool store = false;       // false: claimed loads from shared memory; true: claimed stores into it
  int width_bytes = 16;     // bytes per lane and access (16 for ldmatrix rows)
  int matrix_n = 0;         // N of ldmatrix/stmatrix .xN, 0 for vector accesses
  int instructions = 0;
  std::vector<std::int32_t> addr;  // instructions * 32; -1: lane inactive (matrix ops: scratch rows)
  std::vector<std::int32_t> dst;   // vectors: instructions * 32, the logical index of the lane's first
                                   // element; matrices: instructions * 32 * 8, [2 * reg + half]; -1: none
  std::int64_t smem_bytes = 0;     // tile bytes rounded up to 16, then 256 bytes of scratch
  std::int64_t scratch = 0;        // byte offset of the scratch rows
};

// @pre predict_vector(spec) is not misaligned (the kernel would fault); spec.pattern is ldmatrix
//      when matrix is true, and then elem_bytes == 2.
RoundTripPlan make_round_trip_plan(const AccessSpec& spec, bool store, bool matrix);

// The distinct instructions of a pattern as the bank model's input (op from direction and kind).
std::vector<SmemAccess> pattern_instructions(const AccessSpec& spec, bool store, bool matrix);

// Probe case lines (gpu_check/bank_probe/cases.txt format): "NAME OP WIDTH A0 ... A31".
std::string probe_case_line(const std::string& name, const SmemAccess& a);

// Every distinct instruction of the bank checks, named i0, i1, ... in order of first appearance
// (op, width and addresses decide identity); the probe case file and the results use these names.
struct NamedInstruction {
  std::string name;
  SmemAccess access;
};
std::vector<NamedInstruction> distinct_instructions(const std::vector<struct Check>& checks);
std::string instruction_key(const SmemAccess& a);

// Measured wavefronts per probe case name, read from parse_ncu.py's JSONL output.
std::map<std::string, double> read_ncu_jsonl(const std::string& path);

// Result of one check: predicted and measured as short texts, and whether they agree.
struct Outcome {
  std::string predicted, measured;
  bool measured_ok = false;   // a measurement was made
  bool agree = false;
  std::optional<bool> claim_holds;  // on the device: does the claim hold?
  std::string note;
};

struct Check {
  std::string name;           // e.g. "GMMA::Layout_K_SW128_Atom/16b"
  CheckKind kind = CheckKind::bijective;
  std::string claim;          // e.g. "bijective", "16B vector loads row-per-lane round trip"
  AnyLayout layout;           // bijective: the layout in element units
  AccessSpec spec;            // round trip and bank
  bool store = false;
  bool matrix = false;
  std::vector<SmemAccess> explicit_instructions;  // bank checks given as lane addresses
  std::optional<double> reference;  // the shared sample's measured wavefronts (seed cases)
  bool claims_conflict_free = false;  // bank: the claim is one wavefront per phase (degree 1)
  bool deliberately_wrong = false;  // the claim is expected to be refuted (model and device)
  Outcome outcome;
};

// The built-in checks: every catalog atom (cutlass_atoms.tsv), the seed cases, the wrong claims,
// and the wavefronts of every copy of the built-in kernel configurations (model/source/kernel_configs.hpp).
std::vector<Check> builtin_checks();

// a with every active address moved down by the same multiple of 128 bytes, so that the lowest
// lies in [0, 128). Banks are (byte / 4) mod 32, so such a shift keeps every lane's banks and
// every equality between words: the bank model's wavefronts are unchanged (tested), and the
// kernel-trace checks measure one representative per class, with small probe addresses.
SmemAccess shift_to_first_bank_row(SmemAccess a);

// The instructions a bank check measures (explicit ones, or those of its pattern).
std::vector<SmemAccess> bank_instructions(const Check& c);

// Host-side prediction of a bijectivity check through the model (model::evaluate, not FlatLayout):
// the sorted expected codomain and whether the layout is a bijection onto it.
struct BijectivityPrediction {
  std::vector<std::int64_t> codomain;
  bool bijective = false;
  std::string detail;
};
BijectivityPrediction predict_bijectivity(const AnyLayout& l);

// Summarises slot counts from the device: "bijective" or what went wrong.
// counts[s] for s in [0, counts.size()); outside = writes beyond that buffer.
std::string describe_counts(const std::vector<std::int64_t>& codomain, const std::vector<unsigned>& counts,
                            unsigned long long outside, bool* bijective);

// Round-trip comparison: "identical" or "N of M elements differ (first: row r, col c)".
std::string compare_tiles(const std::vector<unsigned char>& want, const std::vector<unsigned char>& got,
                          std::int64_t cols, int elem_bytes, bool* identical);

// A reproducible source tile: rows * cols elements of elem_bytes pseudo-random bytes.
std::vector<unsigned char> source_tile(std::int64_t rows, std::int64_t cols, int elem_bytes, std::uint32_t seed);

}  // namespace layoutproof::gpu
