// The shared flags, declared once (cli/flags/common_flags.hpp).
#include "cli/flags/common_flags.hpp"

#include "cli/flags/suggest.hpp"
#include "cli/layout_input.hpp"
#include "cli/run_flags.hpp"
#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

// One output flag's value: given once, and not empty (an empty path wrote nothing and exited 0).
void output_path(std::string& slot, const std::string& flag, const std::string& value) {
  if (!slot.empty()) throw LayoutError(flag + " is given twice ('" + slot + "' and '" + value + "'): give it once");
  if (value.empty()) throw LayoutError(flag + " needs a path, not an empty one");
  slot = value;
}

int positive(const std::string& v, const std::string& what) { return static_cast<int>(parse_int_in(v, what, 1, 1'000'000'000)); }

}  // namespace

proofs::EngineChoice engine_choice(const std::string& e) {
  if (e == "z3") return proofs::EngineChoice::z3;
  if (e == "exhaustive" || e == "enumeration") return proofs::EngineChoice::exhaustive;
  if (e == "auto") return proofs::EngineChoice::automatic;
  throw LayoutError("--engine takes auto, z3 or exhaustive, not '" + e + "'" + did_you_mean(e, {"auto", "exhaustive"}));
}

void add_engine_flag(FlagTable& t, std::function<void(proofs::EngineChoice)> set, const std::string& auto_means) {
  t.value({"--engine"}, "E",
          "auto (default" + (auto_means.empty() ? std::string() : ": " + auto_means) +
              ") | z3 | exhaustive (every case enumerated; enumeration is the same)",
          [set = std::move(set)](const std::string& v) { set(engine_choice(v)); });
}

void add_timeout_flag(FlagTable& t, proofs::SmtOptions& smt) {
  t.value({"--timeout-ms"}, "N", "Z3's time limit per query in milliseconds (default 8000; a timeout is UNKNOWN, never PROVED)",
          [&smt](const std::string& v) { smt.timeout_ms = static_cast<unsigned>(positive(v, "--timeout-ms")); });
}

void add_deadline_flag(FlagTable& t, proofs::Deadline& deadline, const std::string& what_is_cut) {
  t.value({"--deadline-s"}, "S",
          "the whole run's time limit in seconds (0.5 allowed): " +
              (what_is_cut.empty() ? std::string("a claim not decided by then is UNKNOWN") : what_is_cut),
          [&deadline](const std::string& v) { deadline = proofs::Deadline::parse(v); });
}

void add_dump_smt_flag(FlagTable& t, proofs::SmtOptions& smt) {
  t.value({"--dump-smt"}, "DIR", "write every Z3 query as SMT-LIB2 into DIR (tool and Z3 versions, claim, subject)",
          [&smt](const std::string& v) { smt.dump_dir = dump_smt_dir(v); });
}

void add_prove_flags(FlagTable& t, proofs::ProveOptions& o) {
  add_engine_flag(t, [&o](proofs::EngineChoice e) { o.engine = e; });
  add_timeout_flag(t, o.smt);
  add_deadline_flag(t, o.smt.deadline);
  add_dump_smt_flag(t, o.smt);
}

void add_progress_flags(FlagTable& t, bool& progress, const std::string& what) {
  t.toggle({"--progress"}, what + " on stderr (default: when stderr is a terminal)", [&progress] { progress = true; });
  t.toggle({"--no-progress"}, "no progress line, even on a terminal", [&progress] { progress = false; });
}

void add_run_flags(FlagTable& t, RunOptions& run) {
  Flag jobs;
  jobs.names = {"-j", "--jobs"};
  jobs.value = "N";
  jobs.help = "prove N claims at a time (default 1)";
  jobs.glued = true;
  jobs.set_as = [&run](const std::string& v, const std::string& spelled) { run.jobs = positive(v, spelled); };
  t.add(std::move(jobs));
  add_prove_flags(t, run.prove);
  t.value({"--cache"}, "DIR", "keep and reuse PROVED verdicts in DIR instead of the default cache (below)",
          [&run](const std::string& v) { run.cache_dir = v; });
  t.toggle({"--no-cache"}, "read and write no cache: decide every claim", [&run] { run.cache_dir.clear(); });
  add_progress_flags(t, run.progress, "'claim k of n'");
}

void add_output_flags(FlagTable& t, OutputFlags& out, const std::string& report_means) {
  Flag json;
  json.names = {"--json"};
  json.value = "FILE";
  json.help = "JSON results on stdout, or into FILE (a name ending in .json)";
  json.arity = Flag::Arity::optional;
  // The next word is FILE only when it names a .json file: `--json '(8,32):(32,1)'` keeps the layout.
  json.takes = [](const std::string& w) { return w.rfind("-", 0) != 0 && w.find(".json") != std::string::npos; };
  json.set = [&out](const std::string& v) {
    if (out.json_stdout || !out.json_file.empty()) throw LayoutError("--json is given twice: give it once");
    if (v.empty()) out.json_stdout = true;
    else out.json_file = v;
  };
  t.add(std::move(json));
  t.value({"--junit"}, "FILE", "a JUnit XML file, one test case per claim",
          [&out](const std::string& v) { output_path(out.junit_file, "--junit", v); });
  t.value({"--sarif"}, "FILE", "a SARIF 2.1.0 file for code scanning",
          [&out](const std::string& v) { output_path(out.sarif_file, "--sarif", v); });
  t.value({"--markdown"}, "FILE", "a Markdown summary (for a pull-request comment)",
          [&out](const std::string& v) { output_path(out.markdown_file, "--markdown", v); });
  t.value({"--report"}, "DIR", report_means.empty() ? "HTML reports: DIR/index.html lists every claim with its verdict" : report_means,
          [&out](const std::string& v) { output_path(out.report_dir, "--report", v); });
  t.toggle({"--verbose"}, "summaries (Markdown, the HTML report) list every PROVED claim, not a count per subject",
           [&out] { out.verbose = true; });
}

void add_define_flag(FlagTable& t, CppConstants& constants, const std::string& what) {
  Flag d;
  d.names = {"-D", "--define"};
  d.value = "NAME=EXPR";
  d.help = what + " (repeatable): -D 'bM=Int<128>{}'";
  d.glued = true;
  d.set = [&constants](const std::string& v) {
    const std::vector<std::string> one{"-D", v};
    std::size_t i = 0;
    take_define(one, i, constants);
  };
  t.add(std::move(d));
}

}  // namespace layoutproof::cli
