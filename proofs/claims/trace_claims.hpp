#pragma once
// Claims over an address trace (model/trace/trace.hpp): what a kernel's shared-memory copy really does.
//
//   conflict-free     every instruction takes its ideal wavefronts (bank model, model/bank/bank.hpp)
//   max-ways:K        no phase of any instruction has more than K distinct words in one bank
//   vector-legal      each active lane's CPY slice is contiguous in smem (slice element j at
//                     byte addr + j*element_bytes) and addr is a multiple of width_bytes; else the
//                     copy faults (misaligned vector) or CuTe cannot issue it as one instruction
//                     (non-contiguous slice: it splits): the witness says which
//   covers            stores (smem is the destination): every element of the smem tensor is
//                     written exactly once; loads: every element is read at least once; and, both,
//                     no two elements overlap in shared memory (else one store overwrites another,
//                     or a load reads another element's bytes)
// Engines: exhaustive (every instruction through the bank model; every slice; an element count)
// and Z3 (symbolic over the instruction index, warp and lanes, the trace's addresses as a table),
// cross-checked as proofs/claims/bank_claims.hpp does: a Z3 violation is replayed on the bank model, a Z3
// PROVED is compared with the exhaustive verdict. A refutation names warp, instruction, lanes,
// thread ids, CuTe coordinates, banks, words and wavefronts.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/trace/trace.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {

struct TraceClaim {
  enum class Kind { conflict_free, max_ways, vector_legal, covers };
  Kind kind = Kind::conflict_free;
  int k = 1;         // max-ways:K
  std::string text;  // as written
};
// nullopt for a name that is not a trace claim; LayoutError for a malformed argument.
std::optional<TraceClaim> parse_trace_claim(const std::string& text);

struct TraceWitness {
  i64 instruction = 0;          // position in trace.instructions
  i64 warp = 0;
  std::vector<i64> copy_coord;
  int phase = -1, bank = -1, ways = 0;
  int wavefronts = 0, ideal = 0;
  std::vector<int> lanes;       // the lanes involved
  std::string why;              // one sentence: lanes, thread ids, coordinates, addresses, banks
};

struct TraceResult {
  Verdict verdict;
  std::optional<TraceWitness> witness;  // REFUTED only
};

TraceResult prove_trace(const AddressTrace& t, const TraceClaim& c, const ProveOptions& o);

// The exhaustive engine alone (tests compare it with the Z3 engine).
TraceResult check_trace_exhaustive(const AddressTrace& t, const TraceClaim& c);

// The bank model on every instruction of a trace, shared with the bank claims over canned access
// patterns (proofs/claims/bank_claims.cpp). max_ways == 0: conflict-free (an instruction fails when it
// takes more than its ideal wavefronts), else max-ways:max_ways (a phase's bank holds more words).
// Throws LayoutError, naming the instruction's lane, when an instruction is invalid (validate()).
struct BankFailure {
  i64 instruction = -1;
  BankReport report;
  int collision = -1;  // index in report.collisions of the breaking (phase, bank); -1: none
};
struct BankScan {
  i64 instructions = 0, failing = 0;
  i64 invalid_at = -1;                  // the instruction validate() refused (when it throws)
  std::optional<BankFailure> first;     // first failing instruction, its first breaking collision
  std::optional<BankFailure> worst;     // most wavefronts/ideal (max-ways: most ways); ties: first
  std::map<int, i64> wavefronts;        // wavefronts -> instructions taking that many
  int most_ways = 1;                    // the most distinct words in one bank of one phase
};
// @pre scan is empty; it is filled as far as the scan got when this throws.
void scan_bank(const AddressTrace& t, int max_ways, BankScan& scan);

// The Z3 engine alone: a raw violation (instruction, the lanes it picked) before replay.
struct TraceViolation {
  i64 instruction = 0;
  std::vector<int> lanes;
};
// What z3 found: its violation, and whether it also finds `expect` (when given) a violation.
struct TraceZ3Violation {
  TraceViolation found;
  bool confirmed = false;
};
// conflict-free and max-ways:K only (error otherwise); exact for the bank model's rule (an
// instruction keeps its ideal iff no phase has a collision: model/bank/bank.hpp). expect: the exhaustive engine's worst violation; when z3 finds a
// violation, one more query asks whether z3 also finds this one (TraceZ3Violation::confirmed).
// @pre every instruction passes validate() (check_trace_exhaustive first). Never throws.
Outcome<TraceZ3Violation> check_trace_z3(const AddressTrace& t, const TraceClaim& c, const SmtOptions& o,
                                         const std::optional<TraceViolation>& expect = std::nullopt);

}  // namespace layoutproof::proofs
