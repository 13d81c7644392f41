#pragma once
// JSON string escaping for every machine-readable output (model/trace/trace.cpp, cli/output/escape.hpp):
// ", \ and control characters. Plain C++ so model/ can use it without depending on cli/.
#include <string>

namespace layoutproof {

std::string json_escape(const std::string& s);

}  // namespace layoutproof
