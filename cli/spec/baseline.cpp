#include "cli/spec/baseline.hpp"

#include <set>

#include "cli/spec/results_reader.hpp"
#include "model/support/checked.hpp"

namespace layoutproof::cli {

bool passes(const std::string& verdict_label) { return verdict_label == "PROVED" || verdict_label == "REPORT"; }

Baseline read_baseline(const std::string& path) {
  const ResultsFile f = read_results_file(path, "--baseline");
  Baseline b;
  b.path = path;
  for (const auto& r : f.doc["results"]) {
    const std::string id = r["id"], verdict = r["verdict"];
    const auto [at, inserted] = b.verdicts.emplace(id, verdict);
    if (!inserted && at->second != verdict)
      throw LayoutError("--baseline " + path + ": the result '" + id + "' appears twice, " + at->second + " and " + verdict);
  }
  return b;
}

int mark_changes(std::vector<proofs::CheckResult>& results, const Baseline& b) {
  std::set<std::string> seen;
  for (proofs::CheckResult& r : results) {
    const std::string id = r.check.id();
    seen.insert(id);
    const bool now = passes(proofs::verdict_label(r));
    const auto old = b.verdicts.find(id);
    const bool before = old == b.verdicts.end() || passes(old->second);
    r.change = !now && before ? "new" : now && !before ? "fixed" : "unchanged";
  }
  int gone = 0;
  for (const auto& [id, verdict] : b.verdicts) gone += seen.count(id) == 0;
  return gone;
}

}  // namespace layoutproof::cli
