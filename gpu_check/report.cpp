#include "gpu_check/report.hpp"

#include <cstdio>

namespace layoutproof::gpu {

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += c;
  }
  return o;
}

namespace {

std::string agree_text(const Check& c) {
  if (!c.outcome.measured_ok) return "NOT MEASURED";
  return c.outcome.agree ? "yes" : "NO";
}

std::string cell(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? '/' : c;
  return o;
}

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

}  // namespace

int print_table(std::ostream& os, const std::vector<CheckResult>& results, const std::string& device) {
  os << "layoutproof-gpu on " << device << "\n\n";
  os << "| check | kind | claim | predicted | measured | agree |\n| --- | --- | --- | --- | --- | --- |\n";
  int disagree = 0, wrong = 0, caught = 0, agree = 0;
  for (const CheckResult& r : results) {
    const Check& c = *r.check;
    os << "| " << cell(c.name) << " | " << to_string(c.kind) << " | " << cell(c.claim) << " | " << cell(c.outcome.predicted)
       << " | " << cell(c.outcome.measured) << (c.outcome.note.empty() ? "" : " (" + cell(c.outcome.note) + ")") << " | "
       << agree_text(c) << " |\n";
    if (c.outcome.measured_ok && c.outcome.agree) ++agree; else ++disagree;
    if (c.deliberately_wrong) {
      ++wrong;
      if (c.outcome.measured_ok && c.outcome.claim_holds == false) ++caught;
    }
  }
  os << "\n" << results.size() << " checks: " << agree << " agree, " << disagree << " disagree or not measured; "
     << "deliberately wrong claims refuted on the device: " << caught << "/" << wrong << "\n";
  return disagree;
}

void print_json(std::ostream& os, const std::vector<CheckResult>& results, const std::string& device) {
  os << "{\"device\": \"" << json_escape(device) << "\", \"checks\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Check& c = *results[i].check;
    os << "  {\"name\": \"" << json_escape(c.name) << "\", \"kind\": \"" << to_string(c.kind) << "\", \"claim\": \""
       << json_escape(c.claim) << "\", \"predicted\": \"" << json_escape(c.outcome.predicted) << "\", \"measured\": \""
       << json_escape(c.outcome.measured) << "\", \"measured_ok\": " << (c.outcome.measured_ok ? "true" : "false")
       << ", \"agree\": " << (c.outcome.measured_ok && c.outcome.agree ? "true" : "false") << ", \"claim_holds\": "
       << (c.outcome.claim_holds ? (*c.outcome.claim_holds ? "true" : "false") : "null")
       << ", \"deliberately_wrong\": " << (c.deliberately_wrong ? "true" : "false") << ", \"note\": \""
       << json_escape(c.outcome.note) << "\"";
    if (c.reference) os << ", \"reference_wavefronts\": " << num(*c.reference);
    if (!results[i].instructions.empty()) {
      os << ", \"instructions\": [";
      for (std::size_t k = 0; k < results[i].instructions.size(); ++k) {
        const InstructionResult& x = results[i].instructions[k];
        os << (k ? ", " : "") << "{\"case\": \"" << x.probe_case << "\", \"op\": \"" << x.op << "\", \"width\": " << x.width
           << ", \"predicted\": " << x.predicted << ", \"ncu\": " << (x.ncu < 0 ? "null" : num(x.ncu))
           << ", \"clock\": " << (x.clock < 0 ? "null" : num(x.clock)) << "}";
      }
      os << "]";
    }
    os << "}" << (i + 1 < results.size() ? "," : "") << "\n";
  }
  os << "]}\n";
}

}  // namespace layoutproof::gpu
