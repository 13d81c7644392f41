#include "proofs/catalog.hpp"

#include <algorithm>

#include "model/notation.hpp"
#include "model/recast.hpp"

namespace layoutproof::proofs {

const std::vector<CatalogAtom>& builtin_catalog() {
  // name, element bits, swizzle on bytes, element-unit form, used in
  static const std::vector<CatalogAtom> atoms = {
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

std::string CatalogAtom::display_name() const { return name + "<" + std::to_string(element_bits) + "b>"; }

namespace {

// True when mode m's first leaf has stride 1 (the contiguous mode).
bool unit_stride_mode(const Layout& l, std::size_t m) {
  const std::vector<i64> d = leaves(l.mode(m).stride);
  return !d.empty() && d.front() == 1;
}

}  // namespace

AccessView access_view(const AnyLayout& atom, int element_bits) {
  AnyLayout tile = atom;
  if (tile.layout.rank() == 2 && unit_stride_mode(tile.layout, 0) && !unit_stride_mode(tile.layout, 1))
    tile = tile.with_inner(Layout::concat({tile.layout.mode(1), tile.layout.mode(0)}));  // MN-major: swap
  if (element_bits >= 8) return {tile, element_bits / 8};
  return {upcast(tile, 8 / element_bits), 1};  // sub-byte: view in bytes
}

std::vector<Check> catalog_checks(const CatalogAtom& atom) {
  const AnyLayout l = parse_any_layout(atom.element_layout);
  const std::string subject = atom.display_name();
  // The atom's vector: 16 bytes, or 2^M elements when its swizzle keeps fewer together (the SM80
  // double atoms Sw<2,0,4> and Sw<2,2,2> are used with 8- and 16-byte copies).
  i64 vec_elems = 128 / atom.element_bits;
  if (l.swizzle && l.swizzle->B > 0) vec_elems = std::min<i64>(vec_elems, i64{1} << l.swizzle->M);
  std::vector<Check> out;
  out.push_back(make_check(subject, l, "bijective", std::nullopt));
  out.push_back(make_check(subject, l, "contiguous:" + std::to_string(vec_elems), std::nullopt));
  const AccessView view = access_view(l, atom.element_bits);
  const i64 vec_bytes = vec_elems * atom.element_bits / 8;
  const auto access = [&](PatternKind p, SmemOp op) {
    AccessSpec spec;
    spec.tile = view.tile;
    spec.elem_bytes = view.elem_bytes;
    spec.vec = static_cast<int>(p == PatternKind::ldmatrix ? 16 / view.elem_bytes : vec_bytes / view.elem_bytes);
    spec.pattern = p;
    return make_bank_subject(spec, op);
  };
  for (SmemOp op : {SmemOp::ld, SmemOp::st})
    out.push_back(make_check(subject, view.tile, "conflict-free", access(PatternKind::row_per_lane, op)));
  const bool matrix_rows = product(view.tile.layout.shape[0]) % 8 == 0;  // ldmatrix reads 8-row matrices
  if (atom.element_bits == 16 && matrix_rows)
    for (SmemOp op : {SmemOp::ldsm4, SmemOp::stsm4})
      out.push_back(make_check(subject, view.tile, "conflict-free", access(PatternKind::ldmatrix, op)));
  if (atom.byte_swizzle != "-") {
    Check c = make_check(subject, l, "tma:" + atom.byte_swizzle, std::nullopt);
    c.element_bits = atom.element_bits;
    out.push_back(c);
  }
  for (Check& c : out) c.element_bits = atom.element_bits;
  return out;
}

std::vector<Check> catalog_checks() {
  std::vector<Check> out;
  for (const auto& atom : builtin_catalog())
    for (Check& c : catalog_checks(atom)) out.push_back(std::move(c));
  return out;
}

}  // namespace layoutproof::proofs
