#pragma once
// A CUtensorMap as the host encodes it: the arguments of cuTensorMapEncodeTiled (CUDA driver API),
// and the rules the driver documents for them, which `tensor-map-valid` decides.
//
// Definition. A tiled tensor map of rank r (1..5) names a tensor of r dimensions, innermost first:
//   dims[i]          elements in dimension i (1 .. 2^32);
//   strides[i-1]     bytes between consecutive indices of dimension i, for i = 1 .. r-1 (dimension 0
//                    is packed); multiples of 16 (32 with 32-byte interleave), below 2^40;
//   box[i]           the elements one TMA copy moves in dimension i (1 .. 256); with no interleave
//                    box[0] x the element's bytes is a multiple of 16 bytes and, swizzled, at most
//                    the swizzle's span (32, 64 or 128 bytes: the row the pattern repeats on);
//   elem_strides[i]  1 .. 8 (traversal strides inside the box);
//   interleave       none | 16B | 32B (rank >= 3 when interleaved);
//   swizzle          none | 32B | 64B | 128B: TMA writes the box row-major at the destination and
//                    xors bits [4, 4+B) of each absolute shared byte address with bits [7, 7+B)
//                    (CuTe Swizzle<B,4,3>, B = 1, 2, 3), measured on the H100 (shared/facts);
//   l2               none | 64B | 128B | 256B (L2 promotion);
//   oob              zero | nan (NAN_REQUEST_ZERO_FMA: floating-point types only);
//   address          the global address (optional): 16-byte aligned (32 with 32-byte interleave).
// Example: dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B is valid (a 128-byte
// inner row of 64 bf16, the span of 128B); box=128x128 is not: 256 bytes per row pass the span.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutproof::hopper {

enum class TmaSwizzle { none, b32, b64, b128 };
enum class TmaInterleave { none, b16, b32 };
enum class TmaL2 { none, b64, b128, b256 };
enum class TmaOob { zero, nan };

struct TensorMap {
  std::string dtype;        // canonical spelling (tensor_map_dtypes())
  int elem_bytes = 0;
  bool floating = false;    // oob=nan is allowed
  std::vector<std::uint64_t> dims, strides, box, elem_strides;
  TmaInterleave interleave = TmaInterleave::none;
  TmaSwizzle swizzle = TmaSwizzle::none;
  TmaL2 l2 = TmaL2::none;
  TmaOob oob = TmaOob::zero;
  std::optional<std::uint64_t> address;  // globalAddress, where the capture gives it (16-byte aligned; 32 interleaved)
  std::size_t rank() const { return dims.size(); }
};

// The element types (CUtensorMapDataType) by their short names, each with its bytes: u8 u16 u32
// s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz, and e4m3/e5m2 (FP8: CUTLASS encodes them as
// UINT8). Also accepted: the CUDA names (uint8, float16, bfloat16, ...).
struct TensorMapDtype {
  const char* name;
  int bytes;
  bool floating;
};
const std::vector<TensorMapDtype>& tensor_map_dtypes();
// nullopt for a name no dtype has.
std::optional<TensorMapDtype> tensor_map_dtype(std::string_view name);

// Field values by name; nullopt for a spelling the hardware lacks ("96B").
std::optional<TmaSwizzle> parse_tma_swizzle(std::string_view s);
std::optional<TmaInterleave> parse_tma_interleave(std::string_view s);
std::optional<TmaL2> parse_tma_l2(std::string_view s);
std::optional<TmaOob> parse_tma_oob(std::string_view s);
std::string to_string(TmaSwizzle s);
std::string to_string(TmaInterleave s);
std::string to_string(TmaL2 s);
std::string to_string(TmaOob s);

// The span a swizzle repeats on (0 for none, 32, 64, 128 bytes) and its CuTe form's B (0..3).
int swizzle_span_bytes(TmaSwizzle s);
int swizzle_bits(TmaSwizzle s);

// Parses the --tensor-map text: comma-separated KEY=VALUE with the keys dtype, dims, strides, box,
// elem_strides, interleave, swizzle, l2, oob, address (lists `x`-separated, innermost first: dims=4096x4096).
// dtype, dims, box and swizzle are required, strides when the rank is above 1; the others default
// to 1 per dimension, none, none, zero. Throws LayoutError naming the key and the value: an
// unknown key, a key given twice, a number that is not one, a list of the wrong length for the
// rank, a dtype or swizzle the hardware lacks.
TensorMap parse_tensor_map_spec(std::string_view spec);

// The map in the --tensor-map spelling (parse_tensor_map_spec(spec_text(m)) == m).
std::string spec_text(const TensorMap& m);

// One rule of cuTensorMapEncodeTiled the map breaks: the field, what the rule is, and the value
// that breaks it; `fix` a value that meets it where one follows from the map ("" otherwise).
struct TensorMapViolation {
  std::string field;
  std::string rule;
  std::string fix;
};
// Every rule the map breaks, in the order of the fields (empty: the driver accepts it).
std::vector<TensorMapViolation> tensor_map_violations(const TensorMap& m);

}  // namespace layoutproof::hopper
