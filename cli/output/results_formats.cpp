// The formats of cli/output/results.hpp beside the table and the JSON: JUnit XML, SARIF, the
// Markdown PR comment and the HTML summary page. Each groups the results per subject
// (group_of), failures first.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/report.hpp"
#include "cli/output/results.hpp"
#include "cli/output/trace_report.hpp"

namespace layoutproof::cli {
namespace {

using json = nlohmann::ordered_json;
using proofs::CheckResult;
using proofs::CompiledSite;
using proofs::Verdict;

// Seconds as xs:decimal (fixed point, no exponent).
std::string seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", ms / 1000);
  return buf;
}

// The test case name: the claim and its access; unique within a subject (cli/spec/spec.hpp).
std::string case_name(const CheckResult& r) { return claim_label(r); }

bool failed(const CheckResult& r) { return !r.verdict.is_proved(); }

// The results per subject: the subjects with a failure first, each subject's failures first;
// otherwise in the order of the run.
struct Group {
  std::string name;
  std::vector<const CheckResult*> failures, proved;
};
std::vector<Group> groups_of(const std::vector<CheckResult>& results) {
  std::vector<Group> groups;
  std::map<std::string, std::size_t> at;
  for (const auto& r : results) {
    const std::string g = group_of(r);
    auto [it, fresh] = at.try_emplace(g, groups.size());
    if (fresh) groups.push_back({g, {}, {}});
    (failed(r) ? groups[it->second].failures : groups[it->second].proved).push_back(&r);
  }
  std::stable_partition(groups.begin(), groups.end(), [](const Group& g) { return !g.failures.empty(); });
  return groups;
}

// A kernel's row at a glance: its refuted instructions, their excess wavefronts (over the ideal,
// each instruction once) and its worst line. "" when no refuted result has a kernel witness.
std::string kernel_glance(const Group& g) {
  std::set<std::pair<std::string, i64>> seen;
  i64 excess = 0, worst_excess = -1;
  std::string worst;
  for (const CheckResult* r : g.failures) {
    const auto* t = std::get_if<proofs::TraceEvidence>(&r->evidence);
    if (!r->verdict.is_refuted() || !t) continue;
    const auto& w = t->witness;
    const proofs::CompiledSite* site = proofs::site_of(r->check);
    const std::string file = site ? site->ptx.file : proofs::access_text(r->check);
    const i64 line = site ? site->ptx.line : w.instruction;
    if (!seen.insert({file, line}).second) continue;
    const i64 e = std::max(0, w.wavefronts - w.ideal);
    excess += e;
    if (e > worst_excess) worst_excess = e, worst = witness_line(*r, 160);
  }
  if (seen.empty()) return "";
  return std::to_string(seen.size()) + " refuted instruction" + (seen.size() == 1 ? "" : "s") + ", " + std::to_string(excess) +
         " excess wavefronts; worst: " + worst;
}

std::string md_cell(std::string s) {
  std::replace(s.begin(), s.end(), '|', '/');
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

std::string md_code(const std::string& s) {
  std::string t = md_cell(s);
  std::replace(t.begin(), t.end(), '`', '\'');
  return "`" + t + "`";
}

// The failures, per subject, each witness cut to `width` characters (0: whole).
std::string markdown_failures(const std::vector<Group>& groups, std::size_t width) {
  std::ostringstream o;
  for (const Group& g : groups) {
    if (g.failures.empty()) continue;
    RunSummary s;
    for (const auto* r : g.failures) (r->verdict.is_refuted() ? s.refuted : r->verdict.kind == Verdict::Kind::unknown ? s.unknown : s.error)++;
    s.proved = static_cast<int>(g.proved.size());
    o << "**" << md_code(g.name) << "**: " << counts_text(s);
    const std::string glance = kernel_glance(g);
    if (!glance.empty()) o << "; " << md_cell(glance);
    o << "\n\n| claim | verdict | counterexample or reason |\n| --- | --- | --- |\n";
    for (const auto* r : g.failures)
      o << "| " << md_code(case_name(*r)) << " | " << to_string(r->verdict.kind) << " | " << md_cell(witness_line(*r, width)) << " |\n";
    o << "\n";
  }
  return o.str();
}

std::string markdown_reports(const std::vector<CheckResult>& results) {
  std::ostringstream o;
  o << "| subject | report | measured |\n| --- | --- | --- |\n";
  for (const auto& r : results)
    if (std::holds_alternative<proofs::BalanceMeasure>(r.evidence)) o << "| " << md_code(r.check.name) << " | " << md_code(case_name(r)) << " | " << md_cell(r.verdict.detail) << " |\n";
  return o.str() + "\n";
}

// The PROVED claims: a count per subject, or (verbose) each claim, within `budget` characters.
std::string markdown_proved(const std::vector<Group>& groups, int proved, bool verbose, std::size_t budget) {
  std::size_t subjects = 0;
  for (const Group& g : groups) subjects += !g.proved.empty();
  if (subjects == 0) return "";
  std::ostringstream o;
  o << "<details><summary>Proved: " << proved << " claims over " << subjects << " subjects</summary>\n\n";
  o << (verbose ? "| subject | claim | verdict | method |\n| --- | --- | --- | --- |\n" : "| subject | proved |\n| --- | --- |\n");
  std::size_t shown = 0, left = 0;
  for (const Group& g : groups) {
    if (g.proved.empty()) continue;
    std::ostringstream row;
    if (verbose)
      for (const auto* r : g.proved)
        row << "| " << md_code(g.name) << " | " << md_code(case_name(*r)) << " | " << proofs::verdict_label(*r) << " | " << md_cell(r->verdict.method) << " |\n";
    else
      row << "| " << md_code(g.name) << " | " << g.proved.size() << " |\n";
    if (static_cast<std::size_t>(o.tellp()) + row.str().size() + 200 > budget) {
      ++left;
      continue;
    }
    o << row.str();
    ++shown;
  }
  if (left) o << "\n... and " << left << " more subjects (the full report lists them)\n";
  o << "\n</details>\n";
  return o.str();
}

}  // namespace

void write_markdown(std::ostream& out, const std::string& title, const std::vector<CheckResult>& results, const RunSummary& s,
                    bool verbose, const std::string& full_report) {
  const bool ok = s.refuted + s.unknown + s.error == 0;
  const std::vector<Group> groups = groups_of(results);
  std::ostringstream head;
  head << "### layoutproof: " << md_cell(title) << " " << (ok ? "✅" : "❌") << "\n\n" << summary_line(results.size(), s) << ".\n\n";
  const std::string tail = full_report.empty() ? "Every claim with its witness: `--report DIR` (HTML) or `--json FILE`.\n"
                                               : "Every claim with its witness: `" + md_cell(full_report) + "`.\n";
  const std::string reports = s.reported ? markdown_reports(results) : "";
  // Every failure is listed; when they do not fit whole, each witness is cut to what does.
  std::string failures = ok ? "" : markdown_failures(groups, 400);
  const std::size_t fixed = head.str().size() + tail.size() + reports.size() + 400;
  if (fixed + failures.size() > kMarkdownBudget) {
    const std::size_t n = static_cast<std::size_t>(s.refuted + s.unknown + s.error);
    const std::size_t bare = markdown_failures(groups, 1).size();
    const std::size_t room = kMarkdownBudget > fixed + bare ? (kMarkdownBudget - fixed - bare) / std::max<std::size_t>(1, n) : 0;
    failures = markdown_failures(groups, std::max<std::size_t>(room, 1));
  }
  const std::size_t used = fixed + failures.size();
  const std::string proved = markdown_proved(groups, s.proved, verbose, used < kMarkdownBudget ? kMarkdownBudget - used : 0);
  out << head.str() << failures << reports << tail << (proved.empty() ? "" : "\n" + proved);
}

void write_reports(const std::string& dir, const std::vector<CheckResult>& results, bool verbose) {
  std::vector<ReportRow> rows;
  int n = 0;
  const auto detail_page = [&](const CheckResult& r) -> std::string {
    const auto* bank = std::get_if<proofs::BankWitness>(&r.evidence);
    const auto* access = std::get_if<proofs::AccessSubject>(&r.check.subject);
    if (bank && access) {
      const std::string sub = "claim" + std::to_string(++n);
      write_bank_report((std::filesystem::path(dir) / sub).string(),
                        BankReportInput{"layoutproof", r.check.claim.text, access->access, proofs::BankResult{r.verdict, *bank}});
      return sub + "/index.html";
    }
    const auto* t = std::get_if<proofs::TraceEvidence>(&r.evidence);
    if (t && t->trace) {
      // A kernel copy's claim: the same figure `trace --report` draws, with the command that
      // reproduces it alone (the base of the witness's placement added when the spec has several).
      const std::string sub = "claim" + std::to_string(++n);
      const std::string& given = r.check.origin.command;
      std::string command = given.empty() ? "layoutproof check (spec)" : given;
      const i64 k = t->witness.instruction;
      if (!given.empty() && k >= 0 && k < static_cast<i64>(t->trace->instructions.size())) {
        const std::string& where = t->trace->instructions[static_cast<std::size_t>(k)].where;
        if (const auto at = where.rfind(", base "); at != std::string::npos && command.find(" --base ") == std::string::npos)
          command += " --base " + where.substr(at + 7);
      }
      write_trace_report((std::filesystem::path(dir) / sub).string(),
                         TraceReportInput{command, t->trace.get(), {{r.check.claim.text, proofs::TraceResult{r.verdict, t->witness}}}});
      return sub + "/index.html";
    }
    return "";
  };
  const auto row_of = [&](const CheckResult& r) {
    return ReportRow{group_of(r), case_name(r), proofs::verdict_label(r), r.verdict.method,
                     std::holds_alternative<proofs::BalanceMeasure>(r.evidence) ? r.verdict.detail : witness_line(r), detail_page(r),
                     r.check.origin.command};
  };
  for (const auto& g : groups_of(results)) {
    for (const auto* r : g.failures) rows.push_back(row_of(*r));
    if (verbose) {
      for (const auto* r : g.proved) rows.push_back(row_of(*r));
    } else if (!g.proved.empty()) {
      // The subject's PROVED claims, one row (REPORT rows stay: a measurement is read, not counted).
      std::size_t proved = 0;
      for (const auto* r : g.proved) {
        if (std::holds_alternative<proofs::BalanceMeasure>(r->evidence)) rows.push_back(row_of(*r));
        else ++proved;
      }
      if (proved)
        rows.push_back({g.name, std::to_string(proved) + " claims", "PROVED", "", "each claim: --verbose", "", ""});
    }
  }
  const RunSummary s = summarize(results);
  write_report_file(dir, "index.html", report_index_html("layoutproof check report", "", rows, "", summary_line(results.size(), s)));
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
    const SourceLocation& where = r.check.origin.where;
    const std::string at = where.file.empty() ? "" : where.file + ":" + std::to_string(where.line) + ": ";
    const CompiledSite* at_site = proofs::site_of(r.check);
    if (!at_site) {
      cases.push_back({r.check.name, case_name(r), r.verdict.kind, r.verdict.time_ms, at + witness_summary(r),
                       std::holds_alternative<proofs::BalanceMeasure>(r.evidence) ? "REPORT: " + r.verdict.detail + " [" + r.verdict.method + "]"
                                                                                  : std::string()});
      continue;
    }
    const CompiledSite& site = *at_site;
    const std::string key = r.check.name + '\n' + site.kernel + '\n' + r.check.claim.text;
    auto [it, fresh] = compiled.try_emplace(key, cases.size());
    if (fresh) cases.push_back({r.check.name, r.check.claim.text + " [" + site.kernel + "]", Verdict::Kind::proved, 0, "", ""});
    JunitCase& c = cases[it->second];
    c.ms += r.verdict.time_ms;
    if (severity(r.verdict.kind) > severity(c.kind)) c.kind = r.verdict.kind;
    if (r.verdict.kind == Verdict::Kind::proved) continue;
    // One line per instruction not proved: its PTX line, its CUDA line, the verdict and why.
    std::string line = site.ptx.file + (site.ptx.line ? ":" + std::to_string(site.ptx.line) : "");
    const SourceLocation& code = r.check.origin.code;
    const SourceLocation* inlined = proofs::inlined_of(r.check);
    if (!code.file.empty())
      line += " (" + code.file + ":" + std::to_string(code.line) +
              (inlined ? ", inlined from " + inlined->file + ":" + std::to_string(inlined->line) : std::string()) + ")";
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

namespace {

// SARIF's physicalLocation of a file and line (and column when known).
json sarif_location(const std::string& file, int line, int column) {
  json loc = {{"artifactLocation", {{"uri", file}}}};
  if (line >= 1) {
    loc["region"] = {{"startLine", line}};
    if (column >= 1) loc["region"]["startColumn"] = column;
  }
  return {{"physicalLocation", std::move(loc)}};
}

json sarif_run() {
  const json rules = json::array(
      {{{"id", "LP001"}, {"name", "ClaimRefuted"},
        {"shortDescription", {{"text", "A layout claim is false: the counterexample is replayed on the model."}}}},
       {{"id", "LP002"}, {"name", "ClaimUndecided"}, {"shortDescription", {{"text", "A layout claim could not be decided (unknown or error)."}}}}});
  return {{"tool", {{"driver", {{"name", "layoutproof"}, {"version", LAYOUTPROOF_VERSION}, {"informationUri", "https://github.com/layoutproof/layoutproof"},
                                {"rules", rules}}}}}};
}

void write_sarif_doc(std::ostream& out, json run) {
  const json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({std::move(run)})}};
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

json related(int id, json loc, const std::string& text) {
  loc["id"] = id;
  loc["message"] = {{"text", text}};
  return loc;
}

}  // namespace

void write_sarif(std::ostream& out, const std::string& spec_path, const std::vector<CheckResult>& results) {
  json run = sarif_run();
  run["invocations"] = json::array({{{"executionSuccessful", true}}});
  json items = json::array();
  for (const auto& r : results) {
    if (r.verdict.kind == Verdict::Kind::proved) continue;
    const bool refuted = r.verdict.kind == Verdict::Kind::refuted;
    const SourceLocation& where = r.check.origin.where;
    const std::string file = where.file.empty() ? spec_path : where.file;
    const json spec_loc = sarif_location(file, std::max(1, where.line), std::max(1, where.column));
    json item = {{"ruleId", refuted ? "LP001" : "LP002"}, {"level", refuted ? "error" : "warning"},
                 {"message", {{"text", std::string(to_string(r.verdict.kind)) + ": " + r.check.id() + ": " + witness_summary(r)}}}};
    // Where the claim fails: the kernel source line (the spec's source: FILE:LINE, or a compiled
    // instruction's CUDA line from its .loc), else a compiled instruction's own line; related: the
    // compiled instruction's line (when the CUDA line is the location) and the claim in the spec.
    const CompiledSite* site = proofs::site_of(r.check);
    const SourceLocation& code = r.check.origin.code;
    const SourceLocation* inlined = proofs::inlined_of(r.check);
    const json ptx_loc = site ? sarif_location(site->ptx.file, site->ptx.line, 0) : json();
    const std::string ptx_text = site ? "the instruction in the compiled kernel " + site->kernel + ": " + site->instruction : "";
    if (!code.file.empty()) {
      item["locations"] = json::array({sarif_location(code.file, code.line, 0)});
      json rel = json::array();
      if (site) rel.push_back(related(0, ptx_loc, ptx_text));
      if (inlined)  // the call site is the location; the inlined code's own line beside it
        rel.push_back(related(static_cast<int>(rel.size()), sarif_location(inlined->file, inlined->line, 0),
                              "the code inlined at this call site"));
      rel.push_back(related(static_cast<int>(rel.size()), spec_loc, "the claim in the spec"));
      item["relatedLocations"] = std::move(rel);
    } else if (site && site->ptx.line >= 1) {
      item["locations"] = json::array({ptx_loc});
      item["relatedLocations"] = json::array({related(0, spec_loc, "the claim in the spec")});
    } else {
      item["locations"] = json::array({spec_loc});
    }
    items.push_back(std::move(item));
  }
  run["results"] = std::move(items);
  write_sarif_doc(out, std::move(run));
}

void write_sarif_problem(std::ostream& out, const std::string& file, int line, int column, const std::string& message) {
  json run = sarif_run();
  run["invocations"] = json::array({{{"executionSuccessful", false}, {"exitCode", 2},
                                     {"toolExecutionNotifications", json::array({{{"level", "error"}, {"message", {{"text", message}}},
                                                                                  {"locations", json::array({sarif_location(file, line, column)})}}})}}});
  run["results"] = json::array();
  write_sarif_doc(out, std::move(run));
}

}  // namespace layoutproof::cli
