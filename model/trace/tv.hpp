#pragma once
// CuTe's thread-value machinery (cute/atom/mma_atom.hpp, cute/atom/copy_atom.hpp, CUTLASS 4.x):
// TiledMMA, Copy_Atom, TiledCopy and partition_S / partition_D of a staged smem tensor, evaluated
// as functions. Each CuTe layout along the way (get_layoutA_TV, tile2thrfrg's thrval2mn, the
// zipped_divide of the smem tensor by the tiler) is computed pointwise from its definition, so the
// result is the function CuTe's layouts compute whenever CuTe's compositions are admissible, which
// model/ checks: a TV map that is not a bijection where CuTe assumes one is refused, naming it.
//
// TvMap: (thr_idx, val_idx) -> colexicographic index into a tile of shape `tile`.
//
// TiledMMA (make_tiled_mma(atom, AtomLayoutMNK, Tile<PermM,PermN,PermK>)):
//   ThrLayoutVMNK = tiled_product(ThrID, AtomLayoutMNK); thread t has VMNK coordinate
//   (v,m,n,k) = VMNK^-1(t). get_layoutA_TV(t, (fv,(rm,rk))) = PermM(am + AtomM*(m + ThrM*rm))
//   + TM * PermK(ak + AtomK*(k + ThrK*rk)) with (am,ak) = LayoutA_TV(v, fv) split in (AtomM,AtomK).
// Copy_Atom<Op, T>: Op's bit layouts recast to T (recast_layout<uint1_t,T> = upcast<bits(T)>).
// TiledCopy: TiledLayout_TV and Tiler_MN (make_tiled_copy: right_inverse(raked_product(thr,val))
//   with_shape(#thr,#val), tiler product_each(shape); make_tiled_copy_A/B/C: the MMA's TV layout
//   and tile). tile2thrfrg gives, for side X in {S,D},
//   thrval2mn(t, (xv, rv)) = TiledTV(at + #AtomThr*(t / #AtomThr), av + #AtomVal*rv)
//   where (at, av) = Ref^-1(AtomX(t % #AtomThr, xv)) split by #AtomThr.
// partition_X(smem) of thread t: (CPY=(xv,rv), RestM, RestN, ..., PIPE) where mode i of the smem
//   tensor is zipped_divide'd by tiler mode i: mode index = Tiler_i(c_i) + complement_i(r_i).
// The copy issues one instruction per (thread, rv, rest coordinate): its CPY slice xv = 0..#X-1,
// whose first element's address the instruction receives (model/trace/trace.hpp).
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "model/layout/composed.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/trace/trace.hpp"

namespace layoutproof {

struct TvMap {
  i64 threads = 0, values = 0;
  std::vector<i64> tile;    // tile mode sizes
  std::vector<i64> index;   // index[t + threads * v]: colexicographic index into the tile
  i64 operator()(i64 t, i64 v) const { return index[static_cast<std::size_t>(t + threads * v)]; }
  i64 tile_size() const;
};

struct TiledMma {
  MmaAtomInfo atom;
  Layout atom_layout;                         // AtomLayoutMNK, rank 3
  std::array<std::optional<Layout>, 3> perm;  // Tile<...>: nullopt is `_`
  Layout thr_layout_vmnk;                     // tiled_product(ThrID, AtomLayoutMNK)
  std::vector<i64> thr_of_index;              // VMNK table: colex (v,m,n,k) index -> thr_idx
  std::vector<i64> index_of_thr;              // its inverse

  i64 threads() const { return static_cast<i64>(index_of_thr.size()); }
  i64 vmnk_size(int mode) const;              // size<mode>(ThrLayoutVMNK), mode 0..3
  i64 tile_size(int mnk) const;               // tile_size_mnk<I>
  TvMap layout_a_tv() const;                  // get_layoutA_TV: (thr,val) -> (M,K) index
  TvMap layout_b_tv() const;                  // get_layoutB_TV: (thr,val) -> (N,K) index
  TvMap layout_c_tv() const;                  // get_layoutC_TV: (thr,val) -> (M,N) index
  std::string text;                           // the expression it came from (for provenance)
};

// make_tiled_mma(atom, atom_layout (rank <= 3, padded with 1:0), permutations (<= 3, padded `_`)).
// @pre ThrLayoutVMNK maps its domain onto [0, size) (LayoutError otherwise).
TiledMma make_tiled_mma(const MmaAtomInfo& atom, const Layout& atom_layout,
                        const std::vector<std::optional<Layout>>& perm = {});

struct CopyAtom {
  CopyOpInfo op;
  std::string value_type;  // T of Copy_Atom<Op, T>
  int value_bits = 16;
  Layout src, dst, ref;    // ValLayoutSrc/Dst/Ref: (thr, val) -> T-element offset
  i64 num_threads() const; // size<0>(ValLayoutRef)
  i64 num_values() const;  // size<1>(ValLayoutRef)
};
// Copy_Atom<Op, T>. @pre the op's registers hold whole T's (LayoutError: "UniversalCopy<uint8_t>
// cannot move 16-bit half_t values").
CopyAtom make_copy_atom(const CopyOpInfo& op, const std::string& value_type);

struct TiledCopy {
  CopyAtom atom;
  TvMap layout_tv;             // TiledLayout_TV: (thr, val) -> tile index
  std::vector<Layout> tiler;   // Tiler_MN, one layout per mode
  std::string text;
};
// The most (thread, value) pairs a TV layout may have: its tables are built in full, so a larger
// one is refused (LayoutError) before anything is built. 2^24 = e.g. 1024 threads x 16384 values;
// CUTLASS's configurations have at most 256 threads x 128 values (32,768).
inline constexpr i64 kMaxTvEntries = i64{1} << 24;
// @pre the raked product of thr and val is a bijection onto [0, size(thr)*size(val)).
// Throws LayoutError when size(thr) * size(val) > kMaxTvEntries (checked: no table is built then).
TiledCopy make_tiled_copy(const CopyAtom& atom, const Layout& thr_layout, const Layout& val_layout);
TiledCopy make_tiled_copy_A(const CopyAtom& atom, const TiledMma& mma);
TiledCopy make_tiled_copy_B(const CopyAtom& atom, const TiledMma& mma);
TiledCopy make_tiled_copy_C(const CopyAtom& atom, const TiledMma& mma);
// make_tiled_copy_C_atom (cute/atom/copy_atom.hpp): the smallest TiledCopy that retiles the C
// accumulators, for epilogues that store sub-tiles. CuTe truncates get_layoutC_TV to the atom's
// copy_V = NumValSrc values per thread, layout_TV = layoutC_TV o (#thr, copy_V):(1, #thr); its
// tiler mode i = filter(composition(proj_i, layout_TV)) enumerates the mode-i coordinates that
// layout_TV reaches, and TiledLayout_TV = left_inverse(tile2mma) o layout_TV, the position of each
// (thr, val) in the tile the tiler spans. Here the tiler mode is the layout with that image (modes
// by increasing stride), and TiledLayout_TV the position in it: any enumeration of the same set
// gives the same smem elements per (thr, val) and the same complement, so the same trace.
// @pre copy_V <= values of the C layout, a prefix of its value mode CuTe's composition admits, and
//      each mode's coordinates are the image of a layout (LayoutError otherwise).
// @post tiler(layout_tv(t, v)) == layoutC_TV(t, v) for v < copy_V (as (m, n) coordinates)
// Example: SM90_64x128x16 GMMA with Copy_Atom<SM90_U32x4_STSM_N, half_t> (copy_V 8): tiler
//   [64:1, 16:1] (CuTe's ((8,4,2):(1,16,8), (4,2,2):(2,1,8)) has the same images), 128 threads.
TiledCopy make_tiled_copy_C_atom(const CopyAtom& atom, const TiledMma& mma);
TiledCopy make_tiled_copy_S(const CopyAtom& atom, const TiledCopy& like);  // its get_layoutS_TV
TiledCopy make_tiled_copy_D(const CopyAtom& atom, const TiledCopy& like);  // its get_layoutD_TV

enum class CopySide { S, D };  // the smem tensor is the copy's source (S) or destination (D)

// thrval2mn of tile2thrfrg for one side: (thr, (xv, rv)) -> tile index, values colex (xv, rv).
TvMap thrval2mn(const TiledCopy& c, CopySide side);
// get_layoutS_TV / get_layoutD_TV.
inline TvMap layout_s_tv(const TiledCopy& c) { return thrval2mn(c, CopySide::S); }
inline TvMap layout_d_tv(const TiledCopy& c) { return thrval2mn(c, CopySide::D); }

// A TiledMMA or TiledCopy is one thread block's: LayoutError naming `what` above 1024 threads.
void require_block_threads(i64 threads, const std::string& what);

struct TraceOptions {
  i64 base_address = 0;          // byte address of the smem tensor's element 0 (before its swizzle)
  i64 max_instructions = i64{1} << 22;  // larger traces are refused (LayoutError), never truncated
};

// CuTe's compile-time conditions on partition_S / partition_D of `smem` by `c` and on the stage
// slice part(_,_,_,s) of a staged tensor (model/trace/trace_copy.cpp mirrors them on CuTe's own
// layouts): throws LayoutError quoting CuTe's static_assert ("Shape Divisibility Condition",
// "Stride Divisibility Condition", "Requires pow2 shape*stride.") where CuTe does not compile the
// partition. trace_copy checks them; a search that re-addresses traces without tracing each
// candidate calls this to reject what CuTe refuses.
// Example: Sw<2,1,3> o tile_to_shape((8,1):(1,0), (8,4,3)) by DefaultCopy on (8,4) threads of
//   double: the swizzle's projection (_2,_4,_2,_4,_1):(_0,_2,_0,_16,_0) o the stage mode _3:_32
//   fails "Shape Divisibility Condition".
void check_cute_partition(const TiledCopy& c, const AnyLayout& smem, CopySide side);

// Every shared-memory instruction the copy issues on `smem` (its rank >= rank of the tiler; extra
// modes such as the pipeline stage are rest modes), for all warps of the copy.
// @pre side fits the op (ldsm reads smem: S; stsm and cp.async write it: D), the smem tensor's
//      modes are divisible by the tiler's (CuTe's zipped_divide), element bits = atom value bits.
AddressTrace trace_copy(const TiledCopy& c, const AnyLayout& smem, CopySide side, const TraceOptions& o = {});

}  // namespace layoutproof
