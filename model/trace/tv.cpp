#include "model/trace/tv.hpp"

#include <algorithm>
#include <numeric>

#include "model/algebra/algebra.hpp"
#include "model/layout/notation.hpp"
#include "model/algebra/recast.hpp"
#include "model/algebra/tiling.hpp"

namespace layoutproof {
namespace {

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

// A table of size n must be a permutation of [0, n): returns its inverse, or throws naming `what`.
std::vector<i64> invert_bijection(const std::vector<i64>& f, const std::string& what) {
  std::vector<i64> inv(f.size(), -1);
  for (std::size_t i = 0; i < f.size(); ++i) {
    const i64 y = f[i];
    if (y < 0 || y >= static_cast<i64>(f.size()) || inv[at(y)] != -1)
      throw LayoutError(what + " is not a bijection onto [0," + std::to_string(f.size()) + "): index " +
                        std::to_string(i) + " maps to " + std::to_string(y) +
                        (y >= 0 && y < static_cast<i64>(f.size()) ? " twice" : ", outside"));
    inv[at(y)] = static_cast<i64>(i);
  }
  return inv;
}

// L(i) for i = 0..size(L)-1.
std::vector<i64> table(const Layout& l) { return offsets(l); }

// A permutation tile (`_` means n:1 with n = the default tile size).
Layout perm_or_identity(const std::optional<Layout>& p, i64 n) {
  return p ? *p : Layout(IntTuple(n), IntTuple(1));
}

// A permutation mode must be a bijection of [0, size). CuTe compiles one that is not, but
// thrfrg_A/B/C logical_divide the (M,K)/(N,K)/(M,N) reference tile by it, and the complement that
// divide takes is then no complement: for (16,2):(1,32) over 32 rows it is
// complement((16,2):(1,32), 32) = 2:16, so get_layoutX_TV has twice the values and reaches rows
// 32..47 of a 32-row tile (CuTe issues 32 instructions where the permuted tile holds 16). A silently
// wrong layout: refused, but only by the TV layouts that use the mode (an A copy never reads N's).
void require_bijective_perm(const TiledMma& mma, int mode) {
  const std::size_t i = static_cast<std::size_t>(mode);
  const auto& perm = mma.perm;
  if (perm[i]) {
    const std::vector<i64> offs = table(*perm[i]);
    std::vector<char> seen(offs.size(), 0);
    for (const i64 o : offs) {
      if (o < 0 || o >= static_cast<i64>(offs.size()) || seen[static_cast<std::size_t>(o)]) {
        const std::string n = std::to_string(offs.size());
        std::string comp;
        try {
          comp = "complement(" + to_string(*perm[i]) + ", " + n + ") = " +
                 to_string(complement_cute(*perm[i], IntTuple(static_cast<i64>(offs.size()))));
        } catch (const LayoutError& e) {  // e.g. a repeated offset: CuTe's own compile error
          throw LayoutError("TiledMMA: the Tile<> permutation of mode " + std::string(1, "MNK"[i]) + ", " +
                            to_string(*perm[i]) + ", is not a bijection of [0," + n + "), and the logical_divide " +
                            "by it in CuTe's TV layouts fails: " + e.what());
        }
        throw LayoutError("TiledMMA: the Tile<> permutation of mode " + std::string(1, "MNK"[i]) + ", " +
                          to_string(*perm[i]) + ", is not a bijection of [0," + n + ") (offset " + std::to_string(o) +
                          (o >= 0 && o < static_cast<i64>(offs.size()) ? " twice" : "") +
                          "): CuTe compiles it, but its TV layouts logical_divide the tile by it with " + comp +
                          ", which is no complement, and reach outside the " + n +
                          "-wide tile (a silently wrong layout: refused)");
      }
      seen[static_cast<std::size_t>(o)] = 1;
    }
  }
}

// The TV map of thrfrg_A/B/C composed with the thread layouts, as get_layoutX_TV computes it.
// `row`, `col` name the MNK modes of the tile (0/2 for A, 1/2 for B, 0/1 for C); `atom_tv` is the
// atom's LayoutX_TV; thread (v,m,n,k) uses thread coordinates (tr, tc) = (m,k), (n,k) or
// (m, n + N*k) for C (thridx_2_thrid's index into (V,(M,N)) leaves the last mode unbounded).
TvMap mma_tv(const TiledMma& mma, int row, int col, const Layout& atom_tv) {
  const i64 atom_rows = row == 0 ? mma.atom.m : mma.atom.n;
  const i64 atom_cols = col == 2 ? mma.atom.k : mma.atom.n;
  const i64 thr_rows = mma.vmnk_size(row + 1), thr_cols = mma.vmnk_size(col + 1);
  const i64 tr_size = mma.tile_size(row), tc_size = mma.tile_size(col);
  require_bijective_perm(mma, row);
  require_bijective_perm(mma, col);
  const Layout perm_r = perm_or_identity(mma.perm[static_cast<std::size_t>(row)], tr_size);
  const Layout perm_c = perm_or_identity(mma.perm[static_cast<std::size_t>(col)], tc_size);
  if (tr_size % checked_mul(atom_rows, thr_rows) != 0 || tc_size % checked_mul(atom_cols, thr_cols) != 0)
    throw LayoutError("TiledMMA: the permuted tile (" + std::to_string(tr_size) + "," + std::to_string(tc_size) +
                      ") is not divisible by atom x threads (" + std::to_string(atom_rows * thr_rows) + "," +
                      std::to_string(atom_cols * thr_cols) + ") (CuTe's zipped_divide)");
  const i64 rest_r = tr_size / (atom_rows * thr_rows), rest_c = tc_size / (atom_cols * thr_cols);
  const i64 frg = size(atom_tv.mode(1));
  const i64 nthr_atom = size(atom_tv.mode(0));
  if (nthr_atom != mma.vmnk_size(0)) throw LayoutError("MMA atom: size of LayoutX_TV's thread mode differs from ThrID");
  const std::vector<i64> atom_tab = table(atom_tv), pr = table(perm_r), pc = table(perm_c);
  TvMap out;
  out.threads = mma.threads();
  out.values = checked_mul(frg, checked_mul(rest_r, rest_c));
  out.tile = {tr_size, tc_size};
  out.index.assign(at(checked_mul(out.threads, out.values)), 0);
  const i64 V = mma.vmnk_size(0), M = mma.vmnk_size(1), N = mma.vmnk_size(2);
  for (i64 t = 0; t < out.threads; ++t) {
    const i64 i = mma.index_of_thr[at(t)];
    const i64 v = i % V, m = (i / V) % M, n = (i / (V * M)) % N, k = i / (V * M * N);
    const i64 tr = row == 0 ? m : n;
    const i64 tc = col == 2 ? k : n + N * k;  // C: the unbounded last mode
    for (i64 val = 0; val < out.values; ++val) {
      const i64 fv = val % frg, rr = (val / frg) % rest_r, rc = val / (frg * rest_r);
      const i64 a = atom_tab[at(v + nthr_atom * fv)];
      const i64 ar = a % atom_rows, ac = a / atom_rows;
      const i64 pr_idx = ar + atom_rows * (tr + thr_rows * rr);
      const i64 pc_idx = ac + atom_cols * (tc + thr_cols * rc);
      if (pr_idx >= tr_size || pc_idx >= tc_size)
        throw LayoutError("TiledMMA: thread " + std::to_string(t) + " falls outside the tile (a thread layout mode in K with C?)");
      out.index[at(t + out.threads * val)] = pr[at(pr_idx)] + tr_size * pc[at(pc_idx)];
    }
  }
  return out;
}

Layout recast_bits(const Layout& bits, int value_bits, const std::string& what) {
  if (value_bits == 1) return bits;
  try {
    return upcast(bits, value_bits);
  } catch (const LayoutError& e) {
    throw LayoutError(what + ": " + e.what());
  }
}

// The rank of a tile: its number of modes.
std::vector<Layout> shape_tiler(const std::vector<i64>& tile) {
  std::vector<Layout> t;
  for (i64 n : tile) t.push_back(Layout(IntTuple(n), IntTuple(1)));
  return t;
}

}  // namespace

i64 TvMap::tile_size() const {
  i64 n = 1;
  for (i64 s : tile) n = checked_mul(n, s);
  return n;
}

i64 TiledMma::vmnk_size(int mode) const { return size(thr_layout_vmnk.mode(static_cast<std::size_t>(mode))); }

i64 TiledMma::tile_size(int mnk) const {
  const auto& p = perm[static_cast<std::size_t>(mnk)];
  if (p) return size(*p);
  const i64 extent = mnk == 0 ? atom.m : mnk == 1 ? atom.n : atom.k;
  return checked_mul(extent, vmnk_size(mnk + 1));
}

TvMap TiledMma::layout_a_tv() const { return mma_tv(*this, 0, 2, atom.a_tv); }
TvMap TiledMma::layout_b_tv() const { return mma_tv(*this, 1, 2, atom.b_tv); }
TvMap TiledMma::layout_c_tv() const { return mma_tv(*this, 0, 1, atom.c_tv); }

TiledMma make_tiled_mma(const MmaAtomInfo& atom, const Layout& atom_layout, const std::vector<std::optional<Layout>>& perm) {
  if (atom_layout.rank() > 3 || perm.size() > 3)
    throw LayoutError("make_tiled_mma: the atom layout and the permutation have at most 3 modes (M,N,K)");
  TiledMma t;
  t.atom = atom;
  // append<3>(thr_layout, Layout<_1,_0>{})
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < 3; ++i)
    modes.push_back(i < atom_layout.rank() && atom_layout.shape.is_tuple() ? atom_layout.mode(i)
                    : i == 0 && atom_layout.shape.is_leaf()          ? atom_layout
                                                                     : Layout(IntTuple(1), IntTuple(0)));
  t.atom_layout = Layout::concat(modes);
  // One CTA runs a TiledMMA: its threads (atom threads x atoms) are a thread block's, at most 1024,
  // checked before the thread table below is built (a 1024x1024 atom layout is 2^25 threads).
  require_block_threads(checked_mul(size(atom.thr_id), size(t.atom_layout)),
                        "make_tiled_mma(" + atom.name + ", " + to_string(atom_layout) + ")");
  for (std::size_t i = 0; i < perm.size(); ++i) t.perm[i] = perm[i];
  // tiled_product(ThrID, AtomLayoutMNK) = ((ThrID), M, N, K): thread = ThrID(v) + offsets of the
  // logical product's second mode.
  const Layout prod = logical_product(atom.thr_id, Tiler::of(t.atom_layout));
  t.thr_layout_vmnk = Layout::concat({prod.mode(0), prod.mode(1).mode(0), prod.mode(1).mode(1), prod.mode(1).mode(2)});
  t.thr_of_index = table(t.thr_layout_vmnk);
  t.index_of_thr = invert_bijection(t.thr_of_index, "ThrLayoutVMNK " + to_string(t.thr_layout_vmnk));
  return t;
}

i64 CopyAtom::num_threads() const { return size(ref.mode(0)); }
i64 CopyAtom::num_values() const { return size(ref.mode(1)); }

CopyAtom make_copy_atom(const CopyOpInfo& op, const std::string& value_type) {
  const auto bits = type_bits(value_type);
  if (!bits) throw LayoutError("Copy_Atom: unknown value type '" + value_type + "'");
  CopyAtom a;
  a.op = op;
  a.value_type = value_type;
  a.value_bits = *bits;
  const std::string what = "Copy_Atom<" + op.name + ", " + value_type + ">";
  for (int reg : {op.src_reg_bits, op.dst_reg_bits})
    if (op.kind != CopyKind::autovec && reg % *bits != 0)
      throw LayoutError(what + ": a " + std::to_string(reg) + "-bit register cannot hold whole " +
                        std::to_string(*bits) + "-bit " + value_type + " values");
  a.src = recast_bits(op.src, *bits, what);
  a.dst = recast_bits(op.dst, *bits, what);
  a.ref = recast_bits(op.ref, *bits, what);
  const i64 thr = size(op.thr_id);
  if (size(a.src.mode(0)) != thr || size(a.dst.mode(0)) != thr || size(a.ref.mode(0)) != thr)
    throw LayoutError(what + ": CopyOperation is not valid for Src/Dst of ValType (CuTe's static assertion)");
  return a;
}

void require_block_threads(i64 threads, const std::string& what) {
  if (threads > kMaxBlockThreads)
    throw LayoutError(what + " has " + std::to_string(threads) + " threads; a thread block has at most " +
                      std::to_string(kMaxBlockThreads));
}

TiledCopy make_tiled_copy(const CopyAtom& atom, const Layout& thr_layout, const Layout& val_layout) {
  // layout_mn = raked_product(thr, val): (M,N) -> (thr_idx, val_idx); layout_tv its right inverse.
  const i64 nthr = size(thr_layout), nval = size(val_layout);
  require_block_threads(nthr, "make_tiled_copy's thread layout " + to_string(thr_layout));
  if (checked_mul(nthr, nval) > kMaxTvEntries)  // before any table (hostile input H3)
    throw LayoutError("make_tiled_copy: " + std::to_string(nthr) + " threads x " + std::to_string(nval) +
                      " values is more than the limit of 2^24 (" + std::to_string(kMaxTvEntries) + ") thread-value pairs");
  const Layout mn = raked_product(thr_layout, val_layout);
  std::vector<i64> tile;
  for (std::size_t i = 0; i < mn.rank(); ++i) tile.push_back(size(mn.mode(i)));
  const std::vector<i64> inv = invert_bijection(table(mn), "raked_product(thr_layout, val_layout) " + to_string(mn));
  TiledCopy c;
  c.atom = atom;
  c.layout_tv.threads = nthr;
  c.layout_tv.values = nval;
  c.layout_tv.tile = tile;
  c.layout_tv.index = inv;  // inv[t + nthr*v] = tile index with layout_mn(index) = t + nthr*v
  c.tiler = shape_tiler(tile);
  return c;
}

namespace {
TiledCopy from_tv(const CopyAtom& atom, TvMap tv) {
  TiledCopy c;
  c.atom = atom;
  c.tiler = shape_tiler(tv.tile);
  c.layout_tv = std::move(tv);
  return c;
}
}  // namespace

TiledCopy make_tiled_copy_A(const CopyAtom& atom, const TiledMma& mma) { return from_tv(atom, mma.layout_a_tv()); }
TiledCopy make_tiled_copy_B(const CopyAtom& atom, const TiledMma& mma) { return from_tv(atom, mma.layout_b_tv()); }
TiledCopy make_tiled_copy_C(const CopyAtom& atom, const TiledMma& mma) { return from_tv(atom, mma.layout_c_tv()); }

TiledCopy make_tiled_copy_S(const CopyAtom& atom, const TiledCopy& like) {
  TiledCopy c = from_tv(atom, layout_s_tv(like));
  c.tiler = like.tiler;
  return c;
}
TiledCopy make_tiled_copy_D(const CopyAtom& atom, const TiledCopy& like) {
  TiledCopy c = from_tv(atom, layout_d_tv(like));
  c.tiler = like.tiler;
  return c;
}

namespace {

// The layout whose image is `image` (a set of non-negative integers containing 0), built by
// strides in increasing order: each new mode's stride is the smallest element not generated yet
// and its shape the longest run that stays inside the set. nullopt when no layout has that image.
// Example: {0,1,3,4} -> (2,2):(1,3); {0,..,63} -> 64:1.
std::optional<Layout> layout_with_image(const std::vector<bool>& image) {
  const i64 n = static_cast<i64>(image.size());
  std::vector<bool> have(image.size(), false);
  std::vector<i64> generated{0}, shape, stride;
  have[0] = true;
  // The set shifted by s*x, when all of it is new and inside the image.
  const auto shifted = [&](i64 shift) -> std::optional<std::vector<i64>> {
    std::vector<i64> out;
    for (i64 g : generated) {
      const i64 y = g + shift;
      if (y >= n || !image[at(y)] || have[at(y)]) return std::nullopt;
      out.push_back(y);
    }
    return out;
  };
  for (i64 x = 1; x < n; ++x) {
    if (!image[at(x)] || have[at(x)]) continue;
    std::vector<i64> added;
    i64 s = 1;
    for (; auto next = shifted(s * x); ++s)
      for (i64 y : *next) {
        have[at(y)] = true;
        added.push_back(y);
      }
    generated.insert(generated.end(), added.begin(), added.end());
    shape.push_back(s);
    stride.push_back(x);
  }
  if (static_cast<std::size_t>(std::count(image.begin(), image.end(), true)) != generated.size()) return std::nullopt;
  if (shape.empty()) return Layout(IntTuple(1), IntTuple(0));
  return Layout::flat(shape, stride);
}

// CuTe's composition(layoutC_TV, make_layout(make_shape(size<0>(layoutC_TV), copy_V))) keeps the
// first copy_V values of the value mode (FrgV, (RestM, RestN)); it must be a prefix CuTe's
// composition admits (LayoutError otherwise).
void require_value_prefix(const TiledMma& mma, i64 copy_v, const std::string& what) {
  std::vector<i64> shape = leaves(mma.atom.c_tv.mode(1).shape);
  shape.push_back(mma.tile_size(0) / (mma.atom.m * mma.vmnk_size(1)));
  shape.push_back(mma.tile_size(1) / (mma.atom.n * mma.vmnk_size(2)));
  std::vector<i64> stride;
  i64 span = 1;
  for (i64 n : shape) {
    stride.push_back(span);
    span = checked_mul(span, n);
  }
  try {
    (void)composition(Layout::flat(shape, stride), Layout(IntTuple(copy_v), IntTuple(1)));
  } catch (const LayoutError& e) {
    throw LayoutError(what + ": the atom's " + std::to_string(copy_v) + " values are not a prefix of the C layout's values: " + e.what());
  }
}

}  // namespace

TiledCopy make_tiled_copy_C_atom(const CopyAtom& atom, const TiledMma& mma) {
  const std::string what = "make_tiled_copy_C_atom(Copy_Atom<" + atom.op.name + ", " + atom.value_type + ">, TiledMMA)";
  const TvMap c = mma.layout_c_tv();
  const i64 copy_v = size(atom.src.mode(1));  // Copy_Atom::NumValSrc
  if (copy_v > c.values)
    throw LayoutError(what + ": the atom moves " + std::to_string(copy_v) + " values per thread, the C layout holds " +
                      std::to_string(c.values) + " (CuTe's static assertion copy_V <= size<1>(layoutC_TV))");
  require_value_prefix(mma, copy_v, what);
  // Tiler mode i: the mode-i coordinates the truncated TV layout reaches; layout_tv: each (t, v)'s
  // position in the tile they span (left_inverse(tile2mma) o layout_TV in CuTe).
  const i64 rows = c.tile[0];
  std::array<std::vector<bool>, 2> image{std::vector<bool>(at(rows), false), std::vector<bool>(at(c.tile[1]), false)};
  for (i64 t = 0; t < c.threads; ++t)
    for (i64 v = 0; v < copy_v; ++v) {
      image[0][at(c(t, v) % rows)] = true;
      image[1][at(c(t, v) / rows)] = true;
    }
  TiledCopy out;
  out.atom = atom;
  std::array<std::vector<i64>, 2> position;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto tiler = layout_with_image(image[i]);
    if (!tiler)
      throw LayoutError(what + ": the C layout's first " + std::to_string(copy_v) + " values reach coordinates in mode " +
                        std::to_string(i) + " that are not the image of a layout (CuTe's by-mode tiler would not enumerate them once)");
    out.tiler.push_back(*tiler);
    position[i].assign(image[i].size(), -1);
    const std::vector<i64> coords = table(*tiler);
    for (std::size_t k = 0; k < coords.size(); ++k) position[i][at(coords[k])] = static_cast<i64>(k);
  }
  out.layout_tv.threads = c.threads;
  out.layout_tv.values = copy_v;
  out.layout_tv.tile = {size(out.tiler[0]), size(out.tiler[1])};
  out.layout_tv.index.assign(at(checked_mul(c.threads, copy_v)), 0);
  for (i64 t = 0; t < c.threads; ++t)
    for (i64 v = 0; v < copy_v; ++v)
      out.layout_tv.index[at(t + c.threads * v)] = position[0][at(c(t, v) % rows)] + out.layout_tv.tile[0] * position[1][at(c(t, v) / rows)];
  return out;
}

TvMap thrval2mn(const TiledCopy& c, CopySide side) {
  const CopyAtom& a = c.atom;
  const Layout& x = side == CopySide::S ? a.src : a.dst;
  const i64 athr = a.num_threads(), aval = a.num_values();
  const TvMap& tv = c.layout_tv;
  const std::string what = "TiledCopy of " + a.op.name;
  if (tv.threads % athr != 0) throw LayoutError(what + " uses too few threads for the Copy_Atom (" + std::to_string(tv.threads) + " % " + std::to_string(athr) + " != 0)");
  if (tv.values % aval != 0) throw LayoutError(what + " uses too few values for the Copy_Atom (" + std::to_string(tv.values) + " % " + std::to_string(aval) + " != 0)");
  // right_inverse(Ref): Ref must be injective for the inverse to be exact.
  const std::vector<i64> ref_tab = table(a.ref);
  std::vector<i64> ref_inv(at(std::max<i64>(1, cosize(a.ref))), -1);
  for (std::size_t i = 0; i < ref_tab.size(); ++i) {
    if (ref_inv[at(ref_tab[i])] == -1) ref_inv[at(ref_tab[i])] = static_cast<i64>(i);
  }
  const i64 xvals = size(x.mode(1)), rest_vals = tv.values / aval;
  TvMap out;
  out.threads = tv.threads;
  out.values = checked_mul(xvals, rest_vals);
  out.tile = tv.tile;
  out.index.assign(at(checked_mul(out.threads, out.values)), 0);
  for (i64 t = 0; t < tv.threads; ++t) {
    const i64 trg_tid = t % athr, rest_tid = t / athr;
    for (i64 xv = 0; xv < xvals; ++xv) {
      const i64 bit = evaluate(x, IntTuple::tuple({IntTuple(trg_tid), IntTuple(xv)}));
      const i64 r = bit >= 0 && bit < static_cast<i64>(ref_inv.size()) ? ref_inv[at(bit)] : -1;
      if (r < 0) throw LayoutError(what + ": the atom's source/destination value " + std::to_string(bit) + " is not in its reference layout");
      const i64 atom_tid = r % athr, atom_val = r / athr;
      for (i64 rv = 0; rv < rest_vals; ++rv)
        out.index[at(t + out.threads * (xv + xvals * rv))] = tv(atom_tid + athr * rest_tid, atom_val + aval * rv);
    }
  }
  return out;
}

}  // namespace layoutproof
