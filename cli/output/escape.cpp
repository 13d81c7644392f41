#include "cli/output/escape.hpp"

#include "model/support/json.hpp"

#include <cstdio>

namespace layoutproof::cli {

std::string json_escape(const std::string& s) { return layoutproof::json_escape(s); }

std::string json_str(const std::string& s) { return "\"" + json_escape(s) + "\""; }

namespace {
std::string hex_escape(char ch) {
  char b[8];
  std::snprintf(b, sizeof b, "\\x%02x", static_cast<unsigned char>(ch));
  return b;
}
}  // namespace

std::string xml_escape(const std::string& raw) {
  const std::string s = valid_utf8(raw);  // XML (and HTML, SVG) must stay valid UTF-8
  std::string o;
  o.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') o += hex_escape(ch);
        else o += ch;
    }
  }
  return o;
}

std::string shell_quote(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:./,=@") == std::string::npos)
    return a;
  std::string q = "'";
  for (char ch : a) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string terminal_text(const std::string& raw) {
  const std::string s = valid_utf8(raw);
  std::string o;
  o.reserve(s.size());
  std::size_t from = 0;  // the text between control characters goes in whole: a library's table is megabytes
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch >= 0x20 && ch != 0x7f) continue;
    o.append(s, from, i - from);
    o += hex_escape(s[i]);
    from = i + 1;
  }
  o.append(s, from);
  return o;
}

std::string command_line(const std::string& head, const std::vector<std::string>& args) {
  std::string c = head;
  for (const std::string& a : args) c += " " + shell_quote(a);
  return c;
}

}  // namespace layoutproof::cli
