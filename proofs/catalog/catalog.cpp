#include "proofs/catalog/catalog.hpp"

#include <algorithm>

#include "model/layout/notation.hpp"
#include "model/algebra/recast.hpp"

namespace layoutproof::proofs {

std::vector<Check> catalog_checks(const CatalogAtom& atom) {
  const AnyLayout l = atom.layout();
  const std::string subject = atom.display_name();
  const i64 vec_elems = atom.vector_elements();
  std::vector<Check> out;
  out.push_back(make_check(subject, l, "bijective", std::nullopt));
  out.push_back(make_check(subject, l, "contiguous:" + std::to_string(vec_elems), std::nullopt));
  const AccessView view = access_view(l, atom.element_bits);
  const i64 vec_bytes = vec_elems * atom.element_bits / 8;
  const auto access = [&](PatternKind p, SmemOp op) {
    const i64 vec = p == PatternKind::ldmatrix ? 16 / view.elem_bytes : vec_bytes / view.elem_bytes;
    return make_bank_subject(make_access(view.tile, view.elem_bytes, static_cast<int>(vec), p), op);
  };
  // The SM80 atoms are read and written by thread copies whose addresses come from CuTe's
  // partitioning, not from a canned pattern: their bank claims are the kernel configurations'
  // (proofs/catalog/kernel_catalog.hpp), over the instructions those kernels really issue.
  const bool thread_copied = atom.name.rfind("SM80", 0) == 0;
  if (!thread_copied)
    for (SmemOp op : {SmemOp::ld, SmemOp::st})
      out.push_back(make_check(subject, view.tile, "conflict-free", access(PatternKind::row_per_lane, op)));
  const bool matrix_rows = product(view.tile.layout.shape[0]) % 8 == 0;  // ldmatrix reads 8-row matrices
  if (atom.element_bits == 16 && matrix_rows && !thread_copied)
    for (SmemOp op : {SmemOp::ldsm4, SmemOp::stsm4})
      out.push_back(make_check(subject, view.tile, "conflict-free", access(PatternKind::ldmatrix, op)));
  if (atom.byte_swizzle != "-") out.push_back(make_check(subject, l, "tma:" + atom.byte_swizzle, std::nullopt, {}, atom.element_bits));
  return out;
}

std::vector<Check> catalog_checks() {
  std::vector<Check> out;
  for (const auto& atom : builtin_catalog())
    for (Check& c : catalog_checks(atom)) out.push_back(std::move(c));
  return out;
}

}  // namespace layoutproof::proofs
