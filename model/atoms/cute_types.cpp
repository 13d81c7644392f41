// CuTe's and CUTLASS's element and register types and their bits (cutlass/numeric_size.h:
// sizeof_bits = 8 * sizeof unless specialized for sub-byte types), read from CUTLASS 7107b055:
// cutlass/numeric_types.h, half.h, bfloat16.h, tfloat32.h, float8.h, float_subbyte.h,
// integer_subbyte.h, complex.h and cute/numeric/int.hpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/atoms/atom_spelling.hpp"
#include "model/atoms/cute_atoms.hpp"

namespace layoutproof {
namespace {
using namespace atom_spelling;

struct TypeRow {
  const char* name;
  int bits;
};

const std::vector<TypeRow>& type_table() {
  static const std::vector<TypeRow> rows = {
      // floating point
      {"half_t", 16}, {"bfloat16_t", 16}, {"tfloat32_t", 32}, {"float", 32}, {"double", 64},
      {"float_e4m3_t", 8}, {"float_e5m2_t", 8}, {"float_ue4m3_t", 8}, {"float_ue8m0_t", 8},
      {"float_e2m3_t", 6}, {"float_e3m2_t", 6}, {"float_e2m1_t", 4},
      {"type_erased_dynamic_float8_t", 8}, {"type_erased_dynamic_float6_t", 6}, {"type_erased_dynamic_float4_t", 4},
      // SM80_8x8x4_GC64C64C64GC64_TN's accumulator: three doubles (arch/mma_sm80.hpp)
      {"SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex", 192},
      // cutlass::detail's shared-memory forms of the FP6/FP4 types (float_subbyte.h): the same
      // bits as the type, or 8 for the unpack8bits register forms
      {"float_e2m1_unpacksmem_t", 4}, {"float_e2m3_unpacksmem_t", 6}, {"float_e3m2_unpacksmem_t", 6},
      {"float_e2m3_unpack8bits_t", 8}, {"float_e3m2_unpack8bits_t", 8},
      {"type_erased_dynamic_float6_unpacksmem_t", 6}, {"type_erased_dynamic_float4_unpacksmem_t", 4},
      // sub-byte integers (cutlass/integer_subbyte.h; bin1_t is bool, sizeof_bits<bin1_t> = 1) and
      // CuTe's aliases for them (cute/numeric/int.hpp)
      {"bin1_t", 1}, {"bool", 1}, {"uint1b_t", 1}, {"int2b_t", 2}, {"uint2b_t", 2}, {"int4b_t", 4}, {"uint4b_t", 4},
      {"int6b_t", 6}, {"uint6b_t", 6}, {"uint1_t", 1}, {"int2_t", 2}, {"uint2_t", 2}, {"int4_t", 4},
      {"uint4_t", 4}, {"int6_t", 6}, {"uint6_t", 6},
      // whole-byte integers
      {"int8_t", 8}, {"uint8_t", 8}, {"int16_t", 16}, {"uint16_t", 16}, {"int32_t", 32}, {"uint32_t", 32},
      {"int64_t", 64}, {"uint64_t", 64}, {"uint128_t", 128}, {"uint256_t", 256},
  };
  return rows;
}

}  // namespace

std::optional<int> type_bits(std::string_view type_name) {
  std::string t = canonical_type(type_name);
  if (starts_with(t, "detail::")) t.erase(0, 8);  // cutlass::detail::float_e2m1_unpacksmem_t
  // complex<T> (cutlass/complex.h) holds a real and an imaginary T: sizeof(complex<T>) = 2 sizeof(T),
  // and a sub-byte T still takes a byte (integer_subbyte and float_exmy_base store a uint8_t).
  if (starts_with(t, "complex<") && t.back() == '>') {
    const std::optional<int> bits = type_bits(std::string_view(t).substr(8, t.size() - 9));
    if (!bits) return std::nullopt;
    return 2 * 8 * ((*bits + 7) / 8);
  }
  for (const TypeRow& r : type_table())
    if (t == r.name) return r.bits;
  return std::nullopt;
}

std::vector<std::string> type_names() {
  std::vector<std::string> out;
  for (const TypeRow& r : type_table()) out.push_back(r.name);
  return out;
}

}  // namespace layoutproof
