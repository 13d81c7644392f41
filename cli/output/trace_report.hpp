#pragma once
// The report of claims over a kernel's copy (`trace ... --claim C --report DIR`): DIR/index.html
// (the trace, every claim's verdict, and per refuted claim its figure and the witness
// instruction's 32 lanes) and DIR/report.svg (the figure of the first refuted claim; with none
// refuted, the first instruction on the smem tile).
//
// The figure draws one stage of the smem tensor as a grid (mode 0 down, mode 1 across; the
// remaining modes select the stage of the witness), each element coloured by the bank of its byte
// address as the trace records it. The witness lanes' CPY slices are outlined thick red and
// labelled L<lane>; the other active lanes of the same phase, dashed. For covers, elements moved
// twice (stores) or never are outlined instead. A bank claim adds the conflicting phase as 32 bank
// columns (cli/output/svg.hpp, the same drawing as `prove --report`).
#include <string>
#include <vector>

#include "model/trace/trace.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::cli {

struct TraceReportClaim {
  std::string claim;              // as written
  proofs::TraceResult result;
};

struct TraceReportInput {
  std::string command;            // the command line that produced it
  const AddressTrace* trace = nullptr;
  std::vector<TraceReportClaim> claims;
};

// The figure of one claim (nullptr: the overview of instruction 0).
std::string trace_report_svg(const AddressTrace& t, const TraceReportClaim* claim);
std::string trace_report_html(const TraceReportInput& in);
// The HTML table of one instruction's 32 lanes (thread, coordinate, address, banks), `hot` lanes marked.
std::string trace_lanes_table(const TraceInstruction& in, const std::vector<int>& hot);
// Writes DIR/report.svg and DIR/index.html (creating DIR). Throws LayoutError on a file error.
void write_trace_report(const std::string& dir, const TraceReportInput& in);

}  // namespace layoutproof::cli
