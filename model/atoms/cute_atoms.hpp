#pragma once
// CuTe's MMA and copy atoms as data (facts read from CUTLASS 4.x: cute/atom/mma_traits_sm*.hpp,
// cute/atom/copy_traits_sm*.hpp, cute/atom/copy_traits.hpp; written here, not copied).
//
// MMA atom (MMA_Traits<Op>): Shape_MNK, ThrID, and the thread-value layouts
//   LayoutA_TV: (thr, val) -> colexicographic index in the (M,K) tile of the atom
//   LayoutB_TV: (thr, val) -> index in (N,K);   LayoutC_TV: (thr, val) -> index in (M,N)
// Example: SM80_16x8x8_F16F16F16F16_TN: MNK (16,8,8), ThrID 32:1,
//   A ((4,8),(2,2)):((32,1),(16,8)), B ((4,8),2):((16,1),8), C ((4,8),(2,2)):((32,1),(16,8)).
//
// Copy operation (Copy_Traits<Op>): ThrID and the (thr, val) -> bit layouts Src, Dst and Ref.
// Copy_Atom<Op, T> recasts them to T's units (recast_layout<uint1_t, T>); see model/trace/tv.hpp.
// Example: SM75_U32x4_LDSM_N: ThrID 32:1, Src (32,128):(128,1), Dst (32,(32,4)):(32,(1,1024)),
//   Ref = Dst.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/layout/layout.hpp"

namespace layoutproof {

struct MmaAtomInfo {
  std::string name;                 // the CuTe op, e.g. "SM80_16x8x16_F32F16F16F32_TN"; templated ones
                                    // with their arguments: "UniversalFMA<float>",
                                    // "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>"
  i64 m = 1, n = 1, k = 1;          // Shape_MNK
  Layout thr_id;                    // ThrID
  Layout a_tv, b_tv, c_tv;          // LayoutA_TV, LayoutB_TV, LayoutC_TV (element units)
  std::string a_type, b_type, c_type;  // ValTypeA/B/C as CuTe names them ("half_t", "float", ...)
  std::string d_type;               // ValTypeD (= ValTypeC except in UniversalFMA<D,A,B,C> with C != D)
};

// The atom named `name` with template arguments `targs` (as written, e.g. UniversalFMA with
// {"float","float","float","float"}, SM90_64x128x16_F32F16F16_SS with
// {"GMMA::Major::K","GMMA::Major::K"}); nullopt when unknown. Throws LayoutError when the name is
// known but the arguments are not valid for it (the message says which are).
// The arguments may also be spelled inside `name` ("UniversalFMA<float>"), which is how
// MmaAtomInfo::name prints them for templated atoms, so a name found once can be looked up again.
// GMMA atoms of 16-bit inputs take <tnspA, tnspB[, scaleA[, scaleB]]> (none given = K, K); the
// _TN ones (tf32, fp8) take [scaleA[, scaleB]], the int8 ones none.
std::optional<MmaAtomInfo> find_mma_atom(std::string_view name, const std::vector<std::string>& targs = {});
// SM100 UMMA atoms (model/atoms/cute_atoms_umma.cpp): SM100_MMA_{F16BF16,TF32,S8,F8F6F4}_SS and
// SM100_MMA_{F16BF16,TF32,S8,F8F6F4}_TS<a_type, b_type, c_type, M, N, UMMA::Major a, UMMA::Major b[, ...]>;
// one thread issues each (ThrID 1:0), A (M,K), B (N,K) and C (M,N) column-major behind a stride-0
// thread mode. `op` without namespaces, `targs` split. nullopt when `op` is not one of them.
std::optional<MmaAtomInfo> find_umma(std::string_view op, const std::vector<std::string>& targs);
std::vector<std::string> umma_names();
// SM120 warp MMAs (model/atoms/cute_atoms_sm120.cpp): SM120_16x8x32_TN<a, b, c> and
// SM120::BLOCKSCALED::SM120_16x8x{32,64}_TN_VS<a, b, c, sf, VS>; nullopt when `op` is not one of them.
std::optional<MmaAtomInfo> find_sm120_mma(std::string_view op, const std::vector<std::string>& targs);
std::vector<std::string> sm120_mma_names();
// Every supported MMA op name (for --help and "did you mean").
std::vector<std::string> mma_atom_names();

enum class CopyKind {
  ldsm,       // SM75_U32xN_LDSM_N / SM75_U16xN_LDSM_T: smem is the source
  stsm,       // SM90_U32xN_STSM_N / SM90_U16xN_STSM_T: smem is the destination
  cp_async,   // SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}<S[,D]>: gmem -> smem, smem is the destination
  universal,  // UniversalCopy<S[,D]>: one thread, one register of S
  autovec     // AutoVectorizingCopyWithAssumedAlignment<B> (DefaultCopy: B = 8, AutoVectorizingCopy: 128)
};

struct CopyOpInfo {
  std::string name;                 // as CuTe spells it, with its template arguments
  CopyKind kind = CopyKind::universal;
  Layout thr_id;                    // ThrID
  Layout src, dst, ref;             // (thr, val) -> bit
  int matrices = 0;                 // N of .xN for ldsm/stsm
  bool transposed = false;          // LDSM_T / STSM_T
  // Bits of one source / destination register as the op's SRegisters / DRegisters declare them:
  // S and D of UniversalCopy<S,D> and cp.async; LDSM: src 128 (uint128_t[1], the row a thread
  // addresses), dst 32 (uint32_t[N]); STSM the other way round; autovec: MaxVecBits both.
  int src_reg_bits = 0;
  int dst_reg_bits = 0;
  int max_vec_bits = 0;             // autovec only
};

// The copy operation `name` with template arguments `targs` (e.g. {"uint128_t"}, or spelled in the
// name: "UniversalCopy<uint32_t>"); nullopt when unknown, LayoutError when known but the arguments
// are invalid. CopyOpInfo::name is the canonical spelling: namespaces stripped, a defaulted
// trailing argument left out ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>").
std::optional<CopyOpInfo> find_copy_op(std::string_view name, const std::vector<std::string>& targs = {});
std::vector<std::string> copy_op_names();

// Why CuTe's op `name` (without template arguments) is not modelled as a lane-addressed atom, for
// the ops CuTe ships that find_mma_atom / find_copy_op refuse (model/atoms/cute_atoms_unmodelled.cpp):
//   unmodelled_copy_reason("SM90_TMA_LOAD") == "a TMA copy: ...";  nullopt for a name CuTe does not
// ship or one that is modelled. tests/model/atoms/ checks every op CUTLASS's headers define is one or
// the other (tests/model/atoms/cute_op_names.txt, tools/cute_reference/list_cute_ops.py).
std::optional<std::string> unmodelled_mma_reason(std::string_view name);
std::optional<std::string> unmodelled_copy_reason(std::string_view name);

// Bits of a CuTe/CUTLASS element or register type: half_t 16, bfloat16_t 16, tfloat32_t 32,
// float 32, double 64, int8_t 8, uint8_t 8, float_e4m3_t 8, float_e5m2_t 8, uint4b_t 4,
// int4b_t 4, float_e2m3_t / float_e3m2_t 6, float_e2m1_t 4, uint16_t 16, uint32_t 32, uint64_t 64,
// uint128_t 128, int32_t 32, ...; nullopt when unknown. `cute::`/`cutlass::` prefixes ignored.
std::optional<int> type_bits(std::string_view type_name);
std::vector<std::string> type_names();

}  // namespace layoutproof
