// Kernel shared-memory layout synthesis (proofs/synth/kernel_synth.hpp): the family, the search on the
// copies' re-addressed traces, the ranking, and the proofs about the winner (or the witnesses).
#include "proofs/synth/kernel_synth.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <utility>

#include "model/atoms/atom_spelling.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/atoms/cutlass_atoms.hpp"
#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "proofs/claims/tma_claim.hpp"
#include "proofs/synth/kernel_synth_search.hpp"

namespace layoutproof::proofs {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }
std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

int exact_log2(i64 x) {
  int n = 0;
  while ((i64{1} << n) < x) ++n;
  return (i64{1} << n) == x ? n : -1;
}

// ---------------------------------------------------------------------------------------------
// The family and its C++.

std::vector<Swizzle> swizzles_within(int bits) {
  std::vector<Swizzle> v{Swizzle{0, 0, 0}};
  for (int b = 1; 2 * b <= bits; ++b)
    for (int m = 0; b + m + b <= bits; ++m)
      for (int s = b; b + m + s <= bits; ++s) v.push_back(Swizzle{b, m, s});
  return v;
}

void check_shape(const std::vector<i64>& shape) {
  if (shape.size() != 2 && shape.size() != 3) throw LayoutError("the tile shape is (MN,K) or (MN,K,stages)");
  i64 n = 1;
  for (i64 x : shape) {
    if (x < 1 || x > (i64{1} << 20)) throw LayoutError("tile extents must lie in [1, 2^20]");
    n = checked_mul(n, x);
  }
  if (n > (i64{1} << 22)) throw LayoutError("synth --kernel handles tiles of at most 2^22 elements (stages included)");
}

std::string int_t(i64 v) { return "_" + std::to_string(v); }

std::string shape_cpp(const std::vector<i64>& shape) {
  std::string s = "make_shape(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ",Int<" : "Int<") + std::to_string(shape[i]) + ">{}";
  return s + ")";
}

std::string static_layout(const std::vector<i64>& shape, const std::vector<i64>& stride) {
  std::string s = "Layout<Shape<", d = ">,Stride<";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    s += (i ? "," : "") + int_t(shape[i]);
    d += (i ? "," : "") + int_t(stride[i]);
  }
  return s + d + ">>";
}

// The atom's (or the padded stage's) shape and stride in (MN, K) order.
std::pair<std::vector<i64>, std::vector<i64>> atom_of(const SmemCandidate& c) {
  const i64 pitch = c.width + c.pad;
  if (c.major == Major::k) return {{c.rows, c.width}, {pitch, 1}};
  return {{c.width, c.rows}, {1, pitch}};
}

std::string atom_cpp(const SmemCandidate& c) {
  if (!c.cutlass_atom.empty()) return c.cutlass_atom;
  const auto [sh, st] = atom_of(c);
  const std::string plain = static_layout(sh, st);
  if (c.sw.B == 0) return plain;
  return "decltype(composition(Swizzle<" + std::to_string(c.sw.B) + "," + std::to_string(c.sw.M) + "," +
         std::to_string(c.sw.S) + ">{}, " + plain + "{}))";
}

// The padded staged layout, as CuTe's tile_to_shape of the padded atom computes it (complement
// of (E0,E1):strides truncates the non-dividing stride: the stage stride is E_o * (E_c + p)).
std::string padded_layout_cpp(const SmemCandidate& c, const std::vector<i64>& shape) {
  auto [sh, st] = atom_of(c);
  if (shape.size() == 3) {
    sh.push_back(shape[2]);
    st.push_back(checked_mul(c.rows, c.width + c.pad));
  }
  return static_layout(sh, st);
}

}  // namespace

const char* to_string(Major m) { return m == Major::k ? "K-major" : "MN-major"; }

std::vector<i64> parse_smem_shape(const std::string& text, const std::string& what) {
  const IntTuple t = parse_int_tuple(text);
  std::vector<i64> v;
  if (t.is_tuple())
    for (const auto& x : t.children())
      if (x.is_leaf()) v.push_back(x.value());
  if (!t.is_tuple() || v.size() != t.rank() || v.size() < 2 || v.size() > 3)
    throw LayoutError(what + " is (MN,K,STAGES) or (MN,K) of integers, not '" + text + "'");
  return v;
}

// The tile (all stages) must fit one thread block's shared memory: refused before any member is built.
void check_smem_bytes(const std::vector<i64>& shape, int e) {
  i64 n = e;
  for (i64 x : shape) n = checked_mul(n, x);
  if (n > kSmemBytes)
    throw LayoutError("the tile (" + [&] {
      std::string s;
      for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
      return s;
    }() + ") of " + std::to_string(e) + "-byte elements needs " + std::to_string(n) + " bytes, beyond the " +
                      std::to_string(kSmemBytes) + " bytes (227 KiB) of shared memory a thread block can address");
}

std::vector<SmemCandidate> smem_family(const std::vector<i64>& shape, int e) {
  check_shape(shape);
  check_smem_bytes(shape, e);
  if (e < 1) throw LayoutError("element bytes must be positive");
  std::vector<SmemCandidate> f;
  for (Major major : {Major::k, Major::mn}) {
    const i64 ec = major == Major::k ? shape[1] : shape[0], eo = major == Major::k ? shape[0] : shape[1];
    i64 w0 = 1;
    while (w0 * 2 <= ec) w0 *= 2;
    for (i64 w = w0; w >= 1 && w * e >= 16; w /= 2) {
      if (ec % w != 0) continue;
      for (i64 r = 1; r <= eo; r *= 2) {
        if (eo % r != 0) continue;
        const bool orders = ec / w > 1 && eo / r > 1;
        for (bool step : {false, true}) {
          if (step && !orders) continue;
          for (const Swizzle& sw : swizzles_within(exact_log2(r * w))) f.push_back({major, w, r, step, 0, sw, ""});
        }
      }
    }
  }
  for (Major major : {Major::k, Major::mn}) {
    const i64 ec = major == Major::k ? shape[1] : shape[0], eo = major == Major::k ? shape[0] : shape[1];
    for (i64 p = 1; p * e <= 64 && p < ec; p *= 2) f.push_back({major, ec, eo, false, p, Swizzle{0, 0, 0}, ""});
  }
  return f;
}

// A type of e bytes, spelled as CUTLASS kernels do, for members written without a given type.
static std::string type_of_width(int e) {
  switch (e) {
    case 1: return "uint8_t";
    case 2: return "half_t";
    case 4: return "float";
    case 8: return "double";
    default: throw LayoutError("no GMMA atom for " + std::to_string(e) + "-byte elements");
  }
}

std::vector<SmemCandidate> gmma_family(const std::vector<i64>& shape, int e, Major major, bool umma,
                                       const std::string& element) {
  check_shape(shape);
  check_smem_bytes(shape, e);
  const std::string type = element.empty() ? type_of_width(e) : element;
  const std::string prefix = major == Major::k ? "GMMA::Layout_K_" : "GMMA::Layout_MN_";
  const i64 ec = major == Major::k ? shape[1] : shape[0], eo = major == Major::k ? shape[0] : shape[1];
  std::vector<SmemCandidate> f;
  std::vector<std::string> names;
  for (const char* kind : {"INTER", "SW32", "SW64", "SW128"}) names.push_back(prefix + kind + "_Atom");
  if (umma && major == Major::mn) names.push_back("UMMA::Layout_MN_SW128_32B_Atom");  // SM100 only
  for (const std::string& name : names)
    for (const CutlassAtom& a : cutlass_atoms()) {
      if (a.element_bits != 8 * e || a.name != name) continue;
      const AnyLayout l = a.layout();
      const auto& sh = l.layout.shape.children();
      const i64 w = (major == Major::k ? sh.at(1) : sh.at(0)).value(), r = (major == Major::k ? sh.at(0) : sh.at(1)).value();
      if (ec % w != 0 || eo % r != 0) continue;
      for (bool step : {false, true}) {
        if (step && !(ec / w > 1 && eo / r > 1)) continue;
        f.push_back({major, w, r, step, 0, l.swizzle.value_or(Swizzle{0, 0, 0}), name + "<" + type + ">"});
      }
    }
  return f;
}

bool is_umma_operand(const KernelSynthRequest& r) { return r.descriptor_mma.rfind("SM100_MMA_", 0) == 0; }

// UMMA::Layout_MN_SW128_32B_Atom (the only family member with an MN-major Sw<2,M,2>): TMA writes it
// with SWIZZLE_128B_BASE32B, Sw<2,5,2> on bytes.
static bool umma_32b_atom(const SmemCandidate& c) { return c.major == Major::mn && c.sw.B == 2 && c.sw.S == 2; }

bool tma_writable(const SmemCandidate& c, int e) {
  if (c.padded()) return false;
  if (c.sw.B == 0) return true;
  const int log_e = exact_log2(e);
  return c.sw.S == 3 && c.sw.M + log_e == 4 && checked_mul(c.width, e) == (i64{16} << c.sw.B);
}

std::vector<SmemCandidate> kernel_family(const KernelSynthRequest& r, int e) {
  std::vector<SmemCandidate> f =
      r.descriptor ? gmma_family(r.shape, e, *r.descriptor, is_umma_operand(r), r.element) : smem_family(r.shape, e);
  if (!r.tma_copy.empty()) {
    std::vector<SmemCandidate> kept;
    for (const SmemCandidate& c : f)
      if (tma_writable(c, e) || (r.descriptor && umma_32b_atom(c))) kept.push_back(c);
    f = std::move(kept);
  }
  return f;
}

bool is_tma_copy(const std::string& expr) {
  using namespace atom_spelling;
  std::string_view s = strip_namespaces(trim(expr));
  for (std::string_view p : {"SM90::", "SM100::"})
    if (starts_with(s, p)) s.remove_prefix(p.size());
  for (std::string_view p : {"SM90_TMA_", "SM100_TMA_", "make_tma_copy", "make_tma_atom", "make_im2col_tma_copy"})
    if (starts_with(s, p)) return true;
  return false;
}

void set_descriptor_operand(KernelSynthRequest& q, const std::string& atom) {
  if (atom.rfind("SM90_64x", 0) != 0 && atom.rfind("SM100_MMA_", 0) != 0) return;
  const bool ss = atom.find("_SS") != std::string::npos, b = q.name == "B";
  if (!ss && !b) return;  // an _RS (_TS) atom reads A from registers (tensor memory)
  const std::size_t lt = atom.find('<');
  std::vector<std::string> majors;
  for (std::size_t i = atom.find("Major::", lt == std::string::npos ? atom.size() : lt); i != std::string::npos;
       i = atom.find("Major::", i + 7))
    majors.push_back(atom.substr(i + 7, 2));
  const std::string major = majors.size() > (b ? 1u : 0u) ? majors[b ? 1 : 0] : "K";
  q.descriptor = major == "MN" ? Major::mn : Major::k;
  q.descriptor_mma = atom;
}

std::string candidate_cpp(const SmemCandidate& c, const std::vector<i64>& shape, const std::string& name) {
  check_shape(shape);
  const std::string atom = "SmemLayoutAtom" + name, full = "SmemLayout" + name;
  std::string s = "using " + atom + " = " + atom_cpp(c) + ";\n";
  if (c.padded()) return s + "using " + full + " = " + padded_layout_cpp(c, shape) + ";";
  s += "using " + full + " = decltype(tile_to_shape(" + atom + "{}, " + shape_cpp(shape);
  if (c.step) s += shape.size() == 3 ? ", Step<_2,_1,_3>{}" : ", Step<_2,_1>{}";
  return s + "));";
}

AnyLayout candidate_layout(const SmemCandidate& c, const std::vector<i64>& shape) {
  return parse_smem_layout(candidate_cpp(c, shape));
}

std::string candidate_text(const SmemCandidate& c) {
  const auto [sh, st] = atom_of(c);
  const std::string atom = to_string(Layout::flat(sh, st));
  if (c.padded()) return std::string(to_string(c.major)) + " " + atom + " padded by " + std::to_string(c.pad);
  std::string s = std::string(to_string(c.major)) + " " + (c.sw.B ? to_string(c.sw) + " o " : "") + atom;
  return c.step ? s + " Step<_2,_1,_3>" : s;
}

std::vector<std::string> cutlass_names(const SmemCandidate& c, int element_bits) {
  std::vector<std::string> names;
  if (c.padded()) return names;
  const auto [sh, st] = atom_of(c);
  const Layout atom = Layout::flat(sh, st);
  for (const CutlassAtom& a : cutlass_atoms()) {
    if (a.element_bits != element_bits) continue;
    const AnyLayout l = a.layout();
    const Swizzle sw = l.swizzle.value_or(Swizzle{0, 0, 0});
    const bool same_swizzle = sw == c.sw || (sw.B == 0 && c.sw.B == 0);
    if (same_swizzle && l.offset == 0 && l.layout.shape == atom.shape && offsets(l.layout) == offsets(atom))
      names.push_back(a.display_name());
  }
  return names;
}

bool KernelCandidate::conflict_free() const {
  if (copies.empty()) return false;
  for (const auto& s : copies)
    if (!s.conflict_free()) return false;
  return true;
}

bool KernelSynthResult::all_proved() const {
  if (!found) return false;
  for (const auto& p : proofs)
    if (!p.verdict.is_proved()) return false;
  return true;
}

namespace {

// ---------------------------------------------------------------------------------------------
// The copies' claims and the element.

TraceClaim claim(const char* text) { return *parse_trace_claim(text); }

int element_bytes(const KernelSynthRequest& r) {
  const auto bits = type_bits(r.element);
  if (!bits) throw LayoutError("unknown element type '" + r.element + "'");
  if (*bits % 8 != 0) throw LayoutError("synth --kernel handles whole-byte elements (" + r.element + " has " + std::to_string(*bits) + " bits)");
  for (const auto& c : r.copies)
    if (c.copy.atom.value_bits != *bits)
      throw LayoutError("the element " + r.element + " has " + std::to_string(*bits) + " bits but " + c.copy.text + " moves " +
                        std::to_string(c.copy.atom.value_bits) + "-bit " + c.copy.atom.value_type + " values");
  return *bits / 8;
}

// Ranking (kernel_synth.hpp): ratio, bytes, total wavefronts, B, padding, major, span, enumeration order.
bool better(const KernelCandidate& a, const KernelCandidate& b, std::optional<Major> pref) {
  const i64 l = i64{a.wavefronts} * b.ideal, r = i64{b.wavefronts} * a.ideal;
  if (l != r) return l < r;
  if (a.smem_bytes != b.smem_bytes) return a.smem_bytes < b.smem_bytes;
  if (a.total_wavefronts != b.total_wavefronts) return a.total_wavefronts < b.total_wavefronts;
  if (a.c.sw.B != b.c.sw.B) return a.c.sw.B < b.c.sw.B;
  if (a.c.padded() != b.c.padded()) return !a.c.padded();
  const bool ma = pref && a.c.major != *pref, mb = pref && b.c.major != *pref;
  if (ma != mb) return !ma;
  if (a.c.sw.span_bits() != b.c.sw.span_bits()) return a.c.sw.span_bits() < b.c.sw.span_bits();
  return a.index < b.index;
}

// ---------------------------------------------------------------------------------------------
// Proofs.

// A verdict that contradicts what the search computed becomes an ERROR.
Verdict agreeing(Verdict v, bool search_says_holds) {
  if ((v.is_proved() && !search_says_holds) || (v.is_refuted() && search_says_holds)) {
    Verdict e = Verdict::error(v.method, std::string("the search and the prover disagree (") + to_string(v.kind) +
                                             " from the prover): " + (v.detail.empty() ? v.witness.why : v.detail));
    e.time_ms = v.time_ms;
    return e;
  }
  return v;
}

bool placed(const KernelSynthRequest& r) { return r.placement.base.has_value() || r.placement.align.has_value(); }

// The TMA swizzle a descriptor operand's member is written with (Sw<B,4,3>; INTER: none).
std::optional<Swizzle> tma_swizzle(const KernelSynthRequest& r, const SmemCandidate& c) {
  if (!r.descriptor && r.tma_copy.empty()) return std::nullopt;
  if (umma_32b_atom(c)) return Swizzle{2, 5, 2};
  return Swizzle{c.sw.B, 4, 3};
}

// The bases the winner's claims are proved at: {0} without a placement.
std::vector<i64> proof_bases(const KernelSynthRequest& r, const SmemCandidate& c, const AnyLayout& l) {
  return placed(r) ? placement_bases(r.placement, l, tma_swizzle(r, c)) : std::vector<i64>{0};
}

std::string tma_claim_text(const KernelSynthRequest& r, const SmemCandidate& c) {
  const std::string at = !placed(r)             ? ""
                         : r.placement.base ? ",base=" + std::to_string(*r.placement.base)
                                            : ",align=" + std::to_string(*r.placement.align);
  return "tma:" + to_string(*tma_swizzle(r, c)) + at;
}

void prove_trace_claims(const KernelSynthRequest& r, const KernelSynthResult& out, const AnyLayout& l,
                        std::vector<KernelProof>& proofs) {
  const std::vector<i64> bases = proof_bases(r, out.ranked.front().c, l);
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    const AddressTrace t = trace_copy_at_bases(r.copies[i].copy, l, r.copies[i].side, bases);
    // covers needs one base's trace: the elements a copy moves do not depend on the base
    // (model/trace/smem_bases.hpp), and the traces of two bases move each element twice.
    const AddressTrace one = bases.size() > 1 ? trace_copy_at_bases(r.copies[i].copy, l, r.copies[i].side, {bases.front()}) : t;
    for (const char* name : {"conflict-free", "vector-legal", "covers"}) {
      TraceResult res = prove_trace(std::string(name) == "covers" ? one : t, claim(name), r.prove);
      // The search found conflict-free and vector-legal; covers was decided once per copy.
      const bool holds = std::string(name) == "covers" ? out.copies[i].covers.is_proved() : true;
      proofs.push_back({name, static_cast<i64>(i), 0, agreeing(std::move(res.verdict), holds), std::move(res.witness)});
    }
  }
}

void prove_layout(const KernelSynthRequest& r, const KernelSynthResult& out, const AnyLayout& l, std::vector<KernelProof>& proofs) {
  Subject s;
  s.layout = l;
  const char* name = out.ranked.front().c.padded() ? "injective" : "bijective";
  proofs.push_back({name, -1, 0, prove(s, parse_claim(name), r.prove), std::nullopt});
}

// A GMMA winner (r.descriptor): TMA writes the tile with the atom's byte swizzle Sw<B,4,3>
// (INTER: none), on absolute shared-memory addresses from a 1024-byte aligned base (0).
void prove_tma(const KernelSynthRequest& r, const KernelSynthResult& out, std::vector<KernelProof>& proofs) {
  const std::string claim = tma_claim_text(r, out.ranked.front().c);
  proofs.push_back({claim, -1, 0, decide_tma(out.layout, 8 * out.element_bytes, *parse_tma_claim(claim), claim), std::nullopt});
}

// None conflict-free: the best members' conflicting copies, re-traced and REFUTED by prove_trace.
void refute_best(const KernelSynthRequest& r, KernelSynthResult& out) {
  const i64 n = std::min<i64>(r.witnesses, static_cast<i64>(out.ranked.size()));
  for (i64 m = 0; m < n; ++m) {
    const KernelCandidate& c = out.ranked[at(m)];
    const AnyLayout l = candidate_layout(c.c, r.shape);
    for (std::size_t i = 0; i < r.copies.size(); ++i) {
      if (c.copies[i].conflict_free()) continue;
      const AddressTrace t = trace_copy(r.copies[i].copy, l, r.copies[i].side);
      TraceResult res = prove_trace(t, claim("conflict-free"), r.prove);
      out.proofs.push_back({"conflict-free", static_cast<i64>(i), m, agreeing(std::move(res.verdict), false), std::move(res.witness)});
    }
  }
}

// Member m (conflict-free at base 0) at every base of the placement: nullopt when every copy stays
// conflict-free and vector-legal there (and its TMA swizzle holds), else the first refuted claim.
std::optional<KernelProof> placement_failure(const KernelSynthRequest& r, const KernelSynthResult& out, i64 m) {
  const SmemCandidate& c = out.ranked[at(m)].c;
  const AnyLayout l = candidate_layout(c, r.shape);
  const std::vector<i64> bases = proof_bases(r, c, l);
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    const AddressTrace t = trace_copy_at_bases(r.copies[i].copy, l, r.copies[i].side, bases);
    for (const char* name : {"conflict-free", "vector-legal"}) {
      TraceResult res = prove_trace(t, claim(name), r.prove);
      if (!res.verdict.is_proved()) return KernelProof{name, static_cast<i64>(i), m, std::move(res.verdict), std::move(res.witness)};
    }
  }
  if (tma_swizzle(r, c)) {
    const std::string claim = tma_claim_text(r, c);
    Verdict v = decide_tma(l, 8 * out.element_bytes, *parse_tma_claim(claim), claim);
    if (!v.is_proved()) return KernelProof{claim, -1, m, std::move(v), std::nullopt};
  }
  return std::nullopt;
}

std::string placement_description(const SmemPlacement& p) {
  if (p.base) return "at base " + std::to_string(*p.base);
  return "at every base that is a multiple of " + std::to_string(*p.align);
}

// The placement's winner: the first member conflict-free at base 0 that holds at every base; it is
// moved to ranked.front(). Returns whether one was found.
bool place_winner(const KernelSynthRequest& r, KernelSynthResult& out) {
  for (std::size_t m = 0; m < out.ranked.size() && out.ranked[m].conflict_free(); ++m) {
    if (r.prove.smt.deadline.passed()) {
      out.deadline_cut = true;  // the members not reached are undecided: no "none exists"
      return false;
    }
    auto f = placement_failure(r, out, static_cast<i64>(m));
    if (!f) {
      std::rotate(out.ranked.begin(), out.ranked.begin() + static_cast<std::ptrdiff_t>(m), out.ranked.begin() + static_cast<std::ptrdiff_t>(m) + 1);
      for (auto& pf : out.placement_failures) ++pf.member;  // their positions moved by one
      return true;
    }
    out.placement_failures.push_back(std::move(*f));
  }
  return false;
}

}  // namespace

void check_placement_widths(const SmemPlacement& p, const std::vector<int>& widths) {
  if (!p.base && !p.align) return;
  const i64 at = p.base ? *p.base : *p.align;
  for (const int w : widths)
    if (w > 0 && at % w != 0)
      throw LayoutError((p.align ? "align " : "base ") + std::to_string(at) + " is not a multiple of the copy's " + std::to_string(w) +
                        "-byte access width" + (p.align ? " (give align: " + std::to_string(w) + " or more)" : ""));
}

std::vector<int> copy_widths(const KernelSynthRequest& r) {
  const AnyLayout tile(detail::compact_tile(r.shape));
  std::vector<int> out;
  for (const auto& k : r.copies) out.push_back(trace_copy(k.copy, tile, k.side).width_bytes);
  return out;
}

std::vector<CopyScore> score_directly(const KernelSynthRequest& r, const AnyLayout& layout) {
  element_bytes(r);
  std::vector<CopyScore> v;
  for (const auto& k : r.copies) {
    const AddressTrace t = trace_copy(k.copy, layout, k.side);
    if (std::string why = detail::vector_refutation(t); !why.empty()) {
      CopyScore s;
      s.width_bytes = t.width_bytes;
      s.vector_legal = false;
      s.vector_why = std::move(why);
      v.push_back(std::move(s));
    } else {
      v.push_back(detail::bank_score(t, nullptr));
    }
  }
  return v;
}

// The name goes into the printed C++ (SmemLayoutAtom<name>, SmemLayout<name>): a C++ identifier
// tail, never text pasted unchecked into code a user compiles.
static void check_cpp_name(const std::string& name) {
  const bool ok = !name.empty() && name.size() <= 64 &&
                  std::all_of(name.begin(), name.end(), [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; });
  if (!ok)
    throw LayoutError("the name '" + name + "' goes into the printed C++ (SmemLayoutAtom" + name +
                      "): it must be 1 to 64 letters, digits or underscores");
}

KernelSynthResult synthesize_kernel(const KernelSynthRequest& r) {
  const auto t0 = Clock::now();
  check_shape(r.shape);
  check_cpp_name(r.name);
  if (r.copies.empty())
    throw LayoutError(r.tma_copy.empty() ? "synth --kernel needs at least one copy (--copy S:EXPR or D:EXPR)"
                                         : "synth --kernel: a TMA copy alone leaves nothing to score; give the copies the SM issues on the tile too (ldmatrix, s2r loads, stores)");
  KernelSynthResult out;
  out.element_bytes = element_bytes(r);
  detail::run_search(r, out);
  if (out.ranked.empty()) {  // every member breaks some copy's vectors: nothing to rank or prove
    out.best_wavefronts = out.best_ideal = 0;
    out.search_ms = ms_since(t0);
    return out;
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(),
                   [&](const KernelCandidate& a, const KernelCandidate& b) { return better(a, b, out.preferred); });
  // With a placement, the winner must hold at every base; when every member conflict-free at base 0
  // fails there, there is none (undecided at a lone base off the 128-byte grid, where base 0 is not
  // one of the bases) and their failures are the witnesses.
  bool placement_refuted_all = false;
  if (placed(r)) {
    std::vector<int> widths;
    for (const auto& c : out.copies) widths.push_back(c.width_bytes);
    check_placement_widths(r.placement, widths);
    out.placement_text = placement_description(r.placement);
    placement_refuted_all = !place_winner(r, out) && out.ranked.front().conflict_free();
    out.placement_undecided = placement_refuted_all && !r.placement.align && *r.placement.base % 128 != 0;
  }
  const KernelCandidate& w = out.ranked.front();
  out.found = w.conflict_free() && !placement_refuted_all && !out.deadline_cut;
  out.best_wavefronts = w.wavefronts;
  out.best_ideal = w.ideal;
  out.cpp = candidate_cpp(w.c, r.shape, r.name);
  out.layout = candidate_layout(w.c, r.shape);
  out.notation = to_string(out.layout);
  out.cutlass_atoms = cutlass_names(w.c, 8 * out.element_bytes);
  out.search_ms = ms_since(t0);
  const auto t1 = Clock::now();
  if (out.found) {
    prove_trace_claims(r, out, out.layout, out.proofs);
    prove_layout(r, out, out.layout, out.proofs);
    if (r.descriptor || !r.tma_copy.empty()) prove_tma(r, out, out.proofs);
  } else if (placement_refuted_all) {
    out.proofs = out.placement_failures;
  } else {
    refute_best(r, out);
  }
  out.proof_ms = ms_since(t1);
  return out;
}

}  // namespace layoutproof::proofs
