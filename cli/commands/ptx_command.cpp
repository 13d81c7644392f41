#include "cli/commands/ptx_command.hpp"

#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "cli/help.hpp"
#include "cli/output/escape.hpp"
#include "model/support/checked.hpp"
#include "model/compiled/ptx_exec.hpp"
#include "proofs/claims/deadline.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Verdict;

struct PtxArgs {
  std::string file, kernel;
  PtxLaunch launch;
  std::vector<std::string> claims;
  bool json = false;
  proofs::Deadline deadline;
};

std::array<i64, 3> dims(const std::string& v, const std::string& flag) {
  std::array<i64, 3> d{1, 1, 1};
  std::size_t at = 0;
  for (int k = 0; k < 3; ++k) {
    const std::size_t comma = v.find(',', at);
    d[static_cast<std::size_t>(k)] = parse_int_in(v.substr(at, comma - at), flag, 1, 1 << 20);
    if (comma == std::string::npos) return d;
    at = comma + 1;
  }
  throw LayoutError(flag + " is X[,Y[,Z]], not '" + v + "'");
}

PtxArgs parse_args(const std::vector<std::string>& args) {
  PtxArgs a;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& f = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw LayoutError(f + " needs a value (layoutproof ptx --help)");
      return args[++i];
    };
    if (f == "--kernel") a.kernel = value();
    else if (f == "--block") a.launch.block = dims(value(), f);
    else if (f == "--grid") a.launch.grid = dims(value(), f);
    else if (f == "--param") {
      const std::string v = value();
      const std::size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0) throw LayoutError("--param is I=V or NAME=V, not '" + v + "'");
      std::string name = v.substr(0, eq);
      if (name.find_first_not_of("0123456789") == std::string::npos) name = "#" + name;  // by index
      a.launch.params.push_back({name, parse_int_in(v.substr(eq + 1), "--param " + v.substr(0, eq), -(i64{1} << 62), i64{1} << 62)});
    } else if (f == "--smem-bytes") a.launch.dynamic_smem_bytes = parse_int_in(value(), f, 0, kSmemBytes);
    else if (f == "--claim") a.claims.push_back(value());
    else if (f == "--json") a.json = true;
    else if (f == "--deadline-s") a.deadline = proofs::Deadline::parse(value());
    else if (f == "--report") throw LayoutError("ptx --report: not available yet (the figures of `trace --report` need a copy's elements)");
    else if (!f.empty() && f[0] == '-') throw LayoutError("ptx: unknown option '" + f + "' (layoutproof ptx --help)");
    else if (a.file.empty()) a.file = f;
    else throw LayoutError("ptx takes one FILE; got '" + a.file + "' and '" + f + "'");
  }
  if (a.file.empty()) throw LayoutError("usage: layoutproof ptx FILE [--kernel TEXT] [--block X[,Y[,Z]]] ... (layoutproof ptx --help)");
  return a;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw LayoutError("cannot read " + path);
  std::string text;
  char buf[1 << 16];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(f.gcount()));
    if (text.size() > kMaxPtxBytes) throw LayoutError(path + ": more than 256 MiB of PTX");
  }
  return text;
}

// One claim over one site, decided over every issue of the concrete launch.
Verdict decide(const PtxSmemSite& s, const std::string& claim, const proofs::ProveOptions& o) {
  const std::string domain = "exhaustive over the launch: all " + std::to_string(s.trace.instructions.size()) + " warp issues";
  if (!s.unknown.empty()) return Verdict::unknown(domain, s.unknown);
  if (const auto tc = proofs::parse_trace_claim(claim); tc && (tc->kind == proofs::TraceClaim::Kind::conflict_free ||
                                                                tc->kind == proofs::TraceClaim::Kind::max_ways))
    return proofs::prove_trace(s.trace, *tc, o).verdict;
  const auto point = [&](const TraceInstruction& in, int lane) {
    return proofs::WitnessPoint{"lane " + std::to_string(lane) + " (thread " + std::to_string(in.thread[static_cast<std::size_t>(lane)]) + ")",
                                -1, in.where, in.addr[static_cast<std::size_t>(lane)], "byte"};
  };
  for (const auto& in : s.trace.instructions) {
    for (int l = 0; l < kWarpLanes; ++l) {
      const i64 a = in.addr[static_cast<std::size_t>(l)];
      if (a < 0) continue;
      if (claim == "aligned" && a % std::max(1, in.width_bytes) != 0)
        return Verdict::refuted(domain, {{point(in, l)}, "byte " + std::to_string(a) + " is not a multiple of the " +
                                                            std::to_string(in.width_bytes) + "-byte access"});
      if (claim == "in-bounds" && (s.symbol.empty() || a + in.width_bytes > s.symbol_base + s.symbol_bytes))
        return Verdict::refuted(domain, {{point(in, l)}, "bytes " + std::to_string(a) + ".." + std::to_string(a + in.width_bytes - 1) +
                                                            " lie outside " + (s.symbol.empty() ? "every shared symbol" : s.symbol)});
      if (claim == "no-overlap" && s.trace.smem_is_destination)
        for (int m = l + 1; m < kWarpLanes; ++m) {
          const i64 b = in.addr[static_cast<std::size_t>(m)];
          if (b >= 0 && b < a + in.width_bytes && a < b + in.width_bytes)
            return Verdict::refuted(domain, {{point(in, l), point(in, m)}, "two lanes of one store write the same bytes"});
        }
    }
  }
  if (claim == "aligned") return Verdict::proved(domain, "every lane's address is a multiple of its access width");
  if (claim == "in-bounds") return Verdict::proved(domain, "every lane's bytes lie inside " + s.symbol);
  if (claim == "no-overlap") return Verdict::proved(domain, s.trace.smem_is_destination ? "no two lanes of a store write the same bytes"
                                                                                         : "a load: nothing is written");
  throw LayoutError("unknown ptx claim '" + claim + "' (conflict-free, max-ways:K, aligned, in-bounds, no-overlap)");
}

struct Counts {
  i64 executed = 0, wavefronts = 0, ideal = 0;
  bool known = true;  // false: some issue's addresses are not known (no wavefront count is claimed)
};
Counts count(const PtxSmemSite& s) {
  const AddressTrace& t = s.trace;
  Counts c;
  c.known = s.unknown.empty();
  for (const auto& in : t.instructions) {
    c.executed = checked_add(c.executed, 1);
    if (!c.known) continue;
    const BankReport r = analyze_smem_access(in.access());
    c.wavefronts = checked_add(c.wavefronts, r.wavefronts);
    c.ideal = checked_add(c.ideal, r.ideal);
  }
  return c;
}

}  // namespace

int run_ptx_command(const std::vector<std::string>& args, std::ostream& out) {
  const PtxArgs a = parse_args(args);
  const PtxModule m = parse_ptx(read_file(a.file), a.file);
  proofs::ProveOptions o;
  o.smt.deadline = a.deadline;
  // A --param must name a parameter of some selected kernel (by index or PTX name).
  for (const auto& [name, v] : a.launch.params) {
    (void)v;
    bool found = false;
    for (const PtxEntry& e : m.entries)
      if (ptx_name_matches(e.name, a.kernel))
        for (std::size_t i = 0; i < e.params.size(); ++i) found = found || name == e.params[i] || name == "#" + std::to_string(i);
    if (!found)
      throw LayoutError("--param " + (name[0] == '#' ? name.substr(1) : name) + ": no selected kernel has such a parameter");
  }
  std::string json = "{\"kernels\":[";
  int refuted = 0, other = 0, kernels = 0;
  for (const PtxEntry& e : m.entries) {
    if (!ptx_name_matches(e.name, a.kernel)) continue;
    const PtxRun run = run_ptx(e, m, a.launch);
    ++kernels;
    Counts total;
    if (!a.json)
      out << e.name << "  block (" << run.block[0] << "," << run.block[1] << "," << run.block[2] << "), "
          << run.sites.size() << " shared-memory instructions\n";
    std::string insts;
    for (const PtxSmemSite& s : run.sites) {
      const Counts c = count(s);
      total.known = total.known && c.known;
      total.executed = checked_add(total.executed, c.executed);
      total.wavefronts = checked_add(total.wavefronts, c.wavefronts);
      total.ideal = checked_add(total.ideal, c.ideal);
      std::string verdicts;
      if (!a.json)
        out << "  " << s.trace.name << "  executed " << c.executed
            << (c.known ? ", wavefronts " + std::to_string(c.wavefronts) + " (ideal " + std::to_string(c.ideal) + ")" : ", wavefronts not known: " + s.unknown)
            << "\n";
      for (const std::string& claim : a.claims) {
        Verdict v = a.deadline.expire(decide(s, claim, o));
        if (v.is_refuted()) ++refuted;
        else if (!v.is_proved()) ++other;
        std::string why = v.is_refuted() ? v.witness.why : v.detail;
        const bool bank_claim = claim == "conflict-free" || claim.rfind("max-ways:", 0) == 0;  // its why names the lanes
        if (v.is_refuted() && !bank_claim)
          for (const auto& p : v.witness.points) why += "; " + proofs::point_text(p);
        verdicts += std::string(verdicts.empty() ? "" : ",") + "{\"claim\":" + json_str(claim) + ",\"verdict\":" +
                    json_str(proofs::to_string(v.kind)) + ",\"method\":" + json_str(v.method) + ",\"detail\":" + json_str(why) + "}";
        if (!a.json) out << "    " << proofs::to_string(v.kind) << "  " << claim << "  [" << v.method << "]  " << why << "\n";
      }
      const PtxInstruction& in = *s.instruction;
      insts += std::string(insts.empty() ? "" : ",") + "{\"line\":" + std::to_string(in.line) + ",\"source_line\":" +
               std::to_string(in.source_line) + ",\"sass_offset\":null,\"text\":" + json_str(in.text) + ",\"op\":" +
               json_str(to_string(s.trace.op)) + ",\"width_bytes\":" + std::to_string(s.trace.width_bytes) + ",\"executed\":" +
               std::to_string(c.executed) + ",\"wavefronts\":" + (c.known ? std::to_string(c.wavefronts) : "null") + ",\"ideal\":" +
               (c.known ? std::to_string(c.ideal) : "null") +
               ",\"verdicts\":[" + verdicts + "]}";
    }
    std::string notes;
    if (!run.stopped.empty()) notes += "stopped: " + run.stopped;
    if (run.divergent) notes += std::string(notes.empty() ? "" : "; ") + "a warp's lanes ran different instruction sequences";
    if (!run.not_modelled.empty()) {
      notes += std::string(notes.empty() ? "" : "; ") + "opcodes outside the model (their results are not known):";
      for (const auto& op : run.not_modelled) notes += " " + op;
    }
    json += std::string(kernels > 1 ? "," : "") + "{\"name\":" + json_str(e.name) + ",\"block\":[" + std::to_string(run.block[0]) + "," +
            std::to_string(run.block[1]) + "," + std::to_string(run.block[2]) + "],\"instructions\":[" + insts + "],\"totals\":{\"executed\":" +
            std::to_string(total.executed) + ",\"wavefronts\":" + (total.known ? std::to_string(total.wavefronts) : "null") + ",\"ideal\":" +
            (total.known ? std::to_string(total.ideal) : "null") +
            "},\"notes\":" + json_str(notes) + "}";
    if (!a.json) {
      out << "  totals: executed " << total.executed
          << (total.known ? ", wavefronts " + std::to_string(total.wavefronts) + " (ideal " + std::to_string(total.ideal) + ")" : ", wavefronts not known")
          << "\n";
      if (!notes.empty()) out << "  note: " << notes << "\n";
    }
  }
  if (kernels == 0) throw LayoutError(a.file + ": no kernel" + (a.kernel.empty() ? "" : " whose name contains '" + a.kernel + "'"));
  if (a.json) out << json << "]}\n";
  return refuted ? 1 : other ? 3 : 0;
}

}  // namespace layoutproof::cli
