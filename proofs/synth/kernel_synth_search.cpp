// The search of synth --kernel (proofs/synth/kernel_synth_search.hpp): the reference engine and the
// class engine, sharing the family walk, the duplicate test and the per-copy set-up.
#include "proofs/synth/kernel_synth_search.hpp"

#include <map>
#include <unordered_map>
#include <utility>

#include "model/source/kernel_expr.hpp"

namespace layoutproof::proofs::detail {
namespace {

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

TraceClaim claim(const char* text) { return *parse_trace_claim(text); }
bool decided(const Verdict& v) { return v.is_proved() || v.is_refuted(); }

// Writes the addresses of `off` (element offsets by logical index) into instruction in. slices
// false: only each lane's address (its slice's first element), for a copy whose slices are not read.
template <class Offset>
void readdress_one(TraceInstruction& in, const Offset& off, int e, bool slices) {
  const std::size_t len = at(in.slice_len);
  for (int l = 0; l < kWarpLanes; ++l) {
    const i64 first = in.slice_elems[at(l) * len];
    in.addr[at(l)] = first < 0 ? -1 : off(first) * e;
    for (std::size_t j = 0; slices && j < len; ++j) {
      const std::size_t s = at(l) * len + j;
      const i64 x = in.slice_elems[s];
      in.slice_addrs[s] = x < 0 ? -1 : off(x) * e;
    }
  }
}

// The vector-legal claim on one instruction (trace_claims' vector_legal, lane by lane): every
// active lane's address a is a multiple of the width and its slice's j-th element at a + j*e.
bool instruction_vector_legal(const TraceInstruction& in, int e) {
  const std::size_t len = at(in.slice_len);
  for (int l = 0; l < kWarpLanes; ++l) {
    if (!is_active_lane(in, l)) continue;
    const i64 a = in.addr[at(l)];
    if (a % in.width_bytes != 0) return false;
    for (std::size_t j = 0; j < len; ++j)
      if (in.slice_addrs[at(l) * len + j] != a + static_cast<i64>(j) * e) return false;
  }
  return true;
}

// Periodicity of one mode (see the header): L(x + p e_d) = L(x) + step for every x in the tile
// with x + p e_d in it. ok false: not established (the class key keeps b_d itself).
struct Period {
  bool ok = false;
  i64 p = 1, step = 0;
};

// A class partition of one copy's instructions for one period signature: each class's first
// instruction and its size, in order of first instructions.
struct Rep {
  i64 first = 0, count = 0;
};

// One copy during the search: its trace on the compact layout (re-addressed in place per member)
// and its memo.
struct CopyModel {
  const KernelSynthCopy* k = nullptr;
  bool retrace = false;  // AutoVectorizingCopy: the width depends on the layout
  // One element per lane (slice_len 1, width = element bytes): the address, offset * element
  // bytes, is aligned and its one-element slice contiguous on every layout; not checked per member.
  bool scalar = false;
  // The vector-legal claim errs on the trace whatever the addresses (malformed, sub-byte): the
  // class engine leaves such a copy to the reference path, which reports the error per member.
  bool reference_only = false;
  AddressTrace work;
  BankMemo memo;
  std::vector<int> group;                   // per instruction: its group (same rel, see the header)
  std::vector<std::array<i64, 3>> base;     // per instruction: b = (m, k, stage) of its first element
  std::map<std::vector<i64>, std::vector<Rep>> partitions;  // by period signature
};

// A plain (unswizzled) member, by its C++, with its offset table and periods.
struct Plain {
  Layout layout;
  std::vector<i64> offsets;
  std::array<Period, 3> period;
};

class Search {
 public:
  Search(const KernelSynthRequest& r, KernelSynthResult& out)
      : r_(r), out_(out), e_(out.element_bytes), e0_(r.shape[0]), e1_(r.shape[1]), stages_(r.shape.size() == 3 ? r.shape[2] : 1) {}

  void run() {
    init_copies();
    const auto family = kernel_family(r_, e_);
    out_.family_size = static_cast<i64>(family.size());
    plains_of_.reserve(family.size());
    by_stage_ = !r_.reference_search;
    for (const auto& c : family) {
      plains_of_.push_back(&plain(c));
      by_stage_ = by_stage_ && member_period(c, *plains_of_.back(), 2).ok;
    }
    stage_len_ = by_stage_ ? e0_ * e1_ : e0_ * e1_ * stages_;
    for (i64 i = 0; i < out_.family_size; ++i) {
      if (i % 64 == 0 && r_.prove.smt.deadline.passed()) {
        out_.deadline_cut = true;
        break;
      }
      visit(family, i);
      if (r_.progress && ((i + 1) % 256 == 0 || i + 1 == out_.family_size)) r_.progress(i + 1, out_.family_size);
    }
    for (const auto& m : models_) out_.bank_evaluations += static_cast<i64>(m.memo.evaluations());
  }

 private:
  const KernelSynthRequest& r_;
  KernelSynthResult& out_;
  int e_;
  i64 e0_, e1_, stages_;
  std::vector<CopyModel> models_;
  std::map<std::string, Plain> plains_;
  std::vector<const Plain*> plains_of_;  // per family member
  bool by_stage_ = true;                 // every member periodic along the stage: compare first stages
  i64 stage_len_ = 0;                    // table entries compared by the duplicate test
  std::vector<i64> table_, other_;       // reused: no allocation per member
  std::unordered_map<std::uint64_t, std::vector<i64>> seen_;  // signature hash -> members

  std::array<i64, 3> coord(i64 x) const { return {x % e0_, (x / e0_) % e1_, x / (e0_ * e1_)}; }

  void init_copies() {
    const AnyLayout base(compact_tile(r_.shape));
    models_.resize(r_.copies.size());
    std::map<std::vector<i64>, int> groups;
    for (std::size_t i = 0; i < r_.copies.size(); ++i) {
      const KernelSynthCopy& k = r_.copies[i];
      CopyModel& m = models_[i];
      m.k = &k;
      m.retrace = k.copy.atom.op.kind == CopyKind::autovec;
      m.work = trace_copy(k.copy, base, k.side);
      m.scalar = !m.retrace && !m.work.instructions.empty() && m.work.instructions.front().slice_len == 1 &&
                 m.work.width_bytes == e_;
      m.reference_only = r_.reference_search || m.retrace ||
                         !decided(check_trace_exhaustive(m.work, claim("vector-legal")).verdict);
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
      if (!m.reference_only) group_instructions(m, groups);
    }
  }

  // Each instruction's base and group (the lanes' coordinates relative to the base).
  void group_instructions(CopyModel& m, std::map<std::vector<i64>, int>& groups) {
    std::vector<i64> rel;
    for (const auto& in : m.work.instructions) {
      std::array<i64, 3> b{0, 0, 0};
      for (i64 x : in.slice_elems)
        if (x >= 0) {
          b = coord(x);
          break;
        }
      rel.clear();
      for (i64 x : in.slice_elems) {
        if (x < 0) {
          rel.insert(rel.end(), {-1, -1, -1, -1});
          continue;
        }
        const auto c = coord(x);
        rel.insert(rel.end(), {0, c[0] - b[0], c[1] - b[1], c[2] - b[2]});
      }
      m.base.push_back(b);
      m.group.push_back(groups.emplace(rel, static_cast<int>(groups.size())).first->second);
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

  // Checks L(x + p e_d) = L(x) + step on the whole table (step read at x = 0).
  Period check_period(const std::vector<i64>& off, int d, i64 p) const {
    const std::array<i64, 3> ext{e0_, e1_, stages_};
    const std::array<i64, 3> unit{1, e0_, e0_ * e1_};
    if (p < 1 || p >= ext[at(d)]) return {};
    const i64 shift = p * unit[at(d)];
    const i64 step = off[at(shift)] - off[0];
    for (i64 x = 0; x < static_cast<i64>(off.size()); ++x) {
      if (coord(x)[at(d)] + p >= ext[at(d)]) continue;
      if (off[at(x + shift)] - off[at(x)] != step) return {};
    }
    return {true, p, step};
  }

  const Plain& plain(const SmemCandidate& c) {
    SmemCandidate p = c;
    p.sw = Swizzle{0, 0, 0};
    const std::string key = candidate_cpp(p, r_.shape);
    auto it = plains_.find(key);
    if (it != plains_.end()) return it->second;
    const AnyLayout l = parse_smem_layout(key);
    Plain pl{l.layout, offsets(l.layout), {}};
    // The atom's extents along (MN, K); a padded member is linear (period 1).
    const i64 p0 = c.padded() ? 1 : (c.major == Major::k ? c.rows : c.width);
    const i64 p1 = c.padded() ? 1 : (c.major == Major::k ? c.width : c.rows);
    pl.period = {check_period(pl.offsets, 0, p0), check_period(pl.offsets, 1, p1), check_period(pl.offsets, 2, 1)};
    return plains_.emplace(key, std::move(pl)).first->second;
  }

  // The member's period along d: the plain one, kept by the swizzle when its step is a multiple
  // of 2^(B+M+S) (see the header).
  static Period member_period(const SmemCandidate& c, const Plain& p, int d) {
    Period q = p.period[at(d)];
    if (q.ok && c.sw.B != 0 && q.step % (i64{1} << c.sw.span_bits()) != 0) return {};
    return q;
  }

  static AnyLayout member_layout(const SmemCandidate& c, const Plain& p) {
    return c.sw.B ? AnyLayout(c.sw, 0, p.layout) : AnyLayout(p.layout);
  }

  // The member's offsets by logical index, the first `n` of them, into t.
  static void table(const SmemCandidate& c, const Plain& p, i64 n, std::vector<i64>& t) {
    t.resize(at(n));
    const Swizzle sw = c.sw;
    const i64* o = p.offsets.data();
    for (i64 i = 0; i < n; ++i) t[at(i)] = sw.apply(o[i]);  // Sw<0,0,0> is the identity
  }

  // Four interleaved FNV-1a streams (independent multiplies), combined.
  static std::uint64_t hash(const std::vector<i64>& t, i64 extra) {
    std::uint64_t h[4] = {1469598103934665603ull, 2, 3, 5};
    const std::size_t n = t.size();
    for (std::size_t i = 0; i < n; ++i) h[i & 3] = (h[i & 3] ^ static_cast<std::uint64_t>(t[i])) * 1099511628211ull;
    return (((h[0] * 31 + h[1]) * 31 + h[2]) * 31 + h[3]) * 31 + static_cast<std::uint64_t>(extra);
  }

  // True when an earlier member has the same offsets on the whole tile: the same first stage and
  // stage step when every member is periodic along the stage, else the same whole table.
  bool duplicate(const std::vector<SmemCandidate>& family, i64 index, const std::vector<i64>& t) {
    const auto stage_step = [&](i64 i) { return by_stage_ ? member_period(family[at(i)], *plains_of_[at(i)], 2).step : 0; };
    const i64 step = stage_step(index);
    auto& bucket = seen_[hash(t, step)];
    for (i64 other : bucket) {
      if (stage_step(other) != step) continue;
      table(family[at(other)], *plains_of_[at(other)], stage_len_, other_);
      if (other_ == t) return true;
    }
    bucket.push_back(index);
    return false;
  }

  void visit(const std::vector<SmemCandidate>& family, i64 index) {
    const SmemCandidate& c = family[at(index)];
    const Plain& p = *plains_of_[at(index)];
    table(c, p, stage_len_, table_);
    if (duplicate(family, index, table_)) {
      ++out_.duplicates;
      return;
    }
    KernelCandidate k;
    k.c = c;
    k.index = index;
    k.smem_bytes = checked_mul(cosize(p.layout), e_);
    // Each copy's trace on this member, checked vector-legal before any bank model: a member that
    // breaks one copy is rejected without tracing or scoring the others.
    std::vector<AddressTrace> fresh(models_.size());
    std::vector<const std::vector<Rep>*> reps(models_.size(), nullptr);
    const auto off = [&](i64 x) { return c.sw.apply(p.offsets[at(x)]); };
    for (std::size_t i = 0; i < models_.size(); ++i) {
      CopyModel& m = models_[i];
      std::string why;
      if (m.reference_only) {
        if (m.retrace) fresh[i] = trace_copy(m.k->copy, member_layout(c, p), m.k->side);
        else
          for (auto& in : m.work.instructions) readdress_one(in, off, e_, !m.scalar);
        if (!m.scalar) why = vector_refutation(m.retrace ? fresh[i] : m.work);
      } else {
        reps[i] = &partition(m, c, p);
        why = readdress_classes(m, *reps[i], off);
      }
      if (!why.empty()) {
        k.illegal_copy = static_cast<i64>(i);
        k.illegal_why = std::move(why);
        out_.rejected.push_back(std::move(k));
        return;
      }
    }
    for (std::size_t i = 0; i < models_.size(); ++i) {
      CopyModel& m = models_[i];
      if (reps[i]) k.copies.push_back(class_score(m, *reps[i]));
      else k.copies.push_back(bank_score(m.retrace ? fresh[i] : m.work, &m.memo));
    }
    k.wavefronts = 0;
    for (const auto& s : k.copies) {
      k.total_wavefronts += s.total_wavefronts;
      if (k.wavefronts == 0 || i64{s.wavefronts} * k.ideal > i64{k.wavefronts} * s.ideal) k.wavefronts = s.wavefronts, k.ideal = s.ideal;
    }
    out_.ranked.push_back(std::move(k));
  }

  // The copy's classes on this member (cached by the period signature).
  const std::vector<Rep>& partition(CopyModel& m, const SmemCandidate& c, const Plain& p) {
    std::array<Period, 3> per{member_period(c, p, 0), member_period(c, p, 1), member_period(c, p, 2)};
    std::vector<i64> sig;
    for (const Period& q : per) sig.insert(sig.end(), {q.ok ? q.p : 0, q.ok ? (q.step * e_) % 128 : 0});
    auto [it, fresh] = m.partitions.try_emplace(sig);
    if (!fresh) return it->second;
    std::map<std::vector<i64>, std::size_t> index;
    std::vector<i64> key;
    for (std::size_t n = 0; n < m.base.size(); ++n) {
      key.assign({m.group[n]});
      i64 phase = 0;
      for (std::size_t d = 0; d < 3; ++d) {
        const i64 b = m.base[n][d];
        if (!per[d].ok) {
          key.push_back(b);
          continue;
        }
        key.push_back(b % per[d].p);
        phase = (phase + ((b / per[d].p) % 128) * ((per[d].step * e_) % 128)) % 128;
      }
      key.push_back(phase);
      auto [slot, added] = index.try_emplace(key, it->second.size());
      if (added) it->second.push_back({static_cast<i64>(n), 0});
      ++it->second[slot->second].count;
    }
    return it->second;
  }

  // Re-addresses each class's first instruction and checks it vector-legal: "" when every class
  // is, else the vector-legal refutation of the whole trace, which stops at that instruction (the
  // instructions before it, re-addressed too, are legal: their classes came first).
  template <class Offset>
  std::string readdress_classes(CopyModel& m, const std::vector<Rep>& reps, const Offset& off) {
    for (const Rep& rep : reps) {
      TraceInstruction& in = m.work.instructions[at(rep.first)];
      readdress_one(in, off, e_, !m.scalar);
      if (m.scalar || instruction_vector_legal(in, m.work.element_bytes)) continue;
      for (i64 n = 0; n < rep.first; ++n) readdress_one(m.work.instructions[at(n)], off, e_, true);
      std::string why = vector_refutation(m.work);
      if (why.empty()) throw LayoutError("internal: synth --kernel's per-class vector check disagrees with the vector-legal claim");
      return why;
    }
    return "";
  }

  // bank_score over the classes: each class's first instruction, weighted by the class size.
  static CopyScore class_score(CopyModel& m, const std::vector<Rep>& reps) {
    CopyScore s;
    s.width_bytes = m.work.width_bytes;
    for (const Rep& rep : reps) {
      const BankCounts& n = m.memo.counts(m.work.instructions[at(rep.first)].access());
      s.total_wavefronts += rep.count * n.wavefronts;
      s.total_ideal += rep.count * n.ideal;
      s.conflicted += n.wavefronts > n.ideal ? rep.count : 0;
      if (s.worst < 0 || i64{n.wavefronts} * s.ideal > i64{s.wavefronts} * n.ideal) {
        s.worst = rep.first;
        s.wavefronts = n.wavefronts;
        s.ideal = n.ideal;
      }
    }
    return s;
  }
};

}  // namespace

std::string vector_refutation(const AddressTrace& t) {
  const TraceResult v = check_trace_exhaustive(t, claim("vector-legal"));
  if (v.verdict.is_proved()) return "";
  return v.witness ? v.witness->why : v.verdict.detail;
}

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

void run_search(const KernelSynthRequest& r, KernelSynthResult& out) { Search(r, out).run(); }

Layout compact_tile(const std::vector<i64>& shape) {
  std::vector<i64> stride;
  i64 s = 1;
  for (i64 x : shape) stride.push_back(std::exchange(s, checked_mul(s, x)));
  return Layout::flat(shape, stride);
}

}  // namespace layoutproof::proofs::detail
