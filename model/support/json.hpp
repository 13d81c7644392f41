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

}  // namespace layoutproof
