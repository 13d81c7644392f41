// The compiled-entry runner (proofs/check/compiled.hpp).
#include "proofs/check/compiled.hpp"

#include <filesystem>

#include "model/compiled/ptx_parse.hpp"  // demangle

namespace layoutproof::proofs {

namespace {

// "tests/ptx/basic.cu:34" -> {"tests/ptx/basic.cu", 34}; an absolute path under the folder the
// run started in becomes relative to it (code scanning wants the repository's relative paths:
// nvcc writes the path it was given, often absolute). Empty for no .loc.
SourceLocation cuda_location(const std::string& source) {
  const std::size_t colon = source.rfind(':');
  if (source.empty() || colon == std::string::npos || colon == 0) return {};
  const std::string digits = source.substr(colon + 1);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return {};
  std::string file = source.substr(0, colon);
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (!ec && std::filesystem::path(file).is_absolute()) {
    const std::filesystem::path rel = std::filesystem::path(file).lexically_relative(cwd);
    if (!rel.empty() && *rel.begin() != "..") file = rel.generic_string();
  }
  return {file, static_cast<int>(std::stol(digits)), 0};
}

// The opcode of a statement ("@%p1 st.shared.f32 [%r4], %f1;" -> "st.shared.f32").
std::string opcode_of(const std::string& text) {
  std::size_t b = text.find_first_not_of(" \t");
  if (b != std::string::npos && text[b] == '@') b = text.find_first_not_of(" \t", text.find_first_of(" \t", b));
  if (b == std::string::npos) return text;
  const std::size_t e = text.find_first_of(" \t;", b);
  return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// A result of the entry's check for claim c (its spec location), about `kernel` (and a site).
CheckResult result_for(const Check& entry, std::size_t c, const std::string& kernel, Verdict v) {
  const CompiledEntry& e = *std::get<CompiledSubject>(entry.subject).entry;
  CheckResult r{entry, std::move(v), {}};
  r.check.claim = {e.claims[c].text, e.claims[c]};
  r.check.origin.where = e.claim_where[c];
  r.check.origin.command = e.command + " --claim " + e.claims[c].text;
  InstructionSubject s;
  s.site.kernel = kernel;
  s.site.ptx.file = e.file;
  s.text = kernel;
  r.check.subject = std::move(s);
  return r;
}

}  // namespace

std::vector<CheckResult> compiled_kernel_results(const Check& entry, const std::string& kernel, const PtxKernelResult& kr) {
  const CompiledEntry& e = *std::get<CompiledSubject>(entry.subject).entry;
  std::vector<CheckResult> kernel_results;
  if (!kr.run) {  // not run (a deadline): each claim UNKNOWN for the kernel
    for (std::size_t c = 0; c < e.claims.size() && c < kr.unapplied.size(); ++c)
      if (kr.unapplied[c]) kernel_results.push_back(result_for(entry, c, kernel, *kr.unapplied[c]));
    return kernel_results;
  }
  const compiled::KernelRun& run = *kr.run;
  // A claim's result about one instruction: its compiled line and text, its CUDA line, and the
  // access text that names them ("kernel, file.ptx:LINE opcode").
  const auto at_instruction = [&](std::size_t c, const Verdict& v, auto line, const std::string& text, const std::string& source,
                                  const std::string& inlined) {
    CheckResult r = result_for(entry, c, kernel, v);
    InstructionSubject& is = std::get<InstructionSubject>(r.check.subject);
    is.site.ptx.line = static_cast<int>(line);
    is.site.instruction = text;
    r.check.origin.code = cuda_location(source);
    is.inlined = cuda_location(inlined);
    is.text = kernel + ", " + base_name(e.file) + ":" + std::to_string(line) + " " + opcode_of(text);
    return r;
  };
  for (std::size_t si = 0; si < run.sites.size(); ++si) {
    const compiled::Site& s = run.sites[si];
    std::shared_ptr<const AddressTrace> site_trace;  // the site's issues, for its witnesses alone
    for (std::size_t c = 0; c < e.claims.size(); ++c) {
      const PtxClaimResult& v = kr.verdicts[si][c];
      if (!v.applicable) continue;
      CheckResult r = at_instruction(c, v.verdict, s.line, s.text, s.source, s.inlined);
      InstructionSubject& is = std::get<InstructionSubject>(r.check.subject);
      const SourceLocation& code = r.check.origin.code;
      is.text += code.file.empty() ? "" : ", " + base_name(code.file) + ":" + std::to_string(code.line);
      if (!is.inlined.file.empty()) is.text += " (inlined from " + base_name(is.inlined.file) + ":" + std::to_string(is.inlined.line) + ")";
      if (v.witness) {  // its sentence names every lane, thread and address: the points would repeat it
        r.verdict.witness.why = v.witness->why;
        r.verdict.witness.points.clear();
        // Drawn on the site's issues (JSON addresses, --report): a copy of them, so that the
        // run is dropped with this kernel and a library of kernels holds one run at a time.
        if (!site_trace) site_trace = std::make_shared<const AddressTrace>(s.trace);
        r.evidence = TraceEvidence{*v.witness, site_trace, {}};
      }
      kernel_results.push_back(std::move(r));
    }
  }
  for (std::size_t ni = 0; ni < run.not_counted.size(); ++ni) {
    const compiled::NotCounted& n = run.not_counted[ni];
    for (std::size_t c = 0; c < e.claims.size(); ++c) {
      const PtxClaimResult& v = kr.not_counted[ni][c];
      if (!v.applicable) continue;
      CheckResult r = at_instruction(c, v.verdict, n.line, n.text, n.source, n.inlined);
      std::get<InstructionSubject>(r.check.subject).text += " (not counted)";
      kernel_results.push_back(std::move(r));
    }
  }
  for (std::size_t c = 0; c < e.claims.size(); ++c)
    if (kr.unapplied[c]) kernel_results.push_back(result_for(entry, c, kernel, *kr.unapplied[c]));
  return kernel_results;
}

std::vector<CheckResult> run_compiled(const Check& entry, const ProveOptions& o) {
  const CompiledEntry& e = *std::get<CompiledSubject>(entry.subject).entry;
  ProveOptions opts = o;
  if (e.deadline_s) {  // the entry's own limit, when it comes first
    const Deadline own = Deadline::in_seconds(*e.deadline_s, "deadline_s");
    if (!opts.smt.deadline.at || *own.at < *opts.smt.deadline.at) opts.smt.deadline = own;
  }
  std::vector<CheckResult> out;
  for (const PtxKernelLaunch& k : e.launches) {
    const std::string kernel = compiled::demangle(e.program->functions[k.entry].name);
    PtxKernelResult kr;
    try {
      kr = run_ptx_kernel(*e.program, k, e.claims, opts);
    } catch (const std::exception& ex) {  // a launch the executor refuses: no instruction was decided
      for (std::size_t c = 0; c < e.claims.size(); ++c)
        out.push_back(result_for(entry, c, kernel, Verdict::error("run " + kernel, ex.what())));
      continue;
    }
    for (auto& r : compiled_kernel_results(entry, kernel, kr)) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace layoutproof::proofs
