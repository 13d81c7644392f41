#pragma once
// The soundness soak's INDEPENDENT reference. Written apart from model/ and
// proofs/: nothing here includes or calls them. Each definition is re-derived from the documents
// (proofs/claims/claim.hpp's claim formulas, docs/bank_model.md, model/trace/access.hpp's pattern comments,
// model/raster/raster.hpp's table, CuTe's copy_atom.hpp for make_tiled_copy), so a bug in model/ cannot
// hide by being shared with its checker. The soak generates inputs as these structures, prints
// them as CuTe notation / C++ / CLI text for the product, and compares verdicts.
//
// Layouts (CuTe): a layout is a tree of (shape, stride) leaves; index x -> colexicographic
// coordinate over the flattened leaves (first leaf fastest) -> sum c_i * d_i.
//   ((2,4),3):((1,-2),16) at x = 5: leaves (2,4,3), coordinate (1,2,0), offset 1 - 4 = -3.
// Swizzled: Sw<B,M,S>(off + inner(x)), Sw(v) = v ^ ((v & (2^B-1) << (M + max(S,0))) >> S), a
// negative S shifting left. smem_ptr form Sw<B,M,S> o smem_ptr[8e b](unset) o L: element offset
// Sw(L(x) * e) / e (the swizzle acts on byte addresses of e-byte elements).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soakref {

using i64 = std::int64_t;

struct Node {
  bool leaf = true;
  i64 shape = 1, stride = 0;
  bool dynamic = false;       // printing only: 8 (dynamic) or _8 (static)
  std::vector<Node> kids;
};
Node leaf(i64 shape, i64 stride, bool dynamic = false);
Node tuple(std::vector<Node> kids);

struct Swz {
  int B = 0, M = 0, S = 0;
  i64 apply(i64 v) const;
  std::string text() const;  // Sw<B,M,S>
};

struct RLayout {
  Node inner;
  std::optional<Swz> sw;      // Sw o off o inner
  i64 off = 0;
  int smem_bytes = 0;         // > 0: Sw o smem_ptr[8*smem_bytes b](unset) o inner
  std::string text() const;   // CuTe notation
  i64 size() const;
  std::vector<std::pair<i64, i64>> flat() const;  // (shape, stride) leaves
  i64 inner_at(i64 x) const;
  i64 at(i64 x) const;
  std::vector<i64> offsets() const;
  std::size_t rank() const;                 // top-level modes (a leaf root: 1)
  std::vector<Node> modes() const;          // top-level modes
};
std::string node_text_shape(const Node& n);
std::string node_text_stride(const Node& n);

// The claims of proofs/claims/claim.hpp, decided by brute force. `mode` < 0: the default mode (the first
// top-level mode whose first leaf has stride 1, else mode 0).
enum class LClaim { injective, bijective, surjective, contiguous, equivalent, inverse };
bool ref_layout_claim(const RLayout& l, LClaim c, i64 n, int mode, const RLayout* other);
int ref_default_mode(const RLayout& l);

// ---- bank model (docs/bank_model.md) ---------------------------------------------------------
enum class Op { ld, st, ldsm1, ldsm2, ldsm4, stsm1, stsm2, stsm4, ldgsts };
struct Instr {
  Op op = Op::ld;
  int width = 4;
  std::array<i64, 32> addr{};  // -1 inactive
};
struct BankEval {
  bool valid = true;          // width/alignment rules
  int wavefronts = 0, ideal = 0;
  int hw_ideal = 0;           // the ideal the hardware reports (docs/bank_model.md): what count tables print
  int most_ways = 0;          // max distinct words in one bank of one phase
};
BankEval ref_bank(const Instr& in);
const char* op_name(Op op);
int op_matrices(Op op);

// Access patterns of model/trace/access.hpp over a 2-D tile (rows, cols) read `vec` elements at a time:
// byte address = base + tile(row, col) * eb. Instruction list (in the pattern's order).
enum class Pattern { row_per_lane, linear, ldmatrix };
std::vector<Instr> ref_pattern(const RLayout& tile, int eb, int vec, Pattern p, Op op, i64 base);

// ---- rasterizations (model/raster/raster.hpp's table) ------------------------------------------------
enum class RKind { row_major, seed, seed_fixed, cutlass, morton, formula };
struct RExpr {  // a formula expression tree over bx, by, gx, gy, ts (unsigned 32-bit)
  enum class Op { c, bx, by, gx, gy, ts, add, sub, mul, div, rem, shl, shr, band, bor, bxor, min, max } op = Op::c;
  std::uint32_t value = 0;
  std::vector<RExpr> k;
  std::string text() const;
  std::uint32_t eval(std::uint32_t bx, std::uint32_t by, std::uint32_t gx, std::uint32_t gy, std::uint32_t ts) const;
};
struct RasterRef {
  RKind kind = RKind::row_major;
  std::optional<std::uint32_t> param;
  RExpr fx, fy;               // formula
  std::uint32_t max_grid = 8;
};
enum class RClaim { bijective, injective, in_bounds, surjective };
bool ref_raster_claim(const RasterRef& r, RClaim c);

// ---- TV partitions of make_tiled_copy(Copy_Atom<Op, T>, thr, val) with a one-thread atom -------
// CuTe (copy_atom.hpp): layout_mn = raked_product(thr, val), TiledLayout_TV = right_inverse(
// layout_mn) with shape (#thr, #val), Tiler_MN = product_each(shape(layout_mn)). For thr and val
// bijections onto [0, #thr) and [0, #val): thread t = thr(t0, t1), value v = val(v0, v1) sits at
// tile coordinate (v0 + V0 * t0, v1 + V1 * t1). A one-thread atom of A values per copy makes
// value v = xv + A * rv; partition_X zipped_divides the smem tensor by the tiler: smem coordinate
// mode i = tile_i + T_i * rest_i. One instruction per (thread, rv, rest coordinate); its address
// is the first slice element's byte address.
struct RefCopyInstr {
  i64 warp = 0;
  std::vector<i64> copy_coord;        // (rv, rest modes...)
  std::array<i64, 32> addr{};         // -1 inactive
  std::vector<std::vector<i64>> slice_addr;  // per lane: bytes of its A elements
  std::vector<std::vector<i64>> slice_elem;  // per lane: colex element index in the smem domain
};
struct RefCopy {
  i64 thr_m = 1, thr_n = 1; bool thr_row_major = true;   // thr layout (thr_m, thr_n)
  i64 val_m = 1, val_n = 1; bool val_row_major = true;
  i64 atom_vals = 1;                                     // A
};
// @pre smem modes divisible by the tiler; returns the instructions grouped by warp.
std::vector<RefCopyInstr> ref_partition(const RefCopy& c, const RLayout& smem, const std::vector<i64>& smem_shape,
                                        int eb, i64 base);

}  // namespace soakref
