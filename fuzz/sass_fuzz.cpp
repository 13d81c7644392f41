// Fuzz target: the SASS reader (model/compiled/sass/sass_parse.hpp) and, on what it accepts, the
// executor (model/compiled/ptx_exec.hpp) for 32 and 64 threads with a small step budget. Invariants:
// malformed text is refused with a located ParseError or a LayoutError (never a crash); every
// accepted function runs to an answer or a LayoutError; each site's executed count is at least its
// distinct issues, and its wavefronts are at least its ideal when known.
#include "fuzz/fuzz_common.hpp"
#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"  // select_entries
#include "model/compiled/sass/sass_parse.hpp"

using namespace layoutproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  ptx::Program p;
  if (!fuzz::accepted([&] { p = ptx::parse_sass(fuzz::text_of(data, size), "fuzz.sass"); })) return 0;
  for (const std::size_t e : ptx::select_entries(p, ""))
    for (const i64 threads : {i64{32}, i64{64}}) {
      ptx::Launch l;
      l.block = {threads, 1, 1};
      l.params.assign(p.functions[e].params.size(), std::nullopt);
      l.fields.push_back({0, 8, 8, 0});
      l.max_warp_steps = 20000;
      l.dynamic_smem_bytes = 1024;
      ptx::KernelRun run;
      if (!fuzz::accepted([&] { run = ptx::run_kernel(p, e, l); })) continue;
      for (const ptx::Site& s : run.sites) {
        FUZZ_REQUIRE(s.executed >= static_cast<i64>(s.trace.instructions.size()), "executed >= distinct issues", s.text,
                     std::to_string(s.executed));
        FUZZ_REQUIRE(!s.counts_known || s.wavefronts >= s.ideal, "wavefronts >= ideal", s.text, std::to_string(s.wavefronts));
      }
    }
  return 0;
}
