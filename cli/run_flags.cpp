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
    } else if (a == "--json") {
      if (i + 1 < args.size() && args[i + 1].rfind("-", 0) != 0 && args[i + 1].find(".json") != std::string::npos)
        f.out.json_file = args[++i];
      else
        f.out.json_stdout = true;
    } else if (a == "--junit") {
      f.out.junit_file = value();
    } else if (a == "--sarif") {
      f.out.sarif_file = value();
    } else if (a == "--markdown") {
      f.out.markdown_file = value();
    } else if (a == "--report") {
      f.out.report_dir = value();
    } else if (a.rfind("--", 0) == 0) {
      throw LayoutError("unknown option " + a);
    } else {
      f.positional.push_back(a);
    }
  }
  return f;
}

}  // namespace layoutproof::cli
