#pragma once
// Template arguments that make each templated op name a valid CuTe type, for the tests that walk
// every name (cute_atoms_test.cpp, cute_op_names_test.cpp). A name that is not a template gets none.
#include <string>
#include <string_view>
#include <vector>

namespace layoutproof::test {

inline bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

inline std::vector<std::string> sample_mma_targs(std::string_view name) {
  if (name == "UniversalFMA") return {"float"};
  if (has(name, "SM100_MMA_")) {
    const std::string ab = has(name, "F16BF16") ? "half_t" : has(name, "TF32") ? "tfloat32_t" : has(name, "S8") ? "int8_t" : "float_e4m3_t";
    return {ab, ab, ab == "int8_t" ? "int32_t" : "float", "128", "64", "UMMA::Major::K", "UMMA::Major::K"};
  }
  if (has(name, "SM120_16x8x32_TN_VS")) return {"float_e4m3_t", "float_e2m1_t", "float", "float_ue8m0_t", "32"};
  if (has(name, "SM120_16x8x64_TN_VS")) return {"float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t", "16"};
  if (has(name, "SM120_16x8x32_TN")) return {"float_e3m2_t", "float_e5m2_t", "half_t"};
  return {};
}

inline std::vector<std::string> sample_copy_targs(std::string_view name) {
  if (has(name, "SM80_CP_ASYNC_")) return {"uint128_t"};
  if (name == "UniversalCopy") return {"uint32_t"};
  return {};
}

}  // namespace layoutproof::test
