#include "cli/commands/check_command.hpp"

#include <chrono>
#include <iostream>
#include <memory>

#include "cli/help.hpp"
#include "cli/layout_input.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/spec/baseline.hpp"
#include "cli/output/results.hpp"
#include "cli/spec/check_runner.hpp"
#include "cli/spec/spec.hpp"
#include "cli/spec/spec_schema.hpp"

namespace layoutproof::cli {

namespace {

// check's arguments: the shared run flags, and check's own --allow-empty (a spec without claims is
// not an error) and --spec-keys (the keys each level of a spec accepts, one level a line: what
// docs/spec.schema.json must list).
struct CheckArgs {
  RunFlags flags;
  bool allow_empty = false, spec_keys = false;
  std::string baseline;      // --baseline OLD.json
  bool fail_on_new = false;  // --fail-on new
  bool sharded = false;      // --shard given (even 1/1): the JSON says which shard, for merge
};

FlagTable check_table(CheckArgs& a) {
  FlagTable t = run_flag_table(a.flags, "check", true);
  t.toggle({"--allow-empty"}, "a spec that proves nothing is not an error (default: exit 2)", [&a] { a.allow_empty = true; });
  t.value({"--shard"}, "K/N",
          "decide the K-th of N deterministic parts of the spec's claims (a CI matrix of N jobs; "
          "`layoutproof merge` presents the N JSON results as one run)",
          [&a](const std::string& v) {
            a.flags.run.shard = parse_shard(v);
            a.sharded = true;
          });
  t.value({"--baseline"}, "OLD.json",
          "mark every result new, fixed or unchanged against an earlier run's `--json` results (matched by id)",
          [&a](const std::string& v) { a.baseline = v; });
  t.value({"--fail-on"}, "any|new",
          "any (default): every failure fails the run; new: only failures the --baseline did not have (exit 1 a new "
          "REFUTED, 3 a new UNKNOWN or ERROR)",
          [&a](const std::string& v) {
            if (v != "any" && v != "new") throw LayoutError("--fail-on is any or new, not '" + v + "'");
            a.fail_on_new = v == "new";
          });
  t.toggle({"--spec-keys"}, "print the keys each level of a spec accepts (docs/spec.schema.json lists the same)",
           [&a] { a.spec_keys = true; });
  return t;
}

}  // namespace

FlagTable check_flags() {
  auto a = std::make_shared<CheckArgs>();
  FlagTable t = check_table(*a);
  t.keep(a);
  return t;
}

int run_check_command(const std::vector<std::string>& args, std::ostream& out) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      out << *help_text("check");
      return 0;
    }
  CheckArgs parsed;
  check_table(parsed).parse(args);
  if (parsed.spec_keys) {
    for (const auto& level : spec_levels()) {
      out << level.name << ":";
      for (const auto& k : level.keys) out << " " << k;
      out << "\n";
    }
    return 0;
  }
  const RunFlags& flags = parsed.flags;
  const bool allow_empty = parsed.allow_empty;
  check_output_paths(flags.out, flags.positional);
  if (flags.positional.size() != 1) throw LayoutError("usage: layoutproof check SPEC [flags] (see layoutproof check --help)");
  const std::string& path = flags.positional[0];
  if (parsed.fail_on_new && parsed.baseline.empty()) throw LayoutError("--fail-on new needs --baseline OLD.json (the run it compares with)");
  // Read before any proof: a baseline that cannot be read is bad input, not a late failure.
  const std::optional<Baseline> baseline = parsed.baseline.empty() ? std::nullopt : std::optional<Baseline>(read_baseline(parsed.baseline));
  // A run that does not finish leaves none of its outputs, never the previous run's beside its own.
  clear_stale_outputs({flags.out.json_file, flags.out.junit_file, flags.out.sarif_file, flags.out.markdown_file}, flags.out.report_dir);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<proofs::Check> checks;
  SpecSettings settings;
  try {
    checks = load_spec(path, flags.constants, allow_empty, &settings);
  } catch (const LayoutError& e) {
    // Bad input still writes every requested output, carrying the error, so that a CI step that
    // uploads or posts them finds them; then the error goes to main (exit 2, caret on stderr).
    InputProblem p{path, 0, 0, e.what()};
    if (const auto* se = dynamic_cast<const SpecError*>(&e)) p = {se->file, se->line, se->column, se->message};
    const std::string failure = emit_input_problem(out, path, p, flags.out);
    if (!failure.empty()) std::cerr << "error: " << failure << "\n";
    throw;
  }
  RunOptions run = flags.run;
  if (!run.prove.smt.deadline.at && settings.deadline_s)  // the spec's deadline_s: (--deadline-s wins)
    run.prove.smt.deadline = proofs::Deadline::in_seconds(*settings.deadline_s, "deadline_s");
  auto results = run_checks(checks, run);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ResultView view;
  if (baseline) {
    view.baseline = true, view.fail_on_new = parsed.fail_on_new;
    view.gone = mark_changes(results, *baseline);
  }
  view.source = path;
  view.wall_ms = wall;
  view.compiled_files = compiled_files_read(checks);
  if (parsed.sharded)
    view.shard = ResultView::Shard{run.shard.k, run.shard.n, static_cast<std::int64_t>(checks.size()), claims_fingerprint(checks),
                                   baseline ? static_cast<std::int64_t>(baseline->verdicts.size()) : -1};
  return emit(out, results, flags.out, view);
}

}  // namespace layoutproof::cli
