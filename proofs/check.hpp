#pragma once
// A check: one claim about one subject, with where it came from. The catalog (proofs/catalog.hpp)
// and spec files (cli/spec.hpp) produce checks; run_check() decides each with the engines of
// proofs/prove.hpp and proofs/bank_claims.hpp; the CLI prints them (table, JSON, JUnit, SARIF,
// Markdown, HTML reports).
//
// Claim kinds:
//   layout claims  injective, bijective, surjective:N, contiguous:V[@m], equivalent:L2,
//                  involution, inverse:R                                 (proofs/claim.hpp)
//   bank claims    conflict-free, max-ways:K over every instruction of an access
//                  (proofs/bank_claims.hpp)
//   kernel claims  conflict-free, max-ways:K, vector-legal, covers over the address trace of a
//                  kernel's real copy (a TiledCopy partitioning its staged smem tensor;
//                  proofs/trace_claims.hpp)
//   tma:Sw<B,M,S>  the element-unit layout equals TMA's byte-address swizzle Sw<B,M,S> applied to
//                  the byte offsets of the unswizzled layout (on buffers aligned to 2^(M+B+|S|)
//                  bytes), compared in bit addresses so sub-byte elements keep their place in
//                  their byte:  forall x: b(L(x)) == 8*Sw(floor(b(inner(x))/8)) + b(inner(x)) mod 8,
//                  b(o) = o*bits (for bits a multiple of 8: bytes(L(x)) == Sw(bytes(inner(x))));
//                  decided by enumeration of the atom.
#include <optional>
#include <string>
#include <vector>

#include <memory>

#include "model/trace.hpp"
#include "proofs/bank_claims.hpp"
#include "proofs/prove.hpp"
#include "proofs/trace_claims.hpp"

namespace layoutproof::proofs {

struct SourceLocation {
  std::string file;  // empty: built in
  int line = 0;
  int column = 0;
};

struct Check {
  enum class Kind { layout, bank, tma, kernel };
  Kind kind = Kind::layout;
  std::string subject;      // a name: "GMMA::Layout_K_SW128_Atom (16-bit)", "sA"
  AnyLayout layout;         // the layout the claim is about
  std::string claim;        // as written: "bijective", "conflict-free", "tma:Sw<3,4,3>", ...
  std::string access_text;  // bank claims: "row-per-lane ld 16 B" (empty otherwise)
  std::optional<BankSubject> access;  // bank claims
  int element_bits = 0;     // tma claims (and for display)
  std::shared_ptr<const AddressTrace> trace;  // kernel claims: the copy's instructions
  SourceLocation where;

  std::string id() const;   // "subject: claim [access]", unique within a run
};

struct CheckResult {
  Check check;
  Verdict verdict;
  std::optional<BankWitness> bank_witness;  // REFUTED bank claims
  std::optional<TraceWitness> trace_witness;  // REFUTED kernel claims
};

// Decides one check. Never throws for a well-formed check (errors become ERROR verdicts).
CheckResult run_check(const Check& c, const ProveOptions& o);

// A check for a layout or bank claim written as text; throws LayoutError when the claim is
// unknown or a bank claim lacks an access.
Check make_check(std::string subject, AnyLayout layout, const std::string& claim, std::optional<BankSubject> access,
                 SourceLocation where = {});

// A claim over a kernel copy's trace; `access_text` says which copy ("s2r A LDSM_N x4"). Throws
// LayoutError when the claim is not a trace claim.
Check make_kernel_check(std::string subject, std::shared_ptr<const AddressTrace> trace, const std::string& claim,
                        std::string access_text, SourceLocation where = {});

// The exit code for a set of results: 0 all proved, 1 any refuted, 3 any unknown or error.
int exit_code(const std::vector<CheckResult>& results);

}  // namespace layoutproof::proofs
