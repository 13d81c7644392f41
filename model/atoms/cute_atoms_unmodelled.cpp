// The ops CUTLASS ships (include/cute/arch/*.hpp, include/cute/atom/*_traits*.hpp) that are not
// lane-addressed shared-memory atoms, each with the reason. A trace is a warp's per-lane
// shared-memory addresses; an op whose data moves by a descriptor (TMA, bulk copies, UMMA
// operands, tcgen05.cp), in tensor memory or registers only, or whose operand layout the model has
// no form for (a sparse A with its metadata), has none. tests/model/atoms/cute_op_names_test.cpp
// checks that every op name CUTLASS's headers define is modelled or has a reason here.
#include <optional>
#include <string>
#include <string_view>

#include "model/atoms/atom_spelling.hpp"
#include "model/atoms/cute_atoms.hpp"

namespace layoutproof {
namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

}  // namespace

std::optional<std::string> unmodelled_mma_reason(std::string_view name_in) {
  const std::string_view name = atom_spelling::strip_namespaces(name_in);
  if (contains(name, "SPARSE"))
    return std::string("a sparse MMA: A is stored compressed (2:4 structured sparsity) with a metadata operand, and its "
                       "layouts index the compressed tensor; the model has no sparse operand");
  if (atom_spelling::starts_with(name, "SM80_16x8x128_S32U1U1S32_TN_"))
    return std::string("its traits' ALayout is not a layout: the value mode Shape<_32,_2> has the stride "
                       "Stride<Stride<_16,_8>>, which is not congruent to it");
  if (atom_spelling::starts_with(name, "SM103"))
    return std::string("an SM103 block-scaled UMMA (tcgen05.mma with scale factors in tensor memory); one thread issues "
                       "it from shared-memory descriptors, no lane addresses shared memory");
  if (atom_spelling::starts_with(name, "SM100_MMA_")) {
    if (contains(name, "_2x1SM_"))
      return std::string("a 2-SM UMMA: a CTA pair issues one tcgen05.mma.cta_group::2 from shared-memory descriptors; no "
                         "lane addresses shared memory (the smem layouts are checked by their own claims)");
    if (contains(name, "_SCALED"))
      return std::string("a UMMA with a run-time accumulator scale (tcgen05.mma ... scale-d); one thread issues it from "
                         "shared-memory descriptors, no lane addresses shared memory");
    if (contains(name, "MXF8F6F4") || contains(name, "MXF4"))
      return std::string("a block-scaled UMMA (tcgen05.mma.kind::mxf8f6f4/mxf4): scale factors in tensor memory, operands "
                         "through shared-memory descriptors; no lane addresses shared memory");
    if (contains(name, "INTERLEAVED"))
      return std::string("an interleaved-complex TF32 UMMA; one thread issues it from descriptors, no lane addresses "
                         "shared memory");
  }
  return std::nullopt;
}

std::optional<std::string> unmodelled_copy_reason(std::string_view name_in) {
  const std::string_view name = atom_spelling::strip_namespaces(name_in);
  if (contains(name, "_TMA_"))
    return std::string("a TMA copy: one thread issues a bulk tensor copy described by a tensor map, no lane addresses "
                       "shared memory (prove the smem box with prove --claim tma:...)");
  if (contains(name, "BULK_COPY"))
    return std::string("a bulk copy (cp.async.bulk): one thread moves a contiguous block, no lane addresses shared memory");
  if (contains(name, "_TMEM_"))
    return std::string("a tensor-memory load/store (tcgen05.ld/st): moves data between tensor memory and registers, no "
                       "shared memory");
  if (contains(name, "_UTCCP_"))
    return std::string("tcgen05.cp: copies shared memory to tensor memory through a descriptor, no lane addresses "
                       "shared memory");
  if (atom_spelling::starts_with(name, "SM50_Shuffle"))
    return std::string("a warp shuffle: registers to registers, no shared memory");
  if (contains(name, "_MOVM_"))
    return std::string("movmatrix: transposes a matrix in registers, no shared memory");
  if (atom_spelling::starts_with(name, "SM100_LOAD_256bit") || atom_spelling::starts_with(name, "SM100_STORE_256bit"))
    return std::string("a 256-bit global-memory load/store (ld/st.global.v8): it has no shared-memory form");
  if (name == "AutoCopyAsync")
    return std::string("a copy policy, not an op: cute::copy picks UniversalCopy or cp.async per call; write the op it "
                       "picks (SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, UniversalCopy<T>)");
  return std::nullopt;
}

}  // namespace layoutproof
