// `layoutproof synth` (cli/commands/synth/synth_command.hpp).
#include "cli/commands/synth/synth_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <unistd.h>

#include "cli/commands/synth/kernel_synth_view.hpp"
#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/help.hpp"
#include "cli/output/results.hpp"
#include "cli/layout_input.hpp"
#include "cli/output/escape.hpp"
#include "cli/run_flags.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/layout/notation.hpp"
#include "model/source/kernel_expr.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/synth/kernel_synth.hpp"
#include "proofs/synth/synth.hpp"

namespace layoutproof::cli {
namespace {

using namespace proofs;

std::string num(double t, int digits = 1) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, t);
  return b;
}

int parse_positive(const std::string& v, const std::string& what) { return static_cast<int>(parse_int_in(v, what, 1, 9999)); }

std::string sw_text(const Swizzle& s) { return to_string(s); }

std::string status_text(const Candidate& c) {
  return c.status == Candidate::Status::not_bijective ? "not a bijection on the tile" : "breaks contiguous vectors";
}

using json = nlohmann::ordered_json;

// A figure as the text prints it: to `digits` decimals.
double rounded(double v, int digits) { return std::stod(num(v, digits)); }

json candidate_json(const Candidate& c, const std::vector<SynthAccess>& acc) {
  json s = {{"swizzle", sw_text(c.sw)},
            {"wavefronts", c.wavefronts},
            {"ideal", c.ideal},
            {"worst_degree", rounded(c.worst_degree, 3)},
            {"conflict_free", c.conflict_free()},
            {"per_access", c.access_wavefronts}};
  if (c.conflict) {
    const auto& x = *c.conflict;
    s["witness"] = {{"access", acc[static_cast<std::size_t>(x.access)].text()},
                    {"instruction", x.instruction},
                    {"where", x.where},
                    {"phase", x.phase},
                    {"bank", x.bank},
                    {"lanes", x.lanes},
                    {"words", x.words},
                    {"wavefronts", x.wavefronts},
                    {"ideal", x.ideal}};
  }
  return s;
}

std::string none_statement(const SynthResult& r) {
  return "no Swizzle<B,M,S> with " + r.bounds_text() + " makes every access conflict-free while keeping the tile a "
         "bijection with contiguous vectors";
}

std::string none_method(const SynthResult& r) {
  i64 per = 0;
  for (i64 n : r.instructions) per += n;
  return "exhaustive: " + std::to_string(r.family_size) + " candidates; (a), (b) on every offset, the bank model on all " +
         std::to_string(per) + " instructions of each of the " + std::to_string(r.ranked.size()) + " that pass them";
}

std::vector<std::string> best_degree_swizzles(const SynthResult& r) {
  std::vector<std::string> v;
  for (const auto& c : r.ranked)
    if (c.worst_degree == r.best_degree) v.push_back(sw_text(c.sw));
  return v;
}

json gf2_json(const Gf2Outcome& g) {
  json s = {{"applicable", g.applicable}};
  if (!g.applicable) {
    s["why_not"] = g.why_not;
    return s;
  }
  const auto& q = g.search;
  const char* kind = q.kind == Gf2Search::Kind::found ? "found" : q.kind == Gf2Search::Kind::none ? "none" : "budget_exhausted";
  s["result"] = kind, s["log2_matrices"] = rounded(q.log2_space, 0), s["differences"] = q.differences, s["nodes"] = q.nodes;
  s["unit_bytes"] = 1 << q.map.unit_log2, s["bank_bits"] = q.map.w;
  if (q.kind == Gf2Search::Kind::found) {
    s["verified"] = g.verified, s["verify"] = g.verify_detail, s["wavefronts"] = g.wavefronts, s["ideal"] = g.ideal;
    s["matrix"] = matrix_lines(q.map);
    s["row_xor"] = g.row_xor;
  }
  return s;
}

void print_gf2(std::ostream& out, const Gf2Outcome& g, int vec) {
  out << "\nGF(2) XOR-linear maps (u' = u XOR A*(u >> w), u = byte address / lane width):\n";
  if (!g.applicable) {
    out << "  not searched: " << g.why_not << "\n";
    return;
  }
  const auto& q = g.search;
  const int vlog = [&] { int b = 0; while ((1 << b) < vec) ++b; return b; }();
  out << "  space: every " << q.map.w << " x " << q.map.high_bits << " matrix A over GF(2) (2^" << num(q.log2_space, 0)
      << "), " << q.differences << " lane-pair differences, " << q.nodes << " search nodes\n";
  if (q.kind == Gf2Search::Kind::none) {
    out << "PROVED  no XOR-linear map of this form is conflict-free (exhaustive backtracking; its test, two units of one "
           "phase in one bank, is necessary for the bank model)\n";
    return;
  }
  if (q.kind == Gf2Search::Kind::budget_exhausted) {
    out << "UNKNOWN  the search budget ran out\n";
    return;
  }
  out << (g.verified ? "FOUND  " : "ERROR  ") << "an XOR-linear map: " << g.verify_detail << "\n";
  out << "  matrix A (line i: unit bit i = element-offset bit " << vlog << "+i; column k: unit bit " << q.map.w
      << "+k):\n";
  for (const auto& line : matrix_lines(q.map)) out << "    " << line << "\n";
  out << "  per-row XOR of the " << (1 << q.map.unit_log2) << "-byte column chunks (row: XOR per chunk):\n";
  for (std::size_t i = 0; i < g.row_xor.size(); ++i) {
    bool same = true;
    for (auto x : g.row_xor[i]) same &= x == g.row_xor[i][0];
    out << "    row " << i << ":";
    if (same) out << " " << (g.row_xor[i].empty() ? 0 : g.row_xor[i][0]) << " (every chunk)";
    else for (auto x : g.row_xor[i]) out << " " << x;
    out << "\n";
  }
}

void print_human(std::ostream& out, const SynthRequest& q, const SynthResult& r, bool all) {
  out << "synth " << to_string(q.tile) << ", " << q.elem_bytes << "-byte elements x" << q.vec << ", accesses:";
  for (std::size_t a = 0; a < q.accesses.size(); ++a)
    out << (a ? ";" : "") << " " << q.accesses[a].text() << " (" << r.instructions[a] << " instructions)";
  out << "\nfamily: " << r.family_size << " swizzles (" << r.bounds_text() << "); " << r.rejected.size()
      << " rejected by (a) bijective / (b) contiguous:" << q.vec << ", " << r.ranked.size() << " evaluated on the bank model\n";
  out << "ranking: fewest wavefronts, then smallest B, then M = log2(vec), M+S = log2(row pitch), S > 0, smallest |S|, smallest M\n";
  const Candidate& best = r.ranked.front();
  if (r.found) {
    out << "\nbest: " << sw_text(best.sw) << " o " << to_string(q.tile) << "  (" << best.wavefronts << " wavefronts = ideal)\n";
    int n_cf = 0;
    for (const auto& c : r.ranked) n_cf += c.conflict_free();
    out << n_cf << " conflict-free swizzles in the family";
    if (!all && n_cf > 1) out << " (--all lists them)";
    out << "\n";
  } else {
    out << "\nbest degree reached: " << num(r.best_degree, 2) << "-way worst instruction, by";
    for (const auto& s : best_degree_swizzles(r)) out << " " << s;
    out << "; fewest wavefronts " << r.best_wavefronts << " (ideal " << best.ideal << ") by " << sw_text(best.sw) << "\n";
    // Group the REFUTED witnesses by access and instruction.
    std::map<std::pair<int, i64>, std::vector<const Candidate*>> groups;
    for (const auto& c : r.ranked) groups[{c.conflict->access, c.conflict->instruction}].push_back(&c);
    out << "REFUTED witnesses, one line per candidate, grouped by the first instruction that conflicts:\n";
    for (const auto& [key, cs] : groups) {
      out << "  " << q.accesses[static_cast<std::size_t>(key.first)].text() << ", instruction " << key.second << " ("
          << cs.front()->conflict->where << "): " << cs.size() << " candidates\n";
      for (const Candidate* c : cs) {
        const auto& x = *c->conflict;
        out << "    REFUTED " << sw_text(c->sw) << ": phase " << x.phase << ", lanes";
        for (std::size_t i = 0; i < x.lanes.size(); ++i) out << (i ? "," : " ") << x.lanes[i];
        out << " in bank " << x.bank << ", " << x.wavefronts << "/" << x.ideal << " wavefronts\n";
      }
    }
  }
  if (all) {
    out << "\nranked (" << r.ranked.size() << "): swizzle, total wavefronts / ideal, worst degree\n";
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
      const auto& c = r.ranked[i];
      out << "  " << i + 1 << ". " << sw_text(c.sw) << "  " << c.wavefronts << "/" << c.ideal << "  " << num(c.worst_degree, 2)
          << (c.conflict_free() ? "  conflict-free" : "") << "\n";
    }
    out << "rejected (" << r.rejected.size() << "):\n";
    for (const auto& c : r.rejected) out << "  " << sw_text(c.sw) << ": " << status_text(c) << ": " << c.reject_why << "\n";
  }
  if (r.gf2) print_gf2(out, *r.gf2, q.vec);
  out << "time: search " << num(r.search_ms) << " ms, proofs " << num(r.proof_ms) << " ms";
  if (r.gf2) out << ", GF(2) " << num(r.gf2_ms) << " ms";
  out << "\n";
}

// The search as JSON: a view of the subject beside the results (the winner's proofs and the
// family's answer are results, cli/output/results.hpp).
nlohmann::ordered_json synth_view(const SynthRequest& q, const SynthResult& r, bool all) {
  json accesses = json::array();
  for (std::size_t a = 0; a < q.accesses.size(); ++a)
    accesses.push_back({{"pattern", to_string(q.accesses[a].pattern)}, {"op", to_string(q.accesses[a].op)}, {"instructions", r.instructions[a]}});
  json s = {{"tile", to_string(q.tile)},
            {"elem_bytes", q.elem_bytes},
            {"vec", q.vec},
            {"accesses", std::move(accesses)},
            {"family",
             {{"bounds", r.bounds_text()}, {"offset_bits", r.offset_bits}, {"size", r.family_size}, {"rejected", r.rejected.size()},
              {"evaluated", r.ranked.size()}}},
            {"found", r.found},
            {"best", candidate_json(r.ranked.front(), q.accesses)}};
  if (!r.found)
    s["none"] = {{"statement", none_statement(r)}, {"method", none_method(r)}, {"best_degree", rounded(r.best_degree, 3)},
                 {"best_degree_swizzles", best_degree_swizzles(r)}};
  if (all || !r.found) {
    json ranked = json::array();
    for (const auto& c : r.ranked) ranked.push_back(candidate_json(c, q.accesses));
    s["ranked"] = std::move(ranked);
  }
  if (all) {
    json rejected = json::array();
    for (const auto& c : r.rejected) rejected.push_back({{"swizzle", sw_text(c.sw)}, {"reason", status_text(c)}, {"witness", c.reject_why}});
    s["rejected"] = std::move(rejected);
  }
  if (r.gf2) s["gf2"] = gf2_json(*r.gf2);
  s["time_ms"] = {{"search", rounded(r.search_ms, 1)}, {"proofs", rounded(r.proof_ms, 1)}, {"gf2", rounded(r.gf2_ms, 1)}};
  return s;
}

// One result of the search: its claim about the tile, the verdict.
proofs::CheckResult synth_result(const std::string& subject, const std::string& claim, proofs::Verdict v) {
  proofs::Check c;
  c.name = subject;
  c.claim.text = claim;
  return {std::move(c), std::move(v), {}};
}

// ---- synth --kernel: the smem layout for a kernel's real copies (proofs/synth/kernel_synth.hpp).

struct SynthKernelArgs {
  KernelSynthRequest q;
  std::string shape, mma;
  std::vector<std::pair<CopySide, std::string>> copies;
  CppConstants constants;
  bool all = false, progress = isatty(2) != 0;
  OutputFlags out;
};

FlagTable synth_kernel_table(SynthKernelArgs& k) {
  FlagTable t("synth --kernel");
  KernelSynthRequest& q = k.q;
  t.toggle({"--kernel"}, "find the layout for a kernel's own copies (this form)", [] {});
  t.value({"--shape"}, "S", "the staged smem tensor as the copies partition it: (BLK_M,BLK_K,PIPE), or (MN,K)",
          [&k](const std::string& v) { k.shape = v; });
  t.value({"--element"}, "T", "its element type: half_t, bfloat16_t, float, tfloat32_t, double, int8_t, ...",
          [&q](const std::string& v) { q.element = v; });
  t.value({"--mma"}, "EXPR",
          "the TiledMMA the copies name (`mma`, `tiled_mma`, or NAME from 'NAME = EXPR' or a\n"
          "declaration 'TiledMMA mmaC = make_tiled_mma(...);'), e.g.\n"
          "'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'",
          [&k](const std::string& v) { k.mma = v; });
  t.value({"--copy"}, "S:EXPR|D:EXPR",
          "a TiledCopy that reads the tensor (S: partition_S: ldmatrix, s2r loads) or writes "
          "it (D: partition_D: cp.async, r2s stores, stmatrix); repeatable. "
          "A TMA copy (D:SM90_TMA_LOAD, S:SM90_TMA_STORE, make_tma_copy(...)) is not scored: it keeps "
          "the members TMA can write (Sw<B,4,3> in bytes, 16*2^B-byte rows) and proves tma: on the winner",
          [&k](const std::string& v) {
            if (v.size() < 3 || (v[0] != 'S' && v[0] != 'D') || v[1] != ':')
              throw LayoutError("--copy is S:EXPR (smem is the copy's source) or D:EXPR (its destination), not '" + v + "'");
            k.copies.emplace_back(v[0] == 'S' ? CopySide::S : CopySide::D, v.substr(2));
          });
  add_define_flag(t, k.constants, "a named constant used in the expressions");
  t.value({"--name"}, "A", "the printed names: SmemLayoutAtomA, SmemLayoutA (1 to 64 letters, digits, underscores)",
          [&q](const std::string& v) { q.name = v; });
  t.value({"--base"}, "ADDR", "the buffer's byte address: the winner is proved there (default 0)",
          [&q](const std::string& v) { q.placement.base = parse_byte_address(v, "--base"); });
  t.value({"--align"}, "N",
          "the buffer lies at any multiple of N bytes: the winner is the best member that stays\n"
          "conflict-free, vector-legal (and TMA-correct, for a GMMA operand) at every such base",
          [&q](const std::string& v) {
            q.placement.align = parse_int_in(v, "--align", 1, i64{1} << 20);
            if (*q.placement.align & (*q.placement.align - 1))
              throw LayoutError("--align is a power of two (bytes), not " + std::to_string(*q.placement.align));
          });
  t.value({"--witnesses"}, "N", "when no layout is conflict-free: REFUTED witnesses for the best N members (default 3)",
          [&q](const std::string& v) { q.witnesses = parse_positive(v, "--witnesses"); });
  add_deadline_flag(t, q.prove.smt.deadline,
                    "a search or proof cut by it is UNKNOWN (exit 3), never a winner or \"none exists\" about members it did not reach");
  t.toggle({"--all"}, "list every ranked and every rejected member", [&k] { k.all = true; });
  add_output_flags(t, k.out);
  t.describe("--json", "{\"found\", \"smem\", \"notation\", \"per_copy\":[...], \"candidates\", \"best_ratio\", \"time_ms\", ...} (or into FILE, a name ending in .json)");
  add_progress_flags(t, k.progress, "'candidate k of n'");
  return t;
}

SynthKernelArgs parse_synth_kernel_args(const std::vector<std::string>& args) {
  SynthKernelArgs k;
  synth_kernel_table(k).parse(args);
  check_output_paths(k.out, {});
  if (!k.q.element.empty() && !type_bits(k.q.element))  // halft: did you mean half_t?
    throw LayoutError(unknown_word("element type", k.q.element, type_names(), "--element"));
  return k;
}

int run_synth_kernel(const std::vector<std::string>& args, std::ostream& out) {
  if (wants_help(args)) {
    out << *help_text("synth --kernel");
    return 0;
  }
  SynthKernelArgs parsed = parse_synth_kernel_args(args);
  KernelSynthRequest& q = parsed.q;
  const std::string &shape = parsed.shape, &mma = parsed.mma;
  const auto& copies = parsed.copies;
  const CppConstants& constants = parsed.constants;
  const bool all = parsed.all, progress = parsed.progress;
  const OutputFlags& flags = parsed.out;
  const std::string command = command_line("layoutproof synth", args);
  if (q.placement.base && q.placement.align) throw LayoutError("give --base (the buffer's one address) or --align (every multiple of N), not both");
  if (shape.empty() || q.element.empty() || copies.empty())
    throw LayoutError("synth --kernel needs --shape, --element and at least one --copy (layoutproof synth --kernel --help)");
  q.shape = proofs::parse_smem_shape(shape, "--shape");
  std::optional<TiledMma> m;
  if (!mma.empty()) m = parse_tiled_mma(mma, constants);
  for (const auto& [side, text] : copies) {
    if (proofs::is_tma_copy(text)) {  // not a lane access: a constraint on the layout (proofs/synth/kernel_synth.hpp)
      if (!q.tma_copy.empty()) throw LayoutError("synth --kernel takes one TMA copy; got '" + q.tma_copy + "' and '" + text + "'");
      q.tma_copy = text;
      continue;
    }
    q.copies.push_back({parse_tiled_copy(text, m, constants), side});
  }
  if (m) proofs::set_descriptor_operand(q, m->atom.name);
  if (progress)
    q.progress = [](i64 k, i64 n) { std::cerr << "\rsynth --kernel: candidate " << k << " of " << n << (k == n ? "\n" : "") << std::flush; };
  check_output_paths(flags, {});
  const KernelSynthResult r = synthesize_kernel(q);
  ResultView view;
  view.source = command;
  view.one_subject = true;
  view.subject_line = "synth --kernel " + q.name;
  // The view lists each proof beside its member (the ranking's witnesses): emit adds the figures.
  view.verdicts_in_view = true;
  if (!flags.json_stdout) out << kernel_synth_text(q, r, all);
  view.json_extra = kernel_synth_json(q, r, all);
  std::vector<proofs::CheckResult> results;
  const std::string subject = r.ranked.empty() ? q.name : candidate_text(r.ranked.front().c);
  for (const auto& p : r.proofs) {
    proofs::CheckResult res = synth_result(subject, p.claim + (p.copy >= 0 ? " [copy " + std::to_string(p.copy) + "]" : ""), p.verdict);
    if (!r.found) res.check.name = candidate_text(r.ranked[static_cast<std::size_t>(p.member)].c);
    if (p.witness) res.evidence = proofs::TraceEvidence{*p.witness, nullptr, {}};
    results.push_back(std::move(res));
  }
  if (!r.found) {  // the family's answer: none exists (exit 1), or the deadline cut it (UNKNOWN)
    const std::string question = "a member conflict-free on every copy";
    proofs::Witness w;
    w.why = "no member of the family is conflict-free on every copy, vector-legal and covering" +
            std::string(r.placement_text.empty() ? "" : " " + r.placement_text);
    results.push_back(synth_result(q.name, question,
                                   r.deadline_cut ? proofs::Verdict::unknown("synth --kernel", q.prove.smt.deadline.reason() + " before every member was decided")
                                                  : proofs::Verdict::refuted("synth --kernel over all " + std::to_string(r.family_size) + " members", w)));
  }
  return emit(out, results, flags, view);
}

}  // namespace

namespace {

struct SynthArgs {
  SynthRequest q;
  std::string tile;
  std::optional<int> elem_bytes, vec;
  std::vector<PatternKind> patterns;
  std::vector<SmemOp> ops;
  bool all = false;
  CppConstants constants;
  OutputFlags out;
};

FlagTable synth_table(SynthArgs& s) {
  FlagTable t("synth");
  t.value({"--tile"}, "L", "the plain (unswizzled) tile, CuTe notation or C++", [&s](const std::string& v) { s.tile = v; });
  t.value({"--elem-bytes"}, "E", "bytes per element (1 to 64)",
          [&s](const std::string& v) { s.elem_bytes = parse_positive(v, "--elem-bytes"); });
  t.value({"--vec"}, "V", "elements per lane access (default: 16 bytes per lane, 16/E elements)",
          [&s](const std::string& v) { s.vec = parse_positive(v, "--vec"); });
  t.value({"--pattern"}, "P", "row-per-lane | linear | ldmatrix (repeatable: every pattern must be conflict-free)",
          [&s](const std::string& v) {
            const PatternKind p = parse_pattern(v);
            if (p == PatternKind::thread_layout) throw LayoutError("synth supports row-per-lane, linear and ldmatrix patterns");
            s.patterns.push_back(p);
          });
  t.value({"--op"}, "OP", "the instructions (repeatable; default: each pattern's own: ld/st, ldsm4/stsm4)",
          [&s](const std::string& v) {
            const auto op = parse_smem_op(v);
            if (!op) throw LayoutError("--op must be one of ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4, not '" + v + "'");
            s.ops.push_back(*op);
          });
  t.toggle({"--all"}, "list every candidate, not only the winner", [&s] { s.all = true; });
  t.toggle({"--no-gf2"}, "skip the XOR-linear search when no swizzle works", [&s] { s.q.gf2 = false; });
  add_deadline_flag(t, s.q.prove.smt.deadline,
                    "a search cut by it is UNKNOWN (exit 3), and a winner's proof not finished by it is UNKNOWN");
  add_define_flag(t, s.constants, "a constant the C++ tile uses");
  add_output_flags(t, s.out);
  t.describe("--json", "one JSON object: the winner, its proofs, the rejected candidates, the GF(2) search (or into FILE, a name ending in .json)");
  return t;
}

}  // namespace

FlagTable synth_flags(bool kernel) {
  if (kernel) {
    auto k = std::make_shared<SynthKernelArgs>();
    FlagTable t = synth_kernel_table(*k);
    t.keep(k);
    return t;
  }
  auto a = std::make_shared<SynthArgs>();
  FlagTable t = synth_table(*a);
  t.keep(a);
  return t;
}

int run_synth(const std::vector<std::string>& args, std::ostream& out) {
  if (std::find(args.begin(), args.end(), "--kernel") != args.end()) return run_synth_kernel(args, out);
  if (wants_help(args)) {
    out << *help_text("synth");
    return 0;
  }
  SynthArgs parsed;
  synth_table(parsed).parse(args);
  check_output_paths(parsed.out, {});
  SynthRequest& q = parsed.q;
  const std::string& tile = parsed.tile;
  const std::optional<int> elem_bytes = parsed.elem_bytes, vec = parsed.vec;
  const std::vector<PatternKind>& patterns = parsed.patterns;
  const std::vector<SmemOp>& ops = parsed.ops;
  const bool all = parsed.all;
  const CppConstants& constants = parsed.constants;
  const OutputFlags& flags = parsed.out;
  const std::string command = command_line("layoutproof synth", args);
  if (tile.empty() || !elem_bytes || patterns.empty())
    throw LayoutError("usage: layoutproof synth --tile LAYOUT --elem-bytes E [--vec V] --pattern P [--pattern P ...] "
                      "[--op OP ...] [--json [FILE]] [--all]");
  check_output_paths(flags, {});
  const AnyLayout l = parse_layout_any_syntax(tile, constants);
  if (l.is_swizzled()) throw LayoutError("synth takes the plain tile (it searches the swizzle); drop the Sw<...> o");
  q.tile = l.layout;
  q.elem_bytes = *elem_bytes;
  q.vec = vec ? *vec : default_vec(q.elem_bytes);
  q.accesses = make_accesses(patterns, ops);
  const SynthResult r = synthesize(q);
  ResultView view;
  view.source = command;
  view.one_subject = true;
  view.subject_line = "synth " + to_string(q.tile);
  std::vector<proofs::CheckResult> results;
  // The question the search answers: a swizzle of the family that is conflict-free.
  const std::string question = "a conflict-free swizzle";
  if (!r.cut.empty()) {  // the search was cut: no winner and no "none exists" is decided
    results.push_back(synth_result(to_string(q.tile), question, proofs::Verdict::unknown("synth search", "synth search stopped: " + r.cut)));
    return emit(out, results, flags, view);
  }
  if (!flags.json_stdout) print_human(out, q, r, all);
  view.json_extra = synth_view(q, r, all);
  if (r.found) {
    const std::string winner = sw_text(r.ranked.front().sw) + " o " + to_string(q.tile);
    for (const auto& p : r.proofs) results.push_back(synth_result(winner, p.claim, p.verdict));
  } else {  // "none exists" proved: the family has no conflict-free swizzle, so the search fails
    proofs::Witness w;
    w.why = none_statement(r);
    results.push_back(synth_result(to_string(q.tile), question, proofs::Verdict::refuted(none_method(r), w)));
  }
  return emit(out, results, flags, view);
}

}  // namespace layoutproof::cli
