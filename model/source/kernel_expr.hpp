#pragma once
// The kernel layer of the C++ front end: TiledMMA, Copy_Atom and TiledCopy expressions, as a
// CuTe kernel writes them, evaluated to model/trace/tv.hpp objects.
//
//   make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})
//   TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_8>>{}
//   make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)      (mma: the --mma value)
//   make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
//                   Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})
// also make_tiled_copy_B/C/S/D, make_tiled_copy_C_atom, MMA_Atom<Op>{}, Op{}, and `using`/`auto`
// bindings of any of them.
// The names `mma` and `tiled_mma`, and the name the TiledMMA's own text declares, refer to the
// TiledMMA given separately (--mma, a spec's mma:), unless the copy's text defines the name itself:
//   --mma 'mmaC = make_tiled_mma(...)'                 (NAME = EXPR)
//   --mma 'TiledMMA mmaC = make_tiled_mma(...);'       (a declaration, as the tutorials write it)
//   --copy 'Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A; make_tiled_copy_A(s2r_atom_A, mmaC)'
// Template arguments are evaluated wherever they stand, so -D constants and `using` lines apply to
// copy ops, element types and MMA atoms alike (Copy_Atom<CopyOpR2S, SmemElementD> with -D ...).
// A thread slice, as kernels write it, names its TiledCopy / TiledMMA: a trace covers all threads
// of the copy, so `X.get_slice(threadIdx.x)` and `X.get_thread_slice(tid)` are read as X:
//   make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma).get_slice(threadIdx.x)
// `.partition_S(t)` / `.partition_D(t)` are refused (the smem tensor is given apart, with its side),
// and so are `.retile_S/_D(...)` (register views, no shared-memory instruction).
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/source/cpp_expr.hpp"
#include "model/trace/tv.hpp"

namespace layoutproof {

using CppConstants = std::map<std::string, std::string>;

// Adds the kernel objects to an evaluator; `mma` is what the names mma/tiled_mma (and the name its
// text declares) denote.
void add_kernel_extension(CppEvaluator& ev, std::optional<TiledMma> mma = std::nullopt);

// The name a TiledMMA's text gives it: NAME of `NAME = EXPR`, or the last declaration of a program
// without a final expression (`TiledMMA mmaC = make_tiled_mma(...);` -> mmaC); nullopt otherwise.
std::optional<std::string> declared_mma_name(std::string_view text);

// `text` may be `NAME = EXPR` (the TiledMMA is then also called NAME in copies, see above).
TiledMma parse_tiled_mma(std::string_view text, const CppConstants& constants = {});
TiledCopy parse_tiled_copy(std::string_view text, const std::optional<TiledMma>& mma = std::nullopt,
                           const CppConstants& constants = {});
// A smem layout: CuTe notation or C++ (tile_to_shape(...), composition(...), a GMMA atom, ...), read
// by parse_layout_any_syntax (model/source/cpp_source.hpp) with the constants, whatever the syntax.
AnyLayout parse_smem_layout(std::string_view text, const CppConstants& constants = {});

}  // namespace layoutproof
