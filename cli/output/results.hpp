#pragma once
// Writers for the results of a run of checks (catalog or spec file): the human table, JSON,
// JUnit XML (one test case per claim), SARIF 2.1.0 (one result per failing claim, located in the
// spec file) and a Markdown PR comment with counterexample summaries.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/run_flags.hpp"
#include "proofs/claims/check.hpp"

namespace layoutproof::cli {

struct RunSummary {
  int proved = 0, refuted = 0, unknown = 0, error = 0;
  int reported = 0;  // measurements shown as REPORT (a scheduler's balance), not counted as proved
  int cached = 0;  // of the proved: read from the verdict cache (cli/spec/verdict_cache.hpp), stored by an earlier run
  int repeats = 0;  // of all: repeats of an earlier claim of the run, which take its verdict (cli/spec/check_runner.hpp)
  double z3_ms = 0, enumeration_ms = 0, wall_ms = 0;
  int compiled_files = 0;  // compiled files the run read and lowered (JSON "compiled_files"; 0: none)
};
RunSummary summarize(const std::vector<proofs::CheckResult>& results);

// "339 claims", and when some repeat an earlier one, "339 claims (276 distinct; 63 repeat an
// earlier claim of this run)": the head of every summary line.
std::string claims_text(std::size_t claims, const RunSummary& s);

// One sentence: the witness of a refuted check (bank witnesses name instruction, lanes, bank).
std::string witness_summary(const proofs::CheckResult& r);

void write_table(std::ostream& out, const std::vector<proofs::CheckResult>& results, const RunSummary& s);
void write_json(std::ostream& out, const std::string& source, const std::vector<proofs::CheckResult>& results,
                const RunSummary& s);
void write_junit(std::ostream& out, const std::string& suite, const std::vector<proofs::CheckResult>& results,
                 const RunSummary& s);
void write_sarif(std::ostream& out, const std::string& spec_path, const std::vector<proofs::CheckResult>& results);
void write_markdown(std::ostream& out, const std::string& title, const std::vector<proofs::CheckResult>& results,
                    const RunSummary& s);

// Bad input (a spec that cannot be read or breaks the schema): where it is and what is wrong.
struct InputProblem {
  std::string file;
  int line = 0, column = 0;  // 0: the file as a whole
  std::string message;
};

// The requested outputs for a run that stopped on bad input, each carrying the problem: JSON
// {"error": {"kind", "message", "location"}, "results": []} (on `out` for --json without a file),
// a failed JUnit test case, SARIF with invocations[0].executionSuccessful false and the problem
// in toolExecutionNotifications, a Markdown line. Returns the first write failure ("" if none).
std::string emit_input_problem(std::ostream& out, const std::string& source, const InputProblem& p, const OutputFlags& flags);

// Writes the requested outputs of a finished run (the table or JSON on out; JSON, JUnit, SARIF,
// Markdown files; HTML bank maps of refuted bank claims) and returns the exit code. Every
// requested file is written or the run fails: LayoutError (exit 2) naming the first that could
// not be (--sarif /dev/full, a folder that does not exist). compiled_files: RunSummary's.
int emit_results(std::ostream& out, const std::string& source, const std::vector<proofs::CheckResult>& results,
                 double wall_ms, const OutputFlags& flags, int compiled_files = 0);

}  // namespace layoutproof::cli
