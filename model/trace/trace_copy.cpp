// trace_copy (model/trace/tv.hpp): the shared-memory instructions of a TiledCopy on a staged smem tensor.
#include <algorithm>
#include <numeric>

#include "model/algebra/algebra.hpp"
#include "model/algebra/tiling.hpp"
#include "model/layout/notation.hpp"
#include "model/trace/tv.hpp"

namespace layoutproof {
namespace {

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

// The smem tensor zipped_divide'd by the tiler, as tables: mode i's index of tile coordinate c is
// tile[i][c] + rest[i][r] (logical_divide = composition with (Tiler_i, complement(Tiler_i, n_i))),
// and off[i][j] is the inner layout's offset of mode index j. Modes past the tiler are rest modes
// of their own (tile size 1).
struct DividedSmem {
  std::vector<std::vector<i64>> tile, rest, off;
  std::vector<i64> extent;   // n_i
  i64 domain = 1;            // size of the smem tensor

  i64 rest_count() const {
    i64 n = 1;
    for (const auto& r : rest) n = checked_mul(n, static_cast<i64>(r.size()));
    return n;
  }
};

DividedSmem divide(const AnyLayout& smem, const std::vector<Layout>& tiler) {
  const Layout& l = smem.layout;
  const std::size_t rank = l.shape.is_leaf() ? 1 : l.rank();
  if (rank < tiler.size())
    throw LayoutError("the smem tensor " + to_string(smem) + " has rank " + std::to_string(rank) + ", less than the copy's tiler (" +
                      std::to_string(tiler.size()) + "): CuTe's \"Rank of tensor to be partitioned too small\"");
  DividedSmem d;
  for (std::size_t i = 0; i < rank; ++i) {
    const Layout mode = l.shape.is_leaf() ? l : l.mode(i);
    const i64 n = size(mode);
    d.extent.push_back(n);
    d.domain = checked_mul(d.domain, n);
    d.off.push_back(offsets(mode));
    if (i >= tiler.size()) {
      d.tile.push_back({0});
      std::vector<i64> r(at(n));
      std::iota(r.begin(), r.end(), 0);
      d.rest.push_back(std::move(r));
      continue;
    }
    const Layout& t = tiler[i];
    if (n % size(t) != 0)
      throw LayoutError("mode " + std::to_string(i) + " of the smem tensor (size " + std::to_string(n) +
                        ") is not divisible by the copy's tile " + to_string(t) + " (CuTe's zipped_divide)");
    d.tile.push_back(offsets(t));
    d.rest.push_back(offsets(complement(t, IntTuple(n))));
    std::vector<bool> seen(at(n), false);
    for (i64 a : d.tile.back())
      for (i64 b : d.rest.back()) {
        const i64 j = a + b;
        if (j < 0 || j >= n || seen[at(j)])
          throw LayoutError("the copy's tile " + to_string(t) + " does not divide mode " + std::to_string(i) + " (size " +
                            std::to_string(n) + ") into disjoint tiles");
        seen[at(j)] = true;
      }
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// CuTe's compile-time conditions on partition_S / partition_D (cute/atom/copy_atom.hpp,
// cute/swizzle_layout.hpp). The trace computes each address pointwise; CuTe computes the thread's
// partition as layouts, and some of those layout operations are static_asserts that refuse the
// copy at compile time although the pointwise function exists. They are mirrored here on CuTe's
// own representations (the model's algebra returns CuTe's layouts, staticness included), at the
// same place in the computation:
//   tidfrg_X(smem)  = tile2thrfrg(zipped_divide(L, Tiler_MN), ref2trg)
//                   = composition(zipped_divide(L, Tiler_MN), (thrval2mn, _)), then (thr, val, rest)
//     thrval2mn     = coalesce(zip(trg_layout_TV), (_1,(_1,_1))): the thread mode, the atom's
//                     values and the rest values, each coalesced (fitted here from the TV table,
//                     which is the same function: a coalesced layout is determined by its values)
//   partition_X     = tidfrg(thr_idx, _, (_,...)): for Sw o L with B > 0, slice_and_offset of a
//                     swizzled layout, whose compositions with the swizzle's projections check
//                     CuTe's "Shape/Stride Divisibility Condition" and whose to_mixed_bits needs
//                     "Requires pow2 shape*stride." on the thread's modes
//   part(_,_,_,s)   = the stage slice a pipelined kernel takes, again slice_and_offset while the
//                     layout is still a swizzled one.
// Only CuTe's own compile errors leave this mirror ("a compile error in CuTe"); anything else the
// algebra refuses here is the pointwise model's to decide.

// The coalesced layout with g(i) = L(i) for i < n, with static leaves; nullopt when no layout has
// these values. Greedy: the next mode's stride is g(covered) and its shape the longest run that
// repeats the modes so far (a divisor of what is left of n).
// Example: g = 0,2,4,6,1,3,5,7 (n = 8) -> (4,2):(2,1).
std::optional<Layout> fit_layout(const std::vector<i64>& g) {
  const i64 n = static_cast<i64>(g.size());
  if (n == 0 || g[0] != 0) return std::nullopt;
  std::vector<i64> shape, stride;
  i64 covered = 1;
  while (covered < n) {
    const i64 d = g[at(covered)];
    i64 s = 1;
    while (covered * (s + 1) <= n) {
      bool ok = true;
      for (i64 i = 0; i < covered && ok; ++i) ok = g[at(i + covered * s)] == g[at(i)] + s * d;
      if (!ok) break;
      ++s;
    }
    while ((n / covered) % s != 0) --s;
    if (s == 1) return std::nullopt;
    shape.push_back(s);
    stride.push_back(d);
    covered *= s;
  }
  if (covered != n) return std::nullopt;
  const Layout l = shape.empty() ? Layout(IntTuple(1), IntTuple(0)) : Layout::flat(shape, stride);
  for (i64 i = 0; i < n; ++i)
    if (evaluate(l, i) != g[at(i)]) return std::nullopt;
  return coalesce(l);
}

// CuTe's thrval2mn of tile2thrfrg: ((thr), (atom values, rest values)), each mode coalesced.
std::optional<Layout> thrval2mn_layout(const TvMap& tv, i64 xvals) {
  const i64 rest_vals = tv.values / xvals;
  std::vector<i64> thr(at(tv.threads)), xv(at(xvals)), rv(at(rest_vals));
  for (i64 t = 0; t < tv.threads; ++t) thr[at(t)] = tv(t, 0);
  for (i64 v = 0; v < xvals; ++v) xv[at(v)] = tv(0, v);
  for (i64 v = 0; v < rest_vals; ++v) rv[at(v)] = tv(0, xvals * v);
  const auto a = fit_layout(thr), b = fit_layout(xv), c = fit_layout(rv);
  if (!a || !b || !c) return std::nullopt;
  return Layout::concat({*a, Layout::concat({*b, *c})});
}

bool cute_compile_error(const LayoutError& e) {
  const std::string m = e.what();
  return m.find("compile error in CuTe") != std::string::npos || m.find("CuTe's static") != std::string::npos;
}

// One level of a coordinate: a run-time integer (diced), `_` (the mode kept whole) or a tuple of
// `_` (the mode's sub-modes kept, flattened into the result, as slice does).
enum class Cut { diced, keep, spread };

// slice(coord, L) and dice(coord, L) for a coordinate given by top-level cuts.
std::pair<Layout, Layout> slice_dice(const Layout& l, const std::vector<Cut>& cuts) {
  std::vector<Layout> kept, diced;
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    const Layout m = l.mode(i);
    if (cuts[i] == Cut::diced) diced.push_back(m);
    else if (cuts[i] == Cut::keep || m.shape.is_leaf()) kept.push_back(m);
    else
      for (std::size_t j = 0; j < m.rank(); ++j) kept.push_back(m.mode(j));
  }
  return {concat_layouts(kept), concat_layouts(diced)};
}

// A swizzled layout Sw o (offset) o L while CuTe still holds it as one: the run-time offset bits
// that may be set (MixedBits' dynamic flags; the static part is 0 in a partition).
struct SwizzledView {
  Swizzle sw;
  Layout layout;
  i64 dynamic_bits = 0;
};

IntTuple sint(i64 v) { return IntTuple(v); }

// CuTe's slice_and_offset(coord, ComposedLayout<Swizzle<B,M,S>, Offset, L>) for a coordinate with
// at least one run-time integer: its compile-time conditions, and what it returns (still a
// swizzled layout when the sliced layout hits a swizzle bit and its partner, else a plain layout,
// nullopt here). `what` names the operation for the message.
std::optional<SwizzledView> slice_swizzled(const SwizzledView& in, const std::vector<Cut>& cuts, const std::string& what) {
  const Swizzle& sw = in.sw;
  const int B = sw.B, M = sw.M, S = sw.abs_s();
  // sw = make_layout((2^M, 2^B, 2^(|S|-B), 2^B, 1)), compact; its projections onto the bits the
  // swizzle leaves alone (anti_zy) and the bits it reads and writes (only_zy).
  const i64 s0 = i64{1} << M, s1 = i64{1} << B, s2 = i64{1} << (S - B);
  const IntTuple shape = IntTuple::tuple({sint(s0), sint(s1), sint(s2), sint(s1), sint(1)});
  const Layout anti_zy(shape, IntTuple::tuple({sint(1), sint(0), sint(s0 * s1), sint(0), sint(s0 * s1 * s2 * s1)}));
  const Layout only_zy(shape, IntTuple::tuple({sint(0), sint(s0), sint(0), sint(s0 * s1 * s2), sint(0)}));
  const auto [sliced, diced] = slice_dice(in.layout, cuts);
  try {
    (void)composition_cute(anti_zy, diced);
    const Layout diced_zy = composition_cute(only_zy, diced);
    // to_mixed_bits: every mode of the thread's projection must span a power of two.
    i64 bits = in.dynamic_bits;
    const std::vector<IntTuple> ds = leaf_nodes(diced_zy.shape), dd = leaf_nodes(diced_zy.stride);
    for (std::size_t i = 0; i < ds.size(); ++i) {
      const i64 span = checked_mul(ds[i].value(), dd[i].value());
      if (span != 0 && (span & (span - 1)) != 0)
        throw LayoutError(what + ": CuTe's static \"Requires pow2 shape*stride.\" fails (to_mixed_bits of the swizzle's "
                          "projection " + to_string(diced_zy) + " of the sliced modes " + to_string(diced) +
                          ": mode " + std::to_string(ds[i].value()) + ":" + std::to_string(dd[i].value()) +
                          " spans " + std::to_string(span) + "; a compile error in CuTe)");
      bits |= checked_mul(ds[i].value() - 1, dd[i].value());
    }
    const Layout sliced_zy = composition_cute(only_zy, sliced);
    bool composed = false;
    if (sliced_zy.shape.is_static() && sliced_zy.stride.is_static()) {
      const i64 active = evaluate(sliced_zy, size(sliced_zy) - 1);
      composed = (active & ~sw.apply(active)) != 0;  // hits a Y bit and its Z bit
    }
    if (composed) return SwizzledView{sw, sliced, bits};
    // Decay: the swizzle as a layout whose strides over the B low (Z) and high (Y) bits are +-,
    // run-time where the offset bit they depend on may be set (make_swizzle_strides).
    const i64 Z = sw.zzz_msk() & -sw.zzz_msk(), Y = sw.yyy_msk() & -sw.yyy_msk();
    auto strides = [&](bool z_less_y) {
      std::vector<IntTuple> d;
      for (int i = 0; i < B; ++i) {
        const i64 tested = (z_less_y ? Y : Z) << i;
        const i64 value = (z_less_y ? Z : Y + Z) << i;
        d.push_back(IntTuple::integer(value, (bits & tested) == 0));
      }
      return IntTuple::tuple(d);
    };
    std::vector<IntTuple> twos(static_cast<std::size_t>(B), sint(2));
    const Layout sw_layout(IntTuple::tuple({sint(s0), IntTuple::tuple(twos), sint(s2), IntTuple::tuple(twos), sint(1)}),
                           IntTuple::tuple({sint(1), strides(Z < Y), sint(s0 * s1), strides(Z > Y), sint(s0 * s1 * s2 * s1)}));
    (void)composition_cute(sw_layout, sliced);
  } catch (const LayoutError& e) {
    if (!cute_compile_error(e)) return std::nullopt;
    const std::string m = e.what();
    if (m.rfind(what, 0) == 0) throw;
    throw LayoutError(what + ": " + m);
  }
  return std::nullopt;  // a plain layout from here on: its slices check nothing
}

// check_cute_partition (tv.hpp) on the side's thrval2mn table, of `xvals` atom values per thread.
void check_partition(const TiledCopy& c, const AnyLayout& smem, CopySide side, const TvMap& tv, i64 xvals) {
  if (!smem.evaluable) return;
  const std::string what = std::string(side == CopySide::S ? "partition_S" : "partition_D") + " of " + to_string(smem) +
                           " by the TiledCopy of " + c.atom.op.name;
  const auto t2m = thrval2mn_layout(tv, xvals);
  if (!t2m) return;  // not a layout: the pointwise model decides
  // Tiler_MN: a shape (n means n:_1, a static _1 is _1:_0) or, for make_tiled_copy_C_atom, layouts.
  std::vector<Tiler> tiler;
  for (const Layout& t : c.tiler)
    tiler.push_back(t.shape.is_leaf() && t.stride.is_constant(1) ? Tiler::of_int(t.shape.value()) : Tiler::of(t));
  Layout tidfrg;
  try {
    const Layout z = zipped_divide(smem.layout, Tiler::by_mode(tiler));
    const Layout tv_l = composition_cute(z, Tiler::by_mode({Tiler::of(*t2m), Tiler::underscore()}));
    tidfrg = Layout::concat({tv_l.mode(0).mode(0), tv_l.mode(0).mode(1), tv_l.mode(1)});
  } catch (const LayoutError& e) {
    if (!cute_compile_error(e)) return;
    throw LayoutError(what + ": " + e.what());
  }
  // A swizzle CuTe keeps as one: Sw<B,M,S> with B > 0 over element offsets (an smem_ptr swizzle
  // acts on the pointer, and Swizzle<0,M,S> o _0 o L is L).
  if (!smem.swizzle || smem.is_smem_ptr() || smem.swizzle->B == 0 || smem.offset != 0) return;
  const std::size_t rest_rank = tidfrg.mode(2).rank();
  const auto part = slice_swizzled(SwizzledView{*smem.swizzle, tidfrg, 0}, {Cut::diced, Cut::keep, Cut::spread}, what);
  // part: (CPY, RestM, RestN, ..., Stage); a staged tensor's stage slice part(_, ..., _, s).
  const std::size_t smem_rank = smem.layout.shape.is_leaf() ? 1 : smem.layout.rank();
  if (part && smem_rank == 3 && rest_rank == 3) {
    std::vector<Cut> cuts(1 + rest_rank, Cut::keep);
    cuts.back() = Cut::diced;
    (void)slice_swizzled(*part, cuts, what + ", its stage slice (_,_,_,s)");
  }
}

struct Element {
  i64 byte = 0;      // byte address
  i64 inner = 0;     // inner-layout offset (before the swizzle)
  i64 logical = 0;   // colexicographic index in the smem tensor
};

class Tracer {
 public:
  Tracer(const TiledCopy& c, const AnyLayout& smem, CopySide side, const TraceOptions& o)
      : c_(c), smem_(smem), side_(side), o_(o), tv_(thrval2mn(c, side)), d_(divide(smem, c.tiler)) {
    if (tv_.tile.size() != c.tiler.size()) throw LayoutError("TiledCopy: the TV layout's tile and the tiler differ in rank");
    bits_ = c.atom.value_bits;
    if (smem_.is_smem_ptr() && smem_.smem_ptr_bits != bits_)  // its byte swizzle is for those elements
      throw LayoutError(to_string(smem_) + " is a layout of " + std::to_string(smem_.smem_ptr_bits) + "-bit elements, but the copy moves " +
                        std::to_string(bits_) + "-bit values");
    xvals_ = size((side == CopySide::S ? c.atom.src : c.atom.dst).mode(1));
    rest_vals_ = tv_.values / xvals_;
    check_partition(c, smem, side, tv_, xvals_);
  }

  // The element at thread t, CPY value (xv, rv) and rest coordinate r (one entry per smem mode);
  // its smem coordinate goes to coord (one entry per smem mode) when given. No allocation: this is
  // the inner loop of every trace.
  Element element(i64 t, i64 xv, i64 rv, const i64* r, i64* coord = nullptr) const {
    i64 x = tv_(t, xv + xvals_ * rv);
    Element e;
    i64 inner = smem_.offset, logical = 0, stride = 1;
    for (std::size_t i = 0; i < d_.extent.size(); ++i) {
      i64 ci = 0;
      if (i < tv_.tile.size()) {
        ci = x % tv_.tile[i];
        x /= tv_.tile[i];
      }
      const i64 j = d_.tile[i][at(ci)] + d_.rest[i][at(r[i])];
      if (coord) coord[i] = j;
      inner = checked_add(inner, d_.off[i][at(j)]);
      logical = checked_add(logical, checked_mul(j, stride));
      stride = checked_mul(stride, d_.extent[i]);
    }
    e.inner = inner;
    e.logical = logical;
    e.byte = byte_of(inner);
    return e;
  }

  // The byte address of the element at inner offset `inner` (smem_.offset included), the one
  // address rule of every trace (model/layout/composed.hpp absolute_bit_address): an smem_ptr form
  // swizzles the ABSOLUTE byte address base + inner*bits/8 (CuTe's swizzle_ptr, as TMA does), an
  // element-unit layout is relative to the base (base + Sw(inner)*bits/8). The two agree at a
  // base aligned to the byte swizzle's period (1024 B for Sw<3,4,3>) and differ elsewhere.
  // Example: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), inner 0, base 128 -> 144.
  i64 byte_of(i64 inner) const {
    if (smem_.is_smem_ptr()) {
      const i64 bit = checked_mul(inner, bits_);
      if (bit % 8 != 0) throw LayoutError("element offset " + std::to_string(inner) + " of " + std::to_string(bits_) + "-bit elements is not byte-aligned");
      return smem_.byte_swizzle.apply(checked_add(o_.base_address, bit / 8));
    }
    const i64 off = smem_.swizzle ? smem_.swizzle->apply(inner) : inner;
    const i64 bit = checked_mul(off, bits_);
    if (bit % 8 != 0) throw LayoutError("element offset " + std::to_string(off) + " of " + std::to_string(bits_) + "-bit elements is not byte-aligned");
    return checked_add(o_.base_address, bit / 8);
  }

  AddressTrace run() const {
    AddressTrace tr = header();
    if (c_.atom.op.kind == CopyKind::autovec) return autovec(std::move(tr));
    // Instructions: (rv, rest...) colexicographic, one per warp each.
    std::vector<i64> shape{rest_vals_};
    for (const auto& r : d_.rest) shape.push_back(static_cast<i64>(r.size()));
    const i64 per_warp = checked_mul(rest_vals_, d_.rest_count());
    reserve(tr, per_warp);
    for_each_coord(shape, [&](i64 index, const std::vector<i64>& coord) {
      const i64* rest = coord.data() + 1;
      for (i64 w = 0; w < warps(); ++w) {
        TraceInstruction ins = start(tr, w, index, coord);
        for (int l = 0; l < kWarpLanes; ++l) {
          const i64 t = w * kWarpLanes + l;
          if (t >= tv_.threads) continue;
          for (i64 xv = 0; xv < xvals_; ++xv) add(ins, l, t, element(t, xv, coord[0], rest, lane_coord(ins, l, xv)), xv);
        }
        tr.instructions.push_back(std::move(ins));
      }
    });
    return tr;
  }

 private:
  const TiledCopy& c_;
  const AnyLayout& smem_;
  CopySide side_;
  const TraceOptions& o_;
  TvMap tv_;
  DividedSmem d_;
  int bits_ = 16;
  i64 xvals_ = 1, rest_vals_ = 1;

  i64 warps() const { return (tv_.threads + kWarpLanes - 1) / kWarpLanes; }

  void reserve(AddressTrace& tr, i64 per_warp) const {
    const i64 n = checked_mul(per_warp, warps());
    if (n > o_.max_instructions)
      throw LayoutError("the copy issues " + std::to_string(n) + " instructions, more than the limit " + std::to_string(o_.max_instructions));
    tr.instructions.reserve(at(n));
  }

  template <class F>
  static void for_each_coord(const std::vector<i64>& shape, F&& f) {
    i64 n = 1;
    for (i64 s : shape) n = checked_mul(n, s);
    std::vector<i64> coord(shape.size(), 0);
    for (i64 i = 0; i < n; ++i) {
      f(i, coord);
      for (std::size_t m = 0; m < shape.size(); ++m) {
        if (++coord[m] < shape[m]) break;
        coord[m] = 0;
      }
    }
  }

  AddressTrace header() const {
    AddressTrace tr;
    const CopyOpInfo& op = c_.atom.op;
    const bool d = side_ == CopySide::D;
    auto bad = [&](const char* why) { throw LayoutError(op.name + std::string(why)); };
    switch (op.kind) {
      case CopyKind::ldsm:
        if (d) bad(" reads shared memory: the smem tensor is its source (--side S)");
        tr.op = op.matrices == 1 ? SmemOp::ldsm1 : op.matrices == 2 ? SmemOp::ldsm2 : SmemOp::ldsm4;
        tr.width_bytes = 16;
        break;
      case CopyKind::stsm:
        if (!d) bad(" writes shared memory: the smem tensor is its destination (--side D)");
        tr.op = op.matrices == 1 ? SmemOp::stsm1 : op.matrices == 2 ? SmemOp::stsm2 : SmemOp::stsm4;
        tr.width_bytes = 16;
        break;
      case CopyKind::cp_async:
        if (!d) bad(" copies global to shared memory: the smem tensor is its destination (--side D)");
        tr.op = SmemOp::ldgsts;
        tr.width_bytes = op.dst_reg_bits / 8;
        break;
      case CopyKind::universal:
        tr.op = d ? SmemOp::st : SmemOp::ld;
        tr.width_bytes = (d ? op.dst_reg_bits : op.src_reg_bits) / 8;
        break;
      case CopyKind::autovec:
        tr.op = d ? SmemOp::st : SmemOp::ld;
        tr.width_bytes = 0;  // set by the vectorization
        break;
    }
    if (op.kind != CopyKind::autovec && (tr.width_bytes < 1 || tr.width_bytes > 16))
      bad(": shared-memory instructions move 1 to 16 bytes per lane");
    tr.threads = tv_.threads;
    tr.element_bytes = bits_ % 8 == 0 ? bits_ / 8 : 0;
    tr.domain_size = d_.domain;
    tr.domain_shape = d_.extent;
    tr.smem_is_destination = d;
    tr.provenance = (c_.text.empty() ? "TiledCopy<" + op.name + ">" : c_.text) + (d ? " partition_D" : " partition_S") +
                    " of " + to_string(smem_);
    tr.name = op.name + (d ? " partition_D" : " partition_S") + " of " + to_string(smem_);
    return tr;
  }

  TraceInstruction start(const AddressTrace& tr, i64 warp, i64 index, const std::vector<i64>& copy_coord) const {
    TraceInstruction ins;
    ins.op = tr.op;
    ins.width_bytes = tr.width_bytes;
    ins.addr.fill(-1);
    ins.thread.fill(-1);
    ins.warp = warp;
    ins.index = index;
    ins.copy_coord = copy_coord;
    ins.coord_rank = static_cast<int>(d_.extent.size());
    ins.coords.assign(at(ins.coord_rank) * kWarpLanes, -1);
    ins.slice_len = static_cast<int>(xvals_);
    ins.slice_addrs.assign(at(ins.slice_len) * kWarpLanes, -1);
    ins.slice_elems.assign(at(ins.slice_len) * kWarpLanes, -1);
    ins.where = "warp " + std::to_string(warp) + ", copy index " + coord_text(copy_coord);
    return ins;
  }

  static std::string coord_text(const std::vector<i64>& c) {
    std::string s = "(";
    for (std::size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
    return s + ")";
  }

  // Where lane l's coordinate goes: only its first element (j == 0) records one.
  static i64* lane_coord(TraceInstruction& ins, int l, i64 j) { return j == 0 ? ins.coords.data() + l * ins.coord_rank : nullptr; }

  // Records element e as value j of lane l's slice (j == 0: the lane's address).
  void add(TraceInstruction& ins, int l, i64 t, const Element& e, i64 j) const {
    if (j == 0) {
      ins.addr[at(l)] = e.byte;
      ins.thread[at(l)] = t;
    }
    ins.slice_addrs[at(l * ins.slice_len + j)] = e.byte;
    ins.slice_elems[at(l * ins.slice_len + j)] = e.logical;
  }

  AddressTrace autovec(AddressTrace tr) const;
};

// CuTe's AutoVectorizingCopyWithAssumedAlignment<B> (cute/algorithm/copy.hpp) on the thread's
// partition of one stage, against a compact register fragment of the same shape:
//   common = max_common_vector: the leading contiguous run of the inner smem layout (capped at 2^M
//            for a swizzled layout), align = max_alignment: the largest power of two q such that
//            the thread's offsets form aligned blocks of q (capped at 2^M), and
//   vec_bits = gcd(common * bits, q * bits, B); recast to uint_bit_t<vec_bits> when that is a
//   multiple of 8 and wider than one element, else element-wise.
// The values are the same for every thread (CuTe decides statically, from the layout alone); a
// thread whose own start is misaligned is what the vector-legal claim reports.
AddressTrace Tracer::autovec(AddressTrace tr) const {
  // Per-stage sequence: (rv, rest modes of the tiler) colex; stage-like modes (past the tiler) outer.
  const std::size_t tiled = tv_.tile.size();
  std::vector<i64> inner_shape{rest_vals_}, outer_shape;
  for (std::size_t i = 0; i < d_.rest.size(); ++i)
    (i < tiled ? inner_shape : outer_shape).push_back(static_cast<i64>(d_.rest[i].size()));
  i64 per_thread = 1;
  for (i64 s : inner_shape) per_thread = checked_mul(per_thread, s);
  auto rest_of = [&](const std::vector<i64>& in, const std::vector<i64>& out) {
    std::vector<i64> r(in.begin() + 1, in.end());
    r.insert(r.end(), out.begin(), out.end());
    return r;
  };
  // Thread 0, first stage: the inner offsets decide the vector.
  std::vector<i64> rel;
  std::vector<i64> zero_out(outer_shape.size(), 0);
  for_each_coord(inner_shape, [&](i64, const std::vector<i64>& in) { rel.push_back(element(0, 0, in[0], rest_of(in, zero_out).data()).inner); });
  i64 run = 1;
  while (run < per_thread && rel[at(run)] == rel[0] + run) ++run;
  i64 q = 1;
  for (i64 cand = 2; cand <= per_thread && per_thread % cand == 0; cand *= 2) {
    bool ok = true;
    for (i64 i = 0; i < per_thread && ok; i += cand)
      for (i64 j = 0; j < cand && ok; ++j) ok = rel[at(i + j)] - rel[0] == (rel[at(i)] - rel[0]) + j && (rel[at(i)] - rel[0]) % cand == 0;
    if (!ok) break;
    q = cand;
  }
  if (smem_.swizzle) {
    const i64 m = i64{1} << smem_.swizzle->M;
    run = std::min(run, m);
    q = std::min(q, m);
  }
  const i64 max_elems = std::max<i64>(1, c_.atom.op.max_vec_bits / bits_);
  i64 vec = std::gcd(std::gcd(run, q), max_elems);
  if ((vec * bits_) % 8 != 0 || vec == 1) vec = 1;
  if (vec == 1 && bits_ % 8 != 0) throw LayoutError("AutoVectorizingCopy of sub-byte elements that do not vectorize to whole bytes");
  tr.width_bytes = static_cast<int>(vec * bits_ / 8);
  if (tr.width_bytes > 16) throw LayoutError("vectorized width above 16 bytes");
  const i64 groups = per_thread / vec;
  std::vector<i64> ishape{groups};
  ishape.insert(ishape.end(), outer_shape.begin(), outer_shape.end());
  reserve(tr, [&] { i64 n = groups; for (i64 s : outer_shape) n = checked_mul(n, s); return n; }());
  // Element k of the per-stage sequence, as (rv, rest...) coordinates.
  std::vector<std::vector<i64>> seq;
  for_each_coord(inner_shape, [&](i64, const std::vector<i64>& in) { seq.push_back(in); });
  std::vector<i64> rest;
  for_each_coord(ishape, [&](i64 index, const std::vector<i64>& coord) {
    const std::vector<i64> out(coord.begin() + 1, coord.end());
    for (i64 w = 0; w < warps(); ++w) {
      TraceInstruction ins = start(tr, w, index, coord);
      ins.width_bytes = tr.width_bytes;
      ins.slice_len = static_cast<int>(vec);
      ins.slice_addrs.assign(at(vec) * kWarpLanes, -1);
      ins.slice_elems.assign(at(vec) * kWarpLanes, -1);
      for (int l = 0; l < kWarpLanes; ++l) {
        const i64 t = w * kWarpLanes + l;
        if (t >= tv_.threads) continue;
        for (i64 j = 0; j < vec; ++j) {
          const auto& in = seq[at(coord[0] * vec + j)];
          rest.assign(in.begin() + 1, in.end());
          rest.insert(rest.end(), out.begin(), out.end());
          add(ins, l, t, element(t, 0, in[0], rest.data(), lane_coord(ins, l, j)), j);
        }
      }
      tr.instructions.push_back(std::move(ins));
    }
  });
  return tr;
}

}  // namespace

// The instructions the copy issues, from sizes alone (warps x rest values x rest tiles of the smem
// tensor, checked), refused above o.max_instructions before any table of the smem tensor is built
// (hostile input H3: a 10^9-element stage mode built 8 GB of offsets first).
static void check_trace_size(const TiledCopy& c, const AnyLayout& smem, const TraceOptions& o) {
  const Layout& l = smem.layout;
  const std::size_t rank = l.shape.is_leaf() ? 1 : l.rank();
  i64 n = checked_mul((c.layout_tv.threads + kWarpLanes - 1) / kWarpLanes,
                      std::max<i64>(1, c.layout_tv.values / std::max<i64>(1, c.atom.num_values())));
  for (std::size_t i = 0; i < rank; ++i) {
    const i64 m = size(l.shape.is_leaf() ? l : l.mode(i));
    n = checked_mul(n, i < c.tiler.size() ? m / std::max<i64>(1, size(c.tiler[i])) : m);
  }
  // an auto-vectorizing copy moves up to max_vec_bits per instruction (Tracer::autovec)
  if (c.atom.op.kind == CopyKind::autovec) n /= std::max<i64>(1, c.atom.op.max_vec_bits / std::max(1, c.atom.value_bits));
  if (n > o.max_instructions)
    throw LayoutError("the copy issues " + std::to_string(n) + " instructions, more than the limit " + std::to_string(o.max_instructions));
}

// The smem tensor must fit the shared memory one thread block can address: its smallest footprint,
// base + cosize x element bytes (a swizzle only moves offsets within it or above it), at most
// kSmemBytes (227 KiB), refused before any table is built.
static void check_smem_footprint(const TiledCopy& c, const AnyLayout& smem, const TraceOptions& o) {
  const i64 n = checked_add(cosize(smem.layout), std::max<i64>(0, smem.offset));
  const i64 bytes = checked_add(o.base_address, checked_mul(n, c.atom.value_bits) / 8);
  if (bytes > kSmemBytes)
    throw LayoutError("the smem tensor " + to_string(smem) + " spans " + std::to_string(n) + " elements of " +
                      std::to_string(c.atom.value_bits) + " bits" + (o.base_address ? " from base " + std::to_string(o.base_address) : "") +
                      ": " + std::to_string(bytes) + " bytes, beyond the " + std::to_string(kSmemBytes) +
                      " bytes (227 KiB) of shared memory a thread block can address");
}

void check_cute_partition(const TiledCopy& c, const AnyLayout& smem, CopySide side) {
  const TvMap tv = thrval2mn(c, side);
  check_partition(c, smem, side, tv, size((side == CopySide::S ? c.atom.src : c.atom.dst).mode(1)));
}

AddressTrace trace_copy(const TiledCopy& c, const AnyLayout& smem, CopySide side, const TraceOptions& o) {
  if (c.atom.value_bits <= 0) throw LayoutError("Copy_Atom without a value type");
  check_smem_footprint(c, smem, o);
  check_trace_size(c, smem, o);
  return Tracer(c, smem, side, o).run();
}

}  // namespace layoutproof
