// Found reading the third-party corpus's SASS (FSEL R28, RZ, 1, P0 in llm.c and cuda-samples
// kernels; FMUL.FTZ R12, R0, 1): nvdisasm writes the float 1.0 as the immediate "1". FSEL's
// operands were read as integers, so the model held the bits 0x00000001 (a subnormal) where the GPU
// holds 0x3f800000: a wrong value, not an unknown one, which an F2I would have carried into an
// address. Fixed: a float instruction's integer-looking immediate is that float (Lowering::fsrc).
#include <gtest/gtest.h>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/sass/sass_parse.hpp"

namespace layoutproof::compiled {
namespace {

TEST(Regression, FselIntegerImmediateIsAFloat) {
  const char* sass = "\tcode for sm_90\n\t\tFunction : k\n"
                     "        /*0000*/                   S2R R0, SR_TID.X ;\n"
                     "        /*0010*/                   ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n"
                     "        /*0020*/                   FSEL R1, RZ, 1, P0 ;\n"
                     "        /*0030*/                   F2I.FTZ.U32.TRUNC.NTZ R2, R1 ;\n"
                     "        /*0040*/                   IMAD.SHL.U32 R3, R2, 0x80, RZ ;\n"
                     "        /*0050*/                   STS [R3+0x400], R0 ;\n"
                     "        /*0060*/                   EXIT ;\n";
  Program p = parse_sass(sass, "fsel.sass");
  decode_with_callees(p, 0);
  Launch l;
  l.block = {32, 1, 1};
  const KernelRun r = run_kernel(p, 0, l);
  ASSERT_EQ(r.sites.size(), 1u);
  ASSERT_TRUE(r.sites[0].counts_known) << r.sites[0].unknown;
  const auto& a = r.sites[0].trace.instructions.at(0).addr;
  // Lanes 16.. select RZ (0.0), lanes 0-15 the immediate 1.0: F2I gives 1, the store 0x400 + 0x80.
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(a[static_cast<std::size_t>(k)], k >= 16 ? 0x400 : 0x480) << "lane " << k;
}

}  // namespace
}  // namespace layoutproof::compiled
