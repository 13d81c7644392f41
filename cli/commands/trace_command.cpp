#include "cli/commands/trace_command.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/help.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/trace_report.hpp"
#include "cli/output/witness_json.hpp"
#include "cli/run_flags.hpp"
#include "model/layout/notation.hpp"
#include "model/source/kernel_expr.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::cli {

namespace {

using namespace proofs;

struct TraceArgs {
  std::string smem, copy, mma, side, element;
  i64 base = 0;
  CppConstants constants;
  std::vector<std::string> claims;
  std::string report;   // --report DIR
  std::string command;  // the command line, for the report
  bool json = false;
  bool fused = false;   // --fused: the trace nvcc's fusion issues (model/trace/trace.hpp fuse_trace)
  EngineChoice engine = EngineChoice::automatic;
  proofs::Deadline deadline;  // --deadline-s: the claims not decided by then are UNKNOWN
  OutputFlags out;            // --json, --report and the other outputs (json and report mirror them)
};

FlagTable trace_table(TraceArgs& a) {
  FlagTable t("trace");
  t.value({"--smem"}, "EXPR",
          "the staged smem layout, as the kernel's C++ or CuTe notation, e.g.\n"
          "'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}),\n"
          "               make_shape(Int<128>{},Int<64>{},Int<3>{}))'",
          [&a](const std::string& v) { a.smem = v; });
  t.value({"--copy"}, "EXPR",
          "the TiledCopy, as the kernel's C++: make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), "
          "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, thr, val), ...",
          [&a](const std::string& v) { a.copy = v; });
  t.value({"--mma"}, "EXPR",
          "the TiledMMA --copy names (`mma`, `tiled_mma`, or NAME from 'NAME = EXPR' or a\n"
          "declaration 'TiledMMA mmaC = make_tiled_mma(...);'), e.g.\n"
          "'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'",
          [&a](const std::string& v) { a.mma = v; });
  t.value({"--side"}, "S|D",
          "the smem tensor is the copy's source (partition_S: s2r loads, ldmatrix) or its\n"
          "destination (partition_D: cp.async, r2s stores, stmatrix)",
          [&a](const std::string& v) { a.side = v; });
  t.value({"--element"}, "T", "the smem element type (half_t, float, tfloat32_t, double, int8_t, ...)",
          [&a](const std::string& v) { a.element = v; });
  t.value({"--base"}, "ADDR", "byte address of the tensor (default 0)",
          [&a](const std::string& v) { a.base = parse_byte_address(v, "--base"); });
  add_define_flag(t, a.constants, "a named constant used in the expressions");
  t.value({"--claim"}, "C", "conflict-free | max-ways:K | vector-legal | covers (repeatable)",
          [&a](const std::string& v) { a.claims.push_back(v); });
  t.toggle({"--fused"},
           "the trace nvcc's fusion issues (f32/f64 pairs merged into 8/16-byte accesses):\n"
           "claims, JSON and report are about it; the text shows both",
           [&a] { a.fused = true; });
  add_deadline_flag(t, a.deadline);
  add_engine_flag(t, [&a](EngineChoice e) { a.engine = e; });
  add_output_flags(t, a.out,
                   "write DIR/index.html and DIR/report.svg: every claim's verdict and, per refuted\n"
                   "claim, the smem stage coloured by bank with the witness lanes' slices outlined,\n"
                   "the conflicting phase as 32 bank columns, and the witness instruction's 32 lanes\n"
                   "(thread, coordinate, address, banks); with no refutation, instruction 0 on the tile");
  return t;
}

TraceArgs parse_args(const std::vector<std::string>& args) {
  TraceArgs a;
  trace_table(a).parse(args);
  check_output_paths(a.out, {});
  a.json = a.out.json_stdout;
  a.report = a.out.report_dir;
  for (const std::string& c : a.claims) {  // a misspelt claim is named, with the closest one, before any work
    const std::vector<std::string> known = {"conflict-free", "max-ways", "vector-legal", "covers"};
    if (std::find(known.begin(), known.end(), c.substr(0, c.find(':'))) == known.end())
      throw LayoutError(unknown_word("trace claim", c, known, "", true));
  }
  a.command = "layoutproof trace";
  for (const auto& x : args) a.command += " '" + x + "'";
  if (a.smem.empty() || a.copy.empty()) throw LayoutError("trace needs --smem and --copy (layoutproof trace --help)");
  if (a.side != "S" && a.side != "D") throw LayoutError("--side is S (smem is the copy's source) or D (its destination)");
  if (a.element.empty()) throw LayoutError("trace needs --element T (the smem element type, e.g. half_t)");
  if (!type_bits(a.element)) throw LayoutError(unknown_word("element type", a.element, type_names(), "--element"));
  return a;
}

std::string ms(double t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", t);
  return b;
}

void print_text(const AddressTrace& t, std::ostream& out) {
  out << summary_name(t) << "\n" << t.instructions.size() << " instructions: " << to_string(t.op) << ", " << t.width_bytes
      << " B per lane, " << t.threads << " threads\n";
  for (const auto& ins : t.instructions) {
    const BankReport r = analyze_smem_access(ins.access());
    out << ins.where << ": " << r.wavefronts << " wavefronts (ideal " << r.ideal << ")  lanes:";
    for (i64 a : ins.addr) out << " " << a;
    out << "\n";
  }
}

int prove_claims(const AddressTrace& t, const TraceArgs& a, std::ostream& out) {
  ProveOptions o;
  o.engine = a.engine;
  o.smt.deadline = a.deadline;
  int proved = 0, refuted = 0, other = 0;
  TraceReportInput report{a.command, &t, {}};
  std::string json = "{\"subject\":" + json_str(t.provenance) + ",\"name\":" + json_str(summary_name(t)) + ",\"instructions\":" + std::to_string(t.instructions.size()) + ",\"results\":[";
  for (std::size_t i = 0; i < a.claims.size(); ++i) {
    const auto claim = parse_trace_claim(a.claims[i]);
    if (!claim) throw LayoutError("unknown trace claim '" + a.claims[i] + "' (conflict-free, max-ways:K, vector-legal, covers)");
    const TraceResult r = prove_trace(t, *claim, o);
    const Verdict& v = r.verdict;
    (v.is_proved() ? proved : v.is_refuted() ? refuted : other)++;
    if (!a.report.empty()) report.claims.push_back({claim->text, r});
    if (a.json) {
      json += (i ? "," : "") + std::string("{\"claim\":") + json_str(claim->text) + ",\"verdict\":" + json_str(to_string(v.kind)) +
              ",\"method\":" + json_str(v.method) + ",\"detail\":" + json_str(v.detail) + ",\"time_ms\":" + ms(v.time_ms) +
              ",\"witness\":" + (r.witness ? witness_to_json(*r.witness, &t) : std::string("null")) + "}";
      continue;
    }
    out << to_string(v.kind) << "  " << claim->text << "  [" << v.method << ", " << ms(v.time_ms) << " ms]  ";
    out << (r.witness ? "witness: " + r.witness->why : v.detail) << "\n";
  }
  if (!a.report.empty()) publish_report_folder(a.report, [&](const std::string& dir) { write_trace_report(dir, report); });
  if (a.json) out << json << "],\"proved\":" << proved << ",\"refuted\":" << refuted << ",\"other\":" << other << "}\n";
  else
    out << summary_name(t) << ": " << proved << " proved, " << refuted << " refuted, " << other << " unknown or error\n";
  if (!a.report.empty() && !a.json) out << "report: " << a.report << "/index.html\n";
  return refuted ? 1 : other ? 3 : 0;
}

std::string op_width(const AddressTrace& t) { return std::to_string(t.instructions.size()) + " x " + to_string(t.op) + "." + std::to_string(8 * t.width_bytes); }

// --fused when only some positions fuse: the parts (widest first), each proved on its own; the
// exit code is the worst (1 refuted, else 3 undecided, else 0). --json: {"fused_parts":[...]}.
int run_fused_parts(const AddressTrace& cute_level, const std::vector<AddressTrace>& parts, const TraceArgs& a, std::ostream& out) {
  if (!a.report.empty()) throw LayoutError("--report draws one trace; this copy fuses in part (" + std::to_string(parts.size()) + " widths): drop --fused or --report");
  std::string mix;
  for (const auto& p : parts) mix += (mix.empty() ? "" : " + ") + op_width(p);
  if (!a.json)
    out << "CuTe level: " << op_width(cute_level) << "; fused (nvcc), in part: " << mix
        << " (no grouping holds for every position; each position fuses where its accesses are contiguous and aligned in every warp)\n";
  // Per-instruction claims (conflict-free, max-ways, vector-legal) are decided on each part; covers
  // is about the elements moved, which fusion does not change: decided once, on the CuTe-level trace.
  TraceArgs per_part = a, whole = a;
  per_part.claims.clear(), whole.claims.clear();
  for (const auto& c : a.claims) {
    const auto claim = parse_trace_claim(c);
    (claim && claim->text == "covers" ? whole : per_part).claims.push_back(c);
  }
  int code = 0;
  const auto run = [&](const AddressTrace& t, const TraceArgs& args) {
    std::ostringstream o;
    const int c = prove_claims(t, args, o);
    std::string text = o.str();
    if (a.json && !text.empty() && text.back() == '\n') text.pop_back();
    out << text;
    code = (c == 1 || code == 1) ? 1 : (c == 3 || code == 3) ? 3 : 0;
  };
  if (a.json) out << "{\"fused_parts\":[";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (a.json && i) out << ",";
    if (!a.json) out << "part " << i + 1 << " of " << parts.size() << ": " << op_width(parts[i]) << "\n";
    if (a.claims.empty()) {
      if (a.json) out << trace_to_json(parts[i]);
      else print_text(parts[i], out);
    } else if (!per_part.claims.empty()) {
      run(parts[i], per_part);
    } else if (a.json) {
      out << "null";
    }
  }
  if (a.json) out << "]";
  if (!whole.claims.empty()) {
    if (a.json) out << ",\"all_parts\":";
    else out << "all parts (the elements moved do not depend on the fusion):\n";
    run(cute_level, whole);
  }
  if (a.json) out << "}\n";
  return code;
}

}  // namespace

FlagTable trace_flags() {
  auto a = std::make_shared<TraceArgs>();
  FlagTable t = trace_table(*a);
  t.keep(a);
  return t;
}

int run_trace(const std::vector<std::string>& args, std::ostream& out) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      out << *help_text("trace");
      return 0;
    }
  const TraceArgs a = parse_args(args);
  if (!a.report.empty()) check_report_folder(a.report);
  std::optional<TiledMma> mma;
  if (!a.mma.empty()) mma = parse_tiled_mma(a.mma, a.constants);
  const TiledCopy copy = parse_tiled_copy(a.copy, mma, a.constants);
  if (*type_bits(a.element) != copy.atom.value_bits)
    throw LayoutError("--element " + a.element + " has " + std::to_string(*type_bits(a.element)) + " bits but the Copy_Atom moves " +
                      std::to_string(copy.atom.value_bits) + "-bit " + copy.atom.value_type + " values");
  const AnyLayout smem = parse_smem_layout(a.smem, a.constants);
  TraceOptions o;
  o.base_address = a.base;
  const AddressTrace cute_level = trace_copy(copy, smem, a.side == "S" ? CopySide::S : CopySide::D, o);
  // --fused: claims, JSON and the report are about the fused trace; the text shows both. A partial
  // fusion (some positions fuse, fuse_trace_parts) is one trace per width: each is shown, and the
  // claims must hold on every one.
  const std::vector<AddressTrace> parts = a.fused ? fuse_trace_parts(cute_level) : std::vector<AddressTrace>{cute_level};
  if (parts.size() > 1) return run_fused_parts(cute_level, parts, a, out);
  const AddressTrace& t = parts.front();  // fuse_trace(cute_level) when --fused fuses uniformly
  if (a.fused && !a.json) {
    const int f = t.width_bytes / std::max(1, cute_level.width_bytes);  // accesses per vector
    out << "CuTe level: " << op_width(cute_level) << "; fused (nvcc): " << op_width(t) << " ("
        << f << (f == 1 ? " access per vector: not fused)\n" : " accesses per vector)\n");
  }
  if (a.fused && a.claims.empty() && !a.json && a.report.empty()) print_text(cute_level, out);
  if (!a.claims.empty()) return prove_claims(t, a, out);
  if (!a.report.empty()) publish_report_folder(a.report, [&](const std::string& dir) { write_trace_report(dir, {a.command, &t, {}}); });
  if (a.json) out << trace_to_json(t) << "\n";
  else print_text(t, out);
  return 0;
}

}  // namespace layoutproof::cli
