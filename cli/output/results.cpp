#include "cli/output/results.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string_view>
#include <vector>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/witness_json.hpp"
#include "cli/spec/check_runner.hpp"
#include "cli/spec/verdict_cache.hpp"
#include "model/layout/notation.hpp"
#include "model/support/json.hpp"

namespace layoutproof::cli {
namespace {

using json = nlohmann::ordered_json;
using proofs::CheckResult;
using proofs::Verdict;

std::string ms_text(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", t);
  return buf;
}

bool is_z3(const Verdict& v) { return v.method.find("z3") != std::string::npos; }

std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

json location_json(const SourceLocation& w) { return {{"file", w.file}, {"line", w.line}, {"column", w.column}}; }

// A result item's "layout": its subject's; "" for a scheduler's, which has none. Another subject
// without one (a kernel copy, a compiled instruction) writes the empty layout's text, as results
// files always have (cli/spec/results_reader.cpp reads "" as a scheduler's).
std::string layout_text(const proofs::Check& c) {
  if (const AnyLayout* l = proofs::layout_of(c)) return to_string(*l);
  return c.kind() == proofs::CheckKind::scheduler ? std::string() : to_string(AnyLayout{});
}

}  // namespace

RunSummary summarize(const std::vector<CheckResult>& results) {
  RunSummary s;
  for (const auto& r : results) {
    switch (r.verdict.kind) {
      case Verdict::Kind::proved:
        if (proofs::is_report(r.check)) ++s.reported;
        else ++s.proved, s.cached += from_cache(r);
        break;
      case Verdict::Kind::refuted: ++s.refuted; break;
      case Verdict::Kind::unknown: ++s.unknown; break;
      case Verdict::Kind::error: ++s.error; break;
    }
    s.repeats += is_repeat(r);
    if (r.change == "new") ++(r.verdict.is_refuted() ? s.new_refuted : s.new_undecided);
    s.fixed += r.change == "fixed";
    s.unchanged += r.change == "unchanged";
    (is_z3(r.verdict) ? s.z3_ms : s.enumeration_ms) += r.verdict.time_ms;
  }
  return s;
}

int exit_code(const RunSummary& s) {
  if (s.baseline && s.fail_on_new) return s.new_refuted ? 1 : s.new_undecided ? 3 : 0;
  if (s.refuted > s.findings) return 1;
  if (s.unknown || s.error) return 3;
  const bool decided_nothing = s.proved + s.reported == 0;
  return s.incomplete && decided_nothing ? 3 : 0;
}

std::string claims_text(std::size_t claims, const RunSummary& s) {
  std::string t = std::to_string(claims) + " claims";
  if (s.repeats == 0) return t;
  return t + " (" + std::to_string(claims - static_cast<std::size_t>(s.repeats)) + " distinct; " + std::to_string(s.repeats) +
         (s.repeats == 1 ? " repeats" : " repeat") + " an earlier claim of this run)";
}

std::string counts_text(const RunSummary& s) {
  return std::to_string(s.proved) + " proved" + (s.cached ? " (" + std::to_string(s.cached) + " from cache)" : std::string()) + ", " +
         std::to_string(s.refuted) + " refuted, " + std::to_string(s.unknown) + " unknown, " + std::to_string(s.error) + " error" +
         (s.reported ? ", " + std::to_string(s.reported) + " reported" : std::string()) +
         (s.baseline ? "; against the baseline: " + std::to_string(s.new_refuted + s.new_undecided) + " new, " + std::to_string(s.fixed) +
                           " fixed, " + std::to_string(s.unchanged) + " unchanged, " + std::to_string(s.gone) + " gone"
                     : std::string());
}

std::string summary_line(std::size_t claims, const RunSummary& s) { return claims_text(claims, s) + ": " + counts_text(s); }

std::string claim_label(const CheckResult& r) {
  const std::string& access = proofs::access_text(r.check);
  return r.check.claim.text + (access.empty() ? "" : " [" + access + "]");
}

std::string witness_summary(const CheckResult& r) {
  if (r.verdict.kind == Verdict::Kind::unknown || r.verdict.kind == Verdict::Kind::error) return r.verdict.detail;
  if (r.verdict.kind != Verdict::Kind::refuted) return "";
  if (const auto* b = std::get_if<proofs::BankWitness>(&r.evidence)) return proofs::describe(*b);
  if (const auto* t = std::get_if<proofs::TraceEvidence>(&r.evidence)) return t->witness.why;
  std::string s = r.verdict.witness.why;
  for (const auto& p : r.verdict.witness.points) s += "; " + proofs::point_text(p);
  return s;
}

namespace {

std::string cut(std::string s, std::size_t width) {
  if (width == 0 || s.size() <= width) return s;
  s.resize(width > 3 ? width - 3 : 0);
  while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();  // not inside a UTF-8 character
  if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
  return s + "...";
}

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where a kernel claim's instruction is: the compiled file's line and its CUDA line, when known.
std::string instruction_at(const CheckResult& r) {
  std::string s;
  const proofs::CompiledSite* site = proofs::site_of(r.check);
  if (site && site->ptx.line >= 1) {
    s = base_name(site->ptx.file) + ":" + std::to_string(site->ptx.line);
    if (!site->instruction.empty()) s += " `" + site->instruction + "`";
  }
  const SourceLocation& code = r.check.origin.code;
  if (!code.file.empty()) s += std::string(s.empty() ? "" : ", ") + "CUDA " + base_name(code.file) + ":" + std::to_string(code.line);
  if (const SourceLocation* in = proofs::inlined_of(r.check)) s += " (inlined from " + base_name(in->file) + ":" + std::to_string(in->line) + ")";
  return s;
}

// Two lanes of a witness instruction that meet in its bank, with their bytes.
// Without the trace (a result read back from JSON), the addresses its run recorded.
std::string two_lanes(const proofs::TraceWitness& w, const AddressTrace* trace, const std::vector<i64>& recorded) {
  std::string s;
  const bool addressed = trace && w.instruction >= 0 && w.instruction < static_cast<i64>(trace->instructions.size());
  for (std::size_t i = 0; i < w.lanes.size() && i < 2; ++i) {
    const int l = w.lanes[i];
    s += std::string(i ? " and " : "") + "lane " + std::to_string(l);
    if (addressed && l >= 0 && l < kWarpLanes) s += " (byte " + std::to_string(trace->instructions[static_cast<std::size_t>(w.instruction)].addr[static_cast<std::size_t>(l)]) + ")";
    else if (!trace && l >= 0 && l < kWarpLanes && i < recorded.size()) s += " (byte " + std::to_string(recorded[i]) + ")";
  }
  return s;
}

}  // namespace

std::string witness_line(const CheckResult& r, std::size_t width) {
  const auto* bank = std::get_if<proofs::BankWitness>(&r.evidence);
  const auto* trace = std::get_if<proofs::TraceEvidence>(&r.evidence);
  if (r.verdict.is_refuted() && bank && bank->lanes.size() >= 2) {
    const auto& w = *bank;
    const auto& a = w.lanes[0];
    const auto& b = w.lanes[1];
    return cut(w.where + ": " + std::to_string(w.ways) + "-way conflict in bank " + std::to_string(w.bank) + ": lane " + std::to_string(a.lane) +
                   " (byte " + std::to_string(a.byte_address) + ") and lane " + std::to_string(b.lane) + " (byte " + std::to_string(b.byte_address) +
                   "); " + std::to_string(w.wavefronts) + " wavefronts for an ideal of " + std::to_string(w.ideal),
               width);
  }
  if (r.verdict.is_refuted() && trace && trace->witness.bank >= 0 && trace->witness.lanes.size() >= 2) {
    const auto& w = trace->witness;
    const std::string at = instruction_at(r);
    return cut((at.empty() ? "instruction " + std::to_string(w.instruction) : at) + ": " + std::to_string(w.ways) + "-way conflict in bank " +
                   std::to_string(w.bank) + ": " + two_lanes(w, trace->trace.get(), trace->addresses) + "; " + std::to_string(w.wavefronts) +
                   " wavefronts for an ideal of " + std::to_string(w.ideal),
               width);
  }
  std::string s = witness_summary(r);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return cut(s, width);
}

std::string group_of(const CheckResult& r) {
  const proofs::CompiledSite* site = proofs::site_of(r.check);
  return site && !site->kernel.empty() ? r.check.name + " / " + site->kernel : r.check.name;
}

json claim_json(const std::string& claim, const Verdict& v, json witness) {
  json j = {{"claim", claim}, {"verdict", to_string(v.kind)}, {"method", v.method}, {"time_ms", v.time_ms}, {"detail", v.detail},
            {"witness", std::move(witness)}};
  if (v.largest_v) j["largest_v"] = v.largest_v;
  return j;
}

namespace {

json summary_json(const RunSummary& s, const std::optional<ResultView::Shard>& shard) {
  json summary = {{"proved", s.proved}, {"from_cache", s.cached}, {"repeats", s.repeats}, {"refuted", s.refuted}, {"unknown", s.unknown},
                  {"error", s.error}, {"reported", s.reported}, {"z3_ms", s.z3_ms}, {"enumeration_ms", s.enumeration_ms}, {"wall_ms", s.wall_ms}};
  if (s.compiled_files > 0) summary["compiled_files"] = s.compiled_files;
  if (s.baseline)
    summary["baseline"] = {{"new", s.new_refuted + s.new_undecided}, {"new_refuted", s.new_refuted}, {"fixed", s.fixed},
                           {"unchanged", s.unchanged}, {"gone", s.gone}, {"fail_on", s.fail_on_new ? "new" : "any"}};
  if (shard) {
    summary["shard"] = {{"k", shard->k}, {"n", shard->n}, {"checks", shard->checks}, {"claims", shard->claims}};
    if (shard->baseline_results >= 0) summary["shard"]["baseline_results"] = shard->baseline_results;
  }
  return summary;
}

// The document without its results: the envelope, then `extra`'s keys.
json head_json(const std::string& source, const RunSummary& s, const json& extra, const std::optional<ResultView::Shard>& shard = std::nullopt) {
  json doc = {{"tool", "layoutproof"}, {"version", LAYOUTPROOF_VERSION}, {"source", source}, {"error", nullptr},
              {"summary", summary_json(s, shard)}};
  for (const auto& [k, v] : extra.items()) doc[k] = v;
  return doc;
}

// One result, its keys in the order they have always had (scripts hash the items); a shard's
// results end with their "position".
json result_item(const CheckResult& r, bool sharded = false) {
  const proofs::Check& c = r.check;
  json j = {{"id", c.id()}, {"subject", c.name}, {"layout", layout_text(c)}};
  const json claim = claim_json(c.claim.text, r.verdict, result_witness_json(r));  // held: items() refers to it
  for (const auto& [k, v] : claim.items()) {
    if (k == "claim") {
      j["claim"] = v;
      j["access"] = proofs::access_text(c);
    } else if (k != "largest_v") {
      j[k] = k == "verdict" ? json(proofs::verdict_label(r)) : v;
    }
  }
  j["witness_text"] = witness_summary(r);
  if (!c.origin.where.file.empty()) j["location"] = location_json(c.origin.where);
  if (!c.origin.code.file.empty()) j["code"] = location_json(c.origin.code);
  if (const SourceLocation* in = proofs::inlined_of(c)) j["inlined_from"] = location_json(*in);
  if (const proofs::CompiledSite* site = proofs::site_of(c))
    j["instruction"] = {{"kernel", site->kernel}, {"ptx", location_json(site->ptx)}, {"text", site->instruction}};
  if (!c.origin.command.empty()) j["command"] = c.origin.command;
  if (const auto* b = std::get_if<proofs::BalanceMeasure>(&r.evidence)) j["balance"] = b->max_over_mean;
  if (r.verdict.largest_v) j["largest_v"] = r.verdict.largest_v;
  if (!r.change.empty()) j["change"] = r.change;
  if (sharded) j["position"] = r.position;
  return j;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

json results_json(const std::string& source, const std::vector<CheckResult>& results, const RunSummary& s, const json& extra) {
  json doc = head_json(source, s, extra);
  json items = json::array();
  for (const auto& r : results) items.push_back(result_item(r));
  doc["results"] = std::move(items);
  return doc;
}

namespace {

// The results document as JSON text, each result written as it is made (a library's results
// are tens of thousands): ill-formed UTF-8 in a name (a file name, a spec) as U+FFFD, `raw`'s
// keys spliced in as the text they are.
void write_json(std::ostream& out, const ResultView& view, const std::vector<CheckResult>& results, const RunSummary& s) {
  std::string head = dump(head_json(view.source, s, view.json_extra, view.shard));
  head.pop_back();  // the closing brace
  out << head;
  for (const auto& [key, value] : view.json_raw) out << "," << dump(json(key)) << ":" << value;
  out << ",\"results\":[";
  for (std::size_t i = 0; i < results.size(); ++i) out << (i ? "," : "") << dump(result_item(results[i], view.shard.has_value()));
  out << "]}\n";
}

// A command about one subject: each verdict on one line, "VERDICT  claim  [method, X ms]  text"
// (README's five-minute path shows it).
void write_lines(std::ostream& out, const std::vector<CheckResult>& results, const RunSummary& s, const std::string& subject_line,
                 bool verdicts_in_view) {
  for (const auto& r : results) {
    if (verdicts_in_view) break;
    std::string where;
    if (const proofs::CompiledSite* site = proofs::site_of(r.check)) where = site->ptx.line >= 1 ? "line " + std::to_string(site->ptx.line) + ": " : "kernel: ";
    // A layout witness reads point first here, "x: index 1 (1,0) -> element 72 (why)", as prove
    // has always printed it; the other formats give why first (witness_summary).
    std::string w = witness_summary(r);
    const proofs::CheckKind kind = r.check.kind();
    const bool layout_witness = (kind == proofs::CheckKind::layout || kind == proofs::CheckKind::raster) &&
                                std::holds_alternative<std::monostate>(r.evidence);
    if (r.verdict.is_refuted() && layout_witness && !r.verdict.witness.points.empty()) {
      w.clear();
      for (const auto& p : r.verdict.witness.points) w += (w.empty() ? "" : ", ") + proofs::point_text(p);
      w += " (" + r.verdict.witness.why + ")";
    }
    const bool balance = std::holds_alternative<proofs::BalanceMeasure>(r.evidence);
    const std::string text = r.verdict.is_refuted() && !w.empty() ? "witness: " + w : balance || w.empty() ? r.verdict.detail : w;
    out << proofs::verdict_label(r) << "  " << terminal_text(r.check.claim.text) << "  [" << terminal_text(r.verdict.method) << ", "
        << ms_text(r.verdict.time_ms) << "]  " << terminal_text(where + text)
        << (r.verdict.largest_v ? " (largest V: " + std::to_string(r.verdict.largest_v) + ")" : std::string()) << "\n";
  }
  out << (subject_line.empty() ? claims_text(results.size(), s) : terminal_text(subject_line)) << ": " << counts_text(s) << "\n";
}

}  // namespace

void write_table(std::ostream& out, const std::vector<CheckResult>& results, const RunSummary& s) {
  // Names come from the spec: shown with their control characters as text (terminal_text).
  std::size_t subject_w = 7, claim_w = 5;
  for (const auto& r : results) {
    subject_w = std::max(subject_w, terminal_text(r.check.name).size());
    claim_w = std::max(claim_w, terminal_text(claim_label(r)).size());
  }
  out << pad_right("subject", subject_w) << "  " << pad_right("claim", claim_w) << "  verdict   method\n";
  for (const auto& r : results) {
    out << pad_right(terminal_text(r.check.name), subject_w) << "  " << pad_right(terminal_text(claim_label(r)), claim_w) << "  "
        << pad_right(proofs::verdict_label(r), 8) << "  " << terminal_text(r.verdict.method) << ", " << ms_text(r.verdict.time_ms) << "\n";
    const std::string w = witness_summary(r);
    if (!w.empty()) out << "    " << terminal_text(w) << "\n";
    if (std::holds_alternative<proofs::BalanceMeasure>(r.evidence)) out << "    " << terminal_text(r.verdict.detail) << "\n";  // what a report measured
  }
  out << summary_line(results.size(), s) << "  (Z3 " << ms_text(s.z3_ms) << ", enumeration " << ms_text(s.enumeration_ms) << ", wall "
      << ms_text(s.wall_ms) << ")\n";
}

namespace {

// An output's bytes on their way into its file, mended to UTF-8 (Utf8Mender) 64 KiB at a time, so
// that a file is written as it is made rather than held whole first.
class Utf8MendingBuf : public std::streambuf {
 public:
  explicit Utf8MendingBuf(std::ostream& to) : to_(to), buf_(std::size_t{1} << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  // After the last byte: what the mender held back.
  void finish() {
    pass();
    mender_.finish(mended_);
    to_.write(mended_.data(), static_cast<std::streamsize>(mended_.size()));
  }

 protected:
  int_type overflow(int_type c) override {
    pass();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

 private:
  void pass() {
    mended_.clear();
    mender_.feed(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())), mended_);
    to_.write(mended_.data(), static_cast<std::streamsize>(mended_.size()));
    mended_.clear();
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  std::ostream& to_;
  std::vector<char> buf_;
  Utf8Mender mender_;
  std::string mended_;
};

using Writer = std::function<void(std::ostream&)>;

// Writes the requested files; the first failure's message (empty: all written).
std::string write_outputs(const OutputFlags& flags, const Writer& json, const Writer& junit, const Writer& sarif, const Writer& markdown) {
  std::string failure;
  const auto one = [&](const std::string& path, const char* what, const Writer& w) {
    if (path.empty()) return;
    const std::string f = write_output_file(path, what, w);
    if (failure.empty()) failure = f;
  };
  one(flags.json_file, "JSON", json);
  one(flags.junit_file, "JUnit XML", junit);
  one(flags.sarif_file, "SARIF", sarif);
  one(flags.markdown_file, "Markdown", markdown);
  return failure;
}

}  // namespace

std::string write_output_file(const std::string& path, const char* what, const Writer& text) {
  // Every format is UTF-8 text: a name's ill-formed bytes (a file name, a spec read before it was
  // refused) become U+FFFD, whichever writer let them through. Mended as it is written: a
  // library's results are tens of megabytes.
  return write_file_atomically(path, what, [&](std::ostream& file) {
    Utf8MendingBuf mend(file);
    std::ostream out(&mend);
    text(out);
    mend.finish();
  });
}

int emit(std::ostream& out, const std::vector<CheckResult>& results, const OutputFlags& flags, const ResultView& view) {
  RunSummary s = summarize(results);
  s.wall_ms = view.wall_ms;
  s.compiled_files = view.compiled_files;
  s.incomplete = view.incomplete;
  s.baseline = view.baseline, s.fail_on_new = view.fail_on_new, s.gone = view.gone;
  if (view.kernel_findings)
    for (const auto& r : results) s.findings += r.verdict.is_refuted() && r.check.kind() == proofs::CheckKind::kernel;
  if (flags.json_stdout) write_json(out, view, results, s);
  else if (view.one_subject) write_lines(out, results, s, view.subject_line, view.verdicts_in_view);
  else write_table(out, results, s);
  const std::string full_report = flags.report_dir.empty() ? flags.json_file : flags.report_dir + "/index.html";
  std::string failure = write_outputs(
      flags, [&](std::ostream& f) { write_json(f, view, results, s); }, [&](std::ostream& f) { write_junit(f, view.source, results, s); },
      [&](std::ostream& f) { write_sarif(f, view.source, results); },
      [&](std::ostream& f) { write_markdown(f, view.source, results, s, flags.verbose, full_report); });
  if (!flags.report_dir.empty()) {
    std::string f;
    try {
      publish_report_folder(flags.report_dir, view.report ? view.report : [&](const std::string& dir) { write_reports(dir, results, flags.verbose); });
      if (view.one_subject && !flags.json_stdout) out << "report: " << flags.report_dir << "/index.html\n";
    } catch (const std::exception& e) {
      f = e.what();
    }
    if (failure.empty()) failure = f;
  }
  if (!failure.empty()) throw LayoutError(failure);  // exit 2: a requested output is missing
  return exit_code(s);
}

std::string emit_input_problem(std::ostream& out, const std::string& source, const InputProblem& p, const OutputFlags& flags) {
  const std::string at = p.file + (p.line >= 1 ? ":" + std::to_string(p.line) + ":" + std::to_string(p.column) : "");
  const auto json_doc = [&](std::ostream& f) {
    json doc = results_json(source, {}, RunSummary{});
    doc["error"] = {{"kind", "bad input"}, {"message", p.message}, {"location", {{"file", p.file}, {"line", p.line}, {"column", p.column}}}};
    f << dump(doc) << "\n";
  };
  if (flags.json_stdout) json_doc(out);
  const auto junit = [&](std::ostream& f) {
    f << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"layoutproof\" tests=\"1\" failures=\"1\" errors=\"0\" "
         "time=\"0.000000\">\n  <testsuite name=\""
      << xml_escape(source) << "\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000000\">\n"
      << "    <testcase classname=\"layoutproof\" name=\"" << xml_escape("spec " + source) << "\" time=\"0.000000\">\n"
      << "      <failure message=\"bad input: no claim was proved\" type=\"BAD_INPUT\">" << xml_escape(at + ": " + p.message)
      << "</failure>\n    </testcase>\n  </testsuite>\n</testsuites>\n";
  };
  const auto sarif = [&](std::ostream& f) { write_sarif_problem(f, p.file, p.line, p.column, "bad input: " + p.message); };
  const auto markdown = [&](std::ostream& f) {
    f << "### layoutproof: " << source << " ❌\n\n**Bad input**, no claim was proved: `" << at << "`: " << p.message << "\n";
  };
  return write_outputs(flags, json_doc, junit, sarif, markdown);
}

}  // namespace layoutproof::cli
