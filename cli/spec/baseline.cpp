#include "cli/spec/baseline.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/support/checked.hpp"

namespace layoutproof::cli {

bool passes(const std::string& verdict_label) { return verdict_label == "PROVED" || verdict_label == "REPORT"; }

Baseline read_baseline(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LayoutError("--baseline " + path + ": cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw LayoutError("--baseline " + path + ": not JSON (" + e.what() + "); give the file an earlier `check --json FILE` wrote");
  }
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array())
    throw LayoutError("--baseline " + path + ": not a results document (no \"results\" array; docs/json_output.schema.json)");
  Baseline b;
  b.path = path;
  for (const auto& r : doc["results"]) {
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.contains("verdict") || !r["verdict"].is_string())
      throw LayoutError("--baseline " + path + ": a result without a string id and verdict");
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
