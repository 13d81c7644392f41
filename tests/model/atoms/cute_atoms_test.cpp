// model/atoms/cute_atoms.hpp: the atoms as CUTLASS states them. The expected layouts below were written by
// hand from CUTLASS's source (include/cute/atom/mma_traits_sm80.hpp, mma_traits_sm90_gmma.hpp,
// copy_traits_sm75.hpp, copy_traits_sm90.hpp, copy_traits.hpp, arch/copy*.hpp at 7107b055); the
// property tests then check every atom: TV layouts whose thread mode matches ThrID, C layouts that
// are bijections onto the (M,N) tile, and so on.
#include "model/atoms/cute_atoms.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

#include "model/layout/notation.hpp"
#include "tests/model/atoms/atom_samples.hpp"

namespace layoutproof {
namespace {

MmaAtomInfo mma(std::string_view name, const std::vector<std::string>& targs = {}) {
  const auto a = find_mma_atom(name, targs);
  if (!a) throw std::runtime_error("no MMA atom " + std::string(name));
  return *a;
}

CopyOpInfo copy_op(std::string_view name, const std::vector<std::string>& targs = {}) {
  const auto c = find_copy_op(name, targs);
  if (!c) throw std::runtime_error("no copy op " + std::string(name));
  return *c;
}

// L is a bijection from [0, size) onto [0, n).
bool bijective_onto(const Layout& l, i64 n) {
  std::vector<i64> o = offsets(l);
  if (static_cast<i64>(o.size()) != n) return false;
  std::sort(o.begin(), o.end());
  for (i64 i = 0; i < n; ++i)
    if (o[static_cast<std::size_t>(i)] != i) return false;
  return true;
}

std::set<i64> image(const Layout& l) {
  const std::vector<i64> o = offsets(l);
  return {o.begin(), o.end()};
}

bool all_zero(const IntTuple& t) {
  for (i64 d : leaves(t))
    if (d != 0) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// MMA atoms against the source
// ---------------------------------------------------------------------------------------------

TEST(CuteMma, Sm80_16x8x16_F32F16F16F32) {
  // MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>, which the F32 accumulating one inherits.
  const MmaAtomInfo a = mma("SM80_16x8x16_F32F16F16F32_TN");
  EXPECT_EQ(a.name, "SM80_16x8x16_F32F16F16F32_TN");
  EXPECT_EQ(std::vector<i64>({a.m, a.n, a.k}), std::vector<i64>({16, 8, 16}));
  EXPECT_EQ(to_string(a.thr_id), "32:1");
  EXPECT_EQ(to_string(a.a_tv), "((4,8),(2,2,2)):((32,1),(16,8,128))");
  EXPECT_EQ(to_string(a.b_tv), "((4,8),(2,2)):((16,1),(8,64))");
  EXPECT_EQ(to_string(a.c_tv), "((4,8),(2,2)):((32,1),(16,8))");  // SM80_16x8_Row
  EXPECT_EQ(a.a_type, "half_t");
  EXPECT_EQ(a.b_type, "half_t");
  EXPECT_EQ(a.c_type, "float");
  EXPECT_EQ(a.d_type, "float");
}

TEST(CuteMma, Sm80_16x8x8_UsesTheRowLayouts) {
  // The header's example: A and C are SM80_16x8_Row, B is SM80_8x8_Row.
  for (const char* name : {"SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x8_F32BF16BF16F32_TN", "SM75_16x8x8_F32F16F16F32_TN"}) {
    const MmaAtomInfo a = mma(name);
    EXPECT_EQ(to_string(a.a_tv), "((4,8),(2,2)):((32,1),(16,8))") << name;
    EXPECT_EQ(to_string(a.b_tv), "((4,8),2):((16,1),8)") << name;
    EXPECT_EQ(to_string(a.c_tv), "((4,8),(2,2)):((32,1),(16,8))") << name;
  }
  EXPECT_EQ(mma("SM80_16x8x8_F32BF16BF16F32_TN").a_type, "bfloat16_t");
}

TEST(CuteMma, Sm80TensorFloatAndDouble) {
  const MmaAtomInfo t4 = mma("SM80_16x8x4_F32TF32TF32F32_TN");
  EXPECT_EQ(to_string(t4.a_tv), "((4,8),2):((16,1),8)");
  EXPECT_EQ(to_string(t4.b_tv), "((4,8),1):((8,1),0)");  // SM80_8x4
  EXPECT_EQ(t4.a_type, "tfloat32_t");
  const MmaAtomInfo t8 = mma("SM80_16x8x8_F32TF32TF32F32_TN");
  EXPECT_EQ(to_string(t8.a_tv), "((4,8),(2,2)):((16,1),(8,64))");
  EXPECT_EQ(to_string(t8.b_tv), "((4,8),2):((8,1),32)");
  const MmaAtomInfo d = mma("SM80_8x8x4_F64F64F64F64_TN");
  EXPECT_EQ(std::vector<i64>({d.m, d.n, d.k}), std::vector<i64>({8, 8, 4}));
  EXPECT_EQ(to_string(d.a_tv), "((4,8),1):((8,1),0)");
  EXPECT_EQ(to_string(d.b_tv), "((4,8),1):((8,1),0)");
  EXPECT_EQ(to_string(d.c_tv), "((4,8),2):((16,1),8)");  // SM80_8x8_Row
  EXPECT_EQ(d.c_type, "double");
}

TEST(CuteMma, Sm80Integer) {
  const MmaAtomInfo a = mma("SM80_16x8x32_S32S8S8S32_TN");
  EXPECT_EQ(to_string(a.a_tv), "((4,8),(4,2,2)):((64,1),(16,8,256))");
  EXPECT_EQ(to_string(a.b_tv), "((4,8),(4,2)):((32,1),(8,128))");
  const MmaAtomInfo b = mma("SM80_16x8x16_S32S8S8S32_TN");
  EXPECT_EQ(to_string(b.a_tv), "((4,8),(4,2)):((64,1),(16,8))");
  EXPECT_EQ(to_string(b.b_tv), "((4,8),4):((32,1),8)");  // SM80_8x16_Row
  // The unsigned and saturating variants inherit the layouts and change the value types.
  const MmaAtomInfo u = mma("SM80_16x8x32_S32U8S8S32_TN_SATURATE");
  EXPECT_EQ(to_string(u.a_tv), to_string(a.a_tv));
  EXPECT_EQ(u.a_type, "uint8_t");
  EXPECT_EQ(u.b_type, "int8_t");
  EXPECT_EQ(u.c_type, "int32_t");
  // int4 atoms write their value mode as a 1-tuple, Shape<_8>.
  EXPECT_EQ(to_string(mma("SM80_8x8x32_S32S4S4S32_TN").a_tv), "((4,8),(8)):((64,1),(8))");
  EXPECT_EQ(mma("SM80_16x8x64_S32U4U4S32_TN").a_type, "uint4b_t");
}

TEST(CuteMma, WarpAtomsTakeNoTemplateArguments) {
  EXPECT_THROW(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN", {"float"}), LayoutError);
  // A namespace prefix is dropped.
  EXPECT_TRUE(find_mma_atom("cute::SM80_16x8x16_F32F16F16F32_TN"));
}

TEST(CuteMma, UnknownNamesAreNotFound) {
  for (const char* name : {"SM80_16x8x16_F32F16F16F32_NT", "SM70_8x8x4_F64F16F16F32_NT", "SM90_64x12x16_F16F16F16_SS",
                           "SM90_64x264x16_F16F16F16_SS", "SM90_64x008x16_F16F16F16_SS", "SM90_64x128x32_F16F16F16_SS",
                           "SM90_64x128x16_F16F16F16_SS_TN", "SM90_64x40x32_S32S8S8_SS_TN", "SM90_64x128x16_F16F16F16_SS_SATURATE",
                           "SM90_64x128x32_S32S8S8_SS", "SM90_128x128x16_F16F16F16_SS", "", "UniversalFMA2"})
    EXPECT_FALSE(find_mma_atom(name)) << name;
  // The 16x8x128 1-bit atoms are left out: their ALayout is not congruent in CUTLASS.
  EXPECT_FALSE(find_mma_atom("SM80_16x8x128_S32U1U1S32_TN_XORPOPC"));
}

// ---------------------------------------------------------------------------------------------
// UniversalFMA
// ---------------------------------------------------------------------------------------------

TEST(CuteMma, UniversalFma) {
  // mma_traits.hpp: Shape_MNK 1x1x1, ThrID Layout<_1>, A/B/C Layout<Shape<_1,_1>> (stride 0, 0).
  const MmaAtomInfo a = mma("UniversalFMA", {"float", "float", "float", "float"});
  EXPECT_EQ(a.name, "UniversalFMA<float>");
  EXPECT_EQ(std::vector<i64>({a.m, a.n, a.k}), std::vector<i64>({1, 1, 1}));
  EXPECT_EQ(to_string(a.thr_id), "1:0");
  EXPECT_EQ(to_string(a.a_tv), "(1,1):(0,0)");
  EXPECT_EQ(to_string(a.b_tv), "(1,1):(0,0)");
  EXPECT_EQ(to_string(a.c_tv), "(1,1):(0,0)");
}

TEST(CuteMma, UniversalFmaDefaults) {
  // UniversalFMA<D, A = D, B = A, C = D>.
  const MmaAtomInfo a = mma("UniversalFMA", {"cutlass::half_t"});
  EXPECT_EQ(a.name, "UniversalFMA<half_t>");
  EXPECT_EQ(a.a_type, "half_t");
  EXPECT_EQ(a.c_type, "half_t");
  const MmaAtomInfo b = mma("UniversalFMA", {"float", "half_t"});
  EXPECT_EQ(b.d_type, "float");
  EXPECT_EQ(b.a_type, "half_t");
  EXPECT_EQ(b.b_type, "half_t");  // B = A
  EXPECT_EQ(b.c_type, "float");   // C = D
  EXPECT_EQ(b.name, "UniversalFMA<float,half_t>");
  const MmaAtomInfo c = mma("UniversalFMA<double,float,half_t,double>");
  EXPECT_EQ(c.b_type, "half_t");
  EXPECT_EQ(c.name, "UniversalFMA<double,float,half_t>");
  EXPECT_EQ(mma(c.name).b_type, "half_t");
}

TEST(CuteMma, UniversalFmaRejectsBadArguments) {
  EXPECT_THROW(find_mma_atom("UniversalFMA"), LayoutError);
  EXPECT_THROW(find_mma_atom("UniversalFMA", {"float", "float", "float", "float", "float"}), LayoutError);
  try {
    find_mma_atom("UniversalFMA", {"quaternion_t"});
    FAIL() << "expected LayoutError";
  } catch (const LayoutError& e) {
    // Names the type and the closest known ones (a few, not the whole table).
    EXPECT_NE(std::string(e.what()).find("unknown type 'quaternion_t'; the closest known: "), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("half_t"), std::string::npos) << e.what();
  }
  EXPECT_THROW(find_mma_atom("UniversalFMA<float", {}), LayoutError);
  EXPECT_THROW(find_mma_atom("UniversalFMA<float>", {"float"}), LayoutError);
}

TEST(CuteMma, Sm61DotProducts) {
  // mma_traits_sm61.hpp: one thread, MNK 1x1x4 (DP4A) / 1x1x2 (DP2A), A = B = Layout<Shape<_1,K>>.
  const MmaAtomInfo d4 = mma("SM61_DP4A");
  EXPECT_EQ(std::vector<i64>({d4.m, d4.n, d4.k}), std::vector<i64>({1, 1, 4}));
  EXPECT_EQ(to_string(d4.thr_id), "1:0");
  EXPECT_EQ(to_string(d4.a_tv), "(1,4):(0,1)");
  EXPECT_EQ(to_string(d4.b_tv), "(1,4):(0,1)");
  EXPECT_EQ(to_string(d4.c_tv), "(1,1):(0,0)");
  EXPECT_EQ(d4.a_type, "int8_t");
  EXPECT_EQ(d4.d_type, "int32_t");
  const MmaAtomInfo d2 = mma("SM61_DP2A");
  EXPECT_EQ(d2.k, 2);
  EXPECT_EQ(to_string(d2.a_tv), "(1,2):(0,1)");
  EXPECT_EQ(d2.b_type, "int16_t");
  EXPECT_THROW(find_mma_atom("SM61_DP4A", {"int8_t"}), LayoutError);
}

// ---------------------------------------------------------------------------------------------
// SM90 GMMA
// ---------------------------------------------------------------------------------------------

TEST(CuteGmma, SmemSmem) {
  const MmaAtomInfo a = mma("SM90_64x128x16_F32F16F16_SS", {"GMMA::Major::K", "GMMA::Major::MN"});
  EXPECT_EQ(a.name, "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>");
  EXPECT_EQ(std::vector<i64>({a.m, a.n, a.k}), std::vector<i64>({64, 128, 16}));
  EXPECT_EQ(to_string(a.thr_id), "128:1");
  EXPECT_EQ(to_string(a.a_tv), "(128,(64,16)):(0,(1,64))");    // ABLayout<64,16>
  EXPECT_EQ(to_string(a.b_tv), "(128,(128,16)):(0,(1,128))");  // ABLayout<128,16>
  EXPECT_EQ(to_string(a.c_tv), "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))");  // CLayout_64xN<128>
  EXPECT_EQ(a.a_type, "half_t");
  EXPECT_EQ(a.c_type, "float");
}

TEST(CuteGmma, RegisterSourcedA) {
  EXPECT_EQ(to_string(mma("SM90_64x64x16_F16F16F16_RS").a_tv), "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))");
  EXPECT_EQ(to_string(mma("SM90_64x256x8_F32TF32TF32_RS_TN").a_tv), "((4,8,4),(2,2)):((64,1,16),(8,256))");
  EXPECT_EQ(to_string(mma("SM90_64x96x32_S32S8S8_RS_TN").a_tv), "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))");
  EXPECT_EQ(to_string(mma("SM90_64x96x32_F32E4M3E5M2_RS_TN").a_tv), "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))");
  EXPECT_EQ(to_string(mma("SM90_64x256x8_F32TF32TF32_SS_TN").a_tv), "(128,(64,8)):(0,(1,64))");
}

TEST(CuteGmma, EveryNCuteDefines) {
  // N = 8 keeps its size-1 mode (N/8 = 1) with stride 512, as CLayout_64xN<8> writes it.
  EXPECT_EQ(to_string(mma("SM90_64x8x16_F16F16F16_SS").c_tv), "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))");
  EXPECT_TRUE(find_mma_atom("SM90_64x40x16_F32BF16BF16_SS"));  // from mma_traits_sm90_gmma_ext.hpp
  EXPECT_TRUE(find_mma_atom("SM90_64x24x32_S32U8U8_SS_TN_SATURATE"));
  EXPECT_TRUE(find_mma_atom("SM90_64x208x32_S32S8U8_RS_TN"));
  EXPECT_FALSE(find_mma_atom("SM90_64x200x32_S32S8U8_RS_TN"));  // int8: 8, 16, 24 and multiples of 16
  EXPECT_TRUE(find_mma_atom("SM90_64x200x32_F16E5M2E4M3_RS_TN"));
}

TEST(CuteGmma, MajorArguments) {
  // With or without namespaces; none given means K, K.
  for (const std::vector<std::string>& t :
       std::vector<std::vector<std::string>>{{"GMMA::Major::MN", "GMMA::Major::K"}, {"Major::MN", "K"},
                                             {"cute::GMMA::Major::MN", "cute::SM90::GMMA::Major::K"}})
    EXPECT_EQ(mma("SM90_64x32x16_F16F16F16_SS", t).name, "SM90_64x32x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>");
  EXPECT_EQ(mma("SM90_64x32x16_F16F16F16_SS").name, "SM90_64x32x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>");
  // Scales are accepted, and left out of the name when they are the default One.
  EXPECT_EQ(mma("SM90_64x32x16_F16F16F16_SS", {"K", "K", "GMMA::ScaleIn::One", "GMMA::ScaleIn::Neg"}).name,
            "SM90_64x32x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K,GMMA::ScaleIn::One,GMMA::ScaleIn::Neg>");
  EXPECT_EQ(mma("SM90_64x32x16_F16F16F16_SS", {"K", "K", "GMMA::ScaleIn::One"}).name,
            "SM90_64x32x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>");
  EXPECT_EQ(mma("SM90_64x32x8_F32TF32TF32_SS_TN", {"GMMA::ScaleIn::Neg"}).name,
            "SM90_64x32x8_F32TF32TF32_SS_TN<GMMA::ScaleIn::Neg>");
  // The name round-trips.
  const MmaAtomInfo a = mma("SM90_64x32x16_F16F16F16_RS", {"K", "MN"});
  EXPECT_EQ(to_string(mma(a.name).c_tv), to_string(a.c_tv));
}

TEST(CuteGmma, BadArgumentsNameTheValidOnes) {
  // CuTe static_asserts that a register-sourced A is K-major.
  try {
    find_mma_atom("SM90_64x128x16_F32F16F16_RS", {"GMMA::Major::MN", "GMMA::Major::K"});
    FAIL() << "expected LayoutError";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("GMMA::Major::K"), std::string::npos) << e.what();
  }
  EXPECT_THROW(find_mma_atom("SM90_64x128x16_F32F16F16_SS", {"GMMA::Major::K"}), LayoutError);
  EXPECT_THROW(find_mma_atom("SM90_64x128x16_F32F16F16_SS", {"GMMA::Major::T", "GMMA::Major::K"}), LayoutError);
  EXPECT_THROW(find_mma_atom("SM90_64x128x16_F32F16F16_SS", {"K", "K", "GMMA::ScaleIn::Zero"}), LayoutError);
  EXPECT_THROW(find_mma_atom("SM90_64x128x32_S32S8S8_SS_TN", {"GMMA::ScaleIn::One"}), LayoutError);
  EXPECT_THROW(find_mma_atom("SM90_64x128x8_F32TF32TF32_SS_TN", {"K", "K"}), LayoutError);
}

// ---------------------------------------------------------------------------------------------
// Properties of every atom
// ---------------------------------------------------------------------------------------------

// UMMA atoms take their types, M, N and majors (no defaults): a valid set for each kind.

TEST(CuteMmaProperties, EveryAtom) {
  int checked = 0, gmma_ss = 0, gmma_rs = 0;
  for (const std::string& name : mma_atom_names()) {
    const MmaAtomInfo a = mma(name, test::sample_mma_targs(name));
    const bool gmma = a.thr_id == parse_layout("128:1");
    const bool gmma_ss_a = gmma && a.a_tv.mode(0).stride == IntTuple(0);
    // The thread mode of every TV layout has ThrID's size; the value modes cover the tile.
    for (const Layout* tv : {&a.a_tv, &a.b_tv, &a.c_tv}) EXPECT_EQ(size(tv->mode(0)), size(a.thr_id)) << name;
    // C: every thread's values are distinct and cover (M,N) exactly once.
    EXPECT_TRUE(bijective_onto(a.c_tv, a.m * a.n)) << name << " C " << to_string(a.c_tv);
    if (!gmma) {
      EXPECT_TRUE(bijective_onto(a.a_tv, a.m * a.k)) << name << " A " << to_string(a.a_tv);
      EXPECT_TRUE(bijective_onto(a.b_tv, a.n * a.k)) << name << " B " << to_string(a.b_tv);
    } else {
      // GMMA: an smem operand (ABLayout) gives all 128 threads the whole tile: stride 0 over
      // threads, a bijection over values. A register-sourced A is a bijection like C.
      ++(gmma_ss_a ? gmma_ss : gmma_rs);
      if (gmma_ss_a) {
        EXPECT_TRUE(all_zero(a.a_tv.mode(0).stride)) << name;
        EXPECT_TRUE(bijective_onto(a.a_tv.mode(1), a.m * a.k)) << name;
      } else {
        EXPECT_TRUE(bijective_onto(a.a_tv, a.m * a.k)) << name << " A " << to_string(a.a_tv);
      }
      EXPECT_TRUE(all_zero(a.b_tv.mode(0).stride)) << name;
      EXPECT_TRUE(bijective_onto(a.b_tv.mode(1), a.n * a.k)) << name;
    }
    for (const std::string* t : {&a.a_type, &a.b_type, &a.c_type, &a.d_type}) EXPECT_TRUE(type_bits(*t)) << name << " " << *t;
    ++checked;
  }
  EXPECT_GT(checked, 1000);  // the GMMA atoms for every N
  EXPECT_EQ(gmma_ss, gmma_rs);
}

TEST(CuteMmaProperties, NamesAreUniqueAndFound) {
  const std::vector<std::string> names = mma_atom_names();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const char* must : {"SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x8_F32F16F16F32_TN", "SM80_16x8x8_F32BF16BF16F32_TN",
                           "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
                           "SM80_16x8x4_F32TF32TF32F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN", "SM80_16x8x32_S32S8S8S32_TN",
                           "SM80_16x8x32_S32U8U8S32_TN", "SM80_16x8x16_S32S8S8S32_TN", "SM80_8x8x4_F64F64F64F64_TN",
                           "SM75_16x8x8_F32F16F16F32_TN", "UniversalFMA", "SM90_64x256x16_F32BF16BF16_RS",
                           "SM90_64x8x8_F32TF32TF32_SS_TN", "SM90_64x256x32_S32S8S8_SS_TN"})
    EXPECT_NE(std::find(names.begin(), names.end(), must), names.end()) << must;
}

// ---------------------------------------------------------------------------------------------
// Copy operations
// ---------------------------------------------------------------------------------------------

TEST(CuteCopy, LdsmAgainstTheSource) {
  const CopyOpInfo x4 = copy_op("SM75_U32x4_LDSM_N");
  EXPECT_EQ(x4.kind, CopyKind::ldsm);
  EXPECT_EQ(to_string(x4.thr_id), "32:1");
  EXPECT_EQ(to_string(x4.src), "(32,128):(128,1)");
  EXPECT_EQ(to_string(x4.dst), "(32,(32,4)):(32,(1,1024))");
  EXPECT_EQ(to_string(x4.ref), to_string(x4.dst));
  EXPECT_EQ(x4.matrices, 4);
  EXPECT_FALSE(x4.transposed);
  EXPECT_EQ(x4.src_reg_bits, 128);  // SRegisters = uint128_t[1]
  EXPECT_EQ(x4.dst_reg_bits, 32);   // DRegisters = uint32_t[4]
  // .x1: only threads 0-7 address rows; the other 24 repeat them (stride 0).
  EXPECT_EQ(to_string(copy_op("SM75_U32x1_LDSM_N").src), "((8,4),128):((128,0),1)");
  EXPECT_EQ(to_string(copy_op("SM75_U32x2_LDSM_N").src), "((16,2),128):((128,0),1)");
  const CopyOpInfo t8 = copy_op("SM75_U16x8_LDSM_T");
  EXPECT_TRUE(t8.transposed);
  EXPECT_EQ(to_string(t8.dst), "((4,8),(16,2,4)):((256,16),(1,128,1024))");
  EXPECT_EQ(to_string(copy_op("SM75_U16x2_LDSM_T").dst), "((4,8),(16,2)):((256,16),(1,128))");
  EXPECT_EQ(copy_op("SM75_U16x2_LDSM_T").matrices, 1);
}

TEST(CuteCopy, StsmIsLdsmSwapped) {
  // copy_traits_sm90.hpp: Src = LDSM's Dst, Dst = LDSM's Src, Ref = Src.
  const std::vector<std::pair<const char*, const char*>> pairs = {
      {"SM90_U32x1_STSM_N", "SM75_U32x1_LDSM_N"}, {"SM90_U32x2_STSM_N", "SM75_U32x2_LDSM_N"},
      {"SM90_U32x4_STSM_N", "SM75_U32x4_LDSM_N"}, {"SM90_U16x2_STSM_T", "SM75_U16x2_LDSM_T"},
      {"SM90_U16x4_STSM_T", "SM75_U16x4_LDSM_T"}, {"SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T"}};
  for (const auto& [st, ld] : pairs) {
    const CopyOpInfo s = copy_op(st), l = copy_op(ld);
    EXPECT_EQ(s.kind, CopyKind::stsm);
    EXPECT_EQ(to_string(s.src), to_string(l.dst)) << st;
    EXPECT_EQ(to_string(s.dst), to_string(l.src)) << st;
    EXPECT_EQ(to_string(s.ref), to_string(s.src)) << st;
    EXPECT_EQ(s.matrices, l.matrices) << st;
    EXPECT_EQ(s.transposed, l.transposed) << st;
    EXPECT_EQ(s.src_reg_bits, 32) << st;  // SRegisters = uint32_t[N]
    EXPECT_EQ(s.dst_reg_bits, 128) << st;
  }
  EXPECT_EQ(to_string(copy_op("SM90_U16x4_STSM_T").src), "((4,8),(16,2,2)):((256,16),(1,128,1024))");
}

TEST(CuteCopy, MatrixOpSizes) {
  for (const std::string& name : copy_op_names()) {
    const auto op = find_copy_op(name, name.find("CP_ASYNC") != std::string::npos || name == "UniversalCopy"
                                           ? std::vector<std::string>{"uint128_t"}
                                           : std::vector<std::string>{});
    ASSERT_TRUE(op) << name;
    EXPECT_EQ(size(op->src.mode(0)), size(op->thr_id)) << name;
    EXPECT_EQ(size(op->dst.mode(0)), size(op->thr_id)) << name;
    if (op->kind != CopyKind::ldsm && op->kind != CopyKind::stsm) continue;
    const bool load = op->kind == CopyKind::ldsm;
    const Layout& smem = load ? op->src : op->dst;
    const Layout& regs = load ? op->dst : op->src;
    // 32 threads x one 128-bit row address; 32 threads x N 32-bit registers.
    EXPECT_EQ(size(smem), 32 * 128) << name;
    EXPECT_EQ(size(regs), 32 * 32 * op->matrices) << name;
    EXPECT_EQ(size(op->src), 32 * op->src_reg_bits * (load ? 1 : op->matrices)) << name;
    // The registers hold each bit of N 8x8 b16 matrices once, and those are the bits addressed.
    EXPECT_TRUE(bijective_onto(regs, 1024 * op->matrices)) << name;
    EXPECT_EQ(image(smem), image(regs)) << name;
  }
}

TEST(CuteCopy, CpAsync) {
  const CopyOpInfo c = copy_op("SM80_CP_ASYNC_CACHEALWAYS", {"cute::uint128_t"});
  EXPECT_EQ(c.name, "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>");
  EXPECT_EQ(c.kind, CopyKind::cp_async);
  EXPECT_EQ(to_string(c.thr_id), "1:0");
  EXPECT_EQ(to_string(c.src), "(1,128):(0,1)");  // Layout<Shape<_1,Int<128>>>
  EXPECT_EQ(to_string(c.dst), "(1,128):(0,1)");
  EXPECT_EQ(to_string(c.ref), to_string(c.src));
  EXPECT_EQ(c.src_reg_bits, 128);
  EXPECT_EQ(copy_op("SM80_CP_ASYNC_CACHEALWAYS", {"uint128_t", "uint128_t"}).name, "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>");
  EXPECT_EQ(to_string(copy_op("SM80_CP_ASYNC_CACHEALWAYS", {"float"}).src), "(1,32):(0,1)");
  EXPECT_EQ(copy_op("SM80_CP_ASYNC_CACHEALWAYS<uint32_t,float>").name, "SM80_CP_ASYNC_CACHEALWAYS<uint32_t,float>");
  EXPECT_EQ(to_string(copy_op("SM80_CP_ASYNC_CACHEALWAYS_ZFILL", {"uint64_t"}).dst), "(1,64):(0,1)");
  EXPECT_TRUE(find_copy_op("SM80_CP_ASYNC_CACHEGLOBAL", {"uint128_t"}));
  EXPECT_TRUE(find_copy_op("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", {"uint128_t"}));
}

TEST(CuteCopy, CpAsyncRejectsWhatCuteAsserts) {
  EXPECT_THROW(find_copy_op("SM80_CP_ASYNC_CACHEALWAYS"), LayoutError);
  EXPECT_THROW(find_copy_op("SM80_CP_ASYNC_CACHEALWAYS", {"half_t"}), LayoutError);  // 2 bytes
  EXPECT_THROW(find_copy_op("SM80_CP_ASYNC_CACHEALWAYS", {"uint32_t", "uint64_t"}), LayoutError);
  EXPECT_THROW(find_copy_op("SM80_CP_ASYNC_CACHEGLOBAL", {"uint64_t"}), LayoutError);  // .cg: 16 bytes only
  EXPECT_THROW(find_copy_op("SM80_CP_ASYNC_CACHEALWAYS", {"uint128_t", "uint128_t", "uint128_t"}), LayoutError);
  try {
    find_copy_op("SM80_CP_ASYNC_CACHEGLOBAL", {"uint64_t"});
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("16 bytes"), std::string::npos) << e.what();
  }
}

TEST(CuteCopy, UniversalAndAutoVectorizing) {
  const CopyOpInfo u = copy_op("UniversalCopy", {"uint8_t"});
  EXPECT_EQ(u.name, "UniversalCopy<uint8_t>");
  EXPECT_EQ(u.kind, CopyKind::universal);
  EXPECT_EQ(to_string(u.src), "(1,8):(0,1)");
  const CopyOpInfo h = copy_op("UniversalCopy<half_t,uint32_t>");
  EXPECT_EQ(to_string(h.dst), "(1,32):(0,1)");
  EXPECT_EQ(h.dst_reg_bits, 32);
  EXPECT_THROW(find_copy_op("UniversalCopy", {"uint4b_t"}), LayoutError);  // CuTe: sizeof_bits >= 8
  EXPECT_THROW(find_copy_op("UniversalCopy"), LayoutError);

  const CopyOpInfo d = copy_op("DefaultCopy");
  EXPECT_EQ(d.kind, CopyKind::autovec);
  EXPECT_EQ(d.max_vec_bits, 8);
  EXPECT_EQ(to_string(d.thr_id), "1:0");
  EXPECT_EQ(to_string(d.src), "(1,1):(0,0)");  // the placeholder traits
  EXPECT_EQ(to_string(d.dst), "(1,1):(0,0)");
  EXPECT_EQ(copy_op("AutoVectorizingCopy").max_vec_bits, 128);
  EXPECT_EQ(copy_op("AutoVectorizingCopyWithAssumedAlignment").max_vec_bits, 128);
  const CopyOpInfo a = copy_op("AutoVectorizingCopyWithAssumedAlignment", {"64"});
  EXPECT_EQ(a.name, "AutoVectorizingCopyWithAssumedAlignment<64>");
  EXPECT_EQ(a.src_reg_bits, 64);
  EXPECT_EQ(copy_op(a.name).max_vec_bits, 64);
  EXPECT_THROW(find_copy_op("AutoVectorizingCopyWithAssumedAlignment", {"24"}), LayoutError);
  EXPECT_THROW(find_copy_op("DefaultCopy", {"8"}), LayoutError);
}

TEST(CuteCopy, UnknownAndMisused) {
  EXPECT_FALSE(find_copy_op("SM75_U32x8_LDSM_N"));
  EXPECT_FALSE(find_copy_op("SM90_TMA_LOAD"));
  EXPECT_FALSE(find_copy_op("UniversalCopy2<int>"));
  EXPECT_THROW(find_copy_op("SM75_U32x4_LDSM_N", {"uint128_t"}), LayoutError);
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

TEST(CuteTypes, Bits) {
  const std::vector<std::pair<const char*, int>> expected = {
      {"half_t", 16},          {"cutlass::half_t", 16},   {"cute::half_t", 16},     {"bfloat16_t", 16},
      {"tfloat32_t", 32},      {"float", 32},             {"double", 64},           {"int8_t", 8},
      {"uint8_t", 8},          {"int16_t", 16},           {"uint16_t", 16},         {"int32_t", 32},
      {"uint32_t", 32},        {"uint64_t", 64},          {"uint128_t", 128},       {"cute::uint128_t", 128},
      {"::uint32_t", 32},      {"float_e4m3_t", 8},       {"float_e5m2_t", 8},      {"float_ue8m0_t", 8},
      {"float_ue4m3_t", 8},    {"float_e2m3_t", 6},       {"float_e3m2_t", 6},      {"float_e2m1_t", 4},
      {"uint4b_t", 4},         {"int4b_t", 4},            {"int2b_t", 2},           {"uint2b_t", 2},
      {"uint1b_t", 1},         {" cutlass::int4b_t ", 4}, {"complex<double>", 128}, {"cute::complex<double>", 128}};
  for (const auto& [name, bits] : expected) EXPECT_EQ(type_bits(name), std::optional<int>(bits)) << name;
  EXPECT_FALSE(type_bits("half"));
  EXPECT_FALSE(type_bits("std::float"));
  for (const std::string& t : type_names()) EXPECT_TRUE(type_bits(t)) << t;
}

// ---------------------------------------------------------------------------------------------
// SM100 UMMA (model/atoms/cute_atoms_umma.cpp) against mma_traits_sm100.hpp: ThrID Layout<_1> = 1:0;
// ALayout (1,(M,K)):(0,(1,M)); BLayout (1,(N,K)):(0,(1,N)); CLayout (1,(M,N)):(0,(1,M)); K = 256
// bits of A (F8F6F4: 32); the static_asserts of mma_sm100_umma.hpp on M, N, majors and widths.
// ---------------------------------------------------------------------------------------------

TEST(CuteUmma, F16SmemSmem) {
  const MmaAtomInfo a = mma("SM100_MMA_F16BF16_SS<cute::half_t, cute::half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::MN>");
  EXPECT_EQ(a.name, "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>");
  EXPECT_EQ(std::vector<i64>({a.m, a.n, a.k}), std::vector<i64>({128, 256, 16}));
  EXPECT_EQ(to_string(a.thr_id), "1:0");
  EXPECT_EQ(to_string(a.a_tv), "(1,(128,16)):(0,(1,128))");
  EXPECT_EQ(to_string(a.b_tv), "(1,(256,16)):(0,(1,256))");
  EXPECT_EQ(to_string(a.c_tv), "(1,(128,256)):(0,(1,128))");
  EXPECT_EQ(a.a_type, "half_t");
  EXPECT_EQ(a.c_type, "float");
  // The name round-trips.
  EXPECT_EQ(mma(a.name).name, a.name);
}

TEST(CuteUmma, KIs256BitsOfA) {
  EXPECT_EQ(mma("SM100_MMA_TF32_SS", {"tfloat32_t", "tfloat32_t", "float", "64", "64", "UMMA::Major::MN", "UMMA::Major::K"}).k, 8);
  EXPECT_EQ(mma("SM100_MMA_S8_SS", {"int8_t", "int8_t", "int32_t", "128", "128", "UMMA::Major::K", "UMMA::Major::K"}).k, 32);
  EXPECT_EQ(mma("SM100_MMA_F8F6F4_SS", {"float_e4m3_t", "float_e5m2_t", "float", "128", "64", "UMMA::Major::K", "UMMA::Major::K"}).k, 32);
  EXPECT_EQ(mma("SM100_MMA_F16BF16_TS", {"bfloat16_t", "bfloat16_t", "float", "64", "8", "UMMA::Major::K", "UMMA::Major::MN"}).k, 16);
}

TEST(CuteUmma, StaticAssertsAreRefusals) {
  const std::vector<std::vector<std::string>> bad = {
      {"half_t", "half_t", "float", "256", "128", "UMMA::Major::K", "UMMA::Major::K"},  // M 64 or 128 (1 CTA)
      {"half_t", "half_t", "float", "128", "12", "UMMA::Major::K", "UMMA::Major::K"},   // N % 8
      {"half_t", "half_t", "float", "128", "264", "UMMA::Major::K", "UMMA::Major::K"},  // N <= 256
      {"float", "float", "float", "128", "128", "UMMA::Major::K", "UMMA::Major::K"},    // 16-bit types only
      {"half_t", "half_t", "float", "128", "128", "UMMA::Major::T", "UMMA::Major::K"},  // K or MN
      {"half_t", "half_t", "float", "128", "128", "UMMA::Major::K"},                    // too few
  };
  for (const auto& t : bad) EXPECT_THROW(find_mma_atom("SM100_MMA_F16BF16_SS", t), LayoutError);
  // _TS: A comes from tensor memory and cannot be transposed; M = 128 needs N % 16.
  EXPECT_THROW(find_mma_atom("SM100_MMA_F16BF16_TS", {"half_t", "half_t", "float", "128", "128", "UMMA::Major::MN", "UMMA::Major::K"}), LayoutError);
  EXPECT_THROW(find_mma_atom("SM100_MMA_F16BF16_TS", {"half_t", "half_t", "float", "128", "24", "UMMA::Major::K", "UMMA::Major::K"}), LayoutError);
  EXPECT_TRUE(find_mma_atom("SM100_MMA_F16BF16_TS", {"half_t", "half_t", "float", "64", "24", "UMMA::Major::K", "UMMA::Major::K"}));
  EXPECT_FALSE(find_mma_atom("SM100_MMA_F64_SS"));
}

TEST(CuteUmma, Listed) {
  const auto names = mma_atom_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "SM100_MMA_F16BF16_SS"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "SM100_MMA_TF32_TS"), names.end());
}

}  // namespace
}  // namespace layoutproof
