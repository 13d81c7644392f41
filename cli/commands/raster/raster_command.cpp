#include "cli/commands/raster/raster_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/commands/raster/scheduler_command.hpp"
#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/results.hpp"
#include "cli/help.hpp"
#include "cli/run_flags.hpp"
#include "model/support/checked.hpp"
#include "model/support/error.hpp"
#include "model/raster/raster.hpp"
#include "proofs/check/run_check.hpp"
#include "proofs/raster/raster.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof::cli {
namespace {

using namespace proofs;
using raster::u32;

constexpr const char* kUsage =
    "usage: layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N] [--claim C] "
    "[--timeout-ms N] [--deadline-s S] [--json]\n       layoutproof raster locality --m M --n N --k K [--sms S] [--tile MxNxK] [--elem-bytes E] [--json]";

std::int64_t parse_num(const std::string& v, const std::string& what, std::int64_t lo, std::int64_t hi) {
  return parse_int_in(v, what, lo, hi);
}

std::string fmt(double v, const char* f = "%.1f") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct Flags {
  std::string sub, kind, formula;
  std::optional<u32> tile_size, log_tile;
  std::optional<u32> max_grid;
  std::vector<std::string> claims;
  bool json = false;
  OutputFlags out;      // raster prove: --json [FILE], --junit, --sarif, --markdown, --report DIR, --verbose
  std::string command;  // the command line (the results' source)
  ProveOptions opts;
  std::int64_t m = 0, n = 0, k = 0, sms = 132, elem_bytes = 2;
  raster::TileShape tile;
};

// "MxNxK", each from 1 to 2^16.
raster::TileShape parse_tile(const std::string& v) {
  const auto x1 = v.find('x'), x2 = v.find('x', x1 == std::string::npos ? 0 : x1 + 1);
  if (x1 == std::string::npos || x2 == std::string::npos) throw LayoutError("--tile needs MxNxK, not '" + v + "'");
  raster::TileShape t;
  t.m = parse_num(v.substr(0, x1), "--tile M", 1, 1 << 16);
  t.n = parse_num(v.substr(x1 + 1, x2 - x1 - 1), "--tile N", 1, 1 << 16);
  t.k = parse_num(v.substr(x2 + 1), "--tile K", 1, 1 << 16);
  return t;
}

// The rows raster prove and raster locality share: the seed's tile size and the formula.
void add_raster_rows(FlagTable& t, Flags& f, bool locality) {
  t.value({"--tile-size"}, "T",
          locality ? "the seed's and the formula's tile size (default 4)"
                   : "seed, seed-fixed, formula: fix the tile size (default: every size 1..N)",
          [&f](const std::string& v) { f.tile_size = static_cast<u32>(parse_num(v, "--tile-size", 1, 1 << 16)); });
  t.value({"--formula"}, "F",
          locality ? "also measure this rasterization (as raster prove formula reads it)"
                   : "formula: 'bid = blockIdx.y * gridDim.x + blockIdx.x; x = bid % 4; y = bid / 4'",
          [&f](const std::string& v) { f.formula = v; });
}

FlagTable raster_prove_table(Flags& f) {
  FlagTable t("raster prove");
  t.value({"--claim"}, "C", "bijective (default) | injective | in-bounds | surjective (repeatable)",
          [&f](const std::string& v) { f.claims.push_back(v); });
  add_raster_rows(t, f, false);
  t.value({"--log-tile"}, "L", "cutlass: fix log_tile (0..15; default: every L in 0..3)",
          [&f](const std::string& v) { f.log_tile = static_cast<u32>(parse_num(v, "--log-tile", 0, 15)); });
  t.value({"--max-grid"}, "N", "the bound on gridDim (default 256; 8 for seed, seed-fixed and formula)",
          [&f](const std::string& v) { f.max_grid = static_cast<u32>(parse_num(v, "--max-grid", 1, 4096)); });
  add_engine_flag(t, [&f](EngineChoice e) { f.opts.engine = e; }, "the model on every grid when that costs at most 2^22 evaluations, else Z3");
  add_timeout_flag(t, f.opts.smt);
  add_deadline_flag(t, f.opts.smt.deadline, "a claim not decided by then is UNKNOWN (exit 3)");
  add_dump_smt_flag(t, f.opts.smt);
  add_output_flags(t, f.out);
  t.describe("--json", "one JSON object: each claim's verdict, bound and witness (or into FILE, a name ending in .json)");
  t.positional("KIND", [&f](const std::string& v) {
    if (!f.kind.empty()) throw LayoutError("raster prove takes one KIND, not also '" + v + "'");
    f.kind = v;
  });
  return t;
}

FlagTable raster_locality_table(Flags& f) {
  FlagTable t("raster locality");
  const auto size = [](std::int64_t& slot, const char* name) {
    return [&slot, name](const std::string& v) { slot = parse_num(v, name, 1, std::int64_t{1} << 40); };
  };
  t.value({"--m"}, "M", "the GEMM's M (1 to 2^40)", size(f.m, "--m"));
  t.value({"--n"}, "N", "the GEMM's N (1 to 2^40)", size(f.n, "--n"));
  t.value({"--k"}, "K", "the GEMM's K (1 to 2^40)", size(f.k, "--k"));
  t.value({"--sms"}, "S", "CTAs per wave, one per SM (default 132, an H100 SXM)",
          [&f](const std::string& v) { f.sms = parse_num(v, "--sms", 1, 1 << 20); });
  t.value({"--tile"}, "MxNxK", "the CTA tile (default 128x128x64)", [&f](const std::string& v) { f.tile = parse_tile(v); });
  t.value({"--elem-bytes"}, "E", "bytes per element of A and B (default 2)",
          [&f](const std::string& v) { f.elem_bytes = parse_num(v, "--elem-bytes", 1, 64); });
  add_raster_rows(t, f, true);
  t.toggle({"--json"}, "one JSON object with a row per rasterization", [&f] { f.json = true; });
  t.positional("KIND", [](const std::string&) {
    throw LayoutError("raster locality takes no KIND (it prints every rasterization)");
  });
  return t;
}

// Every kind raster prove takes: the rasterizations and the persistent schedulers.
std::vector<std::string> raster_kinds() {
  std::vector<std::string> v = {"row-major", "seed", "seed-fixed", "cutlass", "morton", "formula"};
  for (const std::string& k : proofs::scheduler_kinds()) v.push_back(k);
  return v;
}

int run_prove_raster(const Flags& f, std::ostream& out) {
  check_output_paths(f.out, {});
  if (f.kind.empty()) throw LayoutError(std::string("raster prove needs a KIND; ") + kUsage);
  RasterSubject s;
  const std::vector<std::string> kinds = raster_kinds();
  if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end())  // sm90-grop: did you mean sm90-group?
    throw LayoutError(unknown_word("kind", f.kind, kinds, "raster prove", true));
  s.kind = raster::parse_kind(f.kind);
  // Defaults chosen so a query finishes in seconds: the strip functions divide by symbolic values.
  const bool heavy = s.kind == raster::Kind::seed || s.kind == raster::Kind::seed_fixed || s.kind == raster::Kind::formula;
  s.max_grid = f.max_grid.value_or(heavy ? 8 : 256);
  if (s.kind == raster::Kind::formula) {
    if (f.formula.empty()) throw LayoutError("raster prove formula needs --formula 'x = ...; y = ...'");
    s.formula = std::make_shared<const raster::Formula>(raster::parse_formula(f.formula));
  } else if (!f.formula.empty()) {
    throw LayoutError("--formula goes with the kind formula");
  }
  if (s.kind == raster::Kind::cutlass) {
    if (f.tile_size) throw LayoutError("cutlass takes --log-tile L, not --tile-size");
    s.param = f.log_tile;
  } else {
    if (f.log_tile) throw LayoutError("--log-tile goes with cutlass");
    s.param = f.tile_size;
  }
  if (f.opts.engine == EngineChoice::automatic) {}  // automatic = z3 for rasterizations
  std::vector<RasterClaim> claims;
  const std::vector<std::string> claim_names = {"bijective", "injective", "in-bounds", "surjective"};
  for (const auto& c : f.claims) {
    if (std::find(claim_names.begin(), claim_names.end(), c) == claim_names.end())
      throw LayoutError(unknown_word("rasterization claim", c, claim_names, "", true));
    claims.push_back(parse_raster_claim(c));
  }
  if (claims.empty()) claims.push_back(RasterClaim::bijective);
  std::vector<proofs::CheckResult> results;
  for (RasterClaim c : claims) {
    proofs::Check check;
    check.name = s.text() + ", " + s.bound_text();
    check.subject = proofs::RasterizationSubject{s, ""};
    check.claim = {to_string(c), c};
    results.push_back(run_check(check, f.opts).front());
  }
  ResultView view;
  view.source = f.command;
  view.one_subject = true;
  view.subject_line = s.text() + ", " + s.bound_text();
  view.json_extra = {{"raster", s.text()}, {"bound", s.bound_text()}};
  return emit(out, results, f.out, view);
}

int run_locality(const Flags& f, std::ostream& out) {
  if (!f.m || !f.n || !f.k) throw LayoutError(std::string("raster locality needs --m, --n and --k; ") + kUsage);
  const raster::GemmShape g{f.m, f.n, f.k};
  std::vector<raster::Raster> rs{{raster::Kind::row_major, 0, nullptr},
                                 {raster::Kind::seed, f.tile_size.value_or(4), nullptr},
                                 {raster::Kind::cutlass, 1, nullptr},
                                 {raster::Kind::cutlass, 2, nullptr},
                                 {raster::Kind::cutlass, 3, nullptr},
                                 {raster::Kind::morton, 0, nullptr}};
  if (!f.formula.empty())
    rs.push_back({raster::Kind::formula, f.tile_size.value_or(4),
                  std::make_shared<const raster::Formula>(raster::parse_formula(f.formula))});
  std::vector<raster::Locality> ls;
  for (const auto& r : rs) ls.push_back(raster::locality(r, g, f.tile, static_cast<int>(f.elem_bytes), static_cast<int>(f.sms)));
  const std::string head = "GEMM " + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) +
                           ", tile " + std::to_string(f.tile.m) + "x" + std::to_string(f.tile.n) + "x" +
                           std::to_string(f.tile.k) + ", " + std::to_string(f.elem_bytes) + "-byte elements, " +
                           std::to_string(f.sms) + " SMs (one CTA each)";
  if (f.json) {
    // Means to 3 decimals, as the table prints them.
    const auto mean = [](double v) { return std::round(v * 1000) / 1000; };
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& l : ls)
      rows.push_back({{"raster", l.name}, {"launch", {l.launch.x, l.launch.y}}, {"blocks", l.blocks}, {"noop_blocks", l.noop_blocks},
                      {"waves", l.waves}, {"mean_a", mean(l.mean_a)}, {"max_a", l.max_a}, {"mean_b", mean(l.mean_b)},
                      {"max_b", l.max_b}, {"total_a", l.total_a}, {"total_b", l.total_b}, {"bytes_a", l.bytes_a},
                      {"bytes_b", l.bytes_b}});
    const nlohmann::ordered_json j = {{"gemm", {g.m, g.n, g.k}}, {"tile", {f.tile.m, f.tile.n, f.tile.k}}, {"elem_bytes", f.elem_bytes},
                                      {"sms", f.sms}, {"rows", std::move(rows)}};
    out << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << head << ": " << ls[0].m_tiles << "x" << ls[0].n_tiles << " tiles (M x N)\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %-10s %5s %7s %12s %12s %10s %10s %7s\n", "rasterization", "launch", "waves",
                "no-op", "A/wave mean", "B/wave mean", "A+B tiles", "A+B MiB", "vs row");
  out << line;
  std::snprintf(line, sizeof line, "%-22s %-10s %5s %7s %12s %12s %10s %10s %7s\n", "", "", "", "", "(max)", "(max)",
                "(total)", "(total)", "major");
  out << line;
  const double base = static_cast<double>(ls[0].bytes_a + ls[0].bytes_b);
  for (const auto& l : ls) {
    const std::string launch = std::to_string(l.launch.x) + "x" + std::to_string(l.launch.y);
    const std::string a = fmt(l.mean_a, "%.2f") + " (" + std::to_string(l.max_a) + ")";
    const std::string b = fmt(l.mean_b, "%.2f") + " (" + std::to_string(l.max_b) + ")";
    const double bytes = static_cast<double>(l.bytes_a + l.bytes_b);
    std::snprintf(line, sizeof line, "%-22s %-10s %5lld %7lld %12s %12s %10lld %10.0f %6.2fx\n", l.name.c_str(),
                  launch.c_str(), static_cast<long long>(l.waves), static_cast<long long>(l.noop_blocks), a.c_str(),
                  b.c_str(), static_cast<long long>(l.total_a + l.total_b), bytes / (1024.0 * 1024.0),
                  base > 0 ? bytes / base : 0.0);
    out << line;
  }
  out << "A/B per wave: distinct tile rows of A and tile columns of B the wave's CTAs touch; bytes: each loaded once "
         "per wave (tile x K x elem bytes)\n";
  return 0;
}

}  // namespace

FlagTable raster_flags(const std::string& sub) {
  auto f = std::make_shared<Flags>();
  FlagTable t = sub == "locality" ? raster_locality_table(*f) : raster_prove_table(*f);
  t.keep(f);
  return t;
}

int run_raster(const std::vector<std::string>& args, std::ostream& out) {
  if (wants_help(args)) return out << *help_text(help_topic("raster", args)), 0;
  // The persistent schedulers: raster trace KIND, raster prove sm90-*.
  if (!args.empty() && (args[0] == "trace" || (args[0] == "prove" && args.size() > 1 && is_scheduler_kind(args[1]))))
    return run_scheduler_command(args[0], args, out);
  const std::string sub = args.empty() ? "" : args[0];
  Flags f;
  f.sub = sub;
  if (sub == "prove") {
    raster_prove_table(f).parse(args, 1);
    check_output_paths(f.out, {});
    f.json = f.out.json_stdout;
    f.command = command_line("layoutproof raster", args);
    return run_prove_raster(f, out);
  }
  if (sub == "locality") {
    raster_locality_table(f).parse(args, 1);
    return run_locality(f, out);
  }
  if (sub.empty()) throw LayoutError(std::string("raster needs prove, locality or trace; ") + kUsage);
  throw LayoutError(unknown_word("raster subcommand", sub, {"prove", "locality", "trace"}, "", true) + "; " + kUsage);
}

}  // namespace layoutproof::cli
