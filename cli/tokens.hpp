#pragma once
// Splitting a command line into CuTe-notation arguments.
#include <string>
#include <string_view>
#include <vector>

namespace layoutproof::cli {

// Splits on white space outside (), [] and <>, then glues `X o Y` into one argument, so that a
// swizzled layout `Sw<3,4,3> o _0 o (8,64):(64,1)` is one argument even when unquoted.
std::vector<std::string> tokenize(std::string_view line);

}  // namespace layoutproof::cli
