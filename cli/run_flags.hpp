#pragma once
// The flags `catalog` and `check` share: how to prove, and where to write which output.
//   -j N | --jobs N        prove N claims at a time (default: 1)
//   --engine z3|exhaustive|auto      --timeout-ms N      --dump-smt DIR
//   --deadline-s S         the whole run: what is not decided by then is UNKNOWN (proofs/claims/deadline.hpp)
//   --cache DIR | --no-cache         (default cache: default_cache_dir, cli/spec/verdict_cache.hpp)
//   --progress | --no-progress       (default: on when stderr is a terminal)
//   --json [FILE]  --junit FILE  --sarif FILE  --markdown FILE  --report DIR  --verbose
//                          (every claim-deciding command takes these: take_output_flag)
//   -D NAME=EXPR           a constant for C++ layouts (cli/layout_input.hpp)
#include <optional>
#include <string>
#include <vector>

#include "cli/spec/check_runner.hpp"
#include "model/source/cpp_source.hpp"

namespace layoutproof::cli {

struct OutputFlags {
  bool json_stdout = false;
  std::string json_file, junit_file, sarif_file, markdown_file, report_dir;
  bool verbose = false;  // summaries list every PROVED claim, not a count per subject
};

// When args[i] is an output flag (--json [FILE], --junit FILE, --sarif FILE, --markdown FILE,
// --report DIR, --verbose): records it in `out`, moves i past its value and returns true. A
// --json followed by a word ending in .json writes that file; otherwise JSON goes to stdout.
// LayoutError: a flag given twice, a missing or empty value.
bool take_output_flag(const std::vector<std::string>& args, std::size_t& i, OutputFlags& out);

struct RunFlags {
  RunOptions run;
  OutputFlags out;
  std::vector<std::string> positional;  // what is not a flag
  CppConstants constants;               // -D NAME=EXPR (check: added to the spec's constants:)
};

// --dump-smt's value: the folder, created now so that an unusable one is bad input (exit 2) before
// any proof, not an ERROR verdict per query ("--dump-smt /dev/null"); LayoutError otherwise.
std::string dump_smt_dir(const std::string& dir);

// --engine's value: z3 | exhaustive | auto; LayoutError otherwise.
proofs::EngineChoice parse_engine(const std::string& name);

// Throws LayoutError on an unknown flag or a missing value, and on outputs that would collide:
// an output flag given twice or with an empty path, two outputs naming one path, an output that is
// one of `inputs` (check_output_paths; parse_run_flags passes its positional arguments).
RunFlags parse_run_flags(const std::vector<std::string>& args);
void check_output_paths(const OutputFlags& out, const std::vector<std::string>& inputs);

}  // namespace layoutproof::cli
