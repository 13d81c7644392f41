#include "cli/escape.hpp"

#include "model/json.hpp"

#include <cstdio>

namespace layoutproof::cli {

std::string json_escape(const std::string& s) { return layoutproof::json_escape(s); }

std::string json_str(const std::string& s) { return "\"" + json_escape(s) + "\""; }

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += ch;
    }
  }
  return o;
}

}  // namespace layoutproof::cli
