#pragma once
// `layoutproof print L [--elem-bytes E]`: a 2-D layout as a table of offsets (CuTe's
// print_layout) and, with an element size, the shared-memory bank of every element.
#include <iosfwd>
#include <optional>

#include "model/composed.hpp"

namespace layoutproof::cli {

// Writes the offset table, then (when elem_bytes is set) the bank table: bank = (offset*E/4) % 32.
// @pre rank(l) <= 2 (a rank-1 layout prints as one column).
void print_layout_table(std::ostream& out, const AnyLayout& l, std::optional<int> elem_bytes);

}  // namespace layoutproof::cli
