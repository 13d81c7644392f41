// model/hopper/tensor_map.hpp: the --tensor-map spelling and cuTensorMapEncodeTiled's rules.
#include <gtest/gtest.h>

#include <string>

#include "model/hopper/tensor_map.hpp"
#include "model/support/error.hpp"

namespace layoutproof::hopper {
namespace {

// The fields a map breaks, in order.
std::string broken_fields(const std::string& spec) {
  std::string s;
  for (const TensorMapViolation& v : tensor_map_violations(parse_tensor_map_spec(spec))) s += (s.empty() ? "" : " ") + v.field;
  return s;
}

TEST(TensorMap, SpecReadsEveryFieldAndWritesItBack) {
  const TensorMap m = parse_tensor_map_spec("dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B,elem_strides=1x2,l2=256B,oob=nan");
  EXPECT_EQ(m.dtype, "bf16");
  EXPECT_EQ(m.elem_bytes, 2);
  EXPECT_EQ(m.rank(), 2u);
  EXPECT_EQ(m.dims, (std::vector<std::uint64_t>{4096, 4096}));
  EXPECT_EQ(m.strides, (std::vector<std::uint64_t>{8192}));
  EXPECT_EQ(m.box, (std::vector<std::uint64_t>{64, 128}));
  EXPECT_EQ(m.elem_strides, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(m.swizzle, TmaSwizzle::b128);
  EXPECT_EQ(m.l2, TmaL2::b256);
  EXPECT_EQ(m.oob, TmaOob::nan);
  EXPECT_EQ(spec_text(m), "dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B,elem_strides=1x2,l2=256B,oob=nan");
  // Defaults: element strides 1, no interleave, no L2 promotion, zero fill; CUDA's type names.
  const TensorMap d = parse_tensor_map_spec("dtype=float16,dims=64,box=64,swizzle=none");
  EXPECT_EQ(d.dtype, "f16");
  EXPECT_EQ(d.elem_strides, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(spec_text(d), "dtype=f16,dims=64,box=64,swizzle=none");
  // Every spelling it writes reads back to itself.
  for (const char* s : {"dtype=e4m3,dims=128x64x3,strides=128x8192,box=128x64x1,swizzle=128B,interleave=none",
                        "dtype=u32,dims=8x8x8,strides=32x256,box=8x8x8,swizzle=32B,interleave=32B,address=4096"})
    EXPECT_EQ(spec_text(parse_tensor_map_spec(spec_text(parse_tensor_map_spec(s)))), spec_text(parse_tensor_map_spec(s))) << s;
}

TEST(TensorMap, SpecErrorsNameTheKeyAndTheValue) {
  const auto error = [](const std::string& spec) {
    try {
      (void)parse_tensor_map_spec(spec);
    } catch (const LayoutError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(error("dtype=bf17,dims=64,box=64,swizzle=none").find("dtype: 'bf17' is not an element type"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64,box=64,swizzle=96B").find("swizzle: '96B' is not a swizzle the hardware has"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64,box=64,swizzle=none,colour=red").find("unknown key 'colour'"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64,box=64").find("needs swizzle="), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64x64,box=64x64,swizzle=none").find("needs strides="), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64x64,strides=128x128,box=64x64,swizzle=none").find("strides: 1 value(s) for a rank of 2"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64,box=64x2,swizzle=none").find("box: 1 value(s)"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=6x4x2x1x1x1,strides=16x16x16x16x16,box=1x1x1x1x1x1,swizzle=none").find("rank of 1 to 5"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=sixty,box=64,swizzle=none").find("dims: 'sixty' is not a list of non-negative integers"), std::string::npos);
  // Lists are decimal: 0x40 is the two extents 0 and 40 (a rank-2 map, which needs strides).
  EXPECT_NE(error("dtype=bf16,dims=0x40,box=64,swizzle=none").find("needs strides="), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=64x,box=64,swizzle=none").find("dims: '64x' is not a list"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dims=99999999999999999999,box=64,swizzle=none").find("below 2^64"), std::string::npos);
  EXPECT_NE(error("dtype=bf16,dtype=f16,dims=64,box=64,swizzle=none").find("dtype is given twice"), std::string::npos);
}

TEST(TensorMap, EveryEncodeRuleIsChecked) {
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B"), "");
  // The inner row against the swizzle span: 64 bf16 = 128 bytes fit 128B, 65 do not; 32B holds 16.
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=128x128,swizzle=128B"), "box[0]");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=16x128,swizzle=32B"), "");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=24x128,swizzle=32B"), "box[0]");
  EXPECT_EQ(broken_fields("dtype=f32,dims=4096x4096,strides=16384,box=32x8,swizzle=128B"), "");
  // box[0] x bytes a multiple of 16 (no interleave); box 1..256; element strides 1..8.
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=4x128,swizzle=none"), "box[0]");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=64x257,swizzle=none"), "box[1]");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=64x0,swizzle=none"), "box[1]");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8192,box=64x64,swizzle=none,elem_strides=1x9"), "elem_strides[1]");
  // Strides: multiples of 16 (32 interleaved), below 2^40; dims 1..2^32.
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=8200,box=64x64,swizzle=none"), "strides[0] (dimension 1)");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4096x4096,strides=1099511627776,box=64x64,swizzle=none"), "strides[0] (dimension 1)");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=0x4096,strides=8192,box=64x64,swizzle=none"), "dims[0]");
  EXPECT_EQ(broken_fields("dtype=bf16,dims=4294967297x1,strides=16,box=64x1,swizzle=none"), "dims[0]");
  EXPECT_EQ(broken_fields("dtype=u32,dims=8x8x8,strides=48x256,box=8x8x8,swizzle=32B,interleave=32B"), "strides[0] (dimension 1)");
  EXPECT_EQ(broken_fields("dtype=u32,dims=8x8,strides=32,box=8x8,swizzle=none,interleave=16B"), "rank");
  // A nan fill only for floating-point types; the address 16-byte aligned.
  EXPECT_EQ(broken_fields("dtype=u8,dims=64,box=64,swizzle=none,oob=nan"), "oob");
  EXPECT_EQ(broken_fields("dtype=f16,dims=64,box=64,swizzle=none,oob=nan"), "");
  EXPECT_EQ(broken_fields("dtype=f16,dims=64,box=64,swizzle=none,address=4104"), "address");
  // Each violation offers a value that meets it where one follows from the map.
  const auto v = tensor_map_violations(parse_tensor_map_spec("dtype=bf16,dims=4096x4096,strides=8192,box=128x128,swizzle=128B"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].fix, "box[0] = 64 (one copy per span)");
  const auto w = tensor_map_violations(parse_tensor_map_spec("dtype=bf16,dims=4096x4096,strides=8192,box=48x128,swizzle=64B"));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].fix, "box[0] = 32 (one copy per span), or swizzle=128B");
}

TEST(TensorMap, SwizzleSpansAndCuteBits) {
  EXPECT_EQ(swizzle_span_bytes(TmaSwizzle::none), 0);
  EXPECT_EQ(swizzle_span_bytes(TmaSwizzle::b32), 32);
  EXPECT_EQ(swizzle_span_bytes(TmaSwizzle::b64), 64);
  EXPECT_EQ(swizzle_span_bytes(TmaSwizzle::b128), 128);
  EXPECT_EQ(swizzle_bits(TmaSwizzle::b128), 3);  // Swizzle<3,4,3>
  EXPECT_EQ(to_string(TmaSwizzle::b64), "64B");
  EXPECT_EQ(parse_tma_swizzle("128b"), TmaSwizzle::b128);
  EXPECT_FALSE(parse_tma_swizzle("256B").has_value());
}

}  // namespace
}  // namespace layoutproof::hopper
