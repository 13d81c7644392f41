#pragma once
// A baseline: the results JSON of an earlier run (`check --json`), against which every result of
// this run is marked (CheckResult::change):
//   new        not passing now (REFUTED, UNKNOWN or ERROR), and passing or absent in the baseline
//   fixed      passing now (PROVED or REPORT), and not passing in the baseline
//   unchanged  the rest: passing in both, or failing in both (an old failure, whatever its verdict)
// Results are matched by their id ("subject: claim [access]"; a compiled entry's names the kernel,
// the PTX or SASS line and the instruction). A baseline result that no result of this run has is
// "gone". With --fail-on new, only new failures fail the run (exit_code: 1 a new REFUTED, 3 a new
// UNKNOWN or ERROR), so a kernel library can adopt the gate before fixing what already fails.
//   Baseline b = read_baseline("old.json");       // {"sA: bijective": "REFUTED", ...}
//   mark_changes(results, b);                     // results[i].change = "fixed", ...
#include <map>
#include <string>
#include <vector>

#include "proofs/check/check.hpp"

namespace layoutproof::cli {

struct Baseline {
  std::string path;
  std::map<std::string, std::string> verdicts;  // id -> PROVED | REFUTED | UNKNOWN | ERROR | REPORT
};

// LayoutError (exit 2) naming the file when it cannot be read, is not JSON, or is not a results
// document (docs/json_output.schema.json: "results", each with "id" and "verdict"), or holds one id
// twice with different verdicts.
Baseline read_baseline(const std::string& path);

// Marks every result; returns how many baseline results no result of this run has (gone).
int mark_changes(std::vector<proofs::CheckResult>& results, const Baseline& b);

// True for a verdict label that passes a gate: PROVED or REPORT.
bool passes(const std::string& verdict_label);

}  // namespace layoutproof::cli
