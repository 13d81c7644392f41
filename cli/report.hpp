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

#include "cli/escape.hpp"
#include "proofs/bank_claims.hpp"

namespace layoutproof::cli {

struct BankReportInput {
  std::string command;   // the command line that produced it
  std::string claim;     // claim text
  proofs::BankSubject subject;
  proofs::BankResult result;
};

std::string bank_report_svg(const BankReportInput& in);
std::string bank_report_html(const BankReportInput& in, const std::string& svg);
// Writes DIR/report.svg and DIR/index.html (creating DIR). Throws LayoutError on a file error.
void write_bank_report(const std::string& dir, const BankReportInput& in);

}  // namespace layoutproof::cli
