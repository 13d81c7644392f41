#pragma once
// JSON string escaping for every machine-readable output (model/trace/trace.cpp, cli/output/escape.hpp):
// ", \ and control characters. Plain C++ so model/ can use it without depending on cli/.
#include <string>
#include <string_view>

namespace layoutproof {

std::string json_escape(const std::string& s);

// The offset of the first byte of `s` that does not begin a well-formed UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF are ill-formed), or npos when all of `s` is UTF-8.
std::size_t first_invalid_utf8(std::string_view s);
// `s` with every ill-formed byte replaced by U+FFFD, so JSON, XML and HTML built from it stay
// valid UTF-8 whatever a file name or a spec's bytes hold. Example: "a\xffb" -> "a<U+FFFD>b".
std::string valid_utf8(std::string_view s);

// valid_utf8 over a text that arrives in pieces (an output streamed into its file): feed()
// appends to `out` the mended text of every byte it can decide, keeping back the last 3 (a
// sequence the next piece may complete); finish() appends the rest. Wherever the text is cut, the
// pieces' output is valid_utf8 of the whole.
// Example: feed("a\xe2\x82") -> "", feed("\xac\xff") -> "a<U+20AC>", finish() -> "<U+FFFD>".
class Utf8Mender {
 public:
  void feed(std::string_view piece, std::string& out);
  void finish(std::string& out);

 private:
  std::string held_;
};

}  // namespace layoutproof
