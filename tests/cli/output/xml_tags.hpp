#pragma once
// A small XML well-formedness check for the report tests (report_check.cpp, trace_report_check.cpp):
// tags nest and close in order (void HTML tags excepted). "" when they do, else what went wrong.
#include <regex>
#include <string>
#include <vector>

namespace layoutproof::cli {

inline std::string check_tags(const std::string& doc, bool html) {
  std::vector<std::string> stack;
  const std::regex tag(R"(<(/?)([A-Za-z][A-Za-z0-9]*)([^>]*?)(/?)>)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2], close = (*it)[1], self = (*it)[4];
    if (!self.empty() || (html && (name == "meta" || name == "br"))) continue;
    if (close.empty()) stack.push_back(name);
    else if (stack.empty() || stack.back() != name) return "unexpected </" + name + ">";
    else stack.pop_back();
  }
  return stack.empty() ? "" : "unclosed <" + stack.back() + ">";
}

}  // namespace layoutproof::cli
