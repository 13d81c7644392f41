#pragma once
// The counterexample report of a bank claim (`prove ... --report DIR`): DIR/report.svg and
// DIR/index.html (which embeds the same SVG inline and links the file).
//
// Panel 1 draws the tile as a rows x cols grid of elements, each cell coloured by the bank of its
// first byte with the bank number printed; the witness instruction's lanes are outlined (thin:
// the other active lanes of the conflicting phase; thick red, labelled "L<lane>": the lanes that
// hit the conflicting bank). Panel 2 shows that phase as 32 bank columns: each lane's words stacked
// in their bank, one row per distinct word (= one wavefront), so a conflict is a tall column.
// The legend gives the colour of every bank.
#include <string>
#include <vector>

#include "cli/output/escape.hpp"
#include "proofs/claims/bank_claims.hpp"

namespace layoutproof::cli {

struct BankReportInput {
  std::string command;   // the command line that produced it
  std::string claim;     // claim text
  proofs::BankSubject subject;
  proofs::BankResult result;
};

std::string bank_report_svg(const BankReportInput& in);
// The detail page of one claim: the figure inline, linked as `svg_file`, and the witness lanes.
std::string bank_report_html(const BankReportInput& in, const std::string& svg, const std::string& svg_file = "report.svg");
// Writes DIR/report.svg and DIR/index.html into a report folder being built (publish_report_folder,
// cli/output/atomic_file.hpp; DIR itself is created). Throws LayoutError on a file error.
void write_bank_report(const std::string& dir, const BankReportInput& in);

// The summary page (DIR/index.html) of a run with several claims: a table of every claim with its
// verdict, its witness or reason on one line and a link to its detail (`href`, a page in DIR;
// empty: the claim's entry further down the same page), then `figure` (an SVG, may be empty).
// `command`: the command line that decides the claim alone (a spec's kernel, compiled or
// scheduler claim), shown in its entry; empty: none. `counts`: the summary line (summary_line,
// cli/output/results.hpp) when the rows collapse some claims; empty: the rows' own counts.
struct ReportRow {
  std::string subject, claim, verdict, method, summary, href, command;
};
std::string report_index_html(const std::string& title, const std::string& command, const std::vector<ReportRow>& rows,
                              const std::string& figure, const std::string& counts = "");

// prove --report DIR: each claim's detail page DIR/claimN.html (N = 1, 2, ...) with its figure
// DIR/claimN.svg, DIR/report.svg (the figure of the first refuted claim, else of the first claim)
// and the summary DIR/index.html, which shows that figure too, written into a report folder being
// built (publish_report_folder). Throws LayoutError on a file error.
void write_bank_reports(const std::string& dir, const std::vector<BankReportInput>& claims);

}  // namespace layoutproof::cli
