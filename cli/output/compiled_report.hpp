#pragma once
// The report of `layoutproof ptx|sass ... --report DIR`: DIR/index.html (the launch of each kernel,
// every shared-memory instruction with Nsight Compute's counts and its verdicts, and per refuted
// claim its figure and the witness issue's 32 lanes) and DIR/report.svg (the figure of the first
// refuted claim; with none refuted, the first instruction's first issue). The figure is the one
// `trace --report` draws for a trace (cli/output/trace_report.hpp): a compiled instruction's issues
// are a trace, so the conflicting phase is drawn as the same 32 bank columns.
#include <string>
#include <vector>

#include "model/compiled/ptx_ir.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::cli {

struct CompiledReportInput {
  std::string command;                               // the command line that produced it
  const compiled::Program* program = nullptr;
  const std::vector<proofs::PtxKernelResult>* kernels = nullptr;
  const std::vector<proofs::PtxClaim>* claims = nullptr;
};

std::string compiled_report_html(const CompiledReportInput& in);
std::string compiled_report_svg(const CompiledReportInput& in);
// Writes DIR/report.svg and DIR/index.html into a report folder being built (publish_report_folder,
// cli/output/atomic_file.hpp). Throws LayoutError on a file error.
void write_compiled_report(const std::string& dir, const CompiledReportInput& in);

}  // namespace layoutproof::cli
