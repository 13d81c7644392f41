#include "cli/output/results.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <streambuf>
#include <string_view>
#include <vector>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/report.hpp"
#include "cli/output/trace_report.hpp"
#include "cli/spec/check_runner.hpp"
#include "cli/spec/verdict_cache.hpp"
#include "cli/output/witness_json.hpp"
#include "model/support/json.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::cli {
namespace {

using proofs::CheckResult;
using proofs::CompiledSite;
using proofs::Verdict;

std::string ms_text(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", t);
  return buf;
}

bool is_z3(const Verdict& v) { return v.method.find("z3") != std::string::npos; }

// Seconds as xs:decimal (fixed point, no exponent).
std::string seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", ms / 1000);
  return buf;
}

std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

// SARIF's physicalLocation of a file and line (and column when known).
std::string sarif_location(const std::string& file, int line, int column) {
  std::string s = "{\"physicalLocation\": {\"artifactLocation\": {\"uri\": " + json_str(file) + "}";
  if (line >= 1) {
    s += ", \"region\": {\"startLine\": " + std::to_string(line);
    if (column >= 1) s += ", \"startColumn\": " + std::to_string(column);
    s += "}";
  }
  return s + "}}";
}

std::string sarif_header() {
  return "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
         "    \"tool\": {\"driver\": {\"name\": \"layoutproof\", \"version\": \"" LAYOUTPROOF_VERSION "\", "
         "\"informationUri\": \"https://github.com/layoutproof/layoutproof\", \"rules\": [\n"
         "      {\"id\": \"LP001\", \"name\": \"ClaimRefuted\", \"shortDescription\": {\"text\": \"A layout claim is false: "
         "the counterexample is replayed on the model.\"}},\n"
         "      {\"id\": \"LP002\", \"name\": \"ClaimUndecided\", \"shortDescription\": {\"text\": \"A layout claim could "
         "not be decided (unknown or error).\"}}]}},\n";
}

// The summary page DIR/index.html: every claim with its verdict, linked to its detail (a refuted
// bank claim: its bank map in DIR/claimN/; any other: its entry on the page) (cli/output/report.hpp).
// Written into the folder being built (publish_report_folder, cli/output/atomic_file.hpp).
void write_reports(const std::string& dir, const std::vector<proofs::CheckResult>& results) {
  std::vector<ReportRow> rows;
  int n = 0;
  for (const auto& r : results) {
    std::string href;
    if (r.bank_witness && r.check.access) {
      const std::string sub = "claim" + std::to_string(++n);
      write_bank_report((std::filesystem::path(dir) / sub).string(),
                        BankReportInput{"layoutproof", r.check.claim, *r.check.access,
                                        proofs::BankResult{r.verdict, r.bank_witness}});
      href = sub + "/index.html";
    } else if (r.trace_witness && r.check.trace) {
      // A kernel copy's claim: the same figure `trace --report` draws, with the command that
      // reproduces it alone (the base of the witness's placement added when the spec has several).
      const std::string sub = "claim" + std::to_string(++n);
      std::string command = r.check.command.empty() ? "layoutproof check (spec)" : r.check.command;
      const i64 k = r.trace_witness->instruction;
      if (!r.check.command.empty() && k >= 0 && k < static_cast<i64>(r.check.trace->instructions.size())) {
        const std::string& where = r.check.trace->instructions[static_cast<std::size_t>(k)].where;
        if (const auto at = where.rfind(", base "); at != std::string::npos && command.find(" --base ") == std::string::npos)
          command += " --base " + where.substr(at + 7);
      }
      write_trace_report((std::filesystem::path(dir) / sub).string(),
                         TraceReportInput{command, r.check.trace.get(), {{r.check.claim, proofs::TraceResult{r.verdict, r.trace_witness}}}});
      href = sub + "/index.html";
    }
    const std::string claim = r.check.claim + (r.check.access_text.empty() ? "" : " [" + r.check.access_text + "]");
    rows.push_back({r.check.subject, claim, proofs::verdict_label(r), r.verdict.method, r.balance ? r.verdict.detail : witness_summary(r), href,
                    r.check.command});
  }
  write_report_file(dir, "index.html", report_index_html("layoutproof check report", "", rows, ""));
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
    (is_z3(r.verdict) ? s.z3_ms : s.enumeration_ms) += r.verdict.time_ms;
  }
  return s;
}

std::string claims_text(std::size_t claims, const RunSummary& s) {
  std::string t = std::to_string(claims) + " claims";
  if (s.repeats == 0) return t;
  return t + " (" + std::to_string(claims - static_cast<std::size_t>(s.repeats)) + " distinct; " + std::to_string(s.repeats) +
         (s.repeats == 1 ? " repeats" : " repeat") + " an earlier claim of this run)";
}

std::string witness_summary(const CheckResult& r) {
  if (r.verdict.kind == Verdict::Kind::unknown || r.verdict.kind == Verdict::Kind::error) return r.verdict.detail;
  if (r.verdict.kind != Verdict::Kind::refuted) return "";
  if (r.bank_witness) return proofs::describe(*r.bank_witness);
  std::string s = r.verdict.witness.why;
  for (const auto& p : r.verdict.witness.points) s += "; " + proofs::point_text(p);
  return s;
}

void write_table(std::ostream& out, const std::vector<CheckResult>& results, const RunSummary& s) {
  // Names come from the spec: shown with their control characters as text (terminal_text).
  const auto claim_of = [](const CheckResult& r) {
    return terminal_text(r.check.claim + (r.check.access_text.empty() ? "" : " [" + r.check.access_text + "]"));
  };
  std::size_t subject_w = 7, claim_w = 5;
  for (const auto& r : results) {
    subject_w = std::max(subject_w, terminal_text(r.check.subject).size());
    claim_w = std::max(claim_w, claim_of(r).size());
  }
  out << pad_right("subject", subject_w) << "  " << pad_right("claim", claim_w) << "  verdict   method\n";
  for (const auto& r : results) {
    out << pad_right(terminal_text(r.check.subject), subject_w) << "  " << pad_right(claim_of(r), claim_w) << "  "
        << pad_right(proofs::verdict_label(r), 8) << "  " << terminal_text(r.verdict.method) << ", " << ms_text(r.verdict.time_ms) << "\n";
    const std::string w = witness_summary(r);
    if (!w.empty()) out << "    " << terminal_text(w) << "\n";
    if (r.balance) out << "    " << terminal_text(r.verdict.detail) << "\n";  // what a report measured
  }
  out << claims_text(results.size(), s) << ": " << s.proved << " proved"
      << (s.cached ? " (" + std::to_string(s.cached) + " from cache)" : std::string()) << ", " << s.refuted << " refuted, " << s.unknown << " unknown, "
      << s.error << " error" << (s.reported ? ", " + std::to_string(s.reported) + " reported" : std::string()) << "  (Z3 " << ms_text(s.z3_ms) << ", enumeration " << ms_text(s.enumeration_ms) << ", wall "
      << ms_text(s.wall_ms) << ")\n";
}

namespace {

std::string json_location(const proofs::SourceLocation& w) {
  return "{\"file\":" + json_str(w.file) + ",\"line\":" + std::to_string(w.line) + ",\"column\":" + std::to_string(w.column) + "}";
}

std::string json_head(const std::string& source) {
  return "{\"tool\":\"layoutproof\",\"version\":\"" LAYOUTPROOF_VERSION "\",\"source\":" + json_str(source);
}

// The test case name: the claim and its access; unique within a subject (cli/spec/spec.hpp).
std::string case_name(const CheckResult& r) {
  return r.check.claim + (r.check.access_text.empty() ? "" : " [" + r.check.access_text + "]");
}

}  // namespace

void write_json(std::ostream& out, const std::string& source, const std::vector<CheckResult>& results, const RunSummary& s) {
  out << json_head(source) << ",\"error\":null,\"summary\":{\"proved\":" << s.proved << ",\"from_cache\":" << s.cached << ",\"repeats\":" << s.repeats << ",\"refuted\":" << s.refuted
      << ",\"unknown\":" << s.unknown << ",\"error\":" << s.error << ",\"reported\":" << s.reported << ",\"z3_ms\":" << s.z3_ms
      << ",\"enumeration_ms\":" << s.enumeration_ms << ",\"wall_ms\":" << s.wall_ms;
  if (s.compiled_files > 0) out << ",\"compiled_files\":" << s.compiled_files;
  out << "},\"results\":[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    out << (i ? "," : "") << "{\"id\":" << json_str(r.check.id()) << ",\"subject\":" << json_str(r.check.subject)
        << ",\"layout\":" << json_str(r.check.kind == proofs::Check::Kind::scheduler ? "" : to_string(r.check.layout))
        << ",\"claim\":" << json_str(r.check.claim) << ",\"access\":" << json_str(r.check.access_text)
        << ",\"verdict\":" << json_str(proofs::verdict_label(r))
        << ",\"method\":" << json_str(r.verdict.method) << ",\"time_ms\":" << r.verdict.time_ms
        << ",\"detail\":" << json_str(r.verdict.detail) << ",\"witness\":" << result_witness_json(r)
        << ",\"witness_text\":" << json_str(witness_summary(r));
    if (!r.check.where.file.empty()) out << ",\"location\":" << json_location(r.check.where);
    if (!r.check.code.file.empty()) out << ",\"code\":" << json_location(r.check.code);
    if (r.check.site)
      out << ",\"instruction\":{\"kernel\":" << json_str(r.check.site->kernel) << ",\"ptx\":" << json_location(r.check.site->ptx)
          << ",\"text\":" << json_str(r.check.site->instruction) << "}";
    if (!r.check.command.empty()) out << ",\"command\":" << json_str(r.check.command);
    if (r.balance) out << ",\"balance\":" << *r.balance;
    out << "}";
  }
  out << "]}\n";
}

namespace {

// One JUnit test case: a claim, or a compiled entry's claim over one kernel (every instruction of
// it: the case fails when one is refuted, errs when one is undecided, and lists them).
struct JunitCase {
  std::string classname, name;
  Verdict::Kind kind = Verdict::Kind::proved;
  double ms = 0;
  std::string text;  // the failure's or error's body
  std::string out;   // a passed case's <system-out>: what a report (REPORT) measured
};

int severity(Verdict::Kind k) {
  return k == Verdict::Kind::refuted ? 3 : k == Verdict::Kind::error ? 2 : k == Verdict::Kind::unknown ? 1 : 0;
}

std::vector<JunitCase> junit_cases(const std::vector<CheckResult>& results) {
  std::vector<JunitCase> cases;
  std::map<std::string, std::size_t> compiled;  // (subject, kernel, claim) -> its case
  for (const auto& r : results) {
    // The location goes into the message: the JUnit schema (Jenkins junit-10.xsd) has no file/line.
    const std::string at = r.check.where.file.empty() ? "" : r.check.where.file + ":" + std::to_string(r.check.where.line) + ": ";
    if (!r.check.site) {
      cases.push_back({r.check.subject, case_name(r), r.verdict.kind, r.verdict.time_ms, at + witness_summary(r),
                       r.balance ? "REPORT: " + r.verdict.detail + " [" + r.verdict.method + "]" : std::string()});
      continue;
    }
    const CompiledSite& site = *r.check.site;
    const std::string key = r.check.subject + '\n' + site.kernel + '\n' + r.check.claim;
    auto [it, fresh] = compiled.try_emplace(key, cases.size());
    if (fresh) cases.push_back({r.check.subject, r.check.claim + " [" + site.kernel + "]", Verdict::Kind::proved, 0, "", ""});
    JunitCase& c = cases[it->second];
    c.ms += r.verdict.time_ms;
    if (severity(r.verdict.kind) > severity(c.kind)) c.kind = r.verdict.kind;
    if (r.verdict.kind == Verdict::Kind::proved) continue;
    // One line per instruction not proved: its PTX line, its CUDA line, the verdict and why.
    std::string line = site.ptx.file + (site.ptx.line ? ":" + std::to_string(site.ptx.line) : "");
    if (!r.check.code.file.empty()) line += " (" + r.check.code.file + ":" + std::to_string(r.check.code.line) + ")";
    if (!site.instruction.empty()) line += " " + site.instruction;
    c.text += (c.text.empty() ? at : "\n") + line + ": " + to_string(r.verdict.kind) + ": " + witness_summary(r);
  }
  return cases;
}

}  // namespace

void write_junit(std::ostream& out, const std::string& suite, const std::vector<CheckResult>& results, const RunSummary&) {
  const std::vector<JunitCase> cases = junit_cases(results);
  double total_ms = 0;
  int failures = 0, errors = 0;
  for (const auto& c : cases) {
    total_ms += c.ms;
    failures += c.kind == Verdict::Kind::refuted;
    errors += c.kind == Verdict::Kind::unknown || c.kind == Verdict::Kind::error;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"layoutproof\" tests=\"" << cases.size()
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" time=\"" << seconds(total_ms) << "\">\n"
      << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << cases.size() << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" skipped=\"0\" time=\"" << seconds(total_ms) << "\">\n";
  for (const auto& c : cases) {
    out << "    <testcase classname=\"" << xml_escape(c.classname) << "\" name=\"" << xml_escape(c.name) << "\" time=\""
        << seconds(c.ms) << "\"";
    switch (c.kind) {
      case Verdict::Kind::proved:
        if (c.out.empty()) out << "/>\n";
        else out << ">\n      <system-out>" << xml_escape(c.out) << "</system-out>\n    </testcase>\n";
        break;
      case Verdict::Kind::refuted:
        out << ">\n      <failure message=\"REFUTED: " << xml_escape(c.name) << "\" type=\"REFUTED\">" << xml_escape(c.text)
            << "</failure>\n    </testcase>\n";
        break;
      default:
        out << ">\n      <error message=\"" << to_string(c.kind) << "\" type=\"" << to_string(c.kind) << "\">" << xml_escape(c.text)
            << "</error>\n    </testcase>\n";
    }
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void write_sarif(std::ostream& out, const std::string& spec_path, const std::vector<CheckResult>& results) {
  out << sarif_header() << "    \"invocations\": [{\"executionSuccessful\": true}],\n    \"results\": [";
  bool first = true;
  for (const auto& r : results) {
    if (r.verdict.kind == Verdict::Kind::proved) continue;
    const bool refuted = r.verdict.kind == Verdict::Kind::refuted;
    const std::string msg = std::string(to_string(r.verdict.kind)) + ": " + r.check.id() + ": " + witness_summary(r);
    const std::string file = r.check.where.file.empty() ? spec_path : r.check.where.file;
    const std::string spec_loc = sarif_location(file, std::max(1, r.check.where.line), std::max(1, r.check.where.column));
    out << (first ? "\n" : ",\n") << "      {\"ruleId\": \"" << (refuted ? "LP001" : "LP002") << "\", \"level\": \""
        << (refuted ? "error" : "warning") << "\", \"message\": {\"text\": " << json_str(msg) << "}, \"locations\": [";
    // Where the claim fails: the kernel source line (the spec's source: FILE:LINE, or a compiled
    // instruction's CUDA line from its .loc), else a compiled instruction's own line; related: the
    // compiled instruction's line (when the CUDA line is the location) and the claim in the spec.
    const auto related = [](int id, const std::string& loc, const std::string& text) {
      return "{\"id\": " + std::to_string(id) + ", " + loc.substr(1, loc.size() - 2) + ", \"message\": {\"text\": " + json_str(text) + "}}";
    };
    const proofs::CompiledSite* site = r.check.site ? &*r.check.site : nullptr;
    const std::string ptx_loc = site ? sarif_location(site->ptx.file, site->ptx.line, 0) : "";
    const std::string ptx_text = site ? "the instruction in the compiled kernel " + site->kernel + ": " + site->instruction : "";
    if (!r.check.code.file.empty()) {
      out << sarif_location(r.check.code.file, r.check.code.line, 0) << "], \"relatedLocations\": [";
      if (site) out << related(0, ptx_loc, ptx_text) << ", ";
      out << related(site ? 1 : 0, spec_loc, "the claim in the spec") << "]}";
    } else if (site && site->ptx.line >= 1) {
      out << ptx_loc << "], \"relatedLocations\": [" << related(0, spec_loc, "the claim in the spec") << "]}";
    } else {
      out << spec_loc << "]}";
    }
    first = false;
  }
  out << (first ? "" : "\n    ") << "]\n  }]\n}\n";
}

void write_markdown(std::ostream& out, const std::string& title, const std::vector<CheckResult>& results, const RunSummary& s) {
  const bool ok = s.refuted + s.unknown + s.error == 0;
  out << "### layoutproof: " << title << " " << (ok ? "✅" : "❌") << "\n\n"
      << claims_text(results.size(), s) << ": **" << s.proved << " proved**, **" << s.refuted << " refuted**, " << s.unknown
      << " unknown, " << s.error << " error" << (s.reported ? ", " + std::to_string(s.reported) + " reported" : std::string()) << ".\n\n";
  if (!ok) {
    out << "| subject | claim | verdict | counterexample |\n| --- | --- | --- | --- |\n";
    for (const auto& r : results) {
      if (r.verdict.kind == Verdict::Kind::proved) continue;
      std::string w = witness_summary(r);
      std::replace(w.begin(), w.end(), '|', '/');
      out << "| `" << r.check.subject << "` | `" << case_name(r) << "` | " << to_string(r.verdict.kind) << " | " << w << " |\n";
    }
    out << "\n";
  }
  if (s.reported) {  // measurements, never a failure: shown whatever the gate says
    out << "| subject | report | measured |\n| --- | --- | --- |\n";
    for (const auto& r : results) {
      if (!r.balance) continue;
      std::string d = r.verdict.detail;
      std::replace(d.begin(), d.end(), '|', '/');
      out << "| `" << r.check.subject << "` | `" << case_name(r) << "` | " << d << " |\n";
    }
    out << "\n";
  }
  out << "<details><summary>All claims</summary>\n\n| subject | claim | verdict | method |\n| --- | --- | --- | --- |\n";
  for (const auto& r : results)
    out << "| `" << r.check.subject << "` | `" << case_name(r) << "` | " << proofs::verdict_label(r) << " | " << r.verdict.method << " |\n";
  out << "\n</details>\n";
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

// Writes the requested files; the first failure's message (empty: all written).
std::string write_outputs(const OutputFlags& flags, const std::function<void(std::ostream&)>& json,
                          const std::function<void(std::ostream&)>& junit, const std::function<void(std::ostream&)>& sarif,
                          const std::function<void(std::ostream&)>& markdown) {
  std::string failure;
  const auto one = [&](const std::string& path, const char* what, const std::function<void(std::ostream&)>& w) {
    if (path.empty()) return;
    // Every format is UTF-8 text: a name's ill-formed bytes (a file name, a spec read before it
    // was refused) become U+FFFD, whichever writer let them through. Mended as it is written:
    // a library's results are tens of megabytes.
    const std::string f = write_file_atomically(path, what, [&](std::ostream& file) {
      Utf8MendingBuf mend(file);
      std::ostream text(&mend);
      w(text);
      mend.finish();
    });
    if (failure.empty()) failure = f;
  };
  one(flags.json_file, "JSON", json);
  one(flags.junit_file, "JUnit XML", junit);
  one(flags.sarif_file, "SARIF", sarif);
  one(flags.markdown_file, "Markdown", markdown);
  return failure;
}

}  // namespace

int emit_results(std::ostream& out, const std::string& source, const std::vector<proofs::CheckResult>& results,
                 double wall_ms, const OutputFlags& flags, int compiled_files) {
  RunSummary s = summarize(results);
  s.wall_ms = wall_ms;
  s.compiled_files = compiled_files;
  if (flags.json_stdout)
    write_json(out, source, results, s);
  else
    write_table(out, results, s);
  std::string failure = write_outputs(
      flags, [&](std::ostream& f) { write_json(f, source, results, s); },
      [&](std::ostream& f) { write_junit(f, source, results, s); }, [&](std::ostream& f) { write_sarif(f, source, results); },
      [&](std::ostream& f) { write_markdown(f, source, results, s); });
  if (!flags.report_dir.empty()) {
    std::string f;
    try {
      publish_report_folder(flags.report_dir, [&](const std::string& dir) { write_reports(dir, results); });
    } catch (const std::exception& e) {
      f = e.what();
    }
    if (failure.empty()) failure = f;
  }
  if (!failure.empty()) throw LayoutError(failure);  // exit 2: a requested output is missing
  return proofs::exit_code(results);
}

std::string emit_input_problem(std::ostream& out, const std::string& source, const InputProblem& p, const OutputFlags& flags) {
  const std::string at = p.file + (p.line >= 1 ? ":" + std::to_string(p.line) + ":" + std::to_string(p.column) : "");
  const auto json = [&](std::ostream& f) {
    f << json_head(source) << ",\"error\":{\"kind\":\"bad input\",\"message\":" << json_str(p.message)
      << ",\"location\":{\"file\":" << json_str(p.file) << ",\"line\":" << p.line << ",\"column\":" << p.column
      << "}},\"summary\":{\"proved\":0,\"refuted\":0,\"unknown\":0,\"error\":0,\"z3_ms\":0,\"enumeration_ms\":0,\"wall_ms\":0},"
         "\"results\":[]}\n";
  };
  if (flags.json_stdout) json(out);
  const auto junit = [&](std::ostream& f) {
    f << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"layoutproof\" tests=\"1\" failures=\"1\" errors=\"0\" "
         "time=\"0.000000\">\n  <testsuite name=\""
      << xml_escape(source) << "\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000000\">\n"
      << "    <testcase classname=\"layoutproof\" name=\"" << xml_escape("spec " + source) << "\" time=\"0.000000\">\n"
      << "      <failure message=\"bad input: no claim was proved\" type=\"BAD_INPUT\">" << xml_escape(at + ": " + p.message)
      << "</failure>\n    </testcase>\n  </testsuite>\n</testsuites>\n";
  };
  const auto sarif = [&](std::ostream& f) {
    f << sarif_header() << "    \"invocations\": [{\"executionSuccessful\": false, \"exitCode\": 2, "
      << "\"toolExecutionNotifications\": [{\"level\": \"error\", \"message\": {\"text\": " << json_str("bad input: " + p.message)
      << "}, \"locations\": [" << sarif_location(p.file, p.line, p.column) << "]}]}],\n    \"results\": []\n  }]\n}\n";
  };
  const auto markdown = [&](std::ostream& f) {
    f << "### layoutproof: " << source << " ❌\n\n**Bad input**, no claim was proved: `" << at << "`: " << p.message << "\n";
  };
  return write_outputs(flags, json, junit, sarif, markdown);
}

}  // namespace layoutproof::cli
