#pragma once
// RapidCheck generators for the persistent tile schedulers (model/raster/persistent.hpp).
// Header-only; link layoutproof_properties. Valid by construction (validate() takes every draw),
// shrinking toward CUTLASS's defaults: cluster 1x1, max swizzle 1, the heuristic raster, small SMs.
//
//   symbolic_fixed()  the parameters the symbolic engine fixes (proofs/smt/scheduler_z3.cpp) with
//     the tiles left free: cluster (1, 2 or 4 per mode), max swizzle 1, 2, 4 or 8, the raster, the
//     SM count (1 to 160, the odd counts that leave GPCs part-filled included) and
//     max_active_clusters (0, CUTLASS's occupancy rule, or 1 to 12), e.g.
//     {cluster 2x1, max swizzle 4, raster heuristic, 17 SMs, max_active_clusters 0}
#include <ostream>

#include <rapidcheck.h>

#include "model/raster/persistent.hpp"

namespace layoutproof {

inline void showValue(const raster::PersistentConfig& c, std::ostream& os) {
  const char* r = c.raster == raster::RasterOption::heuristic ? "heuristic" : c.raster == raster::RasterOption::along_m ? "along-m" : "along-n";
  os << "cluster " << c.cluster_m << "x" << c.cluster_n << ", max swizzle " << c.max_swizzle << ", raster " << r << ", " << c.sms
     << " SMs, max_active_clusters " << c.max_active_clusters;
}

namespace gen {

inline rc::Gen<raster::PersistentConfig> symbolic_fixed() {
  return rc::gen::exec([] {
    raster::PersistentConfig c;
    c.cluster_m = *rc::gen::element<std::int64_t>(1, 2, 4);
    c.cluster_n = *rc::gen::element<std::int64_t>(1, 2, 4);
    c.max_swizzle = *rc::gen::element<std::int64_t>(1, 2, 4, 8);
    c.raster = *rc::gen::element(raster::RasterOption::heuristic, raster::RasterOption::along_m, raster::RasterOption::along_n);
    c.sms = *rc::gen::oneOf(rc::gen::element<std::int64_t>(1, 3, 8, 17, 132), rc::gen::inRange<std::int64_t>(1, 161));
    c.max_active_clusters = *rc::gen::oneOf(rc::gen::just<std::int64_t>(0), rc::gen::inRange<std::int64_t>(1, 13));
    return c;
  });
}

}  // namespace gen
}  // namespace layoutproof
