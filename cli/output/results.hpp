#pragma once
// The one presenter of results: every subcommand that decides claims (prove, check, catalog,
// trace, ptx, sass, raster prove, synth) is flags -> checks -> run -> emit(). emit() is the only
// writer of the verdict table, the verdict JSON (docs/json_output.schema.json, $defs results),
// JUnit XML (one test case per claim), SARIF 2.1.0 (one result per failing claim, located in the
// spec file), the Markdown PR comment and the HTML summary page, and exit_code() / counts_text()
// are the only places that compute the exit code and the "N proved, N refuted, ..." figures.
//
// A command's own output (ptx's counts table, a trace's instructions, a scheduler's schedule) is a
// view of its subject, not of its verdicts: the command prints it before emit(), and hands emit()
// what the JSON document adds about the subject (ResultView::json_extra: ptx's "file" and
// "kernels") and, where it has one, its own report pages (ResultView::report).
//
// Results are grouped per subject (a spec entry; a compiled entry per kernel), failures first:
// the Markdown comment and the HTML summary list every claim that is not PROVED and collapse the
// PROVED ones into a count per subject (OutputFlags::verbose lists them). The Markdown comment
// stays under kMarkdownBudget characters whatever the run's size: every failure is listed (each
// witness on one line, shortened when the budget needs it) and the rest is summarized, with a
// pointer to the full report.
#include <functional>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_flags.hpp"
#include "proofs/check/check.hpp"

namespace layoutproof::cli {

struct RunSummary {
  int proved = 0, refuted = 0, unknown = 0, error = 0;
  int reported = 0;  // measurements shown as REPORT (a scheduler's balance), not counted as proved
  int cached = 0;  // of the proved: read from the verdict cache (cli/spec/verdict_cache.hpp), stored by an earlier run
  int repeats = 0;  // of all: repeats of an earlier claim of the run, which take its verdict (cli/spec/check_runner.hpp)
  double z3_ms = 0, enumeration_ms = 0, wall_ms = 0;
  int compiled_files = 0;  // compiled files the run read and lowered (JSON "compiled_files"; 0: none)
  // A run that decided no claim and whose subject is known only in part (a ptx run without
  // --claim whose lane stopped or whose access was not counted): exit 3, never 0.
  bool incomplete = false;
  // Of the refuted: findings the run reports without failing (the catalog's refuted claims about
  // CUTLASS's own kernel configurations, ResultView::kernel_findings).
  int findings = 0;
  // Against a baseline (cli/spec/baseline.hpp): the results' marks, the baseline's results this run
  // has not, and whether only new failures fail the run (--fail-on new).
  bool baseline = false, fail_on_new = false;
  int new_refuted = 0, new_undecided = 0, fixed = 0, unchanged = 0, gone = 0;
};
RunSummary summarize(const std::vector<proofs::CheckResult>& results);

// The exit code of a run: 1 any refuted (findings aside), else 3 any unknown or error (or an
// incomplete run that decided nothing), else 0. Reports (REPORT) and findings never fail a run.
int exit_code(const RunSummary& s);

// "339 claims", and when some repeat an earlier one, "339 claims (276 distinct; 63 repeat an
// earlier claim of this run)": the head of every summary line.
std::string claims_text(std::size_t claims, const RunSummary& s);
// "14 proved, 1 refuted, 0 unknown, 0 error" (", 2 reported" when some are reports; " (3 from
// cache)" after the proved when some are): the figures of every summary line, in every format.
std::string counts_text(const RunSummary& s);
// claims_text + ": " + counts_text: "15 claims: 14 proved, 1 refuted, 0 unknown, 0 error".
std::string summary_line(std::size_t claims, const RunSummary& s);

// The claim and its access, as a row names it: "conflict-free [row-per-lane ld 16 B]" (a JUnit
// test case's name, unique within its subject: cli/spec/spec.hpp).
std::string claim_label(const proofs::CheckResult& r);
// One sentence: the witness of a refuted check (bank witnesses name instruction, lanes, bank;
// layout witnesses why, then "; " and each point), or an undecided check's reason; "" for a
// proved one.
std::string witness_summary(const proofs::CheckResult& r);
// The witness on one line, for summaries: a bank or kernel claim's instruction (its CUDA line when
// known), the N-way conflict and two colliding lanes with their bytes and bank; else
// witness_summary cut to `width` characters (0: not cut).
std::string witness_line(const proofs::CheckResult& r, std::size_t width = 0);
// The subject a result is grouped under: the check's subject, and for a compiled entry's result its
// kernel too ("sm90 kernels / column_read(float*)").
std::string group_of(const proofs::CheckResult& r);

// The results as the one JSON document (docs/json_output.schema.json, $defs results):
// {"tool", "version", "source", "error": null, "summary": {...}, "results": [...]}, `extra`'s keys
// added at the top level.
nlohmann::ordered_json results_json(const std::string& source, const std::vector<proofs::CheckResult>& results, const RunSummary& s,
                            const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());

// One verdict as JSON: {"claim", "verdict", "method", "time_ms", "detail", "witness"} (and
// "largest_v" when computed): the part of every result item, and of ptx's per-instruction view.
nlohmann::ordered_json claim_json(const std::string& claim, const proofs::Verdict& v, nlohmann::ordered_json witness);

void write_table(std::ostream& out, const std::vector<proofs::CheckResult>& results, const RunSummary& s);
void write_junit(std::ostream& out, const std::string& suite, const std::vector<proofs::CheckResult>& results, const RunSummary& s);
void write_sarif(std::ostream& out, const std::string& spec_path, const std::vector<proofs::CheckResult>& results);
// SARIF for a run that did not execute: executionSuccessful false, the problem a notification
// located at file:line:column (line 0: the file).
void write_sarif_problem(std::ostream& out, const std::string& file, int line, int column, const std::string& message);
// The PR comment; `full_report`: where the full results are ("" : say which flag writes them).
inline constexpr std::size_t kMarkdownBudget = 60000;
void write_markdown(std::ostream& out, const std::string& title, const std::vector<proofs::CheckResult>& results,
                    const RunSummary& s, bool verbose = false, const std::string& full_report = "");
// DIR/index.html of a run: per subject, failures first, each linked to its detail page (a
// refuted bank claim's bank map, a kernel claim's trace figure, in DIR/claimN/), the PROVED
// claims a count per subject unless verbose. Written into a folder being built.
void write_reports(const std::string& dir, const std::vector<proofs::CheckResult>& results, bool verbose);

// What a command adds to its results: the views of its subject.
struct ResultView {
  std::string source;  // JSON "source", the JUnit suite, the Markdown title: the spec, the file, the layout
  nlohmann::ordered_json json_extra = nlohmann::ordered_json::object();  // added to the JSON document's top level
  // Keys whose values are JSON text already (ptx's "kernels", as large as the file's instructions'
  // issues): written as they are, not held twice.
  std::vector<std::pair<std::string, std::string>> json_raw;
  // A command about one subject (prove, trace, ptx, sass, raster prove, synth): each verdict on one
  // line, "VERDICT  claim  [method, X ms]  [line N: ]witness or detail", then "subject_line: " and
  // the figures (without a subject_line: "N claims: "). Otherwise (check, catalog) the table, a column per field.
  bool one_subject = false;
  std::string subject_line;
  // The command's view already lists each verdict beside the part of the subject it is about
  // (synth --kernel's ranked members and their witnesses): the text is the figures alone.
  bool verdicts_in_view = false;
  // --report DIR: the command's own pages, written into the folder being built (a ptx run's
  // per-instruction bank maps); none: write_reports.
  std::function<void(const std::string& dir)> report;
  double wall_ms = 0;
  int compiled_files = 0;
  bool incomplete = false;  // RunSummary::incomplete
  // Against a baseline: RunSummary's gone and fail_on_new (the marks are the results' own).
  bool baseline = false, fail_on_new = false;
  int gone = 0;
  // The catalog: a refuted kernel claim (a CUTLASS kernel configuration's) is a finding it
  // reports, not a failure of the run; `check` is the gate.
  bool kernel_findings = false;
  // A shard of a check run (check --shard K/N): the JSON says which, so that `layoutproof merge`
  // can present the N shards as one run and refuse a set that is not one. Its summary gets
  // "shard": {"k", "n", "checks" (the spec's checks, shards or not), "claims" (their
  // claims_fingerprint, cli/spec/check_runner.hpp), and against a baseline "baseline_results"
  // (how many results the baseline has: merge's "gone" needs it)}, and each result its
  // "position" (CheckResult::position). Empty: an unsharded run, whose JSON has neither key.
  struct Shard {
    int k = 1, n = 1;
    std::int64_t checks = 0;
    std::string claims;
    std::int64_t baseline_results = -1;  // -1: no baseline
  };
  std::optional<Shard> shard;
};

// Writes the requested outputs of a finished run (the verdicts or JSON on out; JSON, JUnit, SARIF,
// Markdown files; the HTML report) and returns the exit code. Every requested file is written or
// the run fails: LayoutError (exit 2) naming the first that could not be (--sarif /dev/full, a
// folder that does not exist).
int emit(std::ostream& out, const std::vector<proofs::CheckResult>& results, const OutputFlags& flags, const ResultView& view);

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

// Writes `text` into the file `path` atomically, its bytes mended to UTF-8; the failure's message,
// "" when written. The one way every output file of a run is written.
std::string write_output_file(const std::string& path, const char* what, const std::function<void(std::ostream&)>& text);

}  // namespace layoutproof::cli
