// The soak's independent rasterizations (model/raster/raster.hpp's table, SMT-LIB partial operations) and
// TV partitions of one-thread-atom make_tiled_copy (CuTe's copy_atom.hpp definitions).
#include <map>
#include <set>

#include "tests/soak/reference.hpp"

namespace soakref {

using u32 = std::uint32_t;

namespace {
u32 div_(u32 a, u32 b) { return b ? a / b : 0xFFFFFFFFu; }
u32 rem_(u32 a, u32 b) { return b ? a % b : a; }
u32 shl_(u32 a, u32 s) { return s >= 32 ? 0 : a << s; }
u32 shr_(u32 a, u32 s) { return s >= 32 ? 0 : a >> s; }

struct T2 {
  u32 x, y;
};

// The seed article's get_swizzle_idx, from its description: blocks are numbered row by row, cut
// into strips of tile_size columns (the last strip keeps the residual width); inside a strip
// blocks run along the strip's columns first. The article's last line divides by gridDim.y
// (fixed: by gridDim.x).
T2 seed(u32 bx, u32 by, u32 gx, u32 gy, u32 ts, bool fixed) {
  const u32 id = by * gx + bx, strip = ts * gy;
  const u32 n_strips = div_(gx, ts), resid = rem_(gx, ts);
  const u32 sid = div_(id, strip), in_strip = rem_(id, strip);
  const u32 w = id < strip * n_strips ? ts : resid;
  const u32 flat = sid * ts + div_(in_strip, w) * gx + rem_(in_strip, w);
  return {rem_(flat, gx), fixed ? div_(flat, gx) : div_(flat, gy)};
}
u32 even_bits(u32 v) {
  u32 r = 0;
  for (int i = 0; i < 16; ++i) r |= ((v >> (2 * i)) & 1u) << i;
  return r;
}
}  // namespace

std::string RExpr::text() const {
  static const char* vars[] = {"", "blockIdx.x", "blockIdx.y", "gridDim.x", "gridDim.y", "tile_size"};
  static const char* ops[] = {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"};
  if (op == Op::c) return std::to_string(value);
  if (op <= Op::ts) return vars[static_cast<int>(op)];
  if (op == Op::min || op == Op::max)
    return std::string(op == Op::min ? "min(" : "max(") + k[0].text() + ", " + k[1].text() + ")";
  return "(" + k[0].text() + " " + ops[static_cast<int>(op) - static_cast<int>(Op::add)] + " " + k[1].text() + ")";
}

u32 RExpr::eval(u32 bx, u32 by, u32 gx, u32 gy, u32 ts) const {
  switch (op) {
    case Op::c: return value;
    case Op::bx: return bx;
    case Op::by: return by;
    case Op::gx: return gx;
    case Op::gy: return gy;
    case Op::ts: return ts;
    default: break;
  }
  const u32 a = k[0].eval(bx, by, gx, gy, ts), b = k[1].eval(bx, by, gx, gy, ts);
  switch (op) {
    case Op::add: return a + b;
    case Op::sub: return a - b;
    case Op::mul: return a * b;
    case Op::div: return div_(a, b);
    case Op::rem: return rem_(a, b);
    case Op::shl: return shl_(a, b);
    case Op::shr: return shr_(a, b);
    case Op::band: return a & b;
    case Op::bor: return a | b;
    case Op::bxor: return a ^ b;
    case Op::min: return a < b ? a : b;
    default: return a > b ? a : b;
  }
}

namespace {
bool uses_ts(const RExpr& e) {
  if (e.op == RExpr::Op::ts) return true;
  for (const RExpr& k : e.k)
    if (uses_ts(k)) return true;
  return false;
}
}  // namespace

bool ref_raster_claim(const RasterRef& r, RClaim c) {
  const bool has_param = r.kind == RKind::seed || r.kind == RKind::seed_fixed || r.kind == RKind::cutlass ||
                         (r.kind == RKind::formula && (uses_ts(r.fx) || uses_ts(r.fy)));
  u32 lo = 0, hi = 0;
  if (has_param) {
    if (r.param) lo = hi = *r.param;
    else if (r.kind == RKind::cutlass) lo = 0, hi = 3;
    else lo = 1, hi = r.max_grid;
  }
  const bool want_in = c == RClaim::in_bounds || c == RClaim::bijective;
  const bool want_inj = c == RClaim::injective || c == RClaim::bijective;
  const bool want_sur = c == RClaim::surjective || c == RClaim::bijective;
  for (u32 p0 = 1; p0 <= r.max_grid; ++p0)
    for (u32 p1 = 1; p1 <= r.max_grid; ++p1)
      for (u32 pr = lo; pr <= hi; ++pr) {
        u32 lx = p0, ly = p1;
        if (r.kind == RKind::cutlass) lx = p0 << pr, ly = (p1 + (1u << pr) - 1) >> pr;
        std::set<std::pair<u32, u32>> seen;
        for (u32 by = 0; by < ly; ++by)
          for (u32 bx = 0; bx < lx; ++bx) {
            T2 t{bx, by};
            switch (r.kind) {
              case RKind::row_major: break;
              case RKind::seed: t = seed(bx, by, lx, ly, pr, false); break;
              case RKind::seed_fixed: t = seed(bx, by, lx, ly, pr, true); break;
              case RKind::cutlass: t = {shr_(bx, pr), shl_(by, pr) + (bx & (shl_(1, pr) - 1))}; break;
              case RKind::morton: {
                const u32 bid = by * lx + bx;
                t = {even_bits(bid), even_bits(bid >> 1)};
                break;
              }
              case RKind::formula: t = {r.fx.eval(bx, by, lx, ly, pr), r.fy.eval(bx, by, lx, ly, pr)}; break;
            }
            if (want_in && (t.x >= p0 || t.y >= p1)) return false;
            if (!seen.insert({t.x, t.y}).second && want_inj) return false;
          }
        if (want_sur)
          for (u32 y = 0; y < p1; ++y)
            for (u32 x = 0; x < p0; ++x)
              if (!seen.count({x, y})) return false;
      }
  return true;
}

std::vector<RefCopyInstr> ref_partition(const RefCopy& c, const RLayout& smem, const std::vector<i64>& shape,
                                        int eb, i64 base) {
  const i64 T = c.thr_m * c.thr_n, V = c.val_m * c.val_n, A = c.atom_vals;
  const i64 tm = c.val_m * c.thr_m, tn = c.val_n * c.thr_n;  // Tiler_MN
  // Inverses of thr and val (bijections onto [0,T) and [0,V)): index -> (row, col).
  auto inv = [](i64 m, i64 n, bool row_major) {
    std::vector<std::pair<i64, i64>> v(static_cast<std::size_t>(m * n));
    for (i64 i = 0; i < m; ++i)
      for (i64 j = 0; j < n; ++j) v[static_cast<std::size_t>(row_major ? i * n + j : i + m * j)] = {i, j};
    return v;
  };
  const auto thr = inv(c.thr_m, c.thr_n, c.thr_row_major), val = inv(c.val_m, c.val_n, c.val_row_major);
  const i64 r0n = shape[0] / tm, r1n = shape[1] / tn, pn = shape.size() > 2 ? shape[2] : 1;
  std::map<std::pair<i64, std::vector<i64>>, RefCopyInstr> by_key;
  for (i64 t = 0; t < T; ++t)
    for (i64 rv = 0; rv < V / A; ++rv)
      for (i64 p = 0; p < pn; ++p)
        for (i64 r1 = 0; r1 < r1n; ++r1)
          for (i64 r0 = 0; r0 < r0n; ++r0) {
            std::vector<i64> key{rv, r0, r1};
            if (shape.size() > 2) key.push_back(p);
            RefCopyInstr& in = by_key[{t / 32, key}];
            if (in.slice_addr.empty()) {
              in.warp = t / 32;
              in.copy_coord = key;
              in.addr.fill(-1);
              in.slice_addr.resize(32);
              in.slice_elem.resize(32);
            }
            const int lane = static_cast<int>(t % 32);
            for (i64 xv = 0; xv < A; ++xv) {
              const auto [t0, t1] = thr[static_cast<std::size_t>(t)];
              const auto [v0, v1] = val[static_cast<std::size_t>(xv + A * rv)];
              const i64 m = v0 + c.val_m * t0 + tm * r0, n = v1 + c.val_n * t1 + tn * r1;
              const i64 elem = m + shape[0] * (n + shape[1] * p);
              const i64 a = base + smem.at(elem) * eb;
              if (xv == 0) in.addr[lane] = a;
              in.slice_addr[lane].push_back(a);
              in.slice_elem[lane].push_back(elem);
            }
          }
  std::vector<RefCopyInstr> out;
  for (auto& [k, in] : by_key) out.push_back(std::move(in));
  return out;
}

}  // namespace soakref
