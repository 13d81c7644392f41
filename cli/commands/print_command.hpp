#pragma once
// `layoutproof print L [--elem-bytes E]`: a layout as a table of offsets (CuTe's print_layout)
// and, with an element size, the shared-memory bank of every element; `layoutproof eval L`.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "model/layout/composed.hpp"

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// The flag table of print or eval (`command`), for --help.
FlagTable layout_flags(const std::string& command);

// Writes the offset table, then (when elem_bytes is set) the bank table: bank = (offset*E/4) % 32.
// A rank-1 layout prints as one column; a layout of rank > 2 as one table per slice (_,_,k) of its
// modes 2.. (k colexicographic), each headed "slice (_,_,k):".
void print_layout_table(std::ostream& out, const AnyLayout& l, std::optional<int> elem_bytes);

// `layoutproof print L [--elem-bytes E] [-D NAME=EXPR ...]` and `layoutproof eval L [-D ...]`
// (L: CuTe notation or C++, through parse_layout_any_syntax). Return the exit code.
int run_print(const std::vector<std::string>& args, std::ostream& out);
int run_eval(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
