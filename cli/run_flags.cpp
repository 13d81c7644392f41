#include "cli/run_flags.hpp"

#include <unistd.h>

#include <filesystem>

#include "cli/flags/common_flags.hpp"
#include "cli/layout_input.hpp"
#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {

proofs::EngineChoice parse_engine(const std::string& e) { return engine_choice(e); }

std::string dump_smt_dir(const std::string& dir) {
  if (dir.empty()) throw LayoutError("--dump-smt needs a folder");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec))
    throw LayoutError("--dump-smt " + dir + ": cannot create that folder" + (ec ? " (" + ec.message() + ")" : ""));
  return dir;
}

namespace {

// The same file, however it is spelled: "a.json", "./a.json" and "dir/../a.json" are one path.
std::string same_file_key(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

}  // namespace

void check_output_paths(const OutputFlags& out, const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::string>> outputs;  // (flag, path)
  if (!out.json_file.empty()) outputs.push_back({"--json", out.json_file});
  if (!out.junit_file.empty()) outputs.push_back({"--junit", out.junit_file});
  if (!out.sarif_file.empty()) outputs.push_back({"--sarif", out.sarif_file});
  if (!out.markdown_file.empty()) outputs.push_back({"--markdown", out.markdown_file});
  if (!out.report_dir.empty()) outputs.push_back({"--report", out.report_dir});
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const std::string& in : inputs)
      if (same_file_key(outputs[i].second) == same_file_key(in))
        throw LayoutError(outputs[i].first + " " + outputs[i].second + " is the input " + in + ": it would be overwritten");
    for (std::size_t j = 0; j < i; ++j)
      if (same_file_key(outputs[i].second) == same_file_key(outputs[j].second))
        throw LayoutError(outputs[j].first + " and " + outputs[i].first + " name the same path " + outputs[i].second +
                          ": only the last would survive; give each output its own path");
  }
}

FlagTable run_flag_table(RunFlags& f, const std::string& command, bool defines) {
  f.run.progress = ::isatty(2);
  f.run.cache_dir = default_cache_dir();
  FlagTable t(command);
  add_run_flags(t, f.run);
  add_output_flags(t, f.out);
  if (defines) add_define_flag(t, f.constants, "a constant for the spec's C++, winning over the spec's constants:");
  t.positional("SPEC", [&f](const std::string& w) { f.positional.push_back(w); });
  return t;
}

RunFlags parse_run_flags(const std::vector<std::string>& args) {
  RunFlags f;
  run_flag_table(f, "check", true).parse(args);
  check_output_paths(f.out, f.positional);
  return f;
}

}  // namespace layoutproof::cli
