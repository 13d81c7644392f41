// Swizzle synthesis (proofs/synth/synth.hpp): the family search, the winner's proofs, the GF(2) search.
#include "proofs/synth/synth.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>

#include "model/layout/notation.hpp"
#include "proofs/claims/bank_memo.hpp"

namespace layoutproof::proofs {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

int bit_width(i64 x) {
  int n = 0;
  while (x > 0) ++n, x >>= 1;
  return n;
}
int exact_log2(i64 x) {
  return x > 0 && (x & (x - 1)) == 0 ? bit_width(x) - 1 : -1;
}

int access_width(const SynthRequest& r, SmemOp op) { return is_matrix_op(op) ? 16 : r.elem_bytes * r.vec; }

// One instruction of one access: element offsets of the plain tile per lane (-1 inactive).
struct Instr {
  std::string where;
  std::array<i64, kWarpLanes> elem;
};

// Everything about the plain tile the candidates share.
struct Tile {
  i64 rows = 0, cols = 0;
  std::size_t mode = 1;                 // unit-stride mode (contiguity)
  std::vector<i64> off;                 // off[r * cols + c]
  std::vector<char> in_image;           // by offset
  i64 cosize = 0;
  std::vector<std::vector<Instr>> instrs;  // per access
};

Tile make_tile(const SynthRequest& r) {
  const Layout& l = r.tile;
  if (l.rank() != 2) throw LayoutError("synth needs a 2-D (rows, cols) tile");
  if (r.accesses.empty()) throw LayoutError("synth needs at least one --pattern");
  Tile t;
  t.rows = product(l.shape[0]);
  t.cols = product(l.shape[1]);
  // Checked: a wrapped product would pass the limit and write past the table (hostile-input C4).
  if (t.rows < 1 || t.cols < 1 || t.rows > (i64{1} << 22) || t.cols > (i64{1} << 22) || checked_mul(t.rows, t.cols) > (i64{1} << 22))
    throw LayoutError("synth handles tiles of 1 to 2^22 elements, not " + std::to_string(t.rows) + " x " + std::to_string(t.cols));
  t.mode = default_contiguous_mode(l);
  const i64 mode_len = t.mode == 0 ? t.rows : t.cols;
  if (mode_len % r.vec != 0)
    throw LayoutError("the unit-stride mode's " + std::to_string(mode_len) + " elements are not divisible by --vec " +
                      std::to_string(r.vec));
  t.off.resize(static_cast<std::size_t>(t.rows * t.cols));
  for (i64 row = 0; row < t.rows; ++row)
    for (i64 c = 0; c < t.cols; ++c) {
      const i64 o = evaluate(l, IntTuple::tuple({row, c}));
      if (o < 0) throw LayoutError("synth needs non-negative offsets");
      t.off[static_cast<std::size_t>(row * t.cols + c)] = o;
      t.cosize = std::max(t.cosize, o + 1);
    }
  t.in_image.assign(static_cast<std::size_t>(t.cosize), 0);
  for (i64 o : t.off) t.in_image[static_cast<std::size_t>(o)] = 1;
  for (const auto& a : r.accesses) {
    AccessSpec spec;
    spec.tile = AnyLayout(l);
    spec.elem_bytes = r.elem_bytes;
    spec.vec = r.vec;
    spec.pattern = a.pattern;
    if (a.pattern == PatternKind::ldmatrix) {
      if (!is_matrix_op(a.op)) throw LayoutError("the ldmatrix pattern needs a matrix op (ldsmN/stsmN)");
      spec.ldmatrix_count = matrix_count(a.op);
    } else if (is_matrix_op(a.op)) {
      throw LayoutError("op " + to_string(a.op) + " needs --pattern ldmatrix");
    }
    std::vector<Instr> v;
    for (const WarpAccess& w : warp_accesses(spec)) {
      Instr in{w.where, {}};
      for (int lane = 0; lane < kWarpLanes; ++lane)
        in.elem[lane] = w.byte_address[lane] < 0 ? -1 : w.byte_address[lane] / r.elem_bytes;
      v.push_back(std::move(in));
    }
    t.instrs.push_back(std::move(v));
  }
  return t;
}

std::vector<Swizzle> family(int n) {
  std::vector<Swizzle> f{Swizzle{0, 0, 0}};
  for (int b = 1; b <= n; ++b)
    for (int s = b; b + s <= n; ++s)
      for (int m = 0; m + b + s <= n; ++m) {
        f.push_back(Swizzle{b, m, s});
        f.push_back(Swizzle{b, m, -s});
      }
  return f;
}

// (a): Sw maps image(L) into itself; empty string when it does, else the witness.
template <class Map>
std::string image_witness(const Tile& t, const Map& map) {
  for (i64 o = 0; o < t.cosize; ++o) {
    if (!t.in_image[static_cast<std::size_t>(o)]) continue;
    const i64 p = map(o);
    if (p < 0 || p >= t.cosize || !t.in_image[static_cast<std::size_t>(p)])
      return "offset " + std::to_string(o) + " of the tile maps to " + std::to_string(p) + ", outside the tile's image";
  }
  return {};
}

// (b): contiguous:V along the unit-stride mode; empty when it holds, else the witness.
template <class Map>
std::string contiguity_witness(const Tile& t, int vec, const Map& map) {
  for (i64 row = 0; row < t.rows; ++row)
    for (i64 c = 0; c < t.cols; ++c) {
      const i64 pos = t.mode == 0 ? row : c;
      const i64 j = pos % vec;
      const i64 br = t.mode == 0 ? row - j : row, bc = t.mode == 0 ? c : c - j;
      const i64 base = map(t.off[static_cast<std::size_t>(br * t.cols + bc)]);
      const i64 here = map(t.off[static_cast<std::size_t>(row * t.cols + c)]);
      if (base % vec != 0)
        return "the vector at (" + std::to_string(br) + "," + std::to_string(bc) + ") starts at offset " +
               std::to_string(base) + ", not a multiple of " + std::to_string(vec);
      if (here != base + j)
        return "(" + std::to_string(row) + "," + std::to_string(c) + ") maps to " + std::to_string(here) + ", not " +
               std::to_string(base + j) + " (its vector starts at " + std::to_string(base) + ")";
    }
  return {};
}

// Instructions equal up to renaming their 128-byte blocks share one bank-model evaluation
// (proofs/claims/bank_memo.hpp; SynthRequest::cache = false turns it off).
using BankCache = std::vector<BankMemo>;  // per access

// (c): the bank model on every instruction of every access, addresses from byte_of(elem offset).
template <class ByteOf>
void evaluate_banks(const SynthRequest& r, const Tile& t, const ByteOf& byte_of, Candidate& c, BankCache* cache = nullptr) {
  c.access_wavefronts.assign(r.accesses.size(), 0);
  for (std::size_t a = 0; a < r.accesses.size(); ++a) {
    SmemAccess sa;
    sa.op = r.accesses[a].op;
    sa.width_bytes = access_width(r, sa.op);
    for (std::size_t k = 0; k < t.instrs[a].size(); ++k) {
      const Instr& in = t.instrs[a][k];
      for (int l = 0; l < kWarpLanes; ++l) sa.lane_addr[l] = in.elem[l] < 0 ? -1 : byte_of(in.elem[l]);
      if (cache) {
        const BankCounts& bc = (*cache)[a].counts(sa);
        c.wavefronts += bc.wavefronts;
        c.ideal += bc.ideal;
        c.access_wavefronts[a] += bc.wavefronts;
        c.worst_degree = std::max(c.worst_degree, bc.degree);
        if (bc.wavefronts <= bc.ideal || c.conflict) continue;
      }
      const BankReport rep = analyze_smem_access(sa);
      if (cache) {
        c.wavefronts -= rep.wavefronts, c.ideal -= rep.ideal, c.access_wavefronts[a] -= rep.wavefronts;
      }
      c.wavefronts += rep.wavefronts;
      c.ideal += rep.ideal;
      c.access_wavefronts[a] += rep.wavefronts;
      c.worst_degree = std::max(c.worst_degree, rep.conflict_degree);
      if (rep.wavefronts > rep.ideal && !c.conflict) {
        SynthConflict x;
        x.access = static_cast<int>(a);
        x.instruction = static_cast<i64>(k);
        x.where = in.where;
        x.wavefronts = rep.wavefronts;
        x.ideal = rep.ideal;
        if (!rep.collisions.empty()) {
          const BankCollision& col = rep.collisions.front();
          x.phase = col.phase;
          x.bank = col.bank;
          x.lanes = col.lanes;
          x.words = col.words;
        }
        c.conflict = std::move(x);
      }
    }
  }
}

// Ranking key (synth.hpp): wavefronts, B, then CUTLASS's conventions.
auto rank_key(const Candidate& c, int vec_log2, int row_bits) {
  const Swizzle& s = c.sw;
  return std::make_tuple(c.wavefronts, s.B, s.B > 0 && s.M != vec_log2, s.B > 0 && s.M + s.S != row_bits, s.S < 0,
                         s.abs_s(), s.M);
}

SynthProof cross_checked(std::string claim, Verdict v, bool search_says_holds) {
  if ((v.is_proved() && !search_says_holds) || (v.is_refuted() && search_says_holds)) {
    Verdict e = Verdict::error(v.method, "the search and the prover disagree on this claim (" +
                                             std::string(to_string(v.kind)) + " from the prover)");
    e.time_ms = v.time_ms;
    return {std::move(claim), std::move(e)};
  }
  return {std::move(claim), std::move(v)};
}

// Whether l is a permutation of [0, size(l)) (make_tile bounds synth's tiles to 2^22 elements).
bool is_permutation_of_range(const Layout& l) {
  const i64 n = size(l);
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (i64 o : offsets(AnyLayout(l))) {
    if (o < 0 || o >= n || seen[static_cast<std::size_t>(o)]) return false;
    seen[static_cast<std::size_t>(o)] = 1;
  }
  return true;
}

void prove_winner(const SynthRequest& r, const Candidate& best, SynthResult& out) {
  const AnyLayout swizzled(best.sw, 0, r.tile);
  Subject subj;
  subj.layout = swizzled;
  // The search keeps swizzles that map the tile's image into itself: a bijection of [0, size)
  // when the tile is one, else a permutation of its own (padded) footprint.
  const char* image_claim = is_permutation_of_range(r.tile) ? "bijective" : "swizzle-permutes";
  out.proofs.push_back(cross_checked(image_claim, prove(subj, parse_claim(image_claim), r.prove), true));
  const std::string contig = "contiguous:" + std::to_string(r.vec);
  out.proofs.push_back(cross_checked(contig, prove(subj, parse_claim(contig), r.prove), true));
  for (const auto& a : r.accesses) {
    AccessSpec spec;
    spec.tile = swizzled;
    spec.elem_bytes = r.elem_bytes;
    spec.vec = is_matrix_op(a.op) ? default_vec(r.elem_bytes) : r.vec;  // ldmatrix moves 16-byte rows
    spec.pattern = a.pattern;
    const BankSubject bs = make_bank_subject(spec, a.op);
    const BankResult br = prove_bank(bs, *parse_bank_claim("conflict-free"), r.prove);
    out.proofs.push_back(cross_checked("conflict-free (" + a.text() + ")", br.verdict, true));
  }
}

void run_gf2(const SynthRequest& r, const Tile& t, const Candidate& identity, SynthResult& out) {
  Gf2Outcome g;
  const int width = access_width(r, r.accesses.front().op);
  for (const auto& a : r.accesses)
    if (access_width(r, a.op) != width) g.why_not = "the accesses have different widths";
  if (width != 4 && width != 8 && width != 16) g.why_not = "lane accesses of " + std::to_string(width) + " bytes (needs 4, 8 or 16)";
  if (identity.status != Candidate::Status::ok) g.why_not = "the unswizzled tile is not a bijection with contiguous vectors";
  const i64 block = 128 / r.elem_bytes;
  if (g.why_not.empty() && (r.elem_bytes > 128 || 128 % r.elem_bytes != 0)) g.why_not = "elements do not divide 128 bytes";
  for (i64 b0 = 0; g.why_not.empty() && b0 < t.cosize; b0 += block) {
    int in = 0, n = 0;
    for (i64 o = b0; o < b0 + block; ++o, ++n) in += o < t.cosize && t.in_image[static_cast<std::size_t>(o)];
    if (in != 0 && in != n)
      g.why_not = "the tile's offsets are not a union of aligned 128-byte blocks (block at offset " + std::to_string(b0) +
                  "), so a bank-bit XOR could leave the tile";
  }
  if (!g.why_not.empty()) {
    out.gf2 = std::move(g);
    return;
  }
  g.applicable = true;
  const int unit_log2 = exact_log2(width), w = exact_log2(128 / width);
  std::vector<std::vector<std::int64_t>> phases;
  for (std::size_t a = 0; a < r.accesses.size(); ++a) {
    const SmemOp op = r.accesses[a].op;
    const int lanes_per_phase = is_matrix_op(op) ? 8 : width == 4 ? 32 : width == 8 ? 16 : 8;
    for (const Instr& in : t.instrs[a])
      for (int p0 = 0; p0 < kWarpLanes; p0 += lanes_per_phase) {
        std::vector<std::int64_t> ph;
        for (int l = p0; l < p0 + lanes_per_phase; ++l)
          if (in.elem[l] >= 0) ph.push_back(in.elem[l] * r.elem_bytes >> unit_log2);
        if (ph.size() > 1) phases.push_back(std::move(ph));
      }
  }
  const int unit_bits = std::max(w, bit_width((t.cosize * r.elem_bytes - 1) >> unit_log2));
  g.search = search_gf2(phases, unit_log2, w, unit_bits);
  if (g.search.kind == Gf2Search::Kind::found) {
    const Gf2Map& m = g.search.map;
    const int E = r.elem_bytes;
    auto elem_map = [&](i64 o) { return m.apply_byte(o * E) / E; };
    Candidate c;
    const std::string img = image_witness(t, elem_map), con = contiguity_witness(t, r.vec, elem_map);
    evaluate_banks(r, t, [&](i64 o) { return m.apply_byte(o * E); }, c);
    g.wavefronts = c.wavefronts;
    g.ideal = c.ideal;
    g.verified = img.empty() && con.empty() && !c.conflict;
    g.verify_detail = !img.empty() ? "not a bijection: " + img
                      : !con.empty() ? "not contiguous: " + con
                      : c.conflict ? "bank model: " + describe(*c.conflict, r.accesses)
                                   : "bank model on all instructions: " + std::to_string(c.wavefronts) +
                                         " wavefronts = ideal; image and contiguous:" + std::to_string(r.vec) +
                                         " checked on every offset";
    const i64 lines = t.mode == 1 ? t.rows : t.cols, along = t.mode == 1 ? t.cols : t.rows;
    for (i64 x = 0; x < lines; ++x) {
      std::vector<i64> row;
      for (i64 p = 0; p < along; p += r.vec) {
        const i64 o = t.mode == 1 ? t.off[static_cast<std::size_t>(x * t.cols + p)] : t.off[static_cast<std::size_t>(p * t.cols + x)];
        row.push_back(m.xor_of_unit(o * E >> unit_log2));
      }
      g.row_xor.push_back(std::move(row));
    }
  }
  out.gf2 = std::move(g);
}

}  // namespace

std::string SynthAccess::text() const { return to_string(pattern) + " " + to_string(op); }

std::vector<SynthAccess> make_accesses(const std::vector<PatternKind>& patterns, const std::vector<SmemOp>& ops) {
  std::vector<SynthAccess> out;
  for (PatternKind p : patterns) {
    const bool matrix = p == PatternKind::ldmatrix;
    std::vector<SmemOp> mine;
    if (ops.empty()) mine = matrix ? std::vector<SmemOp>{SmemOp::ldsm4, SmemOp::stsm4} : std::vector<SmemOp>{SmemOp::ld, SmemOp::st};
    for (SmemOp op : ops)
      if (is_matrix_op(op) == matrix) mine.push_back(op);
    if (mine.empty()) throw LayoutError("no --op fits pattern " + to_string(p) + (matrix ? " (needs ldsmN/stsmN)" : " (needs ld/st)"));
    for (SmemOp op : mine) out.push_back({p, op});
  }
  return out;
}

std::string describe(const SynthConflict& c, const std::vector<SynthAccess>& accesses) {
  std::string s = accesses[static_cast<std::size_t>(c.access)].text() + ", instruction " + std::to_string(c.instruction) +
                  " (" + c.where + "): ";
  if (c.lanes.empty()) return s + std::to_string(c.wavefronts) + " wavefronts for an ideal of " + std::to_string(c.ideal);
  s += "phase " + std::to_string(c.phase) + ", lanes ";
  for (std::size_t i = 0; i < c.lanes.size(); ++i) s += (i ? "," : "") + std::to_string(c.lanes[i]);
  s += " in bank " + std::to_string(c.bank) + " (words ";
  for (std::size_t i = 0; i < c.words.size(); ++i) s += (i ? "," : "") + std::to_string(c.words[i]);
  return s + "): " + std::to_string(c.wavefronts) + " wavefronts for an ideal of " + std::to_string(c.ideal);
}

std::string SynthResult::bounds_text() const {
  const int n = offset_bits;
  return "1 <= B <= " + std::to_string(n / 2) + ", 0 <= M <= " + std::to_string(std::max(0, n - 2)) + ", B <= |S|, S of either sign, M+B+|S| <= " +
         std::to_string(n) + ", and the identity Sw<0,0,0>";
}

SynthResult synthesize(const SynthRequest& r) {
  const auto t0 = Clock::now();
  const Tile t = make_tile(r);
  SynthResult out;
  out.offset_bits = bit_width(t.cosize - 1);
  const Layout& l = r.tile;
  const std::size_t other = t.mode == 0 ? 1 : 0;
  if (l.stride[other].is_leaf()) out.row_bits = exact_log2(l.stride[other].value());
  for (const auto& v : t.instrs) out.instructions.push_back(static_cast<i64>(v.size()));
  const int vec_log2 = exact_log2(r.vec);
  const int E = r.elem_bytes;
  const auto fam = family(out.offset_bits);
  BankCache cache(r.accesses.size());
  out.family_size = fam.size();
  for (const Swizzle& sw : fam) {
    if (r.prove.smt.deadline.passed()) {  // a partial ranking decides nothing: neither a winner nor "none"
      out.cut = r.prove.smt.deadline.reason() + " after " + std::to_string(out.ranked.size() + out.rejected.size()) +
                " of " + std::to_string(fam.size()) + " swizzles";
      return out;
    }
    Candidate c;
    c.sw = sw;
    auto map = [&](i64 o) { return sw.apply(o); };
    if (std::string w = image_witness(t, map); !w.empty()) {
      c.status = Candidate::Status::not_bijective;
      c.reject_why = std::move(w);
    } else if (std::string w2 = contiguity_witness(t, r.vec, map); !w2.empty()) {
      c.status = Candidate::Status::not_contiguous;
      c.reject_why = std::move(w2);
    }
    if (c.status != Candidate::Status::ok) {
      out.rejected.push_back(std::move(c));
      continue;
    }
    evaluate_banks(r, t, [&](i64 o) { return sw.apply(o) * E; }, c, r.cache ? &cache : nullptr);
    out.ranked.push_back(std::move(c));
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(), [&](const Candidate& a, const Candidate& b) {
    return rank_key(a, vec_log2, out.row_bits) < rank_key(b, vec_log2, out.row_bits);
  });
  out.search_ms = ms_since(t0);
  if (out.ranked.empty()) throw LayoutError("no swizzle keeps this tile a bijection with contiguous vectors (not even the identity)");
  out.best_wavefronts = out.ranked.front().wavefronts;
  out.best_degree = out.ranked.front().worst_degree;
  for (const auto& c : out.ranked) out.best_degree = std::min(out.best_degree, c.worst_degree);
  out.found = out.ranked.front().conflict_free();
  const auto t1 = Clock::now();
  if (out.found) prove_winner(r, out.ranked.front(), out);
  out.proof_ms = ms_since(t1);
  if (!out.found && r.gf2 && r.prove.smt.deadline.passed()) {
    out.cut = r.prove.smt.deadline.reason() + " before the GF(2) search";
    return out;
  }
  if (!out.found && r.gf2) {
    const auto t2 = Clock::now();
    const auto id = std::find_if(out.ranked.begin(), out.ranked.end(), [](const Candidate& c) { return c.sw.B == 0; });
    Candidate none;
    none.status = Candidate::Status::not_bijective;
    run_gf2(r, t, id != out.ranked.end() ? *id : none, out);
    out.gf2_ms = ms_since(t2);
  }
  return out;
}

}  // namespace layoutproof::proofs
