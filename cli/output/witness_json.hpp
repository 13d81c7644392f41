#pragma once
// Witnesses as JSON objects, one shape per witness kind, the one writer behind every --json output
// (docs/json_output.schema.json, $defs layout_witness / bank_witness / trace_witness):
//   layout  {"why", "points": [{"role", "index", "coord", "offset", "unit"}]}
//           e.g. injective on (2,2):(1,1): {"why":"two indices map to one offset",
//                "points":[{"role":"x","index":1,"coord":"(1,0)","offset":1,"unit":"element"},...]}
//   bank    {"instruction", "where", "phase", "bank", "ways", "wavefronts", "ideal", "conflict_degree",
//            "lanes": [{"lane", "row", "col", "byte_address", "words": [...]}], "why"}
//   trace   {"instruction", "warp", "copy_coord": [...], "phase", "bank", "ways", "wavefronts",
//            "ideal", "lanes": [ints], "why"} and, when the trace is given (or, for a result read
//            back from JSON, `recorded`: the addresses its run wrote), "addresses" (the byte
//            address of each of those lanes) and "banks" (address / 4 mod 32 of each).
#include <nlohmann/json.hpp>

#include "model/trace/trace.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/check/check.hpp"
#include "proofs/claims/trace_claims.hpp"
#include "proofs/claims/verdict.hpp"

namespace layoutproof::cli {

nlohmann::ordered_json witness_json(const proofs::Witness& w);
nlohmann::ordered_json witness_json(const proofs::BankWitness& w);
nlohmann::ordered_json witness_json(const proofs::TraceWitness& w, const AddressTrace* trace = nullptr,
                                    const std::vector<i64>& recorded = {});

// The witness of a check's result: one of the three shapes for a REFUTED check, else null.
nlohmann::ordered_json result_witness_json(const proofs::CheckResult& r);

}  // namespace layoutproof::cli
