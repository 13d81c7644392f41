// Fuzz target: the PTX reader (model/compiled/ptx_parse.hpp) and, on what it accepts, the executor
// (model/compiled/ptx_exec.hpp) for one warp with a small step budget. Invariants: malformed text is
// refused with a located ParseError (never a crash); every accepted kernel runs to an answer or a
// LayoutError; each site's executed count is at least its distinct issues, and its wavefronts are
// at least its ideal when known.
#include "fuzz/fuzz_compiled.hpp"
#include "model/compiled/ptx_parse.hpp"

using namespace layoutproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  compiled::Program p;
  if (!fuzz::accepted([&] { p = compiled::parse_ptx(fuzz::text_of(data, size), "fuzz.ptx"); })) return 0;
  for (const std::size_t e : compiled::select_entries(p, "")) {
    if (!fuzz::accepted([&] { compiled::decode_with_callees(p, e); })) continue;
    compiled::Launch l;
    l.block = {32, 1, 1};
    l.params.assign(p.functions[e].params.size(), compiled::u64{16});
    l.max_warp_steps = 20000;
    l.dynamic_smem_bytes = 1024;
    compiled::KernelRun run;
    if (!fuzz::accepted([&] { run = compiled::run_kernel(p, e, l); })) continue;
    fuzz::check_sites(run);
  }
  return 0;
}
