#pragma once
// `layoutproof tensor-map [SPEC ...] [--tensor-maps FILE] [--json]`: decides tensor-map-valid on
// tensor maps as the host encodes them (model/hopper/tensor_map.hpp): each --tensor-map SPEC and
// each line of a capture (JSON lines of cuTensorMapEncodeTiled's arguments).
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"
#include "model/hopper/tensor_map.hpp"

namespace layoutproof::cli {

// One tensor map of the input: where it came from ("argument 1", "maps.jsonl:3"), the kernel and
// parameter a capture names ("" when none), the map.
struct NamedTensorMap {
  std::string where, kernel, param;
  hopper::TensorMap map;
};
// The tensor maps of a capture: one JSON object per line with the keys kernel, param, dtype, dims,
// strides, box, elem_strides, interleave, swizzle, l2, oob, address (blank lines skipped). Throws
// LayoutError "FILE:LINE: ..." for a line that is not such an object: malformed JSON, an unknown
// key, a value of the wrong kind, a dtype or swizzle the hardware lacks.
std::vector<NamedTensorMap> read_tensor_maps(const std::string& path);

FlagTable tensor_map_flags();

// Exit 0: every map valid; 1: some map REFUTED; 2 (LayoutError): bad input, or no map given.
int run_tensor_map(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
