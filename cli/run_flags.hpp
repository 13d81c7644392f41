#pragma once
// The flags `catalog` and `check` share: how to prove, and where to write which output. Each row
// is declared once in cli/flags/common_flags.hpp; run_flag_table gathers them into one table:
//   -j N | --jobs N        prove N claims at a time (default: 1)
//   --engine auto|z3|exhaustive      --timeout-ms N      --dump-smt DIR
//   --deadline-s S         the whole run: what is not decided by then is UNKNOWN (proofs/claims/deadline.hpp)
//   --cache DIR | --no-cache         (default cache: default_cache_dir, cli/spec/verdict_cache.hpp)
//   --progress | --no-progress       (default: on when stderr is a terminal)
//   --json [FILE]  --junit FILE  --sarif FILE  --markdown FILE  --report DIR  --verbose
//                          (every claim-deciding command takes these: add_output_flags)
//   -D NAME=EXPR           a constant for C++ layouts (cli/layout_input.hpp)
#include <optional>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"
#include "cli/spec/check_runner.hpp"
#include "model/source/cpp_source.hpp"

namespace layoutproof::cli {

struct OutputFlags {
  bool json_stdout = false;
  std::string json_file, junit_file, sarif_file, markdown_file, report_dir;
  bool verbose = false;  // summaries list every PROVED claim, not a count per subject
};

struct RunFlags {
  RunOptions run;
  OutputFlags out;
  std::vector<std::string> positional;  // what is not a flag
  CppConstants constants;               // -D NAME=EXPR (check: added to the spec's constants:)
};

// --dump-smt's value: the folder, created now so that an unusable one is bad input (exit 2) before
// any proof, not an ERROR verdict per query ("--dump-smt /dev/null"); LayoutError otherwise.
std::string dump_smt_dir(const std::string& dir);

// --engine's value: auto | z3 | exhaustive (enumeration: the same); LayoutError otherwise.
proofs::EngineChoice parse_engine(const std::string& name);

// The table of `command` (check, catalog) over f: the run flags, the output flags, -D when
// `defines`, positional words into f.positional; f starts with the defaults (progress when stderr
// is a terminal, the default cache).
FlagTable run_flag_table(RunFlags& f, const std::string& command, bool defines);

// Throws LayoutError on an unknown flag or a missing value, and on outputs that would collide:
// an output flag given twice or with an empty path, two outputs naming one path, an output that is
// one of `inputs` (check_output_paths; parse_run_flags passes its positional arguments).
RunFlags parse_run_flags(const std::vector<std::string>& args);
void check_output_paths(const OutputFlags& out, const std::vector<std::string>& inputs);

}  // namespace layoutproof::cli
