#pragma once
// `layoutproof raster trace KIND ...` and `layoutproof raster prove KIND ...` for the persistent
// tile schedulers (model/raster/persistent.hpp, proofs/raster/scheduler.hpp):
//
//   layoutproof raster trace sm90-persistent --tiles M,N,L [--cluster X,Y] [--max-swizzle S]
//                            [--raster along-m|along-n|heuristic] [--sms N] [--max-active-clusters C] [--json]
//   layoutproof raster prove sm90-persistent [the same flags] --claim exactly-once|in-range|balance
//                            [--max-tiles B] [--deadline-s S] [--json]
//
// trace --json prints {"ctas":[{"cta":i,"work":[{"iter":k,"group":0,"m":..,"n":..,"l":..}]}],"grid":[x,y,z]}
// (cta = x + gx*(y + gy*z) of get_grid_shape's grid; iter from 0 along the CTA's loop).
// prove fixes the flags given and enumerates the others over a stated domain (tiles M, N in
// [1, --max-tiles], L in {1, 2}; clusters 1x1, 2x1, 1x2, 2x2; max swizzle 1, 2, 4, 8; the three
// rasters; SMs 1, 3, 8, 132), smallest configurations first.
// --report DIR (trace and prove, every kind) draws the schedule (cli/output/scheduler_report.hpp):
// prove draws the first refuted claim's witness configuration, else the domain's first. DIR is
// prepared before any work, so one that cannot be written exits 2 at once.
// Exit codes: 0 traced or proved, 1 refuted, 2 bad input, 3 unknown.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// The flag table of raster trace and raster prove for the scheduler kinds (sub: trace or prove), for --help.
FlagTable scheduler_flags(const std::string& sub);

// True when KIND is a scheduler kind this command takes (sm90-persistent).
bool is_scheduler_kind(const std::string& kind);
int run_scheduler_command(const std::string& sub, const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
