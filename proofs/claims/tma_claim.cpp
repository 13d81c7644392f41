// The tma: claim (proofs/claims/tma_claim.hpp).
#include "proofs/claims/tma_claim.hpp"

#include <chrono>

#include "model/layout/notation.hpp"
#include "model/trace/smem_bases.hpp"

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

}  // namespace layoutproof::proofs
