// Random abstract kernels for the compiled-kernel soak (compiled_kernel.hpp), and the abstract
// kernel's own definitions (expressions, accesses). Valid by construction: every access has a
// width the ISA allows; ldmatrix/stmatrix (.sync.aligned: the whole warp) run only in full warps,
// unguarded and outside branches; a branch never tests opaque data (the model would stop the lane,
// and the brute force could not say which way it goes). Everything else is drawn freely: misaligned
// and out-of-bounds addresses, conflicts, overlapping stores, guards and addresses on free
// parameters (decided or UNKNOWN), calls nested past the model's 64.
#include <algorithm>
#include <random>

#include "tests/soak/compiled_kernel.hpp"

namespace soakc {

Expr lit(u32 v) {
  Expr e;
  e.value = v;
  return e;
}
Expr leaf(Expr::Op op, u32 value) {
  Expr e;
  e.op = op;
  e.value = value;
  return e;
}
Expr bin(Expr::Op op, Expr a, Expr b) {
  Expr e;
  e.op = op;
  e.k = {std::move(a), std::move(b)};
  return e;
}
Expr select(u32 bit, Expr a, Expr b) {
  Expr e = bin(Expr::Op::sel, std::move(a), std::move(b));
  e.value = bit;
  return e;
}
Expr shift(Expr::Op op, Expr a, u32 amount) {
  Expr e;
  e.op = op;
  e.value = amount;
  e.k = {std::move(a)};
  return e;
}

std::optional<u32> eval(const Expr& e, const Env& v) {
  using O = Expr::Op;
  switch (e.op) {
    case O::c: return e.value;
    case O::tidx: return v.tidx;
    case O::tidy: return v.tidy;
    case O::lane: return v.lane;
    case O::ntid: return v.ntid;
    case O::loop: return (*v.loops)[e.value];
    case O::param: return (*v.params)[e.value];
    case O::opaque: return std::nullopt;
    default: break;
  }
  if (e.op == O::sel) return eval(((v.tidx >> e.value) & 1) ? e.k[0] : e.k[1], v);  // only the picked side matters
  const auto a = eval(e.k[0], v);
  if (!a) return std::nullopt;
  if (e.op == O::shl) return e.value >= 32 ? 0 : *a << e.value;
  if (e.op == O::shr) return e.value >= 32 ? 0 : *a >> e.value;
  if (e.op == O::sra) return static_cast<u32>(static_cast<std::int32_t>(*a) >> std::min<u32>(e.value, 31));
  if (e.op == O::viaf) return *a + e.value;
  if (e.op == O::abs) return static_cast<std::int32_t>(*a) < 0 ? 0u - *a : *a;
  if (e.op == O::sext || e.op == O::zext) {
    const u32 n = std::min<u32>(e.value, 32), low = n == 32 ? *a : *a & ((1u << n) - 1);
    return e.op == O::zext || n == 32 || !((low >> (n - 1)) & 1) ? low : low | ~((1u << n) - 1);
  }
  const auto b = eval(e.k[1], v);
  if (!b) return std::nullopt;
  switch (e.op) {
    case O::add: return *a + *b;
    case O::sub: return *a - *b;
    case O::mulhi: return static_cast<u32>((static_cast<u64>(*a) * *b) >> 32);
    case O::min: return std::min(*a, *b);
    case O::max: return std::max(*a, *b);
    case O::mul: return *a * *b;
    case O::band: return *a & *b;
    case O::bor: return *a | *b;
    default: return *a ^ *b;
  }
}

bool mentions(const Expr& e, Expr::Op op) {
  if (e.op == op) return true;
  for (const Expr& x : e.k)
    if (mentions(x, op)) return true;
  return false;
}

std::string text(const Expr& e) {
  using O = Expr::Op;
  switch (e.op) {
    case O::c: return std::to_string(e.value);
    case O::tidx: return "tid.x";
    case O::tidy: return "tid.y";
    case O::lane: return "laneid";
    case O::ntid: return "ntid.x";
    case O::loop: return "i" + std::to_string(e.value);
    case O::param: return "P" + std::to_string(e.value);
    case O::opaque: return "g[0]";
    case O::shl: return "(" + text(e.k[0]) + " << " + std::to_string(e.value) + ")";
    case O::shr: return "(" + text(e.k[0]) + " >> " + std::to_string(e.value) + ")";
    case O::sra: return "(int(" + text(e.k[0]) + ") >> " + std::to_string(e.value) + ")";
    case O::sel: return "(tid.x & " + std::to_string(1u << e.value) + " ? " + text(e.k[0]) + " : " + text(e.k[1]) + ")";
    case O::min: return "min(" + text(e.k[0]) + ", " + text(e.k[1]) + ")";
    case O::abs: return "abs(" + text(e.k[0]) + ")";
    case O::sext: return "sext" + std::to_string(e.value) + "(" + text(e.k[0]) + ")";
    case O::zext: return "zext" + std::to_string(e.value) + "(" + text(e.k[0]) + ")";
    case O::mulhi: return "mulhi(" + text(e.k[0]) + ", " + text(e.k[1]) + ")";
    case O::viaf: return "f(" + text(e.k[0]) + ") /* + " + std::to_string(e.value) + " */";
    case O::max: return "max(" + text(e.k[0]) + ", " + text(e.k[1]) + ")";
    default: break;
  }
  static const char* ops[] = {"", "", "", "", "", "", "", "", " + ", " - ", " * ", "", "", "", " & ", " | ", " ^ "};
  return "(" + text(e.k[0]) + ops[static_cast<int>(e.op)] + text(e.k[1]) + ")";
}

std::optional<bool> eval(const Cond& c, const Env& env) {
  const auto v = eval(c.lhs, env);
  if (!v) return std::nullopt;
  switch (c.cmp) {
    case Cond::Cmp::lt: return *v < c.rhs;
    case Cond::Cmp::ge: return *v >= c.rhs;
    case Cond::Cmp::eq: return *v == c.rhs;
    default: return *v != c.rhs;
  }
}

int Access::width() const { return kind == Kind::ldsm || kind == Kind::stsm ? 16 : elem * vec; }
bool Access::writes() const { return kind == Kind::st || kind == Kind::stsm || kind == Kind::cp_async; }
bool Access::bank() const { return kind != Kind::atom && kind != Kind::red; }
bool Kernel::symbolic() const {
  for (const Param& p : params)
    if (!p.fixed) return true;
  return false;
}

namespace {

using Rng = std::mt19937_64;
i64 uni(Rng& r, i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(r); }
bool coin(Rng& r, int percent = 50) { return uni(r, 0, 99) < percent; }
template <class T>
T pick(Rng& r, std::initializer_list<T> v) {
  return *(v.begin() + uni(r, 0, static_cast<i64>(v.size()) - 1));
}
int log2i(int w) {
  int s = 0;
  while ((1 << s) < w) ++s;
  return s;
}

using O = Expr::Op;

struct Ctx {
  int loops = 0;          // loop counters in scope
  int branches = 0;       // enclosing branches
  bool in_call = false;
  int depth = 0;          // calls nested below the kernel here
  int divergent_loops = 0;  // enclosing loops with per-lane bounds
  int accesses = 0;       // left to draw
  bool full_warps = true;
  bool ldsm_ok = true;    // the kernel may hold ldmatrix/stmatrix
};

struct Gen {
  Rng r;
  Kernel k;
  bool symbolic = false;
  int next_id = 0;

  Expr tid(bool y_ok = true) { return k.by > 1 && y_ok && coin(r, 25) ? leaf(O::tidy) : leaf(O::tidx); }
  Expr param_leaf() { return leaf(O::param, static_cast<u32>(uni(r, 0, static_cast<i64>(k.params.size()) - 1))); }

  // The per-lane part of an index: the patterns kernels use (strides, pads, swizzles, broadcasts, halves).
  Expr lane_part() {
    switch (uni(r, 0, 16)) {
      case 0: return bin(O::mul, tid(), lit(pick(r, {1u, 2u, 3u, 4u, 8u, 16u, 17u, 32u, 33u})));
      case 1: return bin(O::add, bin(O::mul, bin(O::band, leaf(O::tidx), lit(pick(r, {3u, 7u, 15u}))), lit(pick(r, {1u, 8u, 9u, 32u}))),
                         shift(O::shr, leaf(O::tidx), static_cast<u32>(uni(r, 1, 4))));
      case 2: return bin(O::bxor, leaf(O::tidx), bin(O::band, shift(O::shr, leaf(O::tidx), static_cast<u32>(uni(r, 2, 4))), lit(pick(r, {1u, 3u, 7u}))));
      case 3: return shift(O::shr, tid(), static_cast<u32>(uni(r, 1, 3)));
      case 4: return bin(O::band, bin(O::add, tid(), lit(static_cast<u32>(uni(r, 0, 9)))), lit(pick(r, {7u, 15u, 31u, 63u})));
      case 5: return lit(static_cast<u32>(uni(r, 0, 12)));
      case 6: return bin(O::bor, shift(O::shl, leaf(O::tidx), static_cast<u32>(uni(r, 0, 2))), lit(pick(r, {0u, 1u, 2u})));
      case 7: return k.by > 1 ? bin(O::add, bin(O::mul, leaf(O::tidy), lit(static_cast<u32>(k.bx + uni(r, 0, 1)))), leaf(O::tidx))
                              : bin(O::sub, lit(static_cast<u32>(k.bx)), leaf(O::tidx));
      case 8: return bin(O::mul, bin(O::band, tid(), lit(7)), lit(pick(r, {4u, 8u, 16u, 32u, 36u})));
      case 9: return bin(O::add, bin(O::mul, leaf(O::tidx), lit(pick(r, {2u, 4u}))), shift(O::shr, leaf(O::tidx), 4));
      case 10: return bin(O::add, bin(O::mul, shift(O::shr, leaf(O::tidx), 5), leaf(O::ntid)), leaf(O::lane));
      case 11: return select(static_cast<u32>(uni(r, 0, 4)), bin(O::mul, leaf(O::tidx), lit(2)), bin(O::add, leaf(O::tidx), lit(32)));
      case 12: return bin(pick(r, {O::min, O::max}), tid(), lit(static_cast<u32>(uni(r, 4, 40))));
      case 13: return bin(O::add, shift(O::sra, bin(O::sub, leaf(O::tidx), lit(static_cast<u32>(uni(r, 0, 16)))), 1), lit(16));
      case 14: return bin(O::add, shift(O::abs, bin(O::sub, leaf(O::tidx), lit(static_cast<u32>(uni(r, 0, 32)))), 0), lit(1));
      case 15: return bin(O::mulhi, bin(O::mul, tid(), lit(pick(r, {0x10000000u, 0x40000000u, 0x12345678u}))), lit(pick(r, {16u, 64u, 100u})));
      default: return bin(O::add, shift(pick(r, {O::sext, O::zext}), bin(O::mul, leaf(O::tidx), lit(pick(r, {3u, 5u}))), static_cast<u32>(uni(r, 3, 8))), lit(128));
    }
  }

  Expr with_loop(Expr e, const Ctx& c) {
    if (!c.loops || coin(r, 40)) return e;
    const Expr i = leaf(O::loop, static_cast<u32>(uni(r, 0, c.loops - 1)));
    if (coin(r, 30)) return bin(O::bxor, e, shift(O::shl, i, static_cast<u32>(uni(r, 0, 3))));
    return bin(O::add, e, bin(O::mul, i, lit(pick(r, {1u, 8u, 32u, 33u, 64u}))));
  }

  // The parameters' part: affine forms the product keeps as terms, and a few it must not (UNKNOWN).
  Expr with_param(Expr e) {
    if (k.params.empty() || coin(r, symbolic ? 15 : 55)) return e;
    const Expr p = param_leaf();
    switch (uni(r, 0, 13)) {
      case 0: case 1: case 2: return bin(O::add, e, p);
      case 10: return bin(O::add, e, bin(pick(r, {O::bxor, O::bor}), p, lit(0)));                     // x ^ 0, x | 0: kept
      case 11: return bin(O::add, e, bin(O::band, p, lit(pick(r, {0u, 0xffu, 0xffffu, 0xffffffffu}))));  // low masks: kept
      case 12: return bin(O::add, e, select(static_cast<u32>(uni(r, 0, 3)), p, bin(O::add, p, lit(4))));  // a per-lane selp: kept
      case 13: return bin(O::add, e, pick(r, {shift(O::sra, p, 1), bin(O::min, p, lit(9))}));          // not affine
      case 3: return bin(O::add, e, bin(O::mul, p, lit(pick(r, {2u, 4u, 8u, 32u}))));
      case 4: return bin(O::sub, e, p);
      case 5: return bin(O::add, e, bin(O::mul, leaf(O::tidx), p));           // a per-lane known factor: kept
      case 6: return bin(O::add, e, shift(O::shl, p, static_cast<u32>(uni(r, 1, 3))));
      case 7: return bin(O::bxor, e, p);                                       // not affine
      case 8: return bin(O::add, e, bin(O::band, p, lit(pick(r, {3u, 12u}))));  // 3: a low mask (kept); 12: not
      default: return bin(O::add, e, bin(O::mul, p, param_leaf()));           // a product of two: not affine
    }
  }

  Cond cond(const Ctx& c, bool for_guard) {
    Cond x;
    switch (uni(r, 0, 6)) {
      case 0: case 1: x.lhs = tid(); break;
      case 2: x.lhs = bin(O::band, leaf(O::tidx), lit(pick(r, {1u, 3u, 7u, 16u}))); break;
      case 3: x.lhs = k.by > 1 ? bin(O::add, bin(O::mul, leaf(O::tidy), lit(static_cast<u32>(k.bx))), leaf(O::tidx)) : leaf(O::tidx); break;
      case 4: x.lhs = c.loops ? bin(O::add, leaf(O::loop, static_cast<u32>(uni(r, 0, c.loops - 1))), leaf(O::tidx)) : leaf(O::tidx); break;
      case 5: x.lhs = !k.params.empty() && coin(r, 60) ? bin(O::add, leaf(O::tidx), param_leaf()) : leaf(O::tidx); break;
      default: x.lhs = for_guard && coin(r, 30) ? bin(O::add, leaf(O::opaque), leaf(O::tidx)) : shift(O::shr, leaf(O::tidx), 2); break;
    }
    x.cmp = pick(r, {Cond::Cmp::lt, Cond::Cmp::lt, Cond::Cmp::ge, Cond::Cmp::eq, Cond::Cmp::ne});
    const i64 t = k.threads();
    x.rhs = static_cast<u32>(x.cmp == Cond::Cmp::eq || x.cmp == Cond::Cmp::ne ? uni(r, 0, 3) : pick(r, {uni(r, 0, t), 32 * uni(r, 0, t / 32), uni(r, 0, 40)}));
    return x;
  }

  Access access(Ctx& c) {
    Access a;
    a.id = next_id++;
    a.spell = static_cast<u32>(r());
    const bool matrix_ok = c.ldsm_ok && c.branches == 0 && c.divergent_loops == 0;
    int kind = static_cast<int>(uni(r, 0, 99));
    if (kind >= 68 && kind < 86 && !matrix_ok) kind = static_cast<int>(uni(r, 0, 49));
    a.kind = kind < 25 ? Access::Kind::ld : kind < 50 ? Access::Kind::st : kind < 56 ? Access::Kind::atom : kind < 60 ? Access::Kind::red
             : kind < 68 ? Access::Kind::cp_async : kind < 77 ? Access::Kind::ldsm : kind < 86 ? Access::Kind::stsm
             : kind < 96 ? Access::Kind::ld : Access::Kind::listed;
    switch (a.kind) {
      case Access::Kind::ld: case Access::Kind::st:
        a.elem = pick(r, {1, 2, 4, 4, 4, 8, 8, 16});
        a.vec = a.elem == 16 ? 1 : pick(r, {1, 1, 2, 4});
        while (a.elem * a.vec > 16) a.vec /= 2;
        break;
      case Access::Kind::atom: case Access::Kind::red: a.elem = pick(r, {4, 4, 8}); break;
      case Access::Kind::cp_async: a.elem = pick(r, {4, 8, 16, 16}); break;
      case Access::Kind::ldsm: case Access::Kind::stsm:
        a.matrices = pick(r, {1, 2, 4, 4});
        a.trans = coin(r);
        break;
      case Access::Kind::listed:
        a.listed = pick(r, {Listed::st_async, Listed::ld_cluster, Listed::generic_ld, Listed::generic_st});
        break;
    }
    const int w = a.kind == Access::Kind::listed ? 4 : a.width();
    a.symbol = static_cast<int>(uni(r, 0, static_cast<i64>(k.symbols.size()) - 1));
    const i64 bytes = k.symbols[static_cast<std::size_t>(a.symbol)].bytes;
    Expr idx = with_param(with_loop(lane_part(), c));
    if (c.depth < 60 && coin(r, 8)) {  // through a helper .func that returns it (one frame deeper)
      Expr v;
      v.op = O::viaf;
      v.value = static_cast<u32>(uni(r, 0, 3));
      v.k = {idx};
      idx = v;
    }
    // Kept in bounds by a power-of-two mask half the time (a truncation the product keeps).
    if (coin(r, symbolic ? 20 : 50)) {
      u32 cap = 1;
      while (static_cast<i64>(cap) * 2 * w <= bytes) cap *= 2;
      idx = bin(O::band, idx, lit(cap - 1));
    }
    if (coin(r, 3)) idx = bin(O::add, idx, leaf(O::opaque));  // an address the product cannot know
    a.offset = coin(r) ? shift(O::shl, idx, static_cast<u32>(log2i(w))) : bin(O::mul, idx, lit(static_cast<u32>(w)));
    if (coin(r, 6)) a.offset = bin(O::add, a.offset, lit(pick(r, {1u, 2u, 4u, 8u})));  // misaligned for some widths
    if (coin(r, 25)) a.imm = static_cast<u32>(w * uni(r, 1, 8));
    if (a.kind != Access::Kind::ldsm && a.kind != Access::Kind::stsm && a.kind != Access::Kind::listed && coin(r, 22)) a.guard = cond(c, true);
    switch (uni(r, 0, 5)) {
      case 0: a.data = leaf(O::tidx); break;
      case 1: a.data = bin(O::band, leaf(O::tidx), lit(pick(r, {1u, 3u, 0xf0u}))); break;
      case 2: a.data = lit(static_cast<u32>(uni(r, 0, 0x1ff))); break;
      case 3: a.data = shift(O::shr, leaf(O::tidx), static_cast<u32>(uni(r, 1, 3))); break;
      case 4: a.data = bin(O::mul, leaf(O::tidx), lit(0x01010101u)); break;
      default: a.data = c.loops ? bin(O::add, leaf(O::loop, 0), leaf(O::tidx)) : lit(7); break;
    }
    return a;
  }

  std::vector<Stmt> block(Ctx& c, int max_stmts) {
    std::vector<Stmt> out;
    const int n = static_cast<int>(uni(r, 1, max_stmts));
    for (int i = 0; i < n && c.accesses > 0; ++i) {
      Stmt s;
      s.spell = static_cast<u32>(r());
      const int what = static_cast<int>(uni(r, 0, 99));
      if (what < 14 && c.branches < 2) {
        s.kind = Stmt::Kind::branch;
        s.cond = cond(c, false);
        ++c.branches;
        s.then_ = block(c, 2);
        if (coin(r, 60)) s.else_ = block(c, 2);
        --c.branches;
      } else if (what < 28 && c.loops < 2) {
        s.kind = Stmt::Kind::loop;
        s.trips = static_cast<int>(uni(r, 1, 3));
        if (coin(r, 25)) {  // a per-lane trip count: a loop with a divergent exit
          Expr e = pick(r, {leaf(O::tidx), shift(O::shr, leaf(O::tidx), 3), bin(O::add, leaf(O::tidx), lit(1)),
                            k.params.empty() ? leaf(O::lane) : bin(O::add, leaf(O::tidx), param_leaf())});
          s.bound = bin(O::band, e, lit(3));
          ++c.divergent_loops;
        }
        ++c.loops;
        s.body = block(c, 2);
        --c.loops;
        if (s.bound) --c.divergent_loops;
      } else if (what < 34) {
        // An early return (or exit) of the lanes whose condition holds: the rest runs without them,
        // so no ldmatrix/stmatrix (whole-warp) after it.
        s.kind = Stmt::Kind::ret;
        s.cond = cond(c, false);
        s.exit = coin(r, 30);
        c.ldsm_ok = false;
      } else if (what < 44 && !c.in_call) {
        s.kind = Stmt::Kind::call;
        // Around the model's limit of 64 frames (63 calls below the kernel run; 64 stop) often
        // enough to see both sides; past it rarely, since it leaves every claim UNKNOWN.
        s.depth = coin(r, 88) ? static_cast<int>(uni(r, 1, 4)) : pick(r, {60, 62, 63, 63, 64, 65, 70});
        c.in_call = true;
        c.depth = s.depth;
        s.body = block(c, 2);
        c.in_call = false;
        c.depth = 0;
      } else {
        s.kind = Stmt::Kind::access;
        s.a = access(c);
        --c.accesses;
      }
      out.push_back(std::move(s));
    }
    return out;
  }
};

}  // namespace

Kernel generate(std::uint64_t seed, const GenOptions& o) {
  Gen g{Rng(seed), {}, o.symbolic, 0};
  Rng& r = g.r;
  Kernel& k = g.k;
  k.spell = static_cast<u32>(r());
  const i64 threads = o.symbolic ? pick(r, {32, 32, 64, 96, 128, 40}) : pick(r, {32, 32, 64, 96, 128, 256, 40, 72});
  k.by = threads % 64 == 0 && coin(r, 30) ? pick(r, {2, 4}) : 1;
  k.bx = static_cast<int>(threads / k.by);
  const int nparams = static_cast<int>(o.symbolic ? uni(r, 1, 3) : uni(r, 0, 3));
  i64 domain = 1;
  for (int j = 0; j < nparams; ++j) {
    Param p;
    p.bits = pick(r, {32, 32, 16, 8});
    const bool free = o.symbolic && (j == 0 || coin(r, 60));
    if (!free) {
      p.fixed = pick(r, {static_cast<u32>(uni(r, 0, 40)), static_cast<u32>(1u << uni(r, 0, 12)), static_cast<u32>(0u - uni(r, 1, 8))});
      if (p.bits < 32) *p.fixed &= (1u << p.bits) - 1;
    } else if (p.bits == 8 && domain == 1 && coin(r, 25)) {
      domain *= 256;  // every value, no --param-range
    } else {
      const i64 lo = uni(r, -6, 24), n = uni(r, 1, domain > 16 ? 4 : 16);
      p.range = std::make_pair(lo, lo + n - 1);
      domain *= n;
    }
    k.params.push_back(p);
  }
  const int nsym = static_cast<int>(uni(r, 1, 2));
  for (int s = 0; s < nsym; ++s)
    k.symbols.push_back({"s" + std::to_string(s), pick(r, {256, 512, 1024, 2048, 4096, 8192, 200}), pick(r, {16, 16, 128}), false, false});
  if (coin(r, 20)) k.symbols.back().local = true;  // the last static: inside the kernel's body
  if (coin(r, 15)) k.symbols.push_back({"dsm", pick(r, {512, 2048, 4096}), pick(r, {16, 16, 128}), true, false});
  k.ways = static_cast<int>(uni(r, 1, 4));
  Ctx c;
  c.accesses = static_cast<int>(uni(r, 1, o.symbolic ? 5 : 8));
  c.full_warps = threads % 32 == 0;
  c.ldsm_ok = c.full_warps;
  while (c.accesses > 0) {
    std::vector<Stmt> more = g.block(c, 3);
    for (Stmt& s : more) k.body.push_back(std::move(s));
  }
  return k;
}

}  // namespace soakc
