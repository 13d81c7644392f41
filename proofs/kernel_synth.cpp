// Kernel shared-memory layout synthesis (proofs/kernel_synth.hpp): the family, the search on the
// copies' re-addressed traces, the ranking, and the proofs about the winner (or the witnesses).
#include "proofs/kernel_synth.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>
#include <utility>

#include "model/cute_atoms.hpp"
#include "model/cutlass_atoms.hpp"
#include "model/kernel_expr.hpp"
#include "model/notation.hpp"
#include "proofs/bank_memo.hpp"

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

std::vector<SmemCandidate> smem_family(const std::vector<i64>& shape, int e) {
  check_shape(shape);
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
          for (const Swizzle& sw : swizzles_within(exact_log2(r * w))) f.push_back({major, w, r, step, 0, sw});
        }
      }
    }
  }
  for (Major major : {Major::k, Major::mn}) {
    const i64 ec = major == Major::k ? shape[1] : shape[0], eo = major == Major::k ? shape[0] : shape[1];
    for (i64 p = 1; p * e <= 64 && p < ec; p *= 2) f.push_back({major, ec, eo, false, p, Swizzle{0, 0, 0}});
  }
  return f;
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
// Scoring one copy's trace.

TraceClaim claim(const char* text) { return *parse_trace_claim(text); }

// The vector-legal claim on a copy's trace: "" when it holds, else the refutation's sentence.
std::string vector_refutation(const AddressTrace& t) {
  const TraceResult v = check_trace_exhaustive(t, claim("vector-legal"));
  if (v.verdict.is_proved()) return "";
  return v.witness ? v.witness->why : v.verdict.detail;
}

// The bank model on every instruction of a copy's trace (memoized when memo is given).
// @pre the trace is vector-legal (its addresses are aligned: the bank model refuses others).
CopyScore bank_score(const AddressTrace& t, BankMemo* memo) {
  CopyScore s;
  s.width_bytes = t.width_bytes;
  for (i64 k = 0; k < static_cast<i64>(t.instructions.size()); ++k) {
    const SmemAccess a = t.instructions[at(k)].access();
    BankCounts n;
    if (memo) n = memo->counts(a);
    else {
      const BankReport rep = analyze_smem_access(a);
      n = {rep.wavefronts, rep.ideal, rep.conflict_degree};
    }
    s.total_wavefronts += n.wavefronts;
    s.total_ideal += n.ideal;
    s.conflicted += n.wavefronts > n.ideal;
    if (s.worst < 0 || i64{n.wavefronts} * s.ideal > i64{s.wavefronts} * n.ideal) {
      s.worst = k;
      s.wavefronts = n.wavefronts;
      s.ideal = n.ideal;
    }
  }
  return s;
}

// Writes the addresses of `table` (element offsets by logical index) into a trace's slices.
// slices false: only each lane's address (its slice's first element), for a copy whose slices
// are not read (CopyModel::scalar).
void readdress(AddressTrace& t, const std::vector<i64>& table, int e, bool slices) {
  for (auto& in : t.instructions) {
    const std::size_t len = at(in.slice_len);
    for (int l = 0; l < kWarpLanes; ++l) {
      const i64 first = in.slice_elems[at(l) * len];
      in.addr[at(l)] = first < 0 ? -1 : table[at(first)] * e;
      for (std::size_t j = 0; slices && j < len; ++j) {
        const std::size_t s = at(l) * len + j;
        const i64 x = in.slice_elems[s];
        in.slice_addrs[s] = x < 0 ? -1 : table[at(x)] * e;
      }
    }
  }
}

Layout compact(const std::vector<i64>& shape) {
  std::vector<i64> stride;
  i64 s = 1;
  for (i64 x : shape) stride.push_back(std::exchange(s, checked_mul(s, x)));
  return Layout::flat(shape, stride);
}

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

// One copy during the search: its trace on the compact layout (re-addressed in place per member)
// and its memo.
struct CopyModel {
  const KernelSynthCopy* k = nullptr;
  bool retrace = false;  // AutoVectorizingCopy: the width depends on the layout
  // One element per lane (slice_len 1, width = element bytes): the address, offset * element
  // bytes, is aligned and its one-element slice contiguous on every layout; not checked per member.
  bool scalar = false;
  AddressTrace work;
  BankMemo memo;
};

// The plain (unswizzled) layouts of the family, by their C++, with their offset tables.
struct Plain {
  Layout layout;
  std::vector<i64> offsets;
};

class Search {
 public:
  Search(const KernelSynthRequest& r, KernelSynthResult& out) : r_(r), out_(out), e_(out.element_bytes) {}

  void run() {
    init_copies();
    const auto family = smem_family(r_.shape, e_);
    out_.family_size = static_cast<i64>(family.size());
    for (i64 i = 0; i < out_.family_size; ++i) {
      visit(family[at(i)], i);
      if (r_.progress && ((i + 1) % 256 == 0 || i + 1 == out_.family_size)) r_.progress(i + 1, out_.family_size);
    }
    for (const auto& m : models_) out_.bank_evaluations += static_cast<i64>(m.memo.evaluations());
  }

 private:
  const KernelSynthRequest& r_;
  KernelSynthResult& out_;
  int e_;
  std::vector<CopyModel> models_;
  std::map<std::string, Plain> plains_;
  std::vector<i64> table_;  // the member being visited (reused: no allocation per member)
  std::unordered_map<std::uint64_t, std::vector<SmemCandidate>> seen_;  // table hash -> members with that hash

  void init_copies() {
    const AnyLayout base(compact(r_.shape));
    models_.resize(r_.copies.size());
    for (std::size_t i = 0; i < r_.copies.size(); ++i) {
      const KernelSynthCopy& k = r_.copies[i];
      CopyModel& m = models_[i];
      m.k = &k;
      m.retrace = k.copy.atom.op.kind == CopyKind::autovec;
      m.work = trace_copy(k.copy, base, k.side);
      m.scalar = !m.retrace && !m.work.instructions.empty() && m.work.instructions.front().slice_len == 1 &&
                 m.work.width_bytes == e_;
      KernelCopyInfo info;
      info.text = k.copy.text;
      info.side = k.side;
      info.op = m.work.op;
      info.width_bytes = m.retrace ? 0 : m.work.width_bytes;
      info.instructions = static_cast<i64>(m.work.instructions.size());
      info.slice_len = m.work.instructions.empty() ? 1 : m.work.instructions.front().slice_len;
      info.covers = check_trace_exhaustive(m.work, claim("covers")).verdict;
      out_.copies.push_back(std::move(info));
      if (!out_.preferred) out_.preferred = vector_major(m.work);
    }
  }

  // The major a copy's CPY slices run along (nullopt for one-element slices).
  std::optional<Major> vector_major(const AddressTrace& t) const {
    for (const auto& in : t.instructions) {
      if (in.slice_len < 2) return std::nullopt;
      for (int l = 0; l < kWarpLanes; ++l) {
        const i64 a = in.slice_elems[at(l) * at(in.slice_len)], b = in.slice_elems[at(l) * at(in.slice_len) + 1];
        if (a < 0 || b < 0) continue;
        if (b - a == 1) return Major::mn;
        if (b - a == r_.shape[0]) return Major::k;
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  const Plain& plain(const SmemCandidate& c) {
    SmemCandidate p = c;
    p.sw = Swizzle{0, 0, 0};
    const std::string key = candidate_cpp(p, r_.shape);
    auto it = plains_.find(key);
    if (it != plains_.end()) return it->second;
    const AnyLayout l = parse_smem_layout(key);
    return plains_.emplace(key, Plain{l.layout, offsets(l.layout)}).first->second;
  }

  static AnyLayout member_layout(const SmemCandidate& c, const Plain& p) {
    return c.sw.B ? AnyLayout(c.sw, 0, p.layout) : AnyLayout(p.layout);
  }

  // The member's offsets by logical index, into t.
  void table(const SmemCandidate& c, std::vector<i64>& t) {
    const std::vector<i64>& o = plain(c).offsets;
    t.resize(o.size());
    for (std::size_t i = 0; i < o.size(); ++i) t[i] = c.sw.apply(o[i]);  // Sw<0,0,0> is the identity
  }

  // Four interleaved FNV-1a streams (independent multiplies), combined.
  static std::uint64_t hash(const std::vector<i64>& t) {
    std::uint64_t h[4] = {1469598103934665603ull, 2, 3, 5};
    const std::size_t n = t.size();
    for (std::size_t i = 0; i < n; ++i) h[i & 3] = (h[i & 3] ^ static_cast<std::uint64_t>(t[i])) * 1099511628211ull;
    return ((h[0] * 31 + h[1]) * 31 + h[2]) * 31 + h[3];
  }

  // True when an earlier member has the same offsets on the whole tile.
  bool duplicate(const SmemCandidate& c, const std::vector<i64>& t) {
    auto& bucket = seen_[hash(t)];
    std::vector<i64> other_t;
    for (const auto& other : bucket) {
      table(other, other_t);
      if (other_t == t) return true;
    }
    bucket.push_back(c);
    return false;
  }

  void visit(const SmemCandidate& c, i64 index) {
    std::vector<i64>& t = table_;
    table(c, t);
    if (duplicate(c, t)) {
      ++out_.duplicates;
      return;
    }
    KernelCandidate k;
    k.c = c;
    k.index = index;
    const Plain& p = plain(c);
    k.smem_bytes = checked_mul(cosize(p.layout), e_);
    // Each copy's trace on this member (re-addressed in place, or traced anew when its width
    // depends on the layout), checked vector-legal before any bank model: a member that breaks
    // one copy is rejected without tracing or scoring the others.
    std::vector<AddressTrace> fresh(models_.size());
    std::vector<const AddressTrace*> traces;
    for (std::size_t i = 0; i < models_.size(); ++i) {
      CopyModel& m = models_[i];
      if (m.retrace) fresh[i] = trace_copy(m.k->copy, member_layout(c, p), m.k->side);
      else readdress(m.work, t, e_, !m.scalar);
      traces.push_back(m.retrace ? &fresh[i] : &m.work);
      if (m.scalar) continue;
      if (std::string why = vector_refutation(*traces.back()); !why.empty()) {
        k.illegal_copy = static_cast<i64>(i);
        k.illegal_why = std::move(why);
        out_.rejected.push_back(std::move(k));
        return;
      }
    }
    for (std::size_t i = 0; i < models_.size(); ++i) k.copies.push_back(bank_score(*traces[i], &models_[i].memo));
    k.wavefronts = 0;
    for (const auto& s : k.copies) {
      k.total_wavefronts += s.total_wavefronts;
      if (k.wavefronts == 0 || i64{s.wavefronts} * k.ideal > i64{k.wavefronts} * s.ideal) k.wavefronts = s.wavefronts, k.ideal = s.ideal;
    }
    out_.ranked.push_back(std::move(k));
  }
};

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

void prove_trace_claims(const KernelSynthRequest& r, const KernelSynthResult& out, const AnyLayout& l,
                        std::vector<KernelProof>& proofs) {
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    const AddressTrace t = trace_copy(r.copies[i].copy, l, r.copies[i].side);
    for (const char* name : {"conflict-free", "vector-legal", "covers"}) {
      TraceResult res = prove_trace(t, claim(name), r.prove);
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

}  // namespace

std::vector<CopyScore> score_directly(const KernelSynthRequest& r, const AnyLayout& layout) {
  element_bytes(r);
  std::vector<CopyScore> v;
  for (const auto& k : r.copies) {
    const AddressTrace t = trace_copy(k.copy, layout, k.side);
    if (std::string why = vector_refutation(t); !why.empty()) {
      CopyScore s;
      s.width_bytes = t.width_bytes;
      s.vector_legal = false;
      s.vector_why = std::move(why);
      v.push_back(std::move(s));
    } else {
      v.push_back(bank_score(t, nullptr));
    }
  }
  return v;
}

KernelSynthResult synthesize_kernel(const KernelSynthRequest& r) {
  const auto t0 = Clock::now();
  check_shape(r.shape);
  if (r.copies.empty()) throw LayoutError("synth --kernel needs at least one copy (--copy S:EXPR or D:EXPR)");
  KernelSynthResult out;
  out.element_bytes = element_bytes(r);
  Search(r, out).run();
  if (out.ranked.empty()) {  // every member breaks some copy's vectors: nothing to rank or prove
    out.best_wavefronts = out.best_ideal = 0;
    out.search_ms = ms_since(t0);
    return out;
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(),
                   [&](const KernelCandidate& a, const KernelCandidate& b) { return better(a, b, out.preferred); });
  const KernelCandidate& w = out.ranked.front();
  out.found = w.conflict_free();
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
  } else {
    refute_best(r, out);
  }
  out.proof_ms = ms_since(t1);
  return out;
}

}  // namespace layoutproof::proofs
