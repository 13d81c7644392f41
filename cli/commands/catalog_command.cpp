#include "cli/commands/catalog_command.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <ostream>

#include "cli/help.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/output/results.hpp"
#include "model/layout/notation.hpp"
#include "proofs/catalog/catalog.hpp"
#include "proofs/catalog/kernel_catalog.hpp"

namespace layoutproof::cli {
namespace {

struct CatalogArgs {
  RunFlags flags;
  bool list = false;
};

// No -D: the catalog's layouts are built in (check SPEC takes constants).
FlagTable catalog_table(CatalogArgs& a) {
  FlagTable t("catalog");
  t.toggle({"--list"}, "list the catalog's atoms and kernel configurations, prove nothing", [&a] { a.list = true; });
  FlagTable run = run_flag_table(a.flags, "catalog", false);
  for (const Flag& f : run.rows()) t.add(f);
  return t;
}

}  // namespace

FlagTable catalog_flags() {
  auto a = std::make_shared<CatalogArgs>();
  FlagTable t = catalog_table(*a);
  t.keep(a);
  return t;
}

int run_catalog(const std::vector<std::string>& args, std::ostream& out) {
  if (wants_help(args)) return out << *help_text("catalog"), 0;
  CatalogArgs parsed;
  catalog_table(parsed).parse(args);
  const RunFlags& flags = parsed.flags;
  const bool list = parsed.list;
  check_output_paths(flags.out, {});
  if (!list)  // a run that does not finish leaves none of its outputs (cli/output/atomic_file.hpp)
    clear_stale_outputs({flags.out.json_file, flags.out.junit_file, flags.out.sarif_file, flags.out.markdown_file}, flags.out.report_dir);
  if (list) {
    for (const auto& atom : proofs::builtin_catalog())
      out << atom.display_name() << "  " << atom.element_layout << "  (bytes: " << atom.byte_swizzle << ")  " << atom.used_in << "\n";
    for (const auto& k : proofs::kernel_configs()) {
      out << k.name << "  (" << k.source << ")\n  mma:  " << k.mma << "\n  s" << k.operand << ":   " << k.smem << "\n";
      for (const auto& c : k.copies) out << "  " << c.what << " (side " << c.side << "): " << c.copy << "\n";
    }
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<proofs::Check> checks = proofs::catalog_checks();
  for (proofs::Check& c : proofs::kernel_checks()) checks.push_back(std::move(c));
  const auto results = run_checks(checks, flags.run);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ResultView view;
  view.source = "built-in catalog (CUTLASS shared-memory atoms and kernel configurations)";
  view.wall_ms = wall;
  view.kernel_findings = true;
  const int rc = emit(out, results, flags.out, view);
  int findings = 0;
  for (const auto& r : results) findings += r.verdict.is_refuted() && r.check.kind() == proofs::CheckKind::kernel;
  if (rc == 0 && findings && !flags.out.json_stdout)
    out << findings << " findings: CUTLASS's own kernel configurations refuted above (witnesses printed); the job itself succeeded\n";
  return rc;
}

}  // namespace layoutproof::cli
