// The tma: claim (proofs/claims/tma_claim.hpp).
#include "proofs/claims/tma_claim.hpp"

#include <charconv>
#include <chrono>

#include "model/layout/notation.hpp"
#include "model/trace/smem_bases.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/hopper/gmma.hpp"

#include <map>
#include <set>
#include <unordered_map>

namespace layoutproof::proofs {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The box's coordinates in l (one integer per top-level mode, colexicographic), or every index of
// l when there is no box.
template <class F>
void for_each_box_point(const Layout& l, const std::optional<IntTuple>& box, F&& f) {
  if (!box) {
    for_each_offset(l, [&](i64 x, i64 inner) { return f(IntTuple(x), inner); });
    return;
  }
  const std::vector<i64> extent = leaves(*box);
  i64 n = 1;
  for (i64 e : extent) n = checked_mul(n, e);
  std::vector<i64> c(extent.size(), 0);
  for (i64 k = 0; k < n; ++k) {
    std::vector<IntTuple> coord(c.begin(), c.end());
    const IntTuple crd = extent.size() == 1 ? IntTuple(c[0]) : IntTuple::tuple(coord);
    if (!f(crd, evaluate(l, crd))) return;
    for (std::size_t m = 0; m < c.size() && ++c[m] == extent[m]; ++m) c[m] = 0;
  }
}

// tma:Sw[,base=B][,box=S] -- forall x in the box: the bit address the kernel reads element x at,
// absolute_bit_address (model/layout/composed.hpp: 8*base + b(L(x)) for an element-unit layout, the byte
// swizzle on the absolute address for an smem_ptr form), equals the one TMA writes it to, 8*Sw(base + floor(b(inner(x))/8)) +
// b(inner(x)) mod 8, with b(o) = o * element_bits: TMA swizzles ABSOLUTE shared-memory byte
// addresses (H100, shared/facts), and moves whole bytes, so a sub-byte element keeps its bit
// position inside its byte (comparing truncated bytes would let a layout that permutes elements
// inside one byte pass).
Verdict check_tma_at(const AnyLayout& l, int element_bits, const TmaClaim& t) {
  if (l.is_smem_ptr() && l.smem_ptr_bits != element_bits)
    return Verdict::error("tma", to_string(l) + " is a layout of " + std::to_string(l.smem_ptr_bits) + "-bit elements, not " +
                                     std::to_string(element_bits) + "-bit ones");
  const auto floor_div8 = [](i64 b) { return b >= 0 ? b / 8 : -((-b + 7) / 8); };
  const auto bits = [&](i64 o) { return checked_mul(o, element_bits); };
  const i64 base_bits = checked_mul(t.base, 8);
  const auto tma_bits = [&](i64 inner) {  // the absolute bit address TMA gives the element at `inner`
    const i64 b = checked_add(base_bits, bits(inner)), byte = floor_div8(b);
    return checked_add(checked_mul(t.sw.apply(byte), 8), b - byte * 8);
  };
  const i64 align = i64{1} << t.sw.span_bits();
  const std::string domain = t.box ? "the box " + to_string(*t.box) : "all " + std::to_string(size(l.layout)) + " indices";
  const std::string where = t.base == 0 ? "" : " at base " + std::to_string(t.base);
  Verdict v = Verdict::proved("exhaustive check of " + domain + where,
                              "8*base + bits(L(x)) == " + to_string(t.sw) + " on absolute byte addresses for every x: TMA's swizzle" +
                                  (t.base % align == 0 ? " (base " + std::to_string(t.base) + " is " + std::to_string(align) +
                                                             "-byte aligned)"
                                                       : " even at the unaligned base " + std::to_string(t.base)));
  for_each_box_point(l.layout, t.box, [&](const IntTuple& x, i64 inner) {
    // Where the kernel reads x: one rule for every layout form (an smem_ptr form swizzles the
    // absolute address as CuTe's swizzle_ptr does; an element-unit layout is base-relative).
    const i64 got = absolute_bit_address(l, x, element_bits, t.base), want = tma_bits(inner);
    if (got == want) return true;
    Witness w;
    w.points.push_back({"x", x.is_leaf() ? x.value() : -1, to_string(x), floor_div8(got), "byte"});
    w.points.push_back({"TMA writes it at", -1, "", floor_div8(want), "byte"});
    w.why = "element " + to_string(x) + " is read at byte " + std::to_string(floor_div8(got)) + ", but TMA's " + to_string(t.sw) +
            " writes it to byte " + std::to_string(floor_div8(want));
    if (element_bits % 8 != 0)
      w.why += " (bit " + std::to_string(got) + " instead of bit " + std::to_string(want) +
               (floor_div8(got) == floor_div8(want) ? ": the sub-byte element moved inside its byte)" : ")");
    if (t.base % align != 0)
      w.why += "; the base " + std::to_string(t.base) + " is not " + std::to_string(align) +
               "-byte aligned, and TMA swizzles absolute shared-memory addresses";
    v = Verdict::refuted(v.method, w);
    return false;
  });
  return v;
}

// align=N: the claim at each multiple of N below the placement period (model/trace/smem_bases.hpp), one
// verdict: the first refutation (its method and witness name the base), else PROVED for them all.
Verdict check_tma(const AnyLayout& l, int element_bits, const TmaClaim& t, const std::string& text) {
  if (element_bits <= 0) return Verdict::error("tma", "tma claims need the element width");
  validate_tma_domain(l, t, text);  // make_check did; a LayoutError here is decide_tma's ERROR
  if (!t.align) return check_tma_at(l, element_bits, t);
  const std::vector<i64> bases = placement_bases(SmemPlacement{std::nullopt, t.align}, l, t.sw);
  for (const i64 b : bases) {
    TmaClaim at = t;
    at.base = b;
    at.align.reset();
    Verdict v = check_tma_at(l, element_bits, at);
    if (!v.is_proved()) return v;
  }
  const i64 period = placement_period(l, t.sw);
  const std::string domain = t.box ? "the box " + to_string(*t.box) : "all " + std::to_string(size(l.layout)) + " indices";
  return Verdict::proved("exhaustive check of " + domain + (bases.size() == 1 ? " at base 0" : " at each of the " + std::to_string(bases.size()) +
                             " bases 0, " + std::to_string(*t.align) + ", ..., " + std::to_string(bases.back())),
                         "8*base + bits(L(x)) == " + to_string(t.sw) + " on absolute byte addresses for every x and every base that is a multiple of " +
                             std::to_string(*t.align) + ": TMA's swizzle (moving the base by the period " + std::to_string(period) +
                             " moves every address by it, so the bases below it decide every base)");
}

}  // namespace

std::optional<TmaClaim> parse_tma_claim(const std::string& claim) {
  if (claim.rfind("tma:", 0) != 0) return std::nullopt;
  const std::string rest = claim.substr(4);
  // Split at the commas outside <...> and (...).
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char ch : rest) {
    depth += (ch == '<' || ch == '(') - (ch == '>' || ch == ')');
    if (ch == ',' && depth == 0) parts.emplace_back();
    else parts.back() += ch;
  }
  TmaClaim t{parse_swizzle(parts[0]), 0, std::nullopt, std::nullopt};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p.rfind("base=", 0) == 0) {
      t.base = parse_byte_address(p.substr(5), "tma claim '" + claim + "': base=");
    } else if (p.rfind("align=", 0) == 0) {
      t.align = parse_int_in(p.substr(6), "tma claim '" + claim + "': align=", 1, i64{1} << 20);
      if (*t.align & (*t.align - 1)) throw LayoutError("tma claim '" + claim + "': align=N is a power of two (bytes), not " + p.substr(6));
    } else if (p.rfind("box=", 0) == 0) {
      t.box = parse_int_tuple(p.substr(4));
    } else {
      throw LayoutError("tma claim '" + claim + "': '" + p + "' is neither base=ADDR, align=N nor box=SHAPE (tma:Sw<B,M,S>[,base=ADDR|,align=N][,box=SHAPE])");
    }
  }
  if (t.align && claim.find(",base=") != std::string::npos)
    throw LayoutError("tma claim '" + claim + "': give base=ADDR (the buffer's one address) or align=N (every multiple of N), not both");
  return t;
}

void validate_tma_domain(const AnyLayout& l, const TmaClaim& t, const std::string& claim) {
  if (t.box) {
    if (t.box->rank() > (l.layout.shape.is_leaf() ? 1 : l.layout.rank()))
      throw LayoutError("tma claim '" + claim + "': box " + to_string(*t.box) + " has more modes than the layout " + to_string(l));
    for (std::size_t i = 0; i < t.box->rank(); ++i) {
      const IntTuple& e = t.box->is_leaf() ? *t.box : (*t.box)[i];
      const IntTuple mode = l.layout.shape.is_leaf() ? l.layout.shape : l.layout.mode(i).shape;
      if (e.is_tuple() || e.value() < 1 || e.value() > product(mode))
        throw LayoutError("tma claim '" + claim + "': box mode " + std::to_string(i) + " must be an integer in [1, " +
                          std::to_string(product(mode)) + "] (the size of the layout's mode " + std::to_string(i) + ")");
    }
  }
  const i64 n = t.box ? product(*t.box) : size(l.layout);
  if (n > kTmaDomainLimit)
    throw LayoutError("tma claim '" + claim + "': its domain has " + std::to_string(n) + " elements, more than 2^22 (a TMA box and an smem tile of 227 KiB hold fewer)");
}

Verdict decide_tma(const AnyLayout& l, int element_bits, const TmaClaim& t, const std::string& text) {
  const auto t0 = std::chrono::steady_clock::now();
  Verdict v;
  try {
    v = check_tma(l, element_bits, t, text);
  } catch (const std::exception& e) {
    v = Verdict::error("", e.what());
  }
  if (v.time_ms == 0) v.time_ms = elapsed_ms(t0);
  return v;
}

Verdict decide_tensor_map_valid(const hopper::TensorMap& m) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string method = "cuTensorMapEncodeTiled's rules (CUDA driver API), over exactly this map";
  const std::vector<hopper::TensorMapViolation> bad = hopper::tensor_map_violations(m);
  Verdict v;
  if (bad.empty()) {
    v = Verdict::proved(method, "rank " + std::to_string(m.rank()) + ", every dimension, stride, box extent and element stride in range; box[0] x " +
                                    std::to_string(m.elem_bytes) + " bytes = " + std::to_string(m.box[0] * static_cast<std::uint64_t>(m.elem_bytes)) +
                                    (m.swizzle == hopper::TmaSwizzle::none
                                         ? " a multiple of 16 (no swizzle)"
                                         : " within the " + hopper::to_string(m.swizzle) + " swizzle's span of " +
                                               std::to_string(hopper::swizzle_span_bytes(m.swizzle)) + " bytes"));
  } else {
    Witness w;
    for (const hopper::TensorMapViolation& b : bad)
      w.points.push_back({b.field, -1, b.rule + (b.fix.empty() ? "" : " (fix: " + b.fix + ")"), 0, ""});
    w.why = std::to_string(bad.size()) + " rule(s) of cuTensorMapEncodeTiled broken: the driver refuses the map (CUDA_ERROR_INVALID_VALUE)";
    v = Verdict::refuted(method, std::move(w));
  }
  v.time_ms = elapsed_ms(t0);
  return v;
}

namespace {

std::string hex_text(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// The binding whose parameter is `slot` (+offset) of the kernel: by index or by name.
const hopper::TensorMap* bound_map(const compiled::Function& f, std::size_t slot, i64 offset, const std::vector<TensorMapBinding>& maps) {
  for (const TensorMapBinding& b : maps)
    if (binds_kernel(b, f) && binds_param(b, f, slot) && b.offset == offset) return &b.map;
  return nullptr;
}

// The element bytes and the B operand's rows of a wgmma mnemonic: ".m64n64k16.f32.bf16.bf16".
std::pair<int, int> wgmma_shape(const std::string& mn) {
  int e = 2, n = 0;
  const auto at = mn.find(".m64n");
  if (at != std::string::npos) n = std::atoi(mn.c_str() + at + 5);
  if (mn.find(".e4m3") != std::string::npos || mn.find(".e5m2") != std::string::npos || mn.find(".s8") != std::string::npos ||
      mn.find(".u8") != std::string::npos)
    e = 1;
  else if (mn.find(".tf32") != std::string::npos)
    e = 4;
  return {e, n};
}

struct Tile {  // a TMA load's box in shared memory, and which element each byte starts
  std::uint64_t dst = 0, bytes = 0;
  const hopper::TensorMap* map = nullptr;
  i64 writes = 0;  // the copies of the run that wrote it
  std::vector<std::size_t> copies;  // their indices in KernelRun::async_ops
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> at;  // byte -> (row, col)
};

// The tile a descriptor starting at `start` reads (the last of the run's tiles holding that byte),
// or none.
const Tile* tile_at(const std::vector<Tile>& tiles, std::uint64_t start) {
  const Tile* t = nullptr;
  for (const Tile& x : tiles)
    if (start >= x.dst && start < x.dst + x.bytes) t = &x;
  return t;
}


// Which copy's box a WGMMA of warp w (async_ops[at]) reads in tile t: the one copy when one wrote
// it; else the copy into t of the batch its warp's latest wait before it completed on their
// mbarrier. A wait is the warp's i-th on that barrier, so it waits for phase i (its parity must
// be i & 1); phase i completes with the copies its producer issued after the i-th expect_tx on
// the barrier and before the next. Where that chain is not there (a parity that is not the
// phase's, expect_txs from several threads, no copy into t in the batch or several) the copy is
// not known: `why`. Warp w's own operations are in program order: a copy into t that w itself
// issued after the one its wait completed (or with no wait at all) is still landing when it
// reads: `race`, a violation.
struct CopyRead {
  std::optional<std::size_t> copy;
  bool race = false;
  std::string why;
};
CopyRead copy_read(const compiled::KernelRun& run, std::size_t at, const Tile& t) {
  using compiled::AsyncOp;
  const std::vector<AsyncOp>& ops = run.async_ops;
  const i64 w = ops[at].warp;
  std::optional<std::size_t> own;  // the latest copy into t that w issued before the read
  for (const std::size_t c : t.copies)
    if (c < at && ops[c].warp == w) own = c;
  // The phase of its barrier that copy c completes: after the i-th expect_tx there, before the next.
  const auto phase_of = [&](std::size_t c) -> std::optional<std::size_t> {
    std::size_t i = 0;
    bool any = false;
    for (std::size_t j = 0; j < c; ++j)
      if (ops[j].kind == AsyncOp::Kind::expect_tx && ops[j].barrier == ops[c].barrier) i += any, any = true;
    return any ? std::optional<std::size_t>(i) : std::nullopt;
  };
  // Whether warp w waits for that phase after the read: the kernel has w wait for the copy itself,
  // so a read before that wait has nothing that orders it after the copy (another warp's wait and
  // a CTA barrier could order it where w never waits: not judged).
  const auto waits_later = [&](std::size_t c) {
    const std::optional<std::size_t> ph = phase_of(c);
    if (!ph || !ops[c].barrier) return false;
    std::size_t i = 0;
    for (std::size_t j = 0; j < ops.size(); ++j) {
      if (ops[j].kind != AsyncOp::Kind::wait || ops[j].warp != w || ops[j].barrier != ops[c].barrier) continue;
      if (i++ == *ph) return j > at;
    }
    return false;
  };
  const auto raced = [&](std::optional<std::size_t> seen) -> std::optional<CopyRead> {
    if (!own || (seen && *own <= *seen) || !waits_later(*own)) return std::nullopt;
    const AsyncOp& c = ops[*own];
    std::string k = c.coords.empty() || !c.coords[0] ? "" : " (k " + std::to_string(*c.coords[0]) + ")";
    return CopyRead{std::nullopt, true,
                    "its tile at " + hex_text(t.dst) + " is being refilled: its own warp issued the copy at line " + std::to_string(c.line) + k +
                        " into it before this read" +
                        (seen ? ", after the copy its last wait completed" : ", and has not waited on its barrier yet") +
                        "; the warp waits for that copy only later: it reads bytes TMA may still be writing"};
  };
  if (t.copies.size() == 1) {  // read after its warp's wait for the copy's phase, if it waits at all
    const std::size_t c = t.copies.front();
    if (auto r = raced(std::nullopt); r) return *r;
    return CopyRead{c, false, ""};
  }
  const auto signals = [&](const AsyncOp& x) {
    return x.barrier && std::any_of(t.copies.begin(), t.copies.end(), [&](std::size_t c) { return ops[c].barrier == x.barrier; });
  };
  std::optional<std::size_t> wait;
  for (std::size_t j = at; j-- > 0;)
    if (ops[j].kind == AsyncOp::Kind::wait && ops[j].warp == w && signals(ops[j])) {
      wait = j;
      break;
    }
  const std::string tile = "its tile at " + hex_text(t.dst) + " is written " + std::to_string(t.copies.size()) + " times (stages, a k-loop)";
  const auto unknown = [](std::string why) { return CopyRead{std::nullopt, false, std::move(why)}; };
  if (!wait) {
    if (auto r = raced(std::nullopt); r) return *r;
    return unknown(tile + ", and no mbarrier wait of its warp on their barrier comes before it");
  }
  const std::uint64_t bar = *ops[*wait].barrier;
  std::size_t phase = 0;
  for (std::size_t j = 0; j < *wait; ++j) phase += ops[j].kind == AsyncOp::Kind::wait && ops[j].warp == w && ops[j].barrier == bar;
  if (!ops[*wait].parity || *ops[*wait].parity != (phase & 1))
    return unknown(tile + "; its warp's wait on mbarrier " + hex_text(bar) + " is the warp's wait " + std::to_string(phase) + " there, for parity " +
                   (ops[*wait].parity ? std::to_string(*ops[*wait].parity) : std::string("not known")) + ", not phase " + std::to_string(phase) +
                   "'s: which phase it waits for is not known");
  std::vector<std::size_t> expects;
  for (std::size_t j = 0; j < ops.size(); ++j)
    if (ops[j].kind == AsyncOp::Kind::expect_tx && ops[j].barrier == bar) expects.push_back(j);
  if (expects.empty() || std::any_of(expects.begin(), expects.end(), [&](std::size_t j) { return ops[j].warp != ops[expects[0]].warp || ops[j].lane != ops[expects[0]].lane; }))
    return unknown(tile + "; the expect_tx arrivals on mbarrier " + hex_text(bar) + (expects.empty() ? " are not known" : " come from several threads") +
                   ": its phases' copies are not known");
  if (phase >= expects.size())
    return unknown(tile + "; the wait is for phase " + std::to_string(phase) + " of mbarrier " + hex_text(bar) + ", which has " +
                   std::to_string(expects.size()) + " expect_tx arrival(s): no copy completes it");
  const std::size_t from = expects[phase], to = phase + 1 < expects.size() ? expects[phase + 1] : ops.size();
  std::optional<std::size_t> got;
  for (const std::size_t c : t.copies)
    if (c > from && c < to && ops[c].barrier == bar && ops[c].warp == ops[from].warp && ops[c].lane == ops[from].lane) {
      if (got) return unknown(tile + "; phase " + std::to_string(phase) + " of mbarrier " + hex_text(bar) + " brings two copies into it");
      got = c;
    }
  if (!got) {
    if (auto r = raced(std::nullopt); r) return *r;
    return unknown(tile + "; phase " + std::to_string(phase) + " of mbarrier " + hex_text(bar) + ", which its warp waited for, brings no copy into it");
  }
  if (auto r = raced(got); r) return *r;
  return CopyRead{got, false, ""};
}

// One accumulator (per warp: its D registers, since scale-d last started it) sums each k-block of
// the problem once, for one block of rows of A and of B: walked over every WGMMA of the run in
// order, each read's k-block and rows from its descriptors' starts in their tiles (a k-block of 32
// bytes in the swizzle row, a row per span) and the copies that filled them (copy_read). The
// violation, where it is found at a WGMMA of instruction `pc` (its own claim reports it); reads
// whose copies or scale-d are not known leave their accumulator out.
std::optional<Witness> accumulation_violation(const compiled::KernelRun& run, const std::vector<Tile>& tiles, std::uint32_t pc, std::uint64_t per_block) {
  using compiled::AsyncOp;
  struct Sum {
    bool known = true;
    std::optional<std::pair<i64, i64>> rows;  // A's first row, B's first row
    std::map<i64, std::size_t> blocks;        // k-block -> the WGMMA that summed it
  };
  std::map<std::pair<i64, std::string>, Sum> sums;
  for (std::size_t at = 0; at < run.async_ops.size(); ++at) {
    const AsyncOp& a = run.async_ops[at];
    if (a.kind != AsyncOp::Kind::wgmma) continue;
    Sum& sum = sums[{a.warp, a.accumulator}];
    if (a.scale_d && !*a.scale_d) sum = Sum{};
    if (!a.scale_d || !a.desc_a || !a.desc_b) sum.known = false;
    if (!sum.known) continue;
    std::optional<std::pair<i64, i64>> read[2];  // (row, k-block) of the problem
    for (int side = 0; side < 2; ++side) {
      const hopper::GmmaDescriptor d = hopper::decode_gmma_descriptor(side == 0 ? *a.desc_a : *a.desc_b);
      const Tile* t = tile_at(tiles, d.start);
      const std::uint64_t span = t ? static_cast<std::uint64_t>(hopper::swizzle_span_bytes(t->map->swizzle)) : 0;
      if (span == 0) continue;
      const CopyRead r = copy_read(run, at, *t);
      const std::vector<std::optional<i64>>& xy = r.copy ? run.async_ops[*r.copy].coords : std::vector<std::optional<i64>>{};
      if (xy.size() < 2 || !xy[0] || !xy[1] || *xy[0] % static_cast<i64>(per_block) != 0) continue;
      const std::uint64_t into = d.start - t->dst;
      read[side] = {*xy[1] + static_cast<i64>(into / span), *xy[0] / static_cast<i64>(per_block) + static_cast<i64>(into % span / 32)};
    }
    if (!read[0] || !read[1] || read[0]->second != read[1]->second) {  // the pairing is the read's own claim
      sum.known = false;
      continue;
    }
    const auto where = "warp " + std::to_string(a.warp) + ", execution " + std::to_string(a.execution);
    const std::pair<i64, i64> rows{read[0]->first, read[1]->first};
    const i64 k = read[0]->second;
    Witness w;
    if (sum.rows && *sum.rows != rows) {
      w.points.push_back({"A row", -1, where, rows.first, "index"});
      w.points.push_back({"B row", -1, where, rows.second, "index"});
      w.why = where + ": its accumulator " + a.accumulator + "} sums rows " + std::to_string(rows.first) + ".. of A and " + std::to_string(rows.second) +
              ".. of B here, rows " + std::to_string(sum.rows->first) + ".. and " + std::to_string(sum.rows->second) + ".. before (the copies' row coordinates)";
    } else if (const auto twice = sum.blocks.find(k); twice != sum.blocks.end()) {
      const AsyncOp& b = run.async_ops[twice->second];
      w.points.push_back({"k-block", -1, where, k, "index"});
      w.why = where + ": its accumulator sums k-block " + std::to_string(k) + " of the problem (k " + std::to_string(k * static_cast<i64>(per_block)) + ".." +
              std::to_string((k + 1) * static_cast<i64>(per_block) - 1) + ") a second time (first by the wgmma at line " + std::to_string(b.line) + ", execution " +
              std::to_string(b.execution) + "): a stage or a k-block read twice";
    }
    if (!w.why.empty()) {
      if (a.pc == pc) return w;
      continue;  // reported on its own instruction
    }
    sum.rows = rows;
    sum.blocks[k] = at;
  }
  return std::nullopt;
}

Tile tile_of(std::uint64_t dst, const hopper::TensorMap& m) {
  Tile t;
  t.dst = dst, t.map = &m;
  const std::uint64_t rows = m.rank() >= 2 ? m.box[1] : 1;
  t.bytes = rows * m.box[0] * static_cast<std::uint64_t>(m.elem_bytes);
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < m.box[0]; ++c) t.at[hopper::tma_box_byte(m, dst, r, c)] = {r, c};
  return t;
}

// What a CUTLASS-built descriptor for this tile's k-block j would hold: the fields to compare.
std::string fields_text(const hopper::GmmaDescriptor& d, const hopper::TensorMap& m, std::uint64_t dst) {
  const int want_type = hopper::layout_type_of(m.swizzle);
  const int span = hopper::swizzle_span_bytes(m.swizzle);
  std::string diff;
  if (d.layout_type != want_type)
    diff += "; descriptor layout type " + std::to_string(d.layout_type) + " (" + hopper::to_string(hopper::swizzle_of_layout_type(d.layout_type)) +
            "), tensor map swizzle " + hopper::to_string(m.swizzle) + " (layout type " + std::to_string(want_type) + ")";
  if (span > 0 && d.sbo != static_cast<std::uint32_t>(8 * span))
    diff += "; SBO " + std::to_string(d.sbo) + " bytes (field " + std::to_string(d.sbo >> 4) + "), 8 rows of the " + hopper::to_string(m.swizzle) +
            " span are " + std::to_string(8 * span) + " (field " + std::to_string(8 * span / 16) + ")";
  const int bits = hopper::swizzle_bits(m.swizzle);
  if (bits > 0 && d.base_offset % (1 << bits) != 0)
    diff += "; base offset " + std::to_string(d.base_offset) + ", TMA swizzled the absolute address: it must be 0 mod " + std::to_string(1 << bits);
  if (span > 0 && d.start >= dst && (d.start - dst) % 32 != 0)
    diff += "; the start is " + std::to_string(d.start - dst) + " bytes into the tile, not a whole 32-byte k-block";
  if (span > 0 && d.start >= dst && (d.start - dst) >= static_cast<std::uint64_t>(span))
    diff += "; the start is " + std::to_string(d.start - dst) + " bytes into the tile, past the first swizzle row (" + std::to_string(span) +
            " bytes): a K-advance that leaves the swizzle atom";
  return diff;
}

}  // namespace

TensorMapBinding bind_tensor_map(const std::string& param, hopper::TensorMap map, std::string kernel) {
  TensorMapBinding b{param, std::move(map), std::move(kernel), std::nullopt, param, 0};
  const std::size_t plus = param.find('+');
  const std::string p = param.substr(0, plus);
  const auto number = [&](const std::string& t, int base) -> std::optional<std::uint64_t> {
    std::uint64_t v = 0;
    const char* e = t.data() + t.size();
    const auto r = std::from_chars(t.data() + (base == 16 ? 2 : 0), e, v, base);
    return t.empty() || r.ec != std::errc() || r.ptr != e ? std::nullopt : std::optional<std::uint64_t>(v);
  };
  if (p.empty()) throw LayoutError("--tensor-map " + param + ": the parameter (an index or a name) is missing before '+' or '='");
  if (std::isdigit(static_cast<unsigned char>(p[0]))) {
    const auto i = number(p, 10);
    if (!i) throw LayoutError("--tensor-map " + param + ": '" + p + "' is not a parameter index");
    b.index = static_cast<std::size_t>(*i), b.name.clear();
  } else {
    b.name = p;
  }
  if (plus != std::string::npos) {
    const std::string o = param.substr(plus + 1);
    const bool hexadecimal = o.size() > 2 && o[0] == '0' && (o[1] == 'x' || o[1] == 'X');
    const auto v = number(o, hexadecimal ? 16 : 10);
    if (!v || *v >= (std::uint64_t{1} << 20)) throw LayoutError("--tensor-map " + param + ": '+" + o + "' is not a byte offset inside a parameter");
    b.offset = static_cast<i64>(*v);
  }
  return b;
}

bool binds_kernel(const TensorMapBinding& b, const compiled::Function& f) {
  return b.kernel.empty() || f.name.find(b.kernel) != std::string::npos || compiled::demangle(f.name).find(b.kernel) != std::string::npos;
}

bool binds_param(const TensorMapBinding& b, const compiled::Function& f, std::size_t slot) {
  return b.index ? *b.index == slot : slot < f.params.size() && f.params[slot].name == b.name;
}

std::optional<Verdict> decide_async_claim(const compiled::Program& p, const compiled::KernelRun& run, const compiled::NotCounted& row,
                                          AsyncClaim claim, const std::vector<TensorMapBinding>& maps) {
  using compiled::AsyncOp;
  const auto t0 = std::chrono::steady_clock::now();
  const compiled::Function& kf = p.functions[run.entry];
  const bool is_copy = row.text.find("cp.async.bulk.tensor") != std::string::npos, is_mma = row.text.find("wgmma.mma_async") != std::string::npos;
  if (claim == AsyncClaim::tensor_map_valid ? !is_copy : (!is_mma && !(is_copy && claim == AsyncClaim::tma_aligned))) return std::nullopt;
  const std::string method =
      claim == AsyncClaim::tensor_map_valid ? "cuTensorMapEncodeTiled's rules on each copy's bound map, and each mbarrier's expect_tx against the boxes that signal it"
      : is_copy ? "every execution's destination (the H200's TMA alignment, docs/hopper.md)"
      : claim == AsyncClaim::operand_contract
          ? "enumeration over every element of each operand's k-block, every execution (model/hopper/gmma.hpp, measured on the H200)"
      : claim == AsyncClaim::tma_aligned ? "every execution's descriptors against the swizzle TMA wrote (model/hopper/gmma.hpp, measured on the H200)"
                                         : "every execution's descriptor fields against the tile TMA wrote (model/hopper/gmma.hpp, measured on the H200)";
  std::vector<const AsyncOp*> ops;
  for (const AsyncOp& a : run.async_ops)
    if (a.function == row.function && a.pc == row.pc) ops.push_back(&a);
  const auto finish = [&](Verdict v) {
    v.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return v;
  };
  if (ops.empty()) return finish(Verdict::unknown("not run", "NOT RUN: no lane of this launch executes the instruction"));
  const auto map_of = [&](const AsyncOp& a, std::string& why) -> const hopper::TensorMap* {
    if (!a.map_param) return why = "its tensor map is not known (" + a.map_why + ")", nullptr;
    const hopper::TensorMap* m = bound_map(kf, a.map_param->first, a.map_param->second, maps);
    if (!m)
      why = "no --tensor-map for parameter " + std::to_string(a.map_param->first) +
            (a.map_param->second ? "+" + std::to_string(a.map_param->second) : "") + " (the copy's tensor map): give the map the host encodes";
    return m;
  };
  const auto where = [](const AsyncOp& a) { return "warp " + std::to_string(a.warp) + " lane " + std::to_string(a.lane) + ", execution " + std::to_string(a.execution); };
  const auto refute = [&](std::string role, std::string coord, std::uint64_t byte, std::string why) {
    Witness w;
    w.points.push_back({std::move(role), -1, std::move(coord), static_cast<i64>(byte), "byte"});
    w.why = std::move(why);
    return finish(Verdict::refuted(method, std::move(w)));
  };
  if (claim == AsyncClaim::tensor_map_valid) {
    i64 n = 0;
    for (std::size_t i = 0; i < run.async_ops.size(); ++i) {
      const AsyncOp& a = run.async_ops[i];
      if (a.function != row.function || a.pc != row.pc) continue;
      std::string why;
      const hopper::TensorMap* m = map_of(a, why);
      if (!m) return finish(Verdict::unknown(method, where(a) + ": " + why));
      Verdict v = decide_tensor_map_valid(*m);
      if (v.is_refuted()) {
        v.method = method;
        v.witness.why = where(a) + ": the copy's tensor map: " + v.witness.why;
        return finish(std::move(v));
      }
      if (a.kind != AsyncOp::Kind::tma_load) continue;
      if (a.multicast) return finish(Verdict::unknown(method, where(a) + ": a multicast copy signals other CTAs' barriers too: its expect_tx is not seen from one CTA"));
      if (!a.barrier) return finish(Verdict::unknown(method, where(a) + ": its mbarrier's address is not known"));
      // The latest expect_tx of this lane on this barrier before the copy, and the copies of this
      // lane on it until the next: their boxes' bytes must be what it expects.
      std::optional<std::size_t> from;
      for (std::size_t j = i; j-- > 0;) {
        const AsyncOp& x = run.async_ops[j];
        if (x.warp == a.warp && x.lane == a.lane && x.kind == AsyncOp::Kind::expect_tx && x.barrier == a.barrier) {
          from = j;
          break;
        }
      }
      if (!from || !run.async_ops[*from].tx)
        return finish(Verdict::unknown(method, where(a) + ": no expect_tx of its own thread on its mbarrier " + hex_text(*a.barrier) + " is known (another thread's, or a value not known)"));
      std::uint64_t sum = 0;
      for (std::size_t j = *from + 1; j < run.async_ops.size(); ++j) {
        const AsyncOp& x = run.async_ops[j];
        if (x.warp != a.warp || x.lane != a.lane || x.barrier != a.barrier) continue;
        if (x.kind == AsyncOp::Kind::expect_tx) break;
        if (x.kind != AsyncOp::Kind::tma_load) continue;
        const hopper::TensorMap* xm = map_of(x, why);
        if (!xm) return finish(Verdict::unknown(method, where(x) + ": " + why));
        if (std::any_of(xm->elem_strides.begin(), xm->elem_strides.end(), [](std::uint64_t e) { return e != 1; }))
          return finish(Verdict::unknown(method, where(x) + ": a box with element strides: its bytes are not modelled"));
        std::uint64_t bytes = static_cast<std::uint64_t>(xm->elem_bytes);
        for (const std::uint64_t b : xm->box) bytes *= b;
        sum += bytes;
      }
      if (sum != *run.async_ops[*from].tx) {
        Witness w;
        w.points.push_back({"mbarrier", -1, where(a), static_cast<i64>(*a.barrier), "byte"});
        w.why = where(a) + ": the expect_tx before this copy expects " + std::to_string(*run.async_ops[*from].tx) + " bytes on mbarrier " +
                hex_text(*a.barrier) + ", the boxes that signal it bring " + std::to_string(sum) +
                (sum < *run.async_ops[*from].tx ? ": the wait never completes (a hang)" : ": the phase completes before the tiles have landed");
        return finish(Verdict::refuted(method, std::move(w)));
      }
      ++n;
    }
    return finish(Verdict::proved(method, "every one of the " + std::to_string(n) +
                                              " copies: its tensor map meets cuTensorMapEncodeTiled's rules, and the expect_tx before it equals the bytes of the boxes that signal its mbarrier"));
  }
  if (is_copy) {
    i64 n = 0;
    for (const AsyncOp* a : ops) {
      std::string why;
      if (!a->smem) return finish(Verdict::unknown(method, where(*a) + ": the destination is not known (" + a->smem_why + ")"));
      const hopper::TensorMap* m = map_of(*a, why);
      if (!m) return finish(Verdict::unknown(method, where(*a) + ": " + why));
      const std::uint64_t align = m->swizzle == hopper::TmaSwizzle::none ? 16 : 128;
      if (*a->smem % align != 0)
        return refute("TMA destination", where(*a), *a->smem,
                      "the destination " + hex_text(*a->smem) + " is " + std::to_string(*a->smem % align) + " bytes past a " + std::to_string(align) +
                          "-byte boundary: the copy faults (measured on the H200: cudaErrorMisalignedAddress at 16, 32, 64 past; 128, 256, 512, 768 work)");
      ++n;
    }
    return finish(Verdict::proved(method, "every one of the " + std::to_string(n) + " copies' destinations is 128-byte aligned (16 unswizzled)"));
  }
  // A WGMMA: each operand's descriptor against the tile a TMA load of the run wrote where it starts.
  std::vector<Tile> tiles;
  for (std::size_t i = 0; i < run.async_ops.size(); ++i) {
    const AsyncOp& a = run.async_ops[i];
    if (a.kind != AsyncOp::Kind::tma_load || !a.smem) continue;
    std::string why;
    const hopper::TensorMap* m = map_of(a, why);
    if (!m || m->rank() > 2) continue;
    auto same = std::find_if(tiles.begin(), tiles.end(), [&](const Tile& t) { return t.dst == *a.smem && t.map == m; });
    if (same == tiles.end()) tiles.push_back(tile_of(*a.smem, *m)), same = tiles.end() - 1;
    ++same->writes;
    same->copies.push_back(i);
  }
  i64 smem_hi = 0;
  for (const compiled::Placement& pl : run.placements) smem_hi = std::max(smem_hi, pl.base + std::max<i64>(pl.bytes, 0));
  const auto [e, n_rows] = wgmma_shape(ops.front()->mnemonic);
  // Measured: K-major operands of 1- and 2-byte elements (docs/hopper.md). tf32 and transposed
  // (MN-major) operands read other canonical layouts, which are not modelled.
  if (e != 1 && e != 2)
    return finish(Verdict::unknown(method, "a wgmma of " + std::to_string(e) + "-byte elements (tf32): its operands' layouts are not measured"));
  if (std::any_of(ops.begin(), ops.end(), [](const AsyncOp* a) { return a->transposed; }))
    return finish(Verdict::unknown(method, "a transposed (MN-major) wgmma operand: its canonical layout is not modelled (K-major only, as measured)"));
  const std::uint64_t per_block = 32 / static_cast<std::uint64_t>(e);
  // Each operand read's global origin: the (row, k) of the problem at the tile's element (0, 0),
  // as the copy that filled it says (its coordinates: k innermost), where the copy is known.
  const auto origin_of = [&](std::size_t at, const Tile& t, std::string& why, bool& race) -> std::optional<std::pair<i64, i64>> {
    CopyRead r = copy_read(run, at, t);
    race = r.race, why = std::move(r.why);
    if (!r.copy) return std::nullopt;
    const std::vector<std::optional<i64>>& xy = run.async_ops[*r.copy].coords;
    if (xy.empty() || !xy[0] || (xy.size() > 1 && !xy[1])) return why = "the coordinates of the copy that filled its tile are not known", std::nullopt;
    return std::make_pair(xy.size() > 1 ? *xy[1] : i64{0}, *xy[0]);
  };
  // The reads already checked: the same descriptors on the same copies.
  std::set<std::tuple<std::uint64_t, std::uint64_t, i64, i64, i64, i64>> seen;
  i64 checked = 0, matched = 0;
  std::string undecided;  // the first read whose k-tile is not known
  for (const AsyncOp* a : ops) {
    if (!a->desc_b) return finish(Verdict::unknown(method, where(*a) + ": the B descriptor is not known (" + a->desc_why + ")"));
    if (!a->desc_a && !a->desc_why.empty()) return finish(Verdict::unknown(method, where(*a) + ": the A descriptor is not known (" + a->desc_why + ")"));
    const std::size_t at = static_cast<std::size_t>(a - run.async_ops.data());
    std::optional<std::pair<i64, i64>> origin[2];
    std::string origin_why[2];
    bool raced[2] = {false, false};
    for (int side = 0; side < 2 && claim == AsyncClaim::operand_contract; ++side) {  // which copies the read sees
      const std::optional<std::uint64_t>& bits = side == 0 ? a->desc_a : a->desc_b;
      const Tile* x = bits ? tile_at(tiles, hopper::decode_gmma_descriptor(*bits).start) : nullptr;
      if (!x) continue;
      origin[side] = origin_of(at, *x, origin_why[side], raced[side]);
      // A race is not a violation that replays: what the read sees depends on when the copy
      // lands (measured: such a pipeline right at K = 128, wrong at K = 256), so the claim is
      // not decided by it, and says so.
      if (raced[side] && undecided.empty())
        undecided = where(*a) + ": operand " + (side == 0 ? "A" : "B") + ": a race: " + origin_why[side] +
                    " (what it reads depends on when the copy lands)";
    }
    const auto key = std::make_tuple(a->desc_a.value_or(0), *a->desc_b, origin[0] ? origin[0]->first : -1, origin[0] ? origin[0]->second : -1,
                                     origin[1] ? origin[1]->first : -1, origin[1] ? origin[1]->second : -1);
    const bool again = !seen.insert(key).second;
    if (again && claim != AsyncClaim::operand_contract) continue;
    std::optional<std::uint64_t> block[2];
    bool skip = false;
    for (int side = 0; side < 2; ++side) {
      const std::optional<std::uint64_t>& bits = side == 0 ? a->desc_a : a->desc_b;
      if (!bits) continue;  // A from registers
      const std::string name = side == 0 ? "A" : "B";
      const hopper::GmmaDescriptor d = hopper::decode_gmma_descriptor(*bits);
      const Tile* t = tile_at(tiles, d.start);
      if (!t) {  // not decided here; a later execution may still refute the claim
        if (undecided.empty())
          undecided = where(*a) + ": operand " + name + "'s descriptor starts at " + hex_text(d.start) +
                      ", in no tile a TMA load of this run wrote with a bound tensor map (give --tensor-map for its copy)";
        skip = true;
        break;
      }
      // The bytes agree with a tile; which k-tile of the problem the tile holds is the copy's
      // coordinates: where one tensor map fills several tiles (stages) or a tile is written more
      // than once (a k-loop), a descriptor on the wrong stage would agree byte for byte with
      // stale data, so the contract needs the copy each read sees (copy_read) and its origin.
      // Not decided here; a later execution may still refute the claim, so the run goes on.
      if (claim == AsyncClaim::operand_contract && !origin[side] &&
          (raced[side] || t->writes > 1 || std::count_if(tiles.begin(), tiles.end(), [&](const Tile& x) { return x.map == t->map; }) > 1)) {
        if (undecided.empty()) undecided = where(*a) + ": operand " + name + ": " + origin_why[side] + ": which k-tile of the problem this wgmma reads is not known";
        skip = true;
        break;
      }
      if (claim == AsyncClaim::operand_contract && again) {
        ++checked;
        continue;
      }
      const std::string operand = "operand " + name;
      // The descriptor that agrees, for the k-block this one's start is nearest: its fields and bits.
      hopper::GmmaDescriptor good;
      const std::uint64_t sp = static_cast<std::uint64_t>(std::max(16, hopper::swizzle_span_bytes(t->map->swizzle)));
      good.start = static_cast<std::uint32_t>(t->dst + std::min<std::uint64_t>((d.start - t->dst) % sp, sp - 1) / 32 * 32);
      good.lbo = 16, good.sbo = static_cast<std::uint32_t>(8 * sp), good.base_offset = 0, good.layout_type = hopper::layout_type_of(t->map->swizzle);
      const std::string fix = ". It agrees with " + hopper::gmma_atom_name(t->map->swizzle) + " (make_gmma_desc): layout type " +
                              std::to_string(good.layout_type) + ", SBO " + std::to_string(good.sbo) +
                              " bytes, base offset 0, start = the tile + 32 bytes per k-block (here: descriptor " +
                              hex_text(hopper::encode_gmma_descriptor(good)) + ", start " + hex_text(good.start) + ")";
      const int bits_b = hopper::swizzle_bits(t->map->swizzle);
      const std::uint64_t span = static_cast<std::uint64_t>(hopper::swizzle_span_bytes(t->map->swizzle));
      const std::uint64_t rows = side == 0 ? 64 : static_cast<std::uint64_t>(n_rows);
      if (claim == AsyncClaim::tma_aligned) {  // the base offset against where TMA put the pattern
        if (bits_b > 0 && d.base_offset % (1 << bits_b) != 0)
          return refute(operand + " descriptor", where(*a), d.start,
                        where(*a) + ": " + operand + "'s base offset is " + std::to_string(d.base_offset) + "; TMA swizzled the absolute address, so it must be 0 mod " +
                            std::to_string(1 << bits_b) + " (measured: the PTX ISA's (start >> 7) & 7 is wrong for TMA-written tiles)" + fix);
        ++checked;
        continue;
      }
      if (claim == AsyncClaim::descriptor_valid) {
        std::string bad;
        const std::uint64_t into = d.start - t->dst, atom = 8 * span;
        if (d.layout_type != hopper::layout_type_of(t->map->swizzle))
          bad = "its layout type " + std::to_string(d.layout_type) + " (" + hopper::to_string(hopper::swizzle_of_layout_type(d.layout_type)) +
                ") is not the buffer's swizzle " + hopper::to_string(t->map->swizzle) + " (layout type " + std::to_string(hopper::layout_type_of(t->map->swizzle)) + ")";
        else if (span > 0 && d.sbo == 16 * atom)
          bad = "SBO is " + std::to_string(d.sbo) + " bytes: the field holds " + std::to_string(d.sbo >> 4) + ", the 8-row stride in bytes (" +
                std::to_string(atom) + ") instead of 16-byte units (" + std::to_string(atom / 16) + ")";
        else if (span > 0 && d.sbo != atom)
          bad = "SBO is " + std::to_string(d.sbo) + " bytes; 8 rows of the " + hopper::to_string(t->map->swizzle) + " tile are " + std::to_string(atom);
        else if (span > 0 && (into % (rows * span)) % 32 != 0)
          bad = "its start is " + std::to_string(into) + " bytes into the tile, not a whole 32-byte k-block";
        else if (span > 0 && (into % (rows * span)) >= span)
          bad = "its start is " + std::to_string(into) + " bytes into the tile: a K-advance that leaves the " + std::to_string(span) + "-byte swizzle row";
        if (bad.empty())
          for (std::uint64_t m = 0; m < rows && bad.empty(); ++m)
            for (std::uint64_t k = 0; k < per_block && bad.empty(); ++k) {
              const std::uint64_t q = hopper::gmma_kmajor_byte(d, e, m, k);
              if (q < t->dst || q + static_cast<std::uint64_t>(e) > t->dst + t->bytes)
                bad = "row " + std::to_string(m) + " element " + std::to_string(k) + " reads byte " + hex_text(q) + ", outside the operand's tile [" +
                      hex_text(t->dst) + ", " + hex_text(t->dst + t->bytes) + ")" +
                      (q + static_cast<std::uint64_t>(e) > static_cast<std::uint64_t>(smem_hi) ? " and past the CTA's shared memory: it faults" : "");
            }
        if (!bad.empty()) return refute(operand + " descriptor", where(*a), d.start, where(*a) + ": " + operand + "'s descriptor: " + bad + fix);
        ++checked;
        continue;
      }
      if (t->map->elem_bytes != e)
        return refute(operand, where(*a), d.start,
                      "the tensor map's elements are " + std::to_string(t->map->elem_bytes) + " bytes (" + t->map->dtype + "), the wgmma's " + std::to_string(e));
      // The tile's row and k of the read's element (0, 0): a warpgroup's A may start 64 rows into
      // a taller tile (two consumer warpgroups on one 128-row tile), always on a group of 8 rows.
      std::optional<std::uint64_t> k0, r0;
      // A read past the CTA's shared memory faults whatever the other elements read: looked for first.
      std::optional<std::pair<std::uint64_t, std::uint64_t>> past;
      for (std::uint64_t m = 0; m < rows && !past; ++m)
        for (std::uint64_t k = 0; k < per_block && !past; ++k)
          if (hopper::gmma_kmajor_byte(d, e, m, k) + static_cast<std::uint64_t>(e) > static_cast<std::uint64_t>(smem_hi)) past = {m, k};
      for (std::uint64_t m = past ? past->first : 0; m < rows; ++m)
        for (std::uint64_t k = past ? past->second : 0; k < per_block; ++k) {
          const std::uint64_t q = hopper::gmma_kmajor_byte(d, e, m, k);
          const auto hit = t->at.find(q);
          std::string bad;
          if (q + static_cast<std::uint64_t>(e) > static_cast<std::uint64_t>(smem_hi))
            bad = "reads byte " + hex_text(q) + ", past the CTA's shared memory (" + std::to_string(smem_hi) + " bytes): it faults (measured: cudaErrorIllegalAddress)";
          else if (hit == t->at.end())
            bad = "reads byte " + hex_text(q) + ", which starts no element of the tile TMA wrote at " + hex_text(t->dst);
          else if ((r0 && hit->second.first != *r0 + m) || (!r0 && (hit->second.first < m || (hit->second.first - m) % 8 != 0)) ||
                   (k0 && hit->second.second != *k0 + k) || (!k0 && (hit->second.second < k || (hit->second.second - k) % per_block != 0)))
            bad = "reads byte " + hex_text(q) + ", where TMA wrote element (" + std::to_string(hit->second.first) + ", " + std::to_string(hit->second.second) + ")";
          if (!bad.empty())
            return refute(operand + " row m, element k", "(" + std::to_string(m) + ", " + std::to_string(k) + ")", q,
                          where(*a) + ": " + operand + ", row " + std::to_string(m) + " element " + std::to_string(k) + " of the k-block: " + bad +
                              fields_text(d, *t->map, t->dst) + fix);
          if (!k0) k0 = hit->second.second - k;
          if (!r0) r0 = hit->second.first - m;
        }
      block[side] = *k0 / per_block;
      ++checked;
    }
    if (claim != AsyncClaim::operand_contract || skip) continue;
    // A and B on the same k of the problem: the tiles' k-blocks, moved by their copies' origins.
    const auto global_block = [&](int side) -> std::optional<i64> {
      if (!block[side]) return std::nullopt;
      const i64 into = static_cast<i64>(*block[side]);
      if (!origin[side]) return into;
      if (origin[side]->second % static_cast<i64>(per_block) != 0) return std::nullopt;
      return origin[side]->second / static_cast<i64>(per_block) + into;
    };
    // A read checked before left its blocks unset (nothing new to pair).
    const std::optional<i64> ga = global_block(0), gb = global_block(1);
    const bool both_origins = origin[0].has_value() == origin[1].has_value();
    if (ga && gb && both_origins && *ga != *gb) {
      Witness w;
      w.points.push_back({"A k-block", -1, where(*a), *ga, "index"});
      w.points.push_back({"B k-block", -1, where(*a), *gb, "index"});
      w.why = where(*a) + ": A reads k-block " + std::to_string(*ga) + (origin[0] ? " of the problem" : " of its tile") + ", B k-block " + std::to_string(*gb) +
              ": the product pairs different k (" +
              (origin[0] ? "the copies that filled the two tiles are at k " + std::to_string(origin[0]->second) + " and " + std::to_string(origin[1]->second) +
                               ", or the K steps differ)"
                         : "a K step that is not the other operand's)");
      return finish(Verdict::refuted(method, std::move(w)));
    }
    if (origin[0] && origin[1]) ++matched;
  }
  if (claim == AsyncClaim::operand_contract)
    if (std::optional<Witness> w = accumulation_violation(run, tiles, row.pc, per_block); w) return finish(Verdict::refuted(method, std::move(*w)));
  if (!undecided.empty()) return finish(Verdict::unknown(method, undecided));
  if (claim == AsyncClaim::tma_aligned)
    return finish(Verdict::proved(method, "every one of " + std::to_string(checked) + " operand descriptor(s) has a base offset that agrees with the swizzle TMA wrote (0 mod 2^B)"));
  if (claim == AsyncClaim::descriptor_valid)
    return finish(Verdict::proved(method, "every one of " + std::to_string(checked) +
                                              " operand descriptor(s): the buffer's layout type, SBO in 16-byte units of 8 rows, a start on a k-block inside its "
                                              "swizzle row, every byte read inside its tile; LBO is ignored by the swizzled K-major layouts (measured: 0, 2, 64, "
                                              "16383 alike)"));
  return finish(Verdict::proved(method, "every element of " + std::to_string(checked) + " operand read(s) (" + std::to_string(seen.size()) +
                                            " distinct descriptor pair(s)) is read where TMA wrote it, A and B on the same k-block" +
                                            (matched == 0 ? std::string()
                                                          : " of the problem (" + std::to_string(matched) +
                                                                " read(s) through the copies their warp's mbarrier waits completed: each accumulator sums each k-block "
                                                                "once, for one block of rows; the kernel's own waits are taken as ordering the copies and the reads)")));
}

}  // namespace layoutproof::proofs
