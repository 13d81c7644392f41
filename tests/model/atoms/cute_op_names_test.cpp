// Every MMA and copy op CUTLASS's CuTe headers define is either modelled (find_mma_atom /
// find_copy_op find it, with the template arguments it needs) or refused with a reason
// (unmodelled_mma_reason / unmodelled_copy_reason), never silently unknown. The names are
// tests/model/atoms/cute_op_names.txt, generated from /work/cutlass by
// tools/cute_reference/list_cute_ops.py (the command is in the file's header).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/atoms/cute_atoms.hpp"
#include "model/atoms/name_suggest.hpp"
#include "model/layout/notation.hpp"
#include "tests/model/atoms/atom_samples.hpp"

namespace layoutproof {
namespace {

struct OpName {
  bool mma;
  std::string name;
};

std::vector<OpName> cutlass_op_names() {
  std::ifstream in(std::string(LAYOUTPROOF_TESTS_DIR) + "/model/atoms/cute_op_names.txt");
  std::vector<OpName> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string kind, name;
    f >> kind >> name;
    out.push_back({kind == "mma", name});
  }
  return out;
}

TEST(CuteAtomCoverage, EveryCutlassOpIsModelledOrRefusedWithAReason) {
  const std::vector<OpName> names = cutlass_op_names();
  ASSERT_GT(names.size(), 2000u);  // the GMMA atoms alone are over a thousand
  int modelled = 0, refused = 0;
  for (const OpName& op : names) {
    const auto reason = op.mma ? unmodelled_mma_reason(op.name) : unmodelled_copy_reason(op.name);
    if (reason) {
      // A refused op is not also found: the two lists do not overlap.
      const bool found = op.mma ? find_mma_atom(op.name, test::sample_mma_targs(op.name)).has_value()
                                : find_copy_op(op.name, test::sample_copy_targs(op.name)).has_value();
      EXPECT_FALSE(found) << op.name << " is modelled and refused";
      EXPECT_GT(reason->size(), 20u) << op.name;
      ++refused;
      continue;
    }
    try {
      const bool found = op.mma ? find_mma_atom(op.name, test::sample_mma_targs(op.name)).has_value()
                                : find_copy_op(op.name, test::sample_copy_targs(op.name)).has_value();
      EXPECT_TRUE(found) << (op.mma ? "MMA " : "copy ") << op.name << " is neither modelled nor refused with a reason";
      modelled += found;
    } catch (const std::exception& e) {
      ADD_FAILURE() << op.name << ": " << e.what();
    }
  }
  EXPECT_GT(modelled, 1100);
  EXPECT_GT(refused, 100);
}

// The ops added from mma_traits_sm70/sm89/sm100/sm120 and copy_traits_sm100, against the traits.
TEST(CuteAtomCoverage, NewAtomsAsTheTraitsStateThem) {
  const auto sm89 = find_mma_atom("SM89_16x8x32_F32E4M3E5M2F32_TN");
  ASSERT_TRUE(sm89);
  EXPECT_EQ(to_string(sm89->a_tv), "((4,8),(4,2,2)):((64,1),(16,8,256))");
  EXPECT_EQ(to_string(sm89->b_tv), "((4,8),(4,2)):((32,1),(8,128))");
  EXPECT_EQ(sm89->a_type, "float_e4m3_t");
  EXPECT_EQ(sm89->b_type, "float_e5m2_t");
  const auto sm70 = find_mma_atom("SM70_8x8x4_F32F16F16F32_NT");
  ASSERT_TRUE(sm70);
  EXPECT_EQ(to_string(sm70->thr_id), "(4,2):(1,16)");
  EXPECT_EQ(to_string(sm70->a_tv), "((4,2),4):((8,4),1)");
  EXPECT_EQ(to_string(sm70->c_tv), "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))");
  const auto sm120 = find_mma_atom("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,32>");
  ASSERT_TRUE(sm120);
  EXPECT_EQ(sm120->k, 64);
  EXPECT_EQ(to_string(sm120->a_tv), "((4,8),(8,2,2)):((128,1),(16,8,512))");
  EXPECT_EQ(sm120->a_type, "uint4_t");
  EXPECT_THROW(find_mma_atom("SM120_16x8x32_TN", {"float_e2m1_t", "half_t", "float"}), LayoutError);  // no such specialization
  EXPECT_THROW(find_mma_atom("SM120_16x8x64_TN_VS", {"float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", "48"}), LayoutError);
  const auto ffma2 = find_mma_atom("SM100_2x1x1_F32F32F32F32");
  ASSERT_TRUE(ffma2);
  EXPECT_EQ(to_string(ffma2->a_tv), "(1,2):(0,1)");
  const auto ldsm = find_copy_op("SM100_U8x8_LDSM_T");
  ASSERT_TRUE(ldsm);
  EXPECT_EQ(to_string(ldsm->src), "((2,2,4,2),128):((128,1024,256,0),1)");
  EXPECT_EQ(ldsm->matrices, 2);  // lanes 0-15 address a row
  const auto stsm = find_copy_op("SM100_U8x16_STSM_T");
  ASSERT_TRUE(stsm);
  EXPECT_EQ(to_string(stsm->dst), "(32,128):(128,1)");
  EXPECT_EQ(to_string(stsm->ref), to_string(stsm->src));
  EXPECT_EQ(find_mma_atom("SM90::MMA_16x8x8_F64F64F64F64_TN")->name, "SM90_16x8x8_F64F64F64F64_TN");
}

TEST(CuteAtomCoverage, SuggestionsNameTheClosest) {
  EXPECT_EQ(name_hint("SM75_U32x4_LDSM_M", copy_op_names()), " (did you mean SM75_U32x4_LDSM_N?)");
  EXPECT_EQ(name_hint("SM80_16x8x16_F32F16F16F32_NT", mma_atom_names()), " (did you mean SM80_16x8x16_F32F16F16F32_TN?)");
  const std::string far = name_hint("SM99_FOO", copy_op_names());
  EXPECT_EQ(far.rfind("; the closest known: ", 0), 0u) << far;
  EXPECT_EQ(std::count(far.begin(), far.end(), ','), 3) << far;  // four names, not the whole table
  EXPECT_EQ(name_hint("x", {}), "");
  EXPECT_EQ(closest("halft", type_names(), 1), std::vector<std::string>{"half_t"});
}

TEST(CuteTypes, KernelSpellings) {
  EXPECT_EQ(type_bits("cutlass::float_e4m3_t"), 8);
  EXPECT_EQ(type_bits("cutlass::detail::float_e2m1_unpacksmem_t"), 4);
  EXPECT_EQ(type_bits("detail::float_e3m2_unpack8bits_t"), 8);
  EXPECT_EQ(type_bits("float_ue8m0_t"), 8);
  EXPECT_EQ(type_bits("type_erased_dynamic_float6_t"), 6);
  EXPECT_EQ(type_bits("complex<float_e4m3_t>"), 16);
  EXPECT_EQ(type_bits("complex<complex<double>>"), 256);
  EXPECT_EQ(type_bits("complex<uint1b_t>"), 16);  // a sub-byte integer still takes a byte
  EXPECT_EQ(type_bits("bool"), 1);                 // sizeof_bits<bin1_t>
  EXPECT_FALSE(type_bits("complex<nothing_t>"));
}

}  // namespace
}  // namespace layoutproof
