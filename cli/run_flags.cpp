#include "cli/run_flags.hpp"

#include <unistd.h>

#include <filesystem>

#include "cli/layout_input.hpp"
#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {

proofs::EngineChoice parse_engine(const std::string& e) {
  if (e == "z3") return proofs::EngineChoice::z3;
  if (e == "exhaustive") return proofs::EngineChoice::exhaustive;
  if (e == "auto") return proofs::EngineChoice::automatic;
  throw LayoutError("--engine takes z3, exhaustive or auto, not '" + e + "'");
}

std::string dump_smt_dir(const std::string& dir) {
  if (dir.empty()) throw LayoutError("--dump-smt needs a folder");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec))
    throw LayoutError("--dump-smt " + dir + ": cannot create that folder" + (ec ? " (" + ec.message() + ")" : ""));
  return dir;
}

namespace {

// One output flag's value: given once, and not empty (an empty path wrote nothing and exited 0).
void output_path(std::string& slot, const std::string& flag, const std::string& value) {
  if (!slot.empty()) throw LayoutError(flag + " is given twice ('" + slot + "' and '" + value + "'): give it once");
  if (value.empty()) throw LayoutError(flag + " needs a path, not an empty one");
  slot = value;
}

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

bool take_output_flag(const std::vector<std::string>& args, std::size_t& i, OutputFlags& out) {
  const std::string& a = args[i];
  const auto value = [&]() -> const std::string& {
    if (i + 1 >= args.size()) throw LayoutError(a + " needs a value");
    return args[++i];
  };
  if (a == "--json") {
    if (out.json_stdout || !out.json_file.empty()) throw LayoutError("--json is given twice: give it once");
    if (i + 1 < args.size() && args[i + 1].rfind("-", 0) != 0 && args[i + 1].find(".json") != std::string::npos)
      out.json_file = args[++i];
    else
      out.json_stdout = true;
  } else if (a == "--junit") {
    output_path(out.junit_file, a, value());
  } else if (a == "--sarif") {
    output_path(out.sarif_file, a, value());
  } else if (a == "--markdown") {
    output_path(out.markdown_file, a, value());
  } else if (a == "--report") {
    output_path(out.report_dir, a, value());
  } else if (a == "--verbose") {
    out.verbose = true;
  } else {
    return false;
  }
  return true;
}

RunFlags parse_run_flags(const std::vector<std::string>& args) {
  RunFlags f;
  f.run.progress = ::isatty(2);
  f.run.cache_dir = default_cache_dir();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw LayoutError(a + " needs a value");
      return args[++i];
    };
    auto number = [&](const std::string& v) { return parse_int_in(v, a, 1, 1'000'000'000); };
    if (take_define(args, i, f.constants)) {
      continue;
    } else if (a == "-j" || a == "--jobs") {
      f.run.jobs = static_cast<int>(number(value()));
    } else if (a.rfind("-j", 0) == 0 && a.size() > 2 && a[2] != '-') {
      f.run.jobs = static_cast<int>(number(a.substr(2)));
    } else if (a == "--engine") {
      f.run.prove.engine = parse_engine(value());
    } else if (a == "--timeout-ms") {
      f.run.prove.smt.timeout_ms = static_cast<unsigned>(number(value()));
    } else if (a == "--deadline-s") {
      f.run.prove.smt.deadline = proofs::Deadline::parse(value());
    } else if (a == "--dump-smt") {
      f.run.prove.smt.dump_dir = dump_smt_dir(value());
    } else if (a == "--cache") {
      f.run.cache_dir = value();
    } else if (a == "--no-cache") {
      f.run.cache_dir.clear();
    } else if (a == "--progress") {
      f.run.progress = true;
    } else if (a == "--no-progress") {
      f.run.progress = false;
    } else if (take_output_flag(args, i, f.out)) {
      continue;
    } else if (a.rfind("--", 0) == 0) {
      throw LayoutError("unknown option " + a);
    } else {
      f.positional.push_back(a);
    }
  }
  check_output_paths(f.out, f.positional);
  return f;
}

}  // namespace layoutproof::cli
