#include "cli/output/compiled_report.hpp"

#include <filesystem>
#include <sstream>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/html.hpp"
#include "cli/output/trace_report.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

using proofs::PtxClaimResult;
using proofs::PtxKernelResult;

std::string count_text(bool known, i64 v) { return known ? std::to_string(v) : "?"; }

std::string offset_text(i64 off) {
  if (off < 0) return "";
  char b[24];
  std::snprintf(b, sizeof b, "/*%04llx*/", static_cast<unsigned long long>(off));
  return b;
}

// The witness as trace_report draws it: the site's trace and the claim's result.
TraceReportClaim as_trace_claim(const std::string& claim, const PtxClaimResult& r) {
  TraceReportClaim c;
  c.claim = claim;
  c.result.verdict = r.verdict;
  c.result.witness = r.witness;
  return c;
}

struct Refuted {
  const PtxKernelResult* kernel;
  std::size_t site, claim;
};

std::vector<Refuted> refuted_claims(const CompiledReportInput& in) {
  std::vector<Refuted> out;
  for (const PtxKernelResult& k : *in.kernels)
    for (std::size_t s = 0; s < k.verdicts.size(); ++s)
      for (std::size_t c = 0; c < k.verdicts[s].size(); ++c)
        if (k.verdicts[s][c].applicable && k.verdicts[s][c].verdict.is_refuted()) out.push_back({&k, s, c});
  return out;
}

}  // namespace

std::string compiled_report_svg(const CompiledReportInput& in) {
  const std::vector<Refuted> r = refuted_claims(in);
  if (!r.empty()) {
    const compiled::Site& s = r.front().kernel->run->sites[r.front().site];
    const TraceReportClaim c = as_trace_claim((*in.claims)[r.front().claim].text, r.front().kernel->verdicts[r.front().site][r.front().claim]);
    return trace_report_svg(s.trace, &c);
  }
  for (const PtxKernelResult& k : *in.kernels)
    if (k.run)
      for (const compiled::Site& s : k.run->sites)
        if (!s.trace.instructions.empty()) return trace_report_svg(s.trace, nullptr);
  std::ostringstream body;
  return trace_report_svg(AddressTrace{}, nullptr);
}

std::string compiled_report_html(const CompiledReportInput& in) {
  const compiled::Program& p = *in.program;
  std::ostringstream o;
  o << html_head("layoutproof compiled-kernel report", "tr.hot td{background:#fdd;font-weight:bold}")
    << "<h1>layoutproof compiled-kernel report</h1>\n<table>\n"
    << "<tr><th>command</th><td><code>" << xml_escape(in.command) << "</code></td></tr>\n"
    << "<tr><th>file</th><td>" << xml_escape(p.file) << "</td></tr>\n</table>\n";
  int figure = 0;
  for (std::size_t ki = 0; ki < in.kernels->size(); ++ki) {
    const PtxKernelResult& k = (*in.kernels)[ki];
    if (!k.run) {  // the deadline passed before it ran
      o << "<h2>Kernel <code>" << xml_escape(compiled::demangle(p.functions[k.launch.entry].name)) << "</code></h2>\n<p>not run: "
        << xml_escape(k.not_run) << "; every claim UNKNOWN</p>\n";
      continue;
    }
    const compiled::KernelRun& r = *k.run;
    o << "<h2>Kernel <code>" << xml_escape(compiled::demangle(r.name)) << "</code></h2>\n<p>block " << r.block[0] << "," << r.block[1] << ","
      << r.block[2] << " (" << xml_escape(k.launch.block_from) << "); counts: CTA (" << r.cta[0] << "," << r.cta[1] << "," << r.cta[2] << ") of grid " << r.grid[0] << "," << r.grid[1] << ","
      << r.grid[2] << "; claims: " << xml_escape(proofs::claims_domain_text(k.launch.launch)) << "</p>\n<table>\n<tr><th>line</th><th>offset</th><th>CUDA</th><th>instruction</th><th>executed</th><th>wavefronts</th><th>ideal</th>";
    for (const proofs::PtxClaim& c : *in.claims) o << "<th>" << xml_escape(c.text) << "</th>";
    o << "</tr>\n";
    for (std::size_t si = 0; si < r.sites.size(); ++si) {
      const compiled::Site& s = r.sites[si];
      const i64 off = s.sass_offset;
      const bool counted = compiled::counts_unknown(r, s).empty();
      o << "<tr><td>" << s.line << "</td><td>" << offset_text(off) << "</td><td>" << xml_escape(s.source) << "</td><td><code>"
        << xml_escape(s.text) << "</code></td><td>" << count_text(compiled::executed_unknown(r, s).empty(), s.executed) << "</td><td>" << count_text(counted, s.wavefronts) << "</td><td>"
        << count_text(counted, s.ideal) << "</td>";
      for (std::size_t c = 0; c < in.claims->size(); ++c) {
        const PtxClaimResult& v = k.verdicts[si][c];
        if (!v.applicable) {
          o << "<td>-</td>";
          continue;
        }
        const std::string id = "k" + std::to_string(ki) + "s" + std::to_string(si) + "c" + std::to_string(c);
        o << "<td class=\"" << (v.verdict.is_refuted() ? "refuted" : v.verdict.is_proved() ? "proved" : "") << "\" title=\""
          << xml_escape(v.witness ? v.witness->why : v.verdict.detail) << "\">"
          << (v.verdict.is_refuted() ? "<a href=\"#" + id + "\"><b>REFUTED</b></a>" : "<b>" + std::string(proofs::to_string(v.verdict.kind)) + "</b>") << "</td>";
      }
      o << "</tr>\n";
    }
    o << "</table>\n";
    if (!r.not_counted.empty()) {  // every claim is UNKNOWN on each of these
      o << "<p>Instructions that touch shared memory and are not counted (every claim is UNKNOWN on each):</p>\n<ul>\n";
      for (const compiled::NotCounted& n : r.not_counted)
        o << "<li>line " << n.line << " <code>" << xml_escape(n.text) << "</code>: " << xml_escape(n.why) << "</li>\n";
      o << "</ul>\n";
    }
    for (std::size_t c = 0; c < in.claims->size() && c < k.unapplied.size(); ++c)
      if (k.unapplied[c])
        o << "<p><b>UNKNOWN</b> " << xml_escape((*in.claims)[c].text) << ": " << xml_escape(k.unapplied[c]->detail) << "</p>\n";
    for (std::size_t si = 0; si < r.sites.size(); ++si)
      for (std::size_t c = 0; c < in.claims->size(); ++c) {
        const PtxClaimResult& v = k.verdicts[si][c];
        if (!v.applicable || !v.verdict.is_refuted()) continue;
        const compiled::Site& s = r.sites[si];
        const TraceReportClaim tc = as_trace_claim((*in.claims)[c].text, v);
        o << "<h3 id=\"k" << ki << "s" << si << "c" << c << "\">" << xml_escape((*in.claims)[c].text) << " refuted: line " << s.line << " "
          << xml_escape(s.source) << " <code>" << xml_escape(s.text) << "</code></h3>\n<p>" << xml_escape(v.witness ? v.witness->why : v.verdict.detail)
          << "</p>\n<div class=\"figure\">\n" << trace_report_svg(s.trace, &tc) << "</div>\n";
        if (figure++ == 0) o << "<p>This figure is also <a href=\"report.svg\">report.svg</a>.</p>\n";
        if (v.witness && v.witness->instruction >= 0 && static_cast<std::size_t>(v.witness->instruction) < s.trace.instructions.size())
          o << trace_lanes_table(s.trace.instructions[static_cast<std::size_t>(v.witness->instruction)], v.witness->lanes);
      }
  }
  if (figure == 0) o << "<h2>No claim refuted</h2>\n<div class=\"figure\">\n" << compiled_report_svg(in) << "</div>\n";
  o << "</body>\n</html>\n";
  return o.str();
}

void write_compiled_report(const std::string& dir, const CompiledReportInput& in) {
  write_report_file(dir, "report.svg", compiled_report_svg(in));
  write_report_file(dir, "index.html", compiled_report_html(in));
}

}  // namespace layoutproof::cli
