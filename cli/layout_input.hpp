#pragma once
// What every layout-taking command shares on its command line: `-D NAME=EXPR` constants for C++
// input and the help text that says C++ is accepted. The layout itself goes through the one input
// path, parse_layout_any_syntax / parse_layout_or_swizzle (model/source/cpp_source.hpp).
#include <string>
#include <vector>

#include "model/source/cpp_source.hpp"

namespace layoutproof::cli {

// -D NAME=EXPR, -DNAME=EXPR or --define NAME=EXPR at args[i]: adds the constant, advances i past
// its value and returns true; false (i unchanged) for any other argument. NAME may be qualified
// (DispatchPolicy::Stages). Throws LayoutError on a malformed definition.
bool take_define(const std::vector<std::string>& args, std::size_t& i, CppConstants& constants);

// The lines every layout-taking command's --help ends with: C++ is accepted, with an example:
// `command` (how the example starts: "layoutproof eval"), then the quoted C++ layout `example`
// (default: a swizzled tile_to_shape with -D bM, bK), then `rest` (further flags).
std::string cpp_input_help(const std::string& command, const std::string& example = "", const std::string& rest = "");

}  // namespace layoutproof::cli
