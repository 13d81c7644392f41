#pragma once
// `layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula 'x = ...; y = ...']
//                    [--max-grid N] [--claim bijective|injective|in-bounds|surjective]...
//                    [--engine z3|exhaustive|auto] [--timeout-ms N] [--dump-smt DIR] [--json]`
// `layoutproof raster locality --m M --n N --k K [--sms S] [--tile MxNxK] [--elem-bytes E]
//                    [--tile-size T] [--formula F] [--json]`
// KIND: row-major, seed, seed-fixed, cutlass, morton, formula (model/raster/raster.hpp).
// Exit code (prove): 0 all proved, 1 any refuted, 3 any unknown or error; locality: 0.
// Bad input throws LayoutError / ParseError (main maps it to 2).
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// The flag table of raster prove (rasterizations) or raster locality (sub), for --help.
FlagTable raster_flags(const std::string& sub);

int run_raster(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
