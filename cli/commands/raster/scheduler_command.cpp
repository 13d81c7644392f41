#include "cli/commands/raster/scheduler_command.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/results.hpp"
#include "cli/output/scheduler_report.hpp"
#include "cli/run_flags.hpp"
#include "model/raster/persistent.hpp"
#include "model/support/error.hpp"
#include "proofs/check/run_check.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof::cli {
namespace {

using i64 = std::int64_t;

struct SchedFlags {
  proofs::SchedulerQuery q;
  std::vector<std::string> claims;
  OutputFlags out;      // --json [FILE], --junit, --sarif, --markdown, --report DIR, --verbose
  proofs::ProveOptions opts;
  std::string command;  // the command line, for the report
  std::string configs;  // trace --configs FILE: one configuration's flags a line
};

// "A,B[,C]" or "AxB[xC]": count numbers, each in [lo, hi].
std::vector<i64> numbers(const std::string& v, const std::string& what, std::size_t lo_count, std::size_t hi_count) {
  std::vector<i64> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t sep = v.find_first_of(",x", at);
    out.push_back(parse_int_in(v.substr(at, sep == std::string::npos ? std::string::npos : sep - at), what, 0, i64{1} << 40));
    if (sep == std::string::npos) break;
    at = sep + 1;
  }
  if (out.size() < lo_count || out.size() > hi_count)
    throw LayoutError(what + " takes " + std::to_string(lo_count) + (hi_count > lo_count ? " to " + std::to_string(hi_count) : "") +
                      " numbers separated by ',' or 'x', not '" + v + "'");
  return out;
}

// --groups 'M1xN1,M2xN2,...': each group's extent in CTA tiles.
std::vector<std::array<i64, 2>> parse_groups(const std::string& v) {
  std::vector<std::array<i64, 2>> gs;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = v.find(',', at);
    const std::string one = v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const auto mn = numbers(one, "--groups' group '" + one + "'", 2, 2);
    gs.push_back({mn[0], mn[1]});
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return gs;
}

// The one table of raster trace and raster prove for the scheduler kinds (`sub`: trace or prove).
FlagTable scheduler_table(SchedFlags& f, const std::string& sub) {
  FlagTable t("raster " + sub);
  proofs::SchedulerQuery& q = f.q;
  t.value({"--tiles"}, "M,N[,L]", "the problem in CTA tiles (L batches, default 1)", [&q](const std::string& v) {
    const auto n = numbers(v, "--tiles", 2, 3);
    q.tiles = std::array<i64, 3>{n[0], n[1], n.size() > 2 ? n[2] : 1};
  });
  t.value({"--groups"}, "LIST", "sm90-group, sm100-group: each group's extent in CTA tiles, M1xN1,M2xN2,...\n"
          "(the host's problem shapes; the raster defaults to along-m, as CUTLASS's\n"
          "Arguments do)", [&q](const std::string& v) { q.groups = parse_groups(v); });
  t.toggle({"--corrected"}, "the group kinds: bound the device by the groups' swizzle-rounded tiles, not the\n"
          "host's cluster-rounded count (the real code's bound drops tiles; docs/raster.md)", [&q] { q.corrected = true; });
  t.value({"--max-groups"}, "G", "prove a group kind without --groups: every list of 1 to G groups (default 3)\n"
          "of M, N in [1, --max-tiles]", [&q](const std::string& v) { q.max_groups = parse_int_in(v, "--max-groups", 1, 4); });
  t.value({"--atom-m"}, "A", "sm100-group: the MMA's AtomThrShape M, 1 (default) or 2 (a 2-SM MMA; the\n"
          "cluster's M even): the host's grid counts tiles of A CTAs along m", [&q](const std::string& v) { q.atom_m = parse_int_in(v, "--atom-m", 1, 2); });
  t.value({"--cluster-type"}, "T", "sm100-group: static (default: a compile-time ClusterShape) or dynamic\n"
          "(hw_info.cluster_shape: get_grid_shape's preferred-cluster grid)", [&q](const std::string& v) {
    if (v == "static") q.dynamic_cluster = false;
    else if (v == "dynamic") q.dynamic_cluster = true;
    else throw LayoutError("--cluster-type is static or dynamic, not '" + v + "'");
  });
  t.value({"--cluster"}, "X,Y", "the thread-block cluster (powers of two; default 1,1)", [&q](const std::string& v) {
    const auto n = numbers(v, "--cluster", 2, 2);
    q.cluster = std::array<i64, 2>{n[0], n[1]};
  });
  t.value({"--max-swizzle"}, "S", "the largest swizzle allowed (a power of two; default 1)", [&q](const std::string& v) { q.max_swizzle = parse_int_in(v, "--max-swizzle", 0, i64{1} << 20); });
  t.value({"--raster"}, "R", "along-m, along-n or heuristic (default heuristic: along-m when N > M)", [&q](const std::string& r) {
    if (r == "along-m") q.raster = raster::RasterOption::along_m;
    else if (r == "along-n") q.raster = raster::RasterOption::along_n;
    else if (r == "heuristic") q.raster = raster::RasterOption::heuristic;
    else throw LayoutError("--raster is along-m, along-n or heuristic, not '" + r + "'");
  });
  t.value({"--sms"}, "N", "the SM count get_grid_shape is given (default 132)", [&q](const std::string& v) { q.sms = parse_int_in(v, "--sms", 0, i64{1} << 20); });
  t.value({"--max-active-clusters"}, "C", "hw_info.max_active_clusters (default 0: CUTLASS's GPC occupancy rule)",
          [&q](const std::string& v) { q.max_active_clusters = parse_int_in(v, "--max-active-clusters", 0, i64{1} << 20); });
  t.value({"--k-tiles"}, "K", "the stream-K kinds: k blocks per output tile (ceil(K / tile K))", [&q](const std::string& v) { q.k_tiles = parse_int_in(v, "--k-tiles", 1, (i64{1} << 31) - 1); });
  t.value({"--splits"}, "S", "the stream-K kinds: Arguments::splits (> 1 only with heuristic or split-k)", [&q](const std::string& v) { q.splits = parse_int_in(v, "--splits", 1, i64{1} << 20); });
  t.value({"--decomposition"}, "D", "the stream-K kinds: heuristic (default), data-parallel, split-k or stream-k", [&q](const std::string& d) {
    if (d == "heuristic") q.decomposition = raster::Decomposition::heuristic;
    else if (d == "data-parallel") q.decomposition = raster::Decomposition::data_parallel;
    else if (d == "split-k") q.decomposition = raster::Decomposition::split_k;
    else if (d == "stream-k") q.decomposition = raster::Decomposition::stream_k;
    else throw LayoutError("--decomposition is heuristic, data-parallel, split-k or stream-k, not '" + d + "'");
  });
  t.value({"--reduction"}, "R", "the stream-K kinds: the fix-up's deterministic (default) or nondeterministic wait", [&q](const std::string& d) {
    if (d == "deterministic") q.reduction = raster::Reduction::deterministic;
    else if (d == "nondeterministic") q.reduction = raster::Reduction::nondeterministic;
    else throw LayoutError("--reduction is deterministic or nondeterministic, not '" + d + "'");
  });
  t.value({"--claim"}, "C", "prove: exactly-once (every tile computed by exactly one CTA and iteration;\n"
          "stream-K: its epilogue, by the unit ending at its last k block),\n"
          "in-range (no work unit outside the problem), balance (units per CTA, reported;\n"
          "stream-K: k blocks per CTA), k-exactly-once (stream-K: every (tile, k block)\n"
          "accumulated once, and the fix-up protocol completes with every CTA resident:\n"
          "each split tile reduced once, by its final split, after its contributors),\n"
          "launches (get_grid_shape's grid has a CTA, the cluster divides it and it is\n"
          "within CUDA's limits (y, z at most 65535): the hardware refuses any other;\n"
          "the other claims are about the visits the code computes for the grid,\n"
          "launched or not)", [&f](const std::string& v) { f.claims.push_back(v); });
  t.value({"--max-tiles"}, "B", "prove without --tiles: M, N in [1, B] and L in {1, 2}; the group kinds\n"
          "without --groups: each group's M, N in [1, B] (default 16; the stream-K\n"
          "kinds 8; the group kinds 3). The domain asked for is proved whole or\n"
          "refused: one of more than 2^20 configurations exits 2, naming the largest\n"
          "B (and G) that fits with the flags given; never a smaller domain", [&q](const std::string& v) { q.max_tiles = parse_int_in(v, "--max-tiles", 1, 4096); });
  // One --engine vocabulary: exhaustive is the schedulers' enumeration of every configuration.
  add_engine_flag(t, [&q](proofs::EngineChoice e) {
    q.engine = e == proofs::EngineChoice::z3           ? proofs::SchedulerQuery::Engine::z3
               : e == proofs::EngineChoice::exhaustive ? proofs::SchedulerQuery::Engine::enumeration
                                                       : proofs::SchedulerQuery::Engine::automatic;
  });
  t.describe("--engine",
             "prove sm90-persistent without --tiles: auto (default: z3 past --max-tiles 32) | z3 (every "
             "M, N at once: needs --cluster, --max-swizzle, --raster, --sms; prove --dump-smt DIR writes "
             "its queries) | exhaustive (every configuration enumerated; enumeration is the same)");
  if (sub == "trace")
    t.value({"--configs"}, "FILE", "trace many configurations in one run: each line of FILE (- for standard\n"
            "input) is one configuration's flags (--tiles 3,5 --cluster 2,1 ...), added after\n"
            "those given here; the traces are written in FILE's order, with --json one JSON\n"
            "object a line. Blank lines and lines starting with # are skipped. Every line is\n"
            "read and bounded before the first trace is written: a bad one is exit 2, naming\n"
            "its line, with nothing written; no --report", [&f](const std::string& v) {
      if (v.empty()) throw LayoutError("--configs needs a file name (- for standard input)");
      f.configs = v;
    });
  add_timeout_flag(t, f.opts.smt);
  add_deadline_flag(t, f.opts.smt.deadline);
  if (sub == "prove") add_dump_smt_flag(t, f.opts.smt);  // trace asks Z3 nothing: refused there as unknown
  add_output_flags(t, f.out, "");
  t.describe("--json", "{\"ctas\":[{\"cta\":i,\"work\":[{\"iter\":k,\"group\":0,\"m\":..,\"n\":..,\"l\":..}]}],\"grid\":[x,y,z]}\n"
          "(cta = x + gx*(y + gy*z) of the grid get_grid_shape gives; iter from 0;\n"
          "the stream-K kinds add \"k_begin\" and \"k_end\" (exclusive) to each unit).\n"
          "A trace (text or JSON) is written unit by unit as the loops compute them,\n"
          "and holds at most 2^24 work units and 2^24 CTAs: a larger one is refused\n"
          "before any work (exit 2, with its count); raster prove walks any loop");
  t.describe("--report", "draw the schedule: DIR/index.html (no script, no network), DIR/summary.svg and\n"
          "one DIR/wave_K.svg per wave K (every CTA's iteration K); tiles coloured by CTA,\n"
          "darker for later iterations; missing and doubled tiles red and listed with\n"
          "their CTAs; units past the problem dashed in the margin; stream-K tiles split\n"
          "into k stripes, the epilogue unit marked. prove draws the first refuted\n"
          "claim's witness configuration, else the domain's first. A DIR that cannot be\n"
          "written: exit 2, before any work");
  t.positional("KIND", [&q, sub](const std::string& v) {
    if (!q.kind.empty()) throw LayoutError("raster " + sub + " takes one KIND, not also '" + v + "'");
    q.kind = v;
  });
  return t;
}

SchedFlags parse(const std::vector<std::string>& args) {
  SchedFlags f;
  scheduler_table(f, args.empty() ? "trace" : args[0]).parse(args, 1);
  check_output_paths(f.out, {});
  return f;
}

// The most work units (and CTAs) a trace prints: about 1 GiB of JSON. A larger schedule is
// refused before anything is computed or printed; raster prove walks any loop without printing it.
constexpr i64 kMaxTraceUnits = i64{1} << 24;

// The schedule's work units, counted up to `limit` + 1 (past that, "more than" is all a refusal
// needs): from the plan where it gives the number, else by walking the loops without keeping them.
i64 units_up_to(const proofs::Schedule& s, i64 limit) {
  if (s.units >= 0) return s.units;
  i64 n = 0;
  for (i64 cta = 0; cta < s.ctas && n <= limit; ++cta) s.walk(cta, [&](const raster::Work&) { return ++n <= limit; });
  return n;
}

// LayoutError (exit 2, nothing printed) when the trace would list more than kMaxTraceUnits work
// units or CTAs, saying the count, the bound and how to get a smaller trace.
void check_trace_size(const SchedFlags& f, const proofs::Schedule& s) {
  const std::string bound = std::to_string(kMaxTraceUnits) + " (2^24) a trace prints";
  const std::string smaller = ": trace a smaller problem (--tiles" + std::string(f.q.groups ? ", --groups" : "") +
                              "), or decide its claims with raster prove, which walks every CTA's loop without printing it";
  if (s.ctas > kMaxTraceUnits)
    throw LayoutError("raster trace " + f.q.kind + " (" + s.config + "): the grid has " + std::to_string(s.ctas) + " CTAs, more than the " +
                      bound + smaller);
  const i64 units = units_up_to(s, kMaxTraceUnits);
  if (units > kMaxTraceUnits)
    throw LayoutError("raster trace " + f.q.kind + " (" + s.config + "): " +
                      (s.units >= 0 ? std::to_string(units) + " work units, more than the " + bound
                                    : "more work units than the " + bound + " (counted up to that)") +
                      smaller);
}

// One unit as the text trace writes it: "(m,n,l)", "g1(m,n)", with " kA..B" for stream-K.
void unit_text(const raster::Work& w, bool grouped, bool with_k, std::ostream& out) {
  out << " " << (grouped ? "g" + std::to_string(w.group) : std::string()) << "(" << w.m << "," << w.n;
  if (!grouped) out << "," << w.l;
  if (with_k) out << " k" << w.k_begin << ".." << w.k_end;
  out << ")";
}

// Each CTA's units written as its walk computes them: nothing of the schedule is held.
void trace_json(const proofs::Schedule& s, bool with_k, std::ostream& out) {
  out << "{\"ctas\":[";
  for (i64 cta = 0; cta < s.ctas; ++cta) {  // one unit's object at a time: a CTA may walk millions
    out << (cta ? "," : "") << "{\"cta\":" << cta << ",\"work\":[";
    bool first = true;
    s.walk(cta, [&](const raster::Work& w) {
      nlohmann::ordered_json u = {{"iter", w.iter}, {"group", w.group}, {"m", w.m}, {"n", w.n}, {"l", w.l}};
      if (with_k) u["k_begin"] = w.k_begin, u["k_end"] = w.k_end;
      out << (first ? "" : ",") << u.dump();
      first = false;
      return true;
    });
    out << "]}";
  }
  out << "],\"grid\":" << nlohmann::ordered_json(s.grid).dump() << "}\n";
}

// --report DIR: the same picture for trace and prove (cli/output/scheduler_report.hpp).
void draw_report(const SchedFlags& f, const proofs::Schedule& s, const std::string& drawn, const std::string& domain,
                 std::vector<SchedulerReportClaim> claims, std::ostream& out) {
  const SchedulerReportInput in{f.command, f.q.kind, &s, drawn, domain, std::move(claims)};
  publish_report_folder(f.out.report_dir, [&](const std::string& dir) { write_scheduler_report(dir, in); });
  if (!f.out.json_stdout) out << "report: " << f.out.report_dir << "/index.html\n";
}

int run_trace(const SchedFlags& f, std::ostream& out) {
  const proofs::Schedule s = proofs::fixed_schedule(f.q);
  check_trace_size(f, s);
  const bool with_k = s.k_tiles > 0;
  if (f.out.json_stdout) {
    trace_json(s, with_k, out);
  } else {
    out << f.q.kind << ": " << s.config << "\n  " << s.plan << " (" << s.ctas << " CTAs)\n";
    if (!s.no_launch.empty()) out << "  launch: " << s.no_launch << " (--claim launches)\n";
    const bool grouped = f.q.groups.has_value();
    for (i64 cta = 0; cta < s.ctas; ++cta) {
      out << "  CTA " << cta << ":";
      s.walk(cta, [&](const raster::Work& w) {
        unit_text(w, grouped, with_k, out);
        return true;
      });
      out << "\n";
    }
  }
  if (!f.out.report_dir.empty()) draw_report(f, s, "the configuration traced", "", {}, out);
  return 0;
}

// The words of each configuration line of `in` (blank and # lines left out), with its line number.
std::vector<std::pair<int, std::vector<std::string>>> config_lines(std::istream& in) {
  std::vector<std::pair<int, std::vector<std::string>>> lines;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (!w.empty() && w[0][0] != '#') lines.emplace_back(n, std::move(w));
  }
  return lines;
}

// trace --configs FILE: each line's flags parsed after the command line's (so a value there
// overrides the command line's), every trace bounded before the first is written, then each
// written as run_trace writes it. One process for many configurations: the scheduler reference
// tests trace thousands of CUTLASS configurations this way.
int run_trace_configs(const SchedFlags& base, std::ostream& out) {
  const std::string name = base.configs == "-" ? std::string("standard input") : base.configs;
  std::ifstream file;
  if (base.configs != "-") {
    file.open(base.configs);
    if (!file) throw LayoutError("raster trace --configs: cannot read '" + base.configs + "'");
  }
  const auto lines = config_lines(base.configs == "-" ? std::cin : file);
  if (lines.empty()) throw LayoutError("raster trace --configs: " + name + " holds no configuration");
  std::vector<SchedFlags> configs;
  configs.reserve(lines.size());
  for (const auto& [n, words] : lines) {
    SchedFlags f = base;
    f.configs.clear();
    try {
      scheduler_table(f, "trace").parse(words);
      if (!f.configs.empty()) throw LayoutError("--configs belongs on the command line, not in its file");
      if (!f.out.report_dir.empty() || f.out.json_stdout != base.out.json_stdout)
        throw LayoutError("--json and --report belong on the command line, not in its file");
      check_trace_size(f, proofs::fixed_schedule(f.q));
    } catch (const LayoutError& e) {
      throw LayoutError("raster trace --configs: " + name + " line " + std::to_string(n) + ": " + e.what());
    }
    configs.push_back(std::move(f));
  }
  for (const SchedFlags& f : configs) run_trace(f, out);
  return 0;
}

int run_prove(const SchedFlags& f, std::ostream& out) {
  if (f.claims.empty()) throw LayoutError("raster prove " + f.q.kind + " needs --claim exactly-once|in-range|balance" +
                                          (proofs::is_stream_k_kind(f.q.kind) ? "|k-exactly-once" : "") + "|launches");
  std::vector<proofs::SchedulerClaim> claims;
  for (const auto& c : f.claims) {
    const auto claim = proofs::parse_scheduler_claim(c);
    if (!claim)
      throw LayoutError(unknown_word("scheduler claim", c, {"exactly-once", "in-range", "balance", "k-exactly-once", "launches"}, "", true));
    if (*claim == proofs::SchedulerClaim::k_exactly_once && !proofs::is_stream_k_kind(f.q.kind))
      throw LayoutError("k-exactly-once is about stream-K's k ranges: the kinds are sm90-stream-k and sm100-stream-k, not " + f.q.kind);
    claims.push_back(*claim);
  }
  // Every claim's domain is checked before the first is proved: a refused one prints no verdict.
  for (const auto claim : claims) proofs::check_scheduler_query(f.q, claim);
  std::vector<SchedulerReportClaim> drawn_claims;
  std::vector<proofs::CheckResult> results;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const proofs::SchedulerResult r = proofs::prove_scheduler_query(f.q, claims[i], f.opts);
    proofs::Check c;
    c.name = f.q.kind;
    c.subject = proofs::SchedulerSubject{std::make_shared<const proofs::SchedulerQuery>(f.q), f.q.kind};
    c.claim = {f.claims[i], claims[i]};
    proofs::CheckResult res = proofs::scheduler_check_result(std::move(c), r);
    drawn_claims.push_back({f.claims[i], proofs::verdict_label(res), r});
    results.push_back(std::move(res));
  }
  ResultView view;
  view.source = f.command;
  view.one_subject = true;
  view.subject_line = f.q.kind;
  view.json_extra = {{"kind", f.q.kind}};
  std::shared_ptr<const proofs::Schedule> s;
  std::string drawn;
  if (!f.out.report_dir.empty()) {
    // The first refuted claim's witness configuration, else the one a claim enumerated last (the
    // configuration proved, or the domain's last); none when every claim was decided symbolically.
    for (const auto& c : drawn_claims)
      if (c.result.verdict.is_refuted() && c.result.schedule) {
        s = c.result.schedule;
        drawn = "the witness configuration of " + c.claim;
        break;
      }
    for (const auto& c : drawn_claims)
      if (!s && c.result.schedule) s = c.result.schedule, drawn = "the configuration " + c.claim + " enumerated last (no claim refuted)";
    if (!s) throw LayoutError("--report: no configuration to draw (every claim was decided over the whole domain symbolically); give --tiles");
    view.report = [&](const std::string& dir) {
      write_scheduler_report(dir, SchedulerReportInput{f.command, f.q.kind, s.get(), drawn, "", drawn_claims});
    };
  }
  return emit(out, results, f.out, view);
}

}  // namespace

FlagTable scheduler_flags(const std::string& sub) {
  auto f = std::make_shared<SchedFlags>();
  FlagTable t = scheduler_table(*f, sub);
  t.keep(f);
  return t;
}

bool is_scheduler_kind(const std::string& kind) { return proofs::is_scheduler_kind(kind); }

int run_scheduler_command(const std::string& sub, const std::vector<std::string>& args, std::ostream& out) {
  SchedFlags f = parse(args);
  check_output_paths(f.out, {});
  if (!f.configs.empty() && !f.out.report_dir.empty())
    throw LayoutError("raster trace --configs: --report draws one configuration; trace it without --configs");
  if (!f.out.report_dir.empty()) check_report_folder(f.out.report_dir);  // before any work: a folder of the user's is exit 2 at once
  f.command = command_line("layoutproof raster", args);
  if (!proofs::is_scheduler_kind(f.q.kind))
    throw LayoutError("raster " + sub + " " + (f.q.kind.empty() ? std::string("needs a KIND") : "'" + f.q.kind + "'") +
                      did_you_mean(f.q.kind, proofs::scheduler_kinds()) + ": the scheduler kinds are " + proofs::scheduler_kinds_text());
  if (!f.configs.empty()) return run_trace_configs(f, out);
  return sub == "trace" ? run_trace(f, out) : run_prove(f, out);
}

}  // namespace layoutproof::cli
