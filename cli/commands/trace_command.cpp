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
#include "cli/output/results.hpp"
#include "cli/output/witness_json.hpp"
#include "cli/run_flags.hpp"
#include "proofs/check/run_check.hpp"
#include "model/source/kernel_expr.hpp"
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
  OutputFlags out;      // --json [FILE], --junit, --sarif, --markdown, --report DIR, --verbose
  std::string command;  // the command line, for the report
  bool fused = false;   // --fused: the trace nvcc's fusion issues (model/trace/trace.hpp fuse_trace)
  EngineChoice engine = EngineChoice::automatic;
  proofs::Deadline deadline;  // --deadline-s: the claims not decided by then are UNKNOWN
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

void print_text(const AddressTrace& t, std::ostream& out) {
  out << summary_name(t) << "\n" << t.instructions.size() << " instructions: " << to_string(t.op) << ", " << t.width_bytes
      << " B per lane, " << t.threads << " threads\n";
  for (const auto& ins : t.instructions) {
    const BankReport r = analyze_smem_access(ins.access());
    out << ins.where << ": " << r.wavefronts << " wavefronts (ideal " << r.hw_ideal << ")  lanes:";
    for (i64 a : ins.addr) out << " " << a;
    out << "\n";
  }
}

// The claims on one trace, as results: each a kernel check of the trace (run_check decides it
// with prove_trace), `subject` naming it.
std::vector<CheckResult> prove_claims(const AddressTrace& t, const std::vector<std::string>& claims, const TraceArgs& a, const std::string& subject) {
  ProveOptions o;
  o.engine = a.engine;
  o.smt.deadline = a.deadline;
  const auto trace = std::make_shared<const AddressTrace>(t);
  std::vector<CheckResult> results;
  for (const auto& text : claims) {
    const auto claim = parse_trace_claim(text);
    if (!claim) throw LayoutError("unknown trace claim '" + text + "' (conflict-free, max-ways:K, vector-legal, covers)");
    Check c = make_kernel_check(subject, trace, claim->text, "");
    c.origin.command = a.command;
    for (CheckResult& r : run_check(c, o)) results.push_back(std::move(r));
  }
  return results;
}

// The claims on the one trace: the verdicts (cli/output/results.hpp), the report its figure.
int emit_claims(const AddressTrace& t, const TraceArgs& a, std::ostream& out) {
  const std::vector<CheckResult> results = prove_claims(t, a.claims, a, summary_name(t));
  ResultView view;
  view.source = a.command;
  view.one_subject = true;
  view.subject_line = summary_name(t);
  int proved = 0, refuted = 0;
  for (const auto& r : results) proved += r.verdict.is_proved(), refuted += r.verdict.is_refuted();
  view.json_extra = {{"subject", t.provenance}, {"name", summary_name(t)}, {"instructions", t.instructions.size()},
                     {"proved", proved}, {"refuted", refuted}, {"other", static_cast<int>(results.size()) - proved - refuted}};
  TraceReportInput report{a.command, &t, {}};
  for (const auto& r : results) {
    const auto* e = std::get_if<proofs::TraceEvidence>(&r.evidence);
    report.claims.push_back({r.check.claim.text, TraceResult{r.verdict, e ? std::optional<proofs::TraceWitness>(e->witness) : std::nullopt}});
  }
  view.report = [&](const std::string& dir) { write_trace_report(dir, report); };
  return emit(out, results, a.out, view);
}

std::string op_width(const AddressTrace& t) { return std::to_string(t.instructions.size()) + " x " + to_string(t.op) + "." + std::to_string(8 * t.width_bytes); }

// --fused when only some positions fuse: the parts (widest first), each proved on its own; the
// exit code is the worst (1 refuted, else 3 undecided, else 0). --json: {"fused_parts":[...]}.
int run_fused_parts(const AddressTrace& cute_level, const std::vector<AddressTrace>& parts, const TraceArgs& a, std::ostream& out) {
  if (!a.out.report_dir.empty()) throw LayoutError("--report draws one trace; this copy fuses in part (" + std::to_string(parts.size()) + " widths): drop --fused or --report");
  std::string mix;
  for (const auto& p : parts) mix += (mix.empty() ? "" : " + ") + op_width(p);
  const bool json = a.out.json_stdout;
  if (!json)
    out << "CuTe level: " << op_width(cute_level) << "; fused (nvcc), in part: " << mix
        << " (no grouping holds for every position; each position fuses where its accesses are contiguous and aligned in every warp)\n";
  // Per-instruction claims (conflict-free, max-ways, vector-legal) are decided on each part; covers
  // is about the elements moved, which fusion does not change: decided once, on the CuTe-level trace.
  std::vector<std::string> per_part, whole;
  for (const auto& c : a.claims) {
    const auto claim = parse_trace_claim(c);
    (claim && claim->text == "covers" ? whole : per_part).push_back(c);
  }
  nlohmann::ordered_json views = nlohmann::ordered_json::array();
  std::vector<CheckResult> results;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string name = "part " + std::to_string(i + 1) + " of " + std::to_string(parts.size()) + ": " + op_width(parts[i]);
    if (a.claims.empty()) {
      if (json) views.push_back(nlohmann::ordered_json::parse(trace_to_json(parts[i])));
      else out << name << "\n", print_text(parts[i], out);
      continue;
    }
    views.push_back({{"subject", parts[i].provenance}, {"name", summary_name(parts[i])}, {"instructions", parts[i].instructions.size()}});
    for (auto& r : prove_claims(parts[i], per_part, a, name)) results.push_back(std::move(r));
  }
  if (a.claims.empty()) {
    if (json) out << nlohmann::ordered_json{{"fused_parts", views}}.dump() << "\n";
    return 0;
  }
  for (auto& r : prove_claims(cute_level, whole, a, "all parts (the elements moved do not depend on the fusion)")) results.push_back(std::move(r));
  ResultView view;
  view.source = a.command;
  view.json_extra = {{"fused_parts", views}};
  return emit(out, results, a.out, view);
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
  check_output_paths(a.out, {});
  if (!a.out.report_dir.empty()) check_report_folder(a.out.report_dir);
  // Without a claim there are no results to write: a results file asked for would be missing.
  if (a.claims.empty() && (!a.out.json_file.empty() || !a.out.junit_file.empty() || !a.out.sarif_file.empty() || !a.out.markdown_file.empty()))
    throw LayoutError("--json FILE, --junit, --sarif and --markdown write the claims' results: give --claim (--json alone prints the trace)");
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
  const bool json = a.out.json_stdout;
  if (a.fused && !json) {
    const int f = t.width_bytes / std::max(1, cute_level.width_bytes);  // accesses per vector
    out << "CuTe level: " << op_width(cute_level) << "; fused (nvcc): " << op_width(t) << " ("
        << f << (f == 1 ? " access per vector: not fused)\n" : " accesses per vector)\n");
  }
  if (a.fused && a.claims.empty() && !json && a.out.report_dir.empty()) print_text(cute_level, out);
  if (!a.claims.empty()) return emit_claims(t, a, out);
  // No claim: the trace itself, a view of the subject (no verdict to emit).
  if (!a.out.report_dir.empty()) publish_report_folder(a.out.report_dir, [&](const std::string& dir) { write_trace_report(dir, {a.command, &t, {}}); });
  if (json) out << trace_to_json(t) << "\n";
  else print_text(t, out);
  return 0;
}

}  // namespace layoutproof::cli
