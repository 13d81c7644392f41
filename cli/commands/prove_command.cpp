#include "cli/commands/prove_command.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/help.hpp"
#include "cli/layout_input.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/report.hpp"
#include "cli/output/witness_json.hpp"
#include "cli/run_flags.hpp"
#include "cli/output/results.hpp"
#include "model/support/checked.hpp"
#include "model/layout/notation.hpp"
#include "model/support/checked.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/check/run_check.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::cli {
namespace {

using namespace proofs;

Subject subject_of(const std::string& text, const CppConstants& constants) {
  const LayoutOrSwizzle l = parse_layout_or_swizzle(text, constants);
  // Every claim is about integer offsets; a basis stride maps to a coordinate (an identity layout):
  // bad input, not an ERROR verdict.
  for (const IntTuple& d : leaf_nodes(l.layout.layout.stride))
    if (d.is_basis())
      throw LayoutError("claims are about integer offsets, and " + to_string(l.layout.layout) + " has the basis stride " +
                        to_string(d) + " (a coordinate direction, as in make_identity_layout); print or algebra take it");
  Subject s;
  s.layout = l.layout;
  s.bare_swizzle = l.bare_swizzle;
  return s;
}

// Options of the bank claims (conflict-free, max-ways:K).
struct AccessOptions {
  std::optional<int> elem_bytes, elem_bits, vec;
  std::string pattern, op = "ld", thread_layout, byte_swizzle;
  i64 base = 0;
  bool any = false;  // an option only bank claims take (--vec, --pattern, --op, --thread-layout, --base)
  CppConstants constants;
};

int parse_small(const std::string& v, const std::string& what) {
  return static_cast<int>(parse_int_in(v, what, 1, 9999));
}

// --byte-swizzle SW: a bare swizzle (Sw<3,4,3> or Swizzle<3,4,3>{}) acting on byte addresses.
Swizzle parse_byte_swizzle(const std::string& text, const CppConstants& constants) {
  const LayoutOrSwizzle sw = parse_layout_or_swizzle(text, constants);
  if (!sw.bare_swizzle) throw LayoutError("--byte-swizzle takes a swizzle (Sw<3,4,3> or Swizzle<3,4,3>{}), not a layout");
  return *sw.layout.swizzle;
}

// The element width in bits that tma: claims and --byte-swizzle need: --elem-bits N, --elem-bytes E
// or the smem_ptr[Nb] of L, which must agree.
int element_bits_of(const AnyLayout& l, const AccessOptions& a, const std::string& who) {
  if (a.elem_bits && a.elem_bytes && *a.elem_bits != 8 * *a.elem_bytes)
    throw LayoutError("--elem-bits " + std::to_string(*a.elem_bits) + " and --elem-bytes " + std::to_string(*a.elem_bytes) + " disagree");
  const std::optional<int> given = a.elem_bits ? a.elem_bits : a.elem_bytes ? std::optional<int>(8 * *a.elem_bytes) : std::nullopt;
  if (l.is_smem_ptr()) {
    if (given && *given != l.smem_ptr_bits)
      throw LayoutError(to_string(l) + " is a layout of " + std::to_string(l.smem_ptr_bits) + "-bit elements, but the element width given is " +
                        std::to_string(*given) + " bits");
    return l.smem_ptr_bits;
  }
  if (!given) throw LayoutError(who + " need the element width: --elem-bytes E, --elem-bits N or an smem_ptr[Nb] layout");
  return *given;
}

// prove LAYOUT --claim conflict-free|max-ways:K --elem-bytes E --vec V --pattern P ...
int run_bank_claims(const std::string& layout_text, const std::vector<std::string>& claim_texts, const AccessOptions& a,
                    const ProveOptions& opts, const OutputFlags& flags, const std::string& command, std::ostream& out) {
  if (!a.elem_bytes) throw LayoutError("bank claims need --elem-bytes E");
  AccessSpec spec;
  spec.tile = parse_layout_any_syntax(layout_text, a.constants);
  spec.elem_bytes = *a.elem_bytes;
  spec.base_address = a.base;
  if (a.elem_bits && *a.elem_bits != 8 * spec.elem_bytes) throw LayoutError("bank claims take whole bytes: --elem-bytes E, not --elem-bits");
  (void)element_bits_of(spec.tile, a, "bank claims");  // an smem_ptr[Nb] tile has N-bit elements
  if (!a.byte_swizzle.empty()) spec.byte_swizzle = parse_byte_swizzle(a.byte_swizzle, a.constants);
  // make_bank_subject reads an smem_ptr tile as its inner layout under its byte swizzle (absolute
  // addresses, --base included). A byte swizzle that moves bytes inside an element splits it:
  // refused here, saying which bytes move.
  const std::optional<Swizzle> bytes = spec.tile.is_smem_ptr() ? std::optional<Swizzle>(spec.tile.byte_swizzle) : spec.byte_swizzle;
  if (bytes) (void)element_swizzle(*bytes, 8 * spec.elem_bytes);
  if (!a.thread_layout.empty()) {
    if (!a.pattern.empty() && a.pattern != "thread-layout")
      throw LayoutError("--thread-layout gives the thread-layout pattern; drop --pattern " + a.pattern);
    spec.pattern = PatternKind::thread_layout;
    const AnyLayout t = parse_layout_any_syntax(a.thread_layout, a.constants);
    if (t.is_swizzled()) throw LayoutError("--thread-layout takes a plain layout, not " + to_string(t));
    spec.thread_layout = t.layout;
  } else {
    if (a.pattern.empty()) throw LayoutError("bank claims need --pattern row-per-lane|linear|ldmatrix or --thread-layout T");
    spec.pattern = parse_pattern(a.pattern);
    if (spec.pattern == PatternKind::thread_layout) throw LayoutError("--pattern thread-layout needs --thread-layout T");
  }
  const auto op = parse_smem_op(a.op);
  if (!op) throw LayoutError("--op must be one of ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4, not '" + a.op + "'");
  spec.vec = a.vec ? *a.vec : default_vec(spec.elem_bytes);
  for (const auto& t : claim_texts)  // every claim checked before any is proved (nothing printed, then refused)
    if (!parse_bank_claim(t)) throw LayoutError("claim '" + t + "' cannot be mixed with conflict-free / max-ways:K in one run");
  const BankSubject subject = make_bank_subject(spec, *op);
  std::vector<CheckResult> results;
  std::vector<BankReportInput> reports;
  for (const auto& t : claim_texts) {
    Check c;
    c.name = subject.text();
    c.subject = proofs::AccessSubject{spec.tile, subject, ""};
    c.claim = {t, *parse_bank_claim(t)};
    CheckResult r = run_check(c, opts).front();
    if (!flags.report_dir.empty()) {
      const auto* w = std::get_if<proofs::BankWitness>(&r.evidence);
      reports.push_back({command, t, subject, BankResult{r.verdict, w ? std::optional<proofs::BankWitness>(*w) : std::nullopt}});
    }
    results.push_back(std::move(r));
  }
  ResultView view;
  view.source = command;
  view.one_subject = true;
  view.subject_line = subject.text();
  view.json_extra = {{"layout", to_string(spec.tile)}, {"access", subject.text()}};
  // DIR/index.html: every claim, linked to its bank map (cli/output/report.hpp write_bank_reports)
  view.report = [&](const std::string& dir) { write_bank_reports(dir, reports); };
  return emit(out, results, flags, view);
}

// prove's arguments: the layout, its claims, how to prove them, the bank claims' access and the outputs.
struct ProveArgs {
  std::string layout_text;
  std::vector<std::string> claim_texts;
  ProveOptions opts;
  AccessOptions access;
  OutputFlags out;
};

// The claim names prove decides (proofs/claims/claim.hpp, the bank claims, tma:), for suggestions.
const std::vector<std::string>& prove_claim_names() {
  static const std::vector<std::string> v = {"injective", "bijective", "swizzle-permutes", "surjective", "contiguous", "equivalent",
                                             "involution", "inverse", "tma", "conflict-free", "max-ways"};
  return v;
}

FlagTable prove_table(ProveArgs& p) {
  FlagTable t("prove");
  AccessOptions& access = p.access;
  t.value({"--claim"}, "C", "a claim to prove (repeatable); the forms above", [&p](const std::string& v) { p.claim_texts.push_back(v); });
  add_prove_flags(t, p.opts);
  add_define_flag(t, access.constants, "a constant the C++ layout uses");
  t.value({"--elem-bytes"}, "E", "bank claims: bytes per element (1 to 64); also the element width of tma: and --byte-swizzle",
          [&access](const std::string& v) { access.elem_bytes = parse_small(v, "--elem-bytes"); });
  t.value({"--elem-bits"}, "N", "the element width in bits for tma: claims and --byte-swizzle (sub-byte types: 4, 6)",
          [&access](const std::string& v) { access.elem_bits = parse_small(v, "--elem-bits"); });
  t.value({"--vec"}, "V", "bank claims: elements per lane access (default: 16 bytes per lane, 16/E elements;\nsee docs/bank_model.md)",
          [&access](const std::string& v) { access.vec = parse_small(v, "--vec"), access.any = true; });
  t.value({"--pattern"}, "P", "bank claims: row-per-lane | linear | ldmatrix (model/trace/access.hpp)",
          [&access](const std::string& v) { access.pattern = v, access.any = true; });
  t.value({"--thread-layout"}, "T", "bank claims: a CuTe layout lane -> first element instead of a pattern",
          [&access](const std::string& v) { access.thread_layout = v, access.any = true; });
  t.value({"--op"}, "OP", "bank claims: the instruction (default ld; ldsmN/stsmN for ldmatrix/stmatrix .xN)",
          [&access](const std::string& v) { access.op = v, access.any = true; });
  t.value({"--base"}, "ADDR", "bank claims: the buffer's byte address (decimal or 0x hex; default 0)",
          [&access](const std::string& v) { access.base = parse_byte_address(v, "--base"), access.any = true; });
  t.value({"--byte-swizzle"}, "SW", "a swizzle on absolute byte addresses (TMA modes), Sw<3,4,3>",
          [&access](const std::string& v) { access.byte_swizzle = v; });
  add_output_flags(t, p.out, "bank claims: write DIR/index.html (summary of every claim) and a bank map per claim");
  t.describe("--json", "one JSON object: the layout and each claim's verdict, method, time and witness (or into FILE, a name ending in .json)");
  t.positional("L", [&p](const std::string& v) {
    if (!p.layout_text.empty()) throw LayoutError("prove takes one layout (quote it); unexpected '" + v + "'");
    p.layout_text = v;
  });
  return t;
}

ProveArgs parse_prove_args(const std::vector<std::string>& args) {
  ProveArgs p;
  prove_table(p).parse(args);
  if (p.layout_text.empty() || p.claim_texts.empty())
    throw LayoutError("usage: layoutproof prove LAYOUT --claim CLAIM [--claim ...] [--json] [--engine E]");
  for (const std::string& c : p.claim_texts) {  // a misspelt claim name is named, with the closest one
    const std::string head = c.substr(0, c.find(':'));
    const auto& known = prove_claim_names();
    if (std::find(known.begin(), known.end(), head) == known.end()) throw LayoutError(unknown_word("claim", head, known, "", true));
  }
  check_output_paths(p.out, {});
  if (!p.out.report_dir.empty()) check_report_folder(p.out.report_dir);
  return p;
}

}  // namespace

FlagTable prove_flags() {
  auto p = std::make_shared<ProveArgs>();
  FlagTable t = prove_table(*p);
  t.keep(p);
  return t;
}

int run_prove(const std::vector<std::string>& args, std::ostream& out) {
  if (wants_help(args)) {
    out << *help_text("prove");
    return 0;
  }
  ProveArgs parsed = parse_prove_args(args);
  const std::string& layout_text = parsed.layout_text;
  const std::vector<std::string>& claim_texts = parsed.claim_texts;
  const OutputFlags& flags = parsed.out;
  const ProveOptions& opts = parsed.opts;
  const std::string command = command_line("layoutproof prove", args);
  const AccessOptions& access = parsed.access;
  const bool bank = std::any_of(claim_texts.begin(), claim_texts.end(), is_bank_claim);
  if (bank) return run_bank_claims(layout_text, claim_texts, access, opts, flags, command, out);
  if (access.any) throw LayoutError("--vec, --pattern, --op, --thread-layout and --base apply to conflict-free and max-ways:K only");
  Subject subject = subject_of(layout_text, access.constants);
  const bool tma = std::any_of(claim_texts.begin(), claim_texts.end(), [](const std::string& t) { return t.rfind("tma:", 0) == 0; });
  const bool width = access.elem_bytes || access.elem_bits;
  if (!access.byte_swizzle.empty() || tma) {
    if (subject.bare_swizzle) throw LayoutError("tma: claims and --byte-swizzle take a layout, not the bare swizzle " + subject.text());
  } else if (width && !subject.layout.is_smem_ptr()) {
    throw LayoutError("--elem-bytes/--elem-bits apply to bank claims, tma: claims, --byte-swizzle and smem_ptr layouts");
  }
  int bits = 0;
  if (width || tma || !access.byte_swizzle.empty()) bits = element_bits_of(subject.layout, access, "tma: claims and --byte-swizzle");
  if (!access.byte_swizzle.empty()) {
    // CuTe's composition(SW, smem_ptr_flag_bits<bits>{}, L): the one smem_ptr form. A tma:-only
    // run reads absolute addresses, so it needs no element-level swizzle (allow_unevaluable).
    if (subject.layout.is_swizzled())
      throw LayoutError("--byte-swizzle on the swizzled " + subject.text() + ": give a plain layout, or write one smem_ptr form (Sw<B,M,S> o smem_ptr[Nb](unset) o L)");
    const bool only_tma = std::all_of(claim_texts.begin(), claim_texts.end(), [](const std::string& t) { return t.rfind("tma:", 0) == 0; });
    subject.layout = AnyLayout::smem_ptr(parse_byte_swizzle(access.byte_swizzle, access.constants), bits, subject.layout.layout, only_tma);
  }
  // A claim is a layout claim (proofs/claims/claim.hpp, read with the -D constants) or a tma:
  // claim (proofs/claims/tma_claim.hpp); every claim is read before any is proved.
  std::vector<Check> checks;
  for (const auto& t : claim_texts) {
    if (parse_tma_claim(t)) {  // validates it
      checks.push_back(make_check(subject.text(), subject.layout, t, std::nullopt, {}, bits));
    } else {
      Check c;
      c.name = subject.text();
      c.subject = proofs::LayoutSubject{subject.layout, subject.bare_swizzle, ""};
      Claim claim = parse_claim(t, access.constants);
      c.claim = {claim.text, std::move(claim)};
      checks.push_back(std::move(c));
    }
  }
  std::vector<CheckResult> results;
  for (const Check& c : checks) results.push_back(run_check(c, opts).front());
  ResultView view;
  view.source = command;
  view.one_subject = true;
  view.subject_line = subject.text();
  view.json_extra = {{"layout", subject.text()}};
  return emit(out, results, flags, view);
}

}  // namespace layoutproof::cli
