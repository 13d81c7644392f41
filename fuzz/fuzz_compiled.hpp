#pragma once
// The invariants every compiled-kernel fuzz target (ptx_fuzz.cpp, sass_fuzz.cpp) checks on a run:
// each site's executed count is at least its distinct issues, and its wavefronts are at least its
// ideal when known.
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "model/compiled/ptx_exec.hpp"

namespace layoutproof::fuzz {

inline void check_sites(const compiled::KernelRun& run) {
  for (const compiled::Site& s : run.sites) {
    FUZZ_REQUIRE(s.executed >= static_cast<i64>(s.trace.instructions.size()), "executed >= distinct issues", s.text,
                 std::to_string(s.executed));
    FUZZ_REQUIRE(!s.counts_known || s.wavefronts >= s.ideal, "wavefronts >= ideal", s.text, std::to_string(s.wavefronts));
  }
}

}  // namespace layoutproof::fuzz
