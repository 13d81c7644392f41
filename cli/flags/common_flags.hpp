#pragma once
// The flags several commands share, each declared once and added to every table that takes it
// (cli/flags/flag_table.hpp), so one flag has one spelling, one value form and one help line
// everywhere:
//   the run flags:    -j N | --jobs N, --engine E, --timeout-ms N, --dump-smt DIR, --deadline-s S,
//                     --cache DIR | --no-cache, --progress | --no-progress
//   the output flags: --json [FILE], --junit FILE, --sarif FILE, --markdown FILE, --report DIR
//   -D NAME=EXPR      (-DNAME=EXPR, --define NAME=EXPR; cli/layout_input.hpp take_define)
// One --engine vocabulary: auto | z3 | exhaustive; `enumeration` is read as exhaustive (the word
// raster prove's schedulers used).
//   FlagTable t("prove");
//   add_engine_flag(t, [&](proofs::EngineChoice e) { opts.engine = e; });
//   t.parse({"--engine", "enumeration"});   // opts.engine == EngineChoice::exhaustive
#include <functional>
#include <string>

#include "cli/flags/flag_table.hpp"
#include "cli/spec/check_runner.hpp"
#include "model/source/cpp_source.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::cli {

struct OutputFlags;

// --engine's value: auto | z3 | exhaustive (or enumeration); LayoutError naming the value otherwise.
proofs::EngineChoice engine_choice(const std::string& name);

// --engine E; `auto_means` (may be empty) says what auto picks for this command.
void add_engine_flag(FlagTable& t, std::function<void(proofs::EngineChoice)> set, const std::string& auto_means = "");
void add_timeout_flag(FlagTable& t, proofs::SmtOptions& smt);
void add_deadline_flag(FlagTable& t, proofs::Deadline& deadline, const std::string& what_is_cut = "");
void add_dump_smt_flag(FlagTable& t, proofs::SmtOptions& smt);
// --engine, --timeout-ms, --deadline-s, --dump-smt into one ProveOptions.
void add_prove_flags(FlagTable& t, proofs::ProveOptions& o);
// -j/--jobs, the four prove flags, --cache/--no-cache, --progress/--no-progress.
void add_run_flags(FlagTable& t, RunOptions& run);
// --progress / --no-progress alone (synth --kernel).
void add_progress_flags(FlagTable& t, bool& progress, const std::string& what);
// The five output flags. Each is given once and with a non-empty path (LayoutError otherwise);
// check_output_paths (cli/run_flags.hpp) then refuses two outputs on one path or on an input.
// `report_means` (may be empty) says what --report draws for this command.
void add_output_flags(FlagTable& t, OutputFlags& out, const std::string& report_means = "");
void add_define_flag(FlagTable& t, CppConstants& constants, const std::string& what = "a constant the C++ uses");

}  // namespace layoutproof::cli
