#include "model/atoms/cutlass_atoms.hpp"

#include <algorithm>

#include "model/layout/notation.hpp"
#include "model/algebra/recast.hpp"

namespace layoutproof {

const std::vector<CutlassAtom>& cutlass_atoms() {
  // name, element bits, swizzle on bytes, element-unit form, used in
  static const std::vector<CutlassAtom> atoms = {
      {"GMMA::Layout_K_INTER_Atom", 4, "Sw<0,4,3>", "(8,32):(32,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW32_Atom", 4, "Sw<1,4,3>", "Sw<1,5,3> o 0 o (8,64):(64,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW64_Atom", 4, "Sw<2,4,3>", "Sw<2,5,3> o 0 o (8,128):(128,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW128_Atom", 4, "Sw<3,4,3>", "Sw<3,5,3> o 0 o (8,256):(256,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_INTER_Atom", 4, "Sw<0,4,3>", "(32,8):(1,32)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW32_Atom", 4, "Sw<1,4,3>", "Sw<1,5,3> o 0 o (64,8):(1,64)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW64_Atom", 4, "Sw<2,4,3>", "Sw<2,5,3> o 0 o (128,8):(1,128)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW128_Atom", 4, "Sw<3,4,3>", "Sw<3,5,3> o 0 o (256,8):(1,256)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_INTER_Atom", 8, "Sw<0,4,3>", "(8,16):(16,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW32_Atom", 8, "Sw<1,4,3>", "Sw<1,4,3> o 0 o (8,32):(32,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW64_Atom", 8, "Sw<2,4,3>", "Sw<2,4,3> o 0 o (8,64):(64,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW128_Atom", 8, "Sw<3,4,3>", "Sw<3,4,3> o 0 o (8,128):(128,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_INTER_Atom", 8, "Sw<0,4,3>", "(16,8):(1,16)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW32_Atom", 8, "Sw<1,4,3>", "Sw<1,4,3> o 0 o (32,8):(1,32)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW64_Atom", 8, "Sw<2,4,3>", "Sw<2,4,3> o 0 o (64,8):(1,64)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW128_Atom", 8, "Sw<3,4,3>", "Sw<3,4,3> o 0 o (128,8):(1,128)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_INTER_Atom", 16, "Sw<0,4,3>", "(8,8):(8,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW32_Atom", 16, "Sw<1,4,3>", "Sw<1,3,3> o 0 o (8,16):(16,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW64_Atom", 16, "Sw<2,4,3>", "Sw<2,3,3> o 0 o (8,32):(32,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW128_Atom", 16, "Sw<3,4,3>", "Sw<3,3,3> o 0 o (8,64):(64,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_INTER_Atom", 16, "Sw<0,4,3>", "(8,8):(1,8)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW32_Atom", 16, "Sw<1,4,3>", "Sw<1,3,3> o 0 o (16,8):(1,16)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW64_Atom", 16, "Sw<2,4,3>", "Sw<2,3,3> o 0 o (32,8):(1,32)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW128_Atom", 16, "Sw<3,4,3>", "Sw<3,3,3> o 0 o (64,8):(1,64)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_INTER_Atom", 32, "Sw<0,4,3>", "(8,4):(4,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW32_Atom", 32, "Sw<1,4,3>", "Sw<1,2,3> o 0 o (8,8):(8,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW64_Atom", 32, "Sw<2,4,3>", "Sw<2,2,3> o 0 o (8,16):(16,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW128_Atom", 32, "Sw<3,4,3>", "Sw<3,2,3> o 0 o (8,32):(32,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_INTER_Atom", 32, "Sw<0,4,3>", "(4,8):(1,4)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW32_Atom", 32, "Sw<1,4,3>", "Sw<1,2,3> o 0 o (8,8):(1,8)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW64_Atom", 32, "Sw<2,4,3>", "Sw<2,2,3> o 0 o (16,8):(1,16)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW128_Atom", 32, "Sw<3,4,3>", "Sw<3,2,3> o 0 o (32,8):(1,32)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_INTER_Atom", 64, "Sw<0,4,3>", "(8,2):(2,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW32_Atom", 64, "Sw<1,4,3>", "Sw<1,1,3> o 0 o (8,4):(4,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW64_Atom", 64, "Sw<2,4,3>", "Sw<2,1,3> o 0 o (8,8):(8,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_K_SW128_Atom", 64, "Sw<3,4,3>", "Sw<3,1,3> o 0 o (8,16):(16,1)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_INTER_Atom", 64, "Sw<0,4,3>", "(2,8):(1,2)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW32_Atom", 64, "Sw<1,4,3>", "Sw<1,1,3> o 0 o (4,8):(1,4)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW64_Atom", 64, "Sw<2,4,3>", "Sw<2,1,3> o 0 o (8,8):(1,8)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"GMMA::Layout_MN_SW128_Atom", 64, "Sw<3,4,3>", "Sw<3,1,3> o 0 o (16,8):(1,16)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"UMMA::Layout_MN_SW128_32B_Atom", 32, "Sw<2,5,2>", "Sw<2,3,2> o 0 o (32,4):(1,32)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"UMMA::Layout_MN_SW128_32B_Atom", 16, "Sw<2,5,2>", "Sw<2,4,2> o 0 o (64,4):(1,64)", "include/cute/atom/mma_traits_sm90_gmma.hpp (sm100: mma_traits_sm100.hpp)"},
      {"SM80 half K-major kblock64", 16, "-", "Sw<3,3,3> o 0 o (8,64):(64,1)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 half MN-major", 16, "-", "Sw<3,3,3> o 0 o (64,8):(1,64)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 half K-major kblock32", 16, "-", "Sw<2,3,3> o 0 o (8,32):(32,1)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 tf32 K-major kblock32", 32, "-", "Sw<3,2,3> o 0 o (8,32):(32,1)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 tf32 K-major kblock16", 32, "-", "Sw<2,2,3> o 0 o (8,16):(16,1)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 tf32 MN-major", 32, "-", "Sw<3,2,3> o 0 o (32,8):(1,32)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 int8 K-major", 8, "-", "Sw<2,4,3> o 0 o (16,64):(64,1)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 double K-major", 64, "-", "Sw<2,0,4> o 0 o (4,16):(1,4)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 double M-major", 64, "-", "Sw<2,2,2> o 0 o (16,4):(1,16)", "test/unit/gemm/device/default_gemm_configuration.hpp"},
      {"SM80 half K-major tutorial", 16, "-", "Sw<3,3,3> o 0 o (8,(8,8)):(8,(1,64))", "examples/cute/tutorial/sgemm_sm80.cu"},
      {"SM80 float conv filter/activation", 32, "-", "Sw<1,2,3> o 0 o (8,(4,2)):(4,(1,32))", "examples/59_ampere_gather_scatter_conv/ampere_conv_kernel.h"},
  };
  return atoms;
}

std::string CutlassAtom::display_name() const { return name + "<" + std::to_string(element_bits) + "b>"; }

AnyLayout CutlassAtom::layout() const { return parse_any_layout(element_layout); }

i64 CutlassAtom::vector_elements() const {
  const AnyLayout l = layout();
  i64 v = 128 / element_bits;
  if (l.swizzle && l.swizzle->B > 0) v = std::min<i64>(v, i64{1} << l.swizzle->M);
  return v;
}

namespace {

// True when mode m's first leaf has stride 1 (the contiguous mode).
bool unit_stride_mode(const Layout& l, std::size_t m) {
  const std::vector<i64> d = leaves(l.mode(m).stride);
  return !d.empty() && d.front() == 1;
}

}  // namespace

AccessView access_view(const AnyLayout& atom, int element_bits) {
  AccessView v{atom, element_bits >= 8 ? element_bits / 8 : 1, false};
  if (atom.layout.rank() == 2 && unit_stride_mode(atom.layout, 0) && !unit_stride_mode(atom.layout, 1)) {
    v.tile = atom.with_inner(Layout::concat({atom.layout.mode(1), atom.layout.mode(0)}));
    v.transposed = true;
  }
  if (element_bits < 8) v.tile = upcast(v.tile, 8 / element_bits);
  return v;
}

}  // namespace layoutproof
