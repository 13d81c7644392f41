#include "cli/commands/raster/scheduler_command.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <ostream>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/results.hpp"
#include "cli/output/scheduler_report.hpp"
#include "cli/run_flags.hpp"
#include "model/raster/persistent.hpp"
#include "model/support/error.hpp"
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

SchedFlags parse(const std::vector<std::string>& args) {
  SchedFlags f;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto next = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw LayoutError(a + " needs a value (layoutproof raster --help)");
      return args[++i];
    };
    if (take_output_flag(args, i, f.out)) continue;
    if (a == "--tiles") {
      const auto v = numbers(next(), "--tiles", 2, 3);
      f.q.tiles = std::array<i64, 3>{v[0], v[1], v.size() > 2 ? v[2] : 1};
    } else if (a == "--cluster") {
      const auto v = numbers(next(), "--cluster", 2, 2);
      f.q.cluster = std::array<i64, 2>{v[0], v[1]};
    } else if (a == "--max-swizzle") f.q.max_swizzle = parse_int_in(next(), a, 0, i64{1} << 20);
    else if (a == "--sms") f.q.sms = parse_int_in(next(), a, 0, i64{1} << 20);
    else if (a == "--max-active-clusters") f.q.max_active_clusters = parse_int_in(next(), a, 0, i64{1} << 20);
    else if (a == "--max-tiles") f.q.max_tiles = parse_int_in(next(), a, 1, 4096);
    else if (a == "--engine") {
      const std::string v = next();
      if (v == "auto") f.q.engine = proofs::SchedulerQuery::Engine::automatic;
      else if (v == "z3") f.q.engine = proofs::SchedulerQuery::Engine::z3;
      else if (v == "enumeration") f.q.engine = proofs::SchedulerQuery::Engine::enumeration;
      else throw LayoutError("--engine is auto, z3 or enumeration, not '" + v + "'");
    }
    else if (a == "--max-groups") f.q.max_groups = parse_int_in(next(), a, 1, 4);
    else if (a == "--corrected") f.q.corrected = true;
    else if (a == "--atom-m") f.q.atom_m = parse_int_in(next(), a, 1, 2);
    else if (a == "--cluster-type") {
      const std::string v = next();
      if (v == "static") f.q.dynamic_cluster = false;
      else if (v == "dynamic") f.q.dynamic_cluster = true;
      else throw LayoutError("--cluster-type is static or dynamic, not '" + v + "'");
    }
    else if (a == "--groups") {
      const std::string v = next();
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
      f.q.groups = gs;
    }
    else if (a == "--k-tiles") f.q.k_tiles = parse_int_in(next(), a, 1, (i64{1} << 31) - 1);
    else if (a == "--splits") f.q.splits = parse_int_in(next(), a, 1, i64{1} << 20);
    else if (a == "--decomposition") {
      const std::string d = next();
      if (d == "heuristic") f.q.decomposition = raster::Decomposition::heuristic;
      else if (d == "data-parallel") f.q.decomposition = raster::Decomposition::data_parallel;
      else if (d == "split-k") f.q.decomposition = raster::Decomposition::split_k;
      else if (d == "stream-k") f.q.decomposition = raster::Decomposition::stream_k;
      else throw LayoutError("--decomposition is heuristic, data-parallel, split-k or stream-k, not '" + d + "'");
    } else if (a == "--reduction") {
      const std::string d = next();
      if (d == "deterministic") f.q.reduction = raster::Reduction::deterministic;
      else if (d == "nondeterministic") f.q.reduction = raster::Reduction::nondeterministic;
      else throw LayoutError("--reduction is deterministic or nondeterministic, not '" + d + "'");
    } else if (a == "--raster") {
      const std::string r = next();
      if (r == "along-m") f.q.raster = raster::RasterOption::along_m;
      else if (r == "along-n") f.q.raster = raster::RasterOption::along_n;
      else if (r == "heuristic") f.q.raster = raster::RasterOption::heuristic;
      else throw LayoutError("--raster is along-m, along-n or heuristic, not '" + r + "'");
    } else if (a == "--claim") f.claims.push_back(next());
    else if (a == "--deadline-s") f.opts.smt.deadline = proofs::Deadline::parse(next());
    else if (a == "--timeout-ms") f.opts.smt.timeout_ms = static_cast<unsigned>(parse_int_in(next(), a, 1, i64{1} << 31));
    else if (!a.empty() && a[0] == '-') throw LayoutError("unknown option '" + a + "' for raster " + args[0] + " " + f.q.kind + " (layoutproof raster --help)");
    else if (f.q.kind.empty()) f.q.kind = a;
    else throw LayoutError("raster " + args[0] + " takes one KIND, not also '" + a + "'");
  }
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
  for (i64 cta = 0; cta < s.ctas; ++cta) {
    out << (cta ? "," : "") << "{\"cta\":" << cta << ",\"work\":[";
    bool first = true;
    s.walk(cta, [&](const raster::Work& w) {
      out << (first ? "" : ",") << "{\"iter\":" << w.iter << ",\"group\":" << w.group << ",\"m\":" << w.m << ",\"n\":" << w.n
          << ",\"l\":" << w.l;
      if (with_k) out << ",\"k_begin\":" << w.k_begin << ",\"k_end\":" << w.k_end;
      out << "}";
      first = false;
      return true;
    });
    out << "]}";
  }
  out << "],\"grid\":[" << s.grid[0] << "," << s.grid[1] << "," << s.grid[2] << "]}\n";
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

int run_prove(const SchedFlags& f, std::ostream& out) {
  if (f.claims.empty()) throw LayoutError("raster prove " + f.q.kind + " needs --claim exactly-once|in-range|balance" +
                                          (proofs::is_stream_k_kind(f.q.kind) ? "|k-exactly-once" : "") + "|launches");
  std::vector<proofs::SchedulerClaim> claims;
  for (const auto& c : f.claims) {
    const auto claim = proofs::parse_scheduler_claim(c);
    if (!claim) throw LayoutError("unknown scheduler claim '" + c + "' (exactly-once, in-range, balance, k-exactly-once, launches)");
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
    c.kind = proofs::Check::Kind::scheduler;
    c.subject = f.q.kind;
    c.claim = f.claims[i];
    c.scheduler_claim = claims[i];
    proofs::CheckResult res{std::move(c), r.verdict, std::nullopt, std::nullopt, std::nullopt};
    // The witness names its configuration: the domain's search reports the smallest failing one.
    if (res.verdict.is_refuted()) res.verdict.witness.why += " [" + r.config + "]";
    // balance is a measurement, not a claim: it is reported (REPORT), never shown as PROVED.
    if (claims[i] == proofs::SchedulerClaim::balance && res.verdict.is_proved()) res.balance = r.balance_max_over_mean;
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

bool is_scheduler_kind(const std::string& kind) { return proofs::is_scheduler_kind(kind); }

int run_scheduler_command(const std::string& sub, const std::vector<std::string>& args, std::ostream& out) {
  SchedFlags f = parse(args);
  check_output_paths(f.out, {});
  if (!f.out.report_dir.empty()) check_report_folder(f.out.report_dir);  // before any work: a folder of the user's is exit 2 at once
  f.command = "layoutproof raster";
  for (const auto& a : args) f.command += " " + shell_quote(a);
  if (!proofs::is_scheduler_kind(f.q.kind))
    throw LayoutError("raster " + sub + " " + (f.q.kind.empty() ? std::string("needs a KIND") : "'" + f.q.kind + "'") +
                      ": the scheduler kinds are " + proofs::scheduler_kinds_text());
  return sub == "trace" ? run_trace(f, out) : run_prove(f, out);
}

}  // namespace layoutproof::cli
