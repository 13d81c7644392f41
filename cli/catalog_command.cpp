#include "cli/catalog_command.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <ostream>

#include "cli/report.hpp"
#include "cli/results.hpp"
#include "model/notation.hpp"
#include "proofs/catalog.hpp"

namespace layoutproof::cli {
namespace {

void write_file(const std::string& path, const std::string& what, const std::function<void(std::ostream&)>& write) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream f(p);
  if (!f) throw LayoutError("cannot write " + what + " to " + path);
  write(f);
}

// One HTML bank map per refuted bank claim, and an index linking them.
void write_reports(const std::string& dir, const std::vector<proofs::CheckResult>& results) {
  std::filesystem::create_directories(dir);
  std::ofstream index(std::filesystem::path(dir) / "index.html");
  index << "<!doctype html><html><head><meta charset=\"utf-8\"><title>layoutproof report</title></head><body>"
        << "<h1>layoutproof: refuted bank claims</h1><ul>";
  int n = 0;
  for (const auto& r : results) {
    if (!r.bank_witness || !r.check.access) continue;
    const std::string sub = "claim" + std::to_string(++n);
    write_bank_report((std::filesystem::path(dir) / sub).string(),
                      BankReportInput{"layoutproof", r.check.claim, *r.check.access,
                                      proofs::BankResult{r.verdict, r.bank_witness}});
    index << "<li><a href=\"" << sub << "/index.html\">" << xml_escape(r.check.id()) << "</a></li>";
  }
  if (n == 0) index << "<li>no refuted bank claim</li>";
  index << "</ul></body></html>\n";
}

}  // namespace

int emit_results(std::ostream& out, const std::string& source, const std::vector<proofs::CheckResult>& results,
                 double wall_ms, const OutputFlags& flags) {
  RunSummary s = summarize(results);
  s.wall_ms = wall_ms;
  if (flags.json_stdout)
    write_json(out, source, results, s);
  else
    write_table(out, results, s);
  if (!flags.json_file.empty()) write_file(flags.json_file, "JSON", [&](std::ostream& f) { write_json(f, source, results, s); });
  if (!flags.junit_file.empty()) write_file(flags.junit_file, "JUnit XML", [&](std::ostream& f) { write_junit(f, source, results, s); });
  if (!flags.sarif_file.empty()) write_file(flags.sarif_file, "SARIF", [&](std::ostream& f) { write_sarif(f, source, results); });
  if (!flags.markdown_file.empty())
    write_file(flags.markdown_file, "Markdown", [&](std::ostream& f) { write_markdown(f, source, results, s); });
  if (!flags.report_dir.empty()) write_reports(flags.report_dir, results);
  return proofs::exit_code(results);
}

int run_catalog(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> rest;
  bool list = false;
  for (const auto& a : args) (a == "--list" ? list = true : (rest.push_back(a), false));
  const RunFlags flags = parse_run_flags(rest);
  if (!flags.positional.empty()) throw LayoutError("catalog takes no positional arguments (see --help)");
  if (list) {
    for (const auto& atom : proofs::builtin_catalog())
      out << atom.display_name() << "  " << atom.element_layout << "  (bytes: " << atom.byte_swizzle << ")  " << atom.used_in << "\n";
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<proofs::Check> checks = proofs::catalog_checks();
  const auto results = run_checks(checks, flags.run);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return emit_results(out, "built-in catalog (CUTLASS shared-memory atoms)", results, wall, flags.out);
}

}  // namespace layoutproof::cli
