#include "model/support/json.hpp"

#include <cstdio>

namespace layoutproof {

namespace {
// Length of the well-formed UTF-8 sequence at s[i], or 0 (Unicode 15, table 3-7).
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
  else return 0;
  if (i + n > s.size()) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(k) < 0x80 || b(k) > 0xbf) return 0;
  return n;
}
}  // namespace

std::size_t first_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

namespace {
// valid_utf8's step over the positions i..stop-1 of s (a sequence begun before stop is taken
// whole): well-formed sequences as they are, each ill-formed byte as U+FFFD. Returns where it
// stopped. Deciding position i reads s[i..i+3] at most.
std::size_t mend(std::string_view s, std::size_t i, std::size_t stop, std::string& out) {
  std::size_t run = i;  // the well-formed text since the last ill-formed byte goes in whole
  while (i < stop) {
    const std::size_t n = utf8_sequence(s, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out.append(s.substr(run, i - run));
    out += "\xef\xbf\xbd";  // U+FFFD REPLACEMENT CHARACTER
    run = ++i;
  }
  out.append(s.substr(run, i - run));
  return i;
}
}  // namespace

std::string valid_utf8(std::string_view s) {
  if (first_invalid_utf8(s) == std::string_view::npos) return std::string(s);
  std::string out;
  mend(s, 0, s.size(), out);
  return out;
}

void Utf8Mender::feed(std::string_view piece, std::string& out) {
  held_.append(piece);
  if (held_.size() < 4) return;
  // A position with 4 bytes after it is decided as in the whole text; later ones wait.
  held_.erase(0, mend(held_, 0, held_.size() - 3, out));
}

void Utf8Mender::finish(std::string& out) {
  mend(held_, 0, held_.size(), out);
  held_.clear();
}

std::string json_escape(const std::string& raw) {
  const std::string s = valid_utf8(raw);
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace layoutproof
