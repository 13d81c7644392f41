// Fuzz target: the SASS reader (model/compiled/sass_parse.hpp) and, on what it accepts, the one
// executor (model/compiled/ptx_exec.hpp) for a 32- and a 64-thread block with a small step budget.
// Invariants: malformed text is refused with a located ParseError, anything else the model refuses
// with a LayoutError (never a crash, a hang or another exception); every accepted function runs to
// an answer or a LayoutError; each site's executed count is at least its distinct issues, and its
// wavefronts are at least its ideal when known.
#include "fuzz/fuzz_compiled.hpp"
#include "model/compiled/sass/sass_parse.hpp"

using namespace layoutproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  compiled::Program p;
  if (!fuzz::accepted([&] { p = compiled::parse_sass(fuzz::text_of(data, size), "fuzz.sass"); })) return 0;
  for (std::size_t e = 0; e < p.functions.size(); ++e) {
    if (!p.functions[e].is_entry) continue;
    for (const i64 threads : {i64{32}, i64{64}}) {
      compiled::Launch l;
      l.block = {threads, 1, 1};
      l.params.assign(p.functions[e].params.size(), compiled::u64{16});
      l.max_warp_steps = 20000;
      l.dynamic_smem_bytes = 1024;
      compiled::KernelRun run;
      if (!fuzz::accepted([&] { run = compiled::run_kernel(p, e, l); })) continue;
      fuzz::check_sites(run);
    }
  }
  return 0;
}
