#pragma once
// Results read back from the JSON an earlier run wrote (`check --json`, docs/json_output.schema.json
// $defs results): the one reader behind --baseline (cli/spec/baseline.hpp reads each result's id
// and verdict) and `layoutproof merge` (each result rebuilt for the presenters, cli/output/results.hpp).
//
//   ResultsFile f = read_results_file("s1.json", "merge");  // the document, its envelope checked
//   std::vector<proofs::CheckResult> rs = results_of(f);     // as `check` decided them
//   f.doc["summary"]["shard"]["k"]                           // 1: the first shard of a check --shard run
//
// A rebuilt result has what every presenter shows: the verdict (REPORT: a scheduler's balance),
// method (so cached and repeat marks), time, detail, the witness (layout, bank or kernel, each from
// its JSON shape; a kernel witness's lane addresses in its TraceEvidence::addresses), subject,
// claim, access, layout, the spec location, the kernel source line, a compiled instruction, the
// command, a balance, the baseline mark and the position. What only the deciding run held (a kernel
// claim's trace, a bank claim's access pattern) is not rebuilt: an HTML report of rebuilt results
// lists every claim but draws no per-claim figure.
// @post for every result r of a `check --json` document: result_item(results_of(f)[i]) is the
//       document's item i (the same keys and values; tests/cli/shard_merge checks it).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "proofs/check/check.hpp"

namespace layoutproof::cli {

struct ResultsFile {
  std::string path;
  nlohmann::json doc;  // an object with a "results" array, each item an object with a string id and verdict
};

// `flag` names who reads it in every message ("--baseline", "merge"). LayoutError (exit 2) naming the
// file when it cannot be read, is not JSON, or is not a results document (no "results" array; a
// result without a string id and verdict).
ResultsFile read_results_file(const std::string& path, const std::string& flag);

// Every result of the document, rebuilt. LayoutError naming the file and the result's id when an
// item lacks a key the schema requires or holds one its run could not have written (a verdict
// outside PROVED/REFUTED/UNKNOWN/ERROR/REPORT, an id that is not "subject: claim [access]", a
// witness whose one-sentence text is not the witness's).
std::vector<proofs::CheckResult> results_of(const ResultsFile& f, const std::string& flag);

}  // namespace layoutproof::cli
