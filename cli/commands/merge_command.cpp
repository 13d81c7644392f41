#include "cli/commands/merge_command.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <ostream>
#include <set>

#include "cli/flags/common_flags.hpp"
#include "cli/help.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/output/results.hpp"
#include "cli/run_flags.hpp"
#include "cli/spec/results_reader.hpp"
#include "model/support/checked.hpp"

namespace layoutproof::cli {
namespace {

using json = nlohmann::json;

struct MergeArgs {
  OutputFlags out;
  std::vector<std::string> files;
};

FlagTable merge_table(MergeArgs& a) {
  FlagTable t("merge");
  add_output_flags(t, a.out, "the merged run's summary page (every claim; the shards' own --report draws the figures)");
  t.positional("SHARD.json", [&a](const std::string& w) { a.files.push_back(w); });
  return t;
}

// One shard's file: what its summary says about the run it is part of.
struct ShardFile {
  std::string path;
  int k = 0, n = 0;
  std::string source, version, claims;
  i64 checks = 0;
  std::optional<json> baseline;  // summary "baseline"
  i64 baseline_results = -1;
  double wall_ms = 0;
  int compiled_files = 0;
  std::vector<proofs::CheckResult> results;
};

[[noreturn]] void refuse(const std::string& path, const std::string& why) { throw LayoutError("merge " + path + ": " + why); }

i64 integer_at(const json& o, const char* key, const std::string& path, const char* what) {
  if (!o.is_object() || !o.contains(key) || !o[key].is_number_integer()) refuse(path, std::string(what) + " has no integer \"" + key + "\"");
  return o[key].get<i64>();
}

ShardFile read_shard(const std::string& path) {
  const ResultsFile f = read_results_file(path, "merge");
  const json& d = f.doc;
  if (!d.contains("tool") || d["tool"] != "layoutproof" || !d.contains("source") || !d["source"].is_string() || !d.contains("version") ||
      !d["version"].is_string() || !d.contains("summary") || !d["summary"].is_object())
    refuse(path, "not layoutproof's results JSON (no \"tool\", \"version\", \"source\" or \"summary\"; docs/json_output.schema.json)");
  if (d.contains("error") && !d["error"].is_null()) refuse(path, "the run that wrote it stopped on bad input (its \"error\"): it decided nothing");
  const json& s = d["summary"];
  if (!s.contains("shard")) refuse(path, "not a shard: its summary has no \"shard\" (write each part with `check SPEC --shard K/N --json FILE`)");
  const json& sh = s["shard"];
  ShardFile out;
  out.path = path;
  out.n = static_cast<int>(integer_at(sh, "n", path, "its summary's shard"));
  out.k = static_cast<int>(integer_at(sh, "k", path, "its summary's shard"));
  if (out.n < 1 || out.n > 1024 || out.k < 1 || out.k > out.n) refuse(path, "its shard " + std::to_string(out.k) + "/" + std::to_string(out.n) + " is not K/N with 1 <= K <= N <= 1024");
  out.checks = integer_at(sh, "checks", path, "its summary's shard");
  if (!sh.contains("claims") || !sh["claims"].is_string()) refuse(path, "its summary's shard has no \"claims\"");
  out.claims = sh["claims"];
  if (sh.contains("baseline_results")) out.baseline_results = integer_at(sh, "baseline_results", path, "its summary's shard");
  out.source = d["source"];
  out.version = d["version"];
  if (s.contains("baseline")) out.baseline = s["baseline"];
  if (s.contains("wall_ms") && s["wall_ms"].is_number()) out.wall_ms = s["wall_ms"].get<double>();
  if (s.contains("compiled_files")) out.compiled_files = static_cast<int>(integer_at(s, "compiled_files", path, "its summary"));
  out.results = results_of(f, "merge");
  for (const auto& r : out.results)
    if (r.position < 0 || r.position >= out.checks)
      refuse(path, "the result '" + r.check.id() + "' has " + (r.position < 0 ? std::string("no position") : "the position " + std::to_string(r.position)) +
                       " (a shard's results are at 0.." + std::to_string(out.checks - 1) + ")");
  return out;
}

// Refuses a set of shards that is not one run: each is compared with the first.
void check_one_run(const std::vector<ShardFile>& shards) {
  const ShardFile& a = shards.front();
  std::map<int, std::string> seen;  // k -> file
  for (const ShardFile& b : shards) {
    const auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
      refuse(b.path, "not a shard of the same run as " + a.path + ": " + what + " " + y + ", not " + x);
    };
    if (b.n != a.n) differ("it is one of N =", std::to_string(a.n), std::to_string(b.n));
    if (b.source != a.source) differ("its spec is", "'" + a.source + "'", "'" + b.source + "'");
    if (b.claims != a.claims || b.checks != a.checks)
      differ("its spec's claims are", std::to_string(a.checks) + " claims " + a.claims, std::to_string(b.checks) + " claims " + b.claims);
    if (b.version != a.version) differ("it was written by layoutproof", a.version, b.version);
    if (b.baseline.has_value() != a.baseline.has_value() || b.baseline_results != a.baseline_results ||
        (a.baseline && a.baseline->value("fail_on", "") != b.baseline->value("fail_on", "")))
      refuse(b.path, "not run against the same --baseline and --fail-on as " + a.path);
    const auto [at, fresh] = seen.emplace(b.k, b.path);
    if (!fresh) refuse(b.path, "shard " + std::to_string(b.k) + "/" + std::to_string(b.n) + " is given twice (also " + at->second + ")");
  }
  for (int k = 1; k <= a.n; ++k)
    if (!seen.count(k))
      throw LayoutError("merge: shard " + std::to_string(k) + "/" + std::to_string(a.n) + " of " + a.source + " is missing (give every K of 1.." +
                        std::to_string(a.n) + " once)");
  std::map<i64, std::string> owner;  // position -> file
  for (const ShardFile& b : shards) {
    std::set<i64> mine;
    for (const auto& r : b.results) mine.insert(r.position);
    for (const i64 p : mine) {
      const auto [at, fresh] = owner.emplace(p, b.path);
      if (!fresh) refuse(b.path, "its results at position " + std::to_string(p) + " are also in " + at->second + " (a claim decided in two shards)");
    }
  }
}

// The baseline's results no shard has: each shard's gone counts the baseline's results it has not
// (those of the other shards too), so the run's is their sum less (N - 1) times the baseline's size.
int gone_of(const std::vector<ShardFile>& shards) {
  i64 sum = 0;
  for (const ShardFile& s : shards) sum = checked_add(sum, integer_at(*s.baseline, "gone", s.path, "its summary's baseline"));
  const i64 gone = checked_sub(sum, checked_mul(static_cast<i64>(shards.size()) - 1, shards.front().baseline_results));
  if (gone < 0 || gone > shards.front().baseline_results) refuse(shards.front().path, "the shards' baseline counts do not add up (" + std::to_string(gone) + " gone)");
  return static_cast<int>(gone);
}

}  // namespace

FlagTable merge_flags() {
  auto a = std::make_shared<MergeArgs>();
  FlagTable t = merge_table(*a);
  t.keep(a);
  return t;
}

int run_merge(const std::vector<std::string>& args, std::ostream& out) {
  MergeArgs a;
  merge_table(a).parse(args);
  if (a.files.empty()) throw LayoutError("usage: layoutproof merge SHARD.json... [flags] (see layoutproof merge --help)");
  check_output_paths(a.out, a.files);
  std::vector<ShardFile> shards;
  for (const std::string& f : a.files) shards.push_back(read_shard(f));
  check_one_run(shards);
  clear_stale_outputs({a.out.json_file, a.out.junit_file, a.out.sarif_file, a.out.markdown_file}, a.out.report_dir);
  std::vector<proofs::CheckResult> results;
  ResultView view;
  view.source = shards.front().source;
  for (ShardFile& s : shards) {
    view.wall_ms = std::max(view.wall_ms, s.wall_ms);
    view.compiled_files = std::max(view.compiled_files, s.compiled_files);
    for (auto& r : s.results) results.push_back(std::move(r));
  }
  // The spec's order; a compiled entry's results (one position) keep the order their shard wrote.
  std::stable_sort(results.begin(), results.end(), [](const auto& x, const auto& y) { return x.position < y.position; });
  if (shards.front().baseline) {
    view.baseline = true;
    view.fail_on_new = shards.front().baseline->value("fail_on", "") == "new";
    view.gone = gone_of(shards);
  }
  return emit(out, results, a.out, view);
}

}  // namespace layoutproof::cli
