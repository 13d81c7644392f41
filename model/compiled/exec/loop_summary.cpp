#include "model/compiled/exec/loop_summary.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>

namespace layoutproof::compiled {
namespace {

using OK = Operand::Kind;

// Rounds of the generalized body before the lane stops: each round makes at least one more
// register "not known inside the loop", so this bounds the work, not the registers.
constexpr int kMaxRounds = 8;

Term reduced(Term t, int w) {
  t.c0 = mask_bits(t.c0, w);
  for (u64& x : t.c) x = mask_bits(x, w);
  t.w = w;
  return t;
}
// R before it is filled (true: every lane active) and for a round whose issues never ran (false).
Cond holds_always() {
  Cond c;
  c.kind = Cond::Kind::and_;
  return c;
}
Cond holds_never() {
  Cond c;
  c.kind = Cond::Kind::not_;
  return c;
}
Val not_known(u32 why, bool cta) {
  Val v;
  v.why = why;
  v.cta = cta;
  return v;
}
// The local memory two head states agree on: now's cells, each kept where `was` holds it
// identically and not known (why) where it differs; all lost where either is lost.
void local_meet(const std::vector<LocalCell>& was, u32 was_lost, std::vector<LocalCell>& now, u32& now_lost, u32 why) {
  if (was_lost || now_lost) {
    now.clear();
    now_lost = now_lost ? now_lost : was_lost;
    return;
  }
  for (LocalCell& c : now) {
    const auto same = std::find_if(was.begin(), was.end(), [&](const LocalCell& w) { return w.addr == c.addr && w.bytes == c.bytes; });
    if (same == was.end() || !identical(same->value, c.value)) c.value = not_known(why, false);
  }
}
// Whether the local memory `now` is one of the states g describes: every cell g knows (a known
// value, a term, a partly known one) is in now, identical. A store erases the cells it overlaps,
// so a load finds that cell in now as in g; a cell g does not know reads as not known either way.
bool local_within(const std::vector<LocalCell>& now, u32 now_lost, const std::vector<LocalCell>& g, u32 g_lost) {
  if (g_lost) return true;
  for (const LocalCell& c : g) {
    if (!c.value.known() && !c.value.sym && c.value.lowk == 0 && !cond_of(c.value)) continue;
    if (now_lost) return false;
    const auto same = std::find_if(now.begin(), now.end(), [&](const LocalCell& n) { return n.addr == c.addr && n.bytes == c.bytes; });
    if (same == now.end() || !identical(same->value, c.value)) return false;
  }
  return true;
}
// The opcodes an induction register's updates may come from: those the ALU keeps affine.
bool affine_writer(Op o) {
  switch (o) {
    case Op::mov: case Op::add: case Op::sub: case Op::mul: case Op::mad: case Op::shl: case Op::cvt: case Op::neg: return true;
    default: return false;
  }
}

}  // namespace

u32 LoopSummary::varying(const Track& t) { return t.vary_why; }

bool LoopSummary::stepping(const Track& t, const Lane& ln) const {
  const LaneLoop& ll = t.lane[static_cast<std::size_t>(ln.lane)];
  for (u32 r = 0; r < ll.h1.size(); ++r) {
    const Val& a = ll.h1[r];
    const Val& b = row(ln, r);
    if (!identical(a, b) && (a.known() || a.sym) && (b.known() || b.sym)) return true;
  }
  return false;
}

bool LoopSummary::moved(std::vector<Lane>& lanes, const std::vector<int>& group, u32 fi, u32 pc, u32 depth) {
  bool stopped = false;
  for (std::size_t t = 0; t < tracks_.size();) {
    Track& tr = tracks_[t];
    const bool inside = depth > 1 || (fi == tr.fi && pc >= tr.head && pc <= tr.back);
    for (const int k : group) {
      if (inside || !((tr.members >> k) & 1)) continue;
      tr.members &= ~(u32{1} << k);
      const bool exact = tr.pass == Track::Pass::concrete || (tr.pass == Track::Pass::one && !tr.lane[static_cast<std::size_t>(k)].skipped);
      if (exact) continue;
      if (tr.pass == Track::Pass::general) m_.conds[tr.lane[static_cast<std::size_t>(k)].ph] = holds_always();
      h_.stop(lanes[static_cast<std::size_t>(k)], "line " + std::to_string(tr.line) + ": a lane left the loop (whose trip count depends on the symbols) other than at its "
                                                  "back edge: the loop is not summarized (give the values: --param, --cta, --grid)");
      stopped = true;
    }
    if (tr.members == 0) tracks_.erase(tracks_.begin() + static_cast<std::ptrdiff_t>(t));
    else ++t;
  }
  return stopped;
}

void LoopSummary::begin(Track& t, Lane& ln, u32 c, u32 target) {
  LaneLoop& ll = t.lane[static_cast<std::size_t>(ln.lane)];
  ll = LaneLoop{};
  const u32 rows = p_.functions[t.fi].registers;
  ll.h1.reserve(rows);
  for (u32 r = 0; r < rows; ++r) ll.h1.push_back(row(ln, r));
  ll.cells = ln.cells, ll.local = ln.local, ll.local_lost = ln.local_lost;
  ll.p0 = ln.path;
  ll.q1 = m_.cond_and(ln.path, c);
  ll.pending = ln.pending.size();
  ll.skipped = c != 0;
  t.members |= u32{1} << ln.lane;
  if (ll.q1 == Machine::kNoCond) {
    t.members &= ~(u32{1} << ln.lane);
    return h_.stop(ln, "line " + std::to_string(t.line) + ": more conditions over the symbols than the run keeps");
  }
  ln.path = ll.q1;
  ln.stack.back().pc = target;
}

int LoopSummary::writer_bits(const Track& t, const Function& f, u32 r, bool affine_only) const {
  int w = 0;
  for (u32 k = t.head; k <= t.back && k < f.code.size(); ++k) {
    const Instr& in = f.code[k];
    for (u32 j = 0; j < (in.dual ? 2u : 1u) && j < in.count; ++j) {
      const Operand& d = arg(f, in, j);
      if (d.kind != OK::reg || d.index != r) continue;
      if (in.code.op == Op::st || in.code.op == Op::red || in.code.op == Op::stmatrix || in.code.op == Op::cp_async) continue;  // no write
      if (affine_only && !affine_writer(in.code.op)) return 0;
      const int b = in.code.type.bits * (in.code.wide ? 2 : 1);
      if (b <= 0 || b > 64 || (w && w != b)) return 0;
      w = b;
    }
  }
  return w;
}

// H(1) (ll.h1) against H(2) (the lane's registers now): each register's Row and G(i).
void LoopSummary::classify(const Track& t, LaneLoop& ll, const Lane& ln, const Function& f) {
  const std::size_t s = t.symbol < 0 ? 0 : static_cast<std::size_t>(t.symbol);
  const u32 vary = varying(t);
  const u32 iter = t.iter_why;
  const u32 rows = static_cast<u32>(ll.h1.size());
  ll.rows.assign(rows, Row::varying);
  ll.g.assign(rows, Val{});
  ll.steps.assign(rows, Term{});
  for (u32 r = 0; r < rows; ++r) {
    const Val& a = ll.h1[r];
    const Val& b = row(ln, r);
    if (identical(a, b)) {
      ll.rows[r] = Row::invariant, ll.g[r] = a;
      continue;
    }
    ll.g[r] = not_known(vary, a.cta || b.cta);
    if (t.symbol < 0) continue;  // no iteration symbol: no induction, no period
    if (a.placement != b.placement || a.window != b.window || cond_of(a) || cond_of(b)) continue;
    // H(1) and H(2) as terms of one width (a known value: the constant term, at the width the
    // body's writers give it), and the step d = H(2) - H(1).
    int w = a.sym ? a.symw : b.sym ? b.symw : writer_bits(t, f, r);
    if (w == 0 && a.known() && b.known()) {  // written by a non-affine operation (xor): periodic, or not known
      if (const int wb = writer_bits(t, f, r, false); wb > 0) {
        Term d;
        d.c0 = b.v - a.v;
        ll.steps[r] = reduced(d, wb);
        periodic(t, ll, f, r);
      }
      continue;
    }
    if (w == 0 || (a.sym && b.sym && a.symw != b.symw)) continue;
    const auto as_term = [&](const Val& v) {
      Term x;
      if (v.sym) x = m_.terms[v.sym];
      else x.c0 = v.v;
      return reduced(x, w);
    };
    const Term ta = as_term(a), tb = as_term(b);
    Term d;
    d.c0 = tb.c0 - ta.c0;
    for (std::size_t j = 0; j < d.c.size(); ++j) d.c[j] = tb.c[j] - ta.c[j];
    d = reduced(d, w);
    if (d == reduced(Term{}, w) || ta.c[s] != 0 || d.c[s] != 0) continue;
    // G(i) = H(1) + d i: affine where d is a constant, else H(1) plus the derived symbol i * d.
    std::optional<Term> tm = ta;
    const bool constant = std::all_of(d.c.begin(), d.c.end(), [](u64 x) { return x == 0; });
    if (constant) {
      tm->c[s] = d.c0;
    } else {
      Derived m;
      m.op = Derived::Op::mul;
      m.w = m.in_w = w;
      m.a.c[s] = 1;
      m.b = d;
      const int id = m_.derived(m, "the step of a value the loop at line " + std::to_string(t.line) + " changes, times its iteration");
      if (id < 0) continue;
      tm->c[static_cast<std::size_t>(id)] = 1;
    }
    *tm = reduced(*tm, w);
    ll.steps[r] = d;
    const u32 why = a.sym ? a.why : b.sym ? b.why : iter;
    if (!tm) continue;
    const Val v = m_.symbolic(*tm, w, why, a.placement, a.cta || b.cta);
    if (!v.sym) continue;
    ll.g[r] = v;
    ll.g[r].window = a.window;
    ll.rows[r] = Row::induction;
  }
  ll.cells_exact = same_cells(ln.cells, ll.cells);
  ll.glocal = ln.local, ll.glocal_lost = ln.local_lost;
  local_meet(ll.local, ll.local_lost, ll.glocal, ll.glocal_lost, vary);
}

bool LoopSummary::periodic(const Track& t, LaneLoop& ll, const Function& f, u32 r) {
  const Val& a = ll.h1[r];
  const Term& d = ll.steps[r];
  const int w = writer_bits(t, f, r, false);
  if (t.symbol < 0 || !a.known() || w == 0 || !std::all_of(d.c.begin(), d.c.end(), [](u64 x) { return x == 0; })) return false;
  Derived parity;  // i & 1
  parity.op = Derived::Op::and_;
  parity.w = parity.in_w = 64;
  parity.a.c[static_cast<std::size_t>(t.symbol)] = 1;
  parity.b.c0 = 1;
  const int p = m_.derived(parity, "the parity of the iteration of the loop at line " + std::to_string(t.line));
  if (p < 0) return false;
  Term g;
  g.c0 = a.v;
  g.c[static_cast<std::size_t>(p)] = d.c0;
  const Val v = m_.symbolic(reduced(g, w), w, t.iter_why, a.placement, a.cta);
  if (!v.sym) return false;
  ll.rows[r] = Row::periodic, ll.g[r] = v;
  return true;
}

// The body took G(i) = H(1) + d * (i & 1) to G(i + 1): H(1) + d where i is even, H(1) where odd.
// `now` must be a function of the parity alone (the parity, or symbols derived from it and
// constants), evaluated at both.
bool LoopSummary::periodic_holds(const Track& t, const LaneLoop& ll, const Val& now, u32 r) const {
  const Val& g = ll.g[r];
  if (!g.sym || !(now.known() || now.sym) || now.placement != g.placement || now.window != g.window) return false;
  const int w = g.symw;
  const std::size_t n = m_.symbols.size();
  // The symbols of the parity: those derived from i through (i & 1) alone.
  std::vector<char> of_parity(n, 0);
  const Term& gt = m_.terms[g.sym];
  for (std::size_t j = 0; j < n && j < gt.c.size(); ++j)
    if (mask_bits(gt.c[j], w) != 0) of_parity[j] = 1;  // the parity itself (G's only symbol)
  const auto only = [&](const Term& x) {
    for (std::size_t j = 0; j < x.c.size(); ++j)
      if (mask_bits(x.c[j], x.w) != 0 && (j >= n || !of_parity[j])) return false;
    return true;
  };
  for (std::size_t j = 0; j < n; ++j)
    if (!of_parity[j] && m_.symbols[j].kind == Symbol::Kind::derived && (only(m_.symbols[j].def.a) && only(m_.symbols[j].def.b)))
      of_parity[j] = 1;  // symbols are made after those they are derived from: one pass in order
  Term x;
  if (now.sym) {
    x = m_.terms[now.sym];
    x.w = now.symw;
  } else {
    x.c0 = now.v;
    x.w = w;
  }
  if (!only(x)) return false;
  const Term& h = m_.terms[g.sym];
  const auto at_iteration = [&](u64 i) {
    std::vector<u64> v(n, 0);
    v[static_cast<std::size_t>(t.symbol)] = i;
    return symbol_values(m_.symbols, std::move(v));
  };
  for (u64 i = 0; i < 2; ++i)  // the register holds x's low x.w bits, zero-extended
    if (mask_bits(evaluate(x, at_iteration(i)), std::min(w, x.w)) != mask_bits(evaluate(h, at_iteration(i + 1)), w)) return false;
  return true;
}

// The lane at the head of iteration 1 + i: G(i), under path(H(1)) && R(i) (a fresh R, filled later).
void LoopSummary::apply(const Track& t, LaneLoop& ll, Lane& ln) {
  const u32 vary = varying(t);
  for (u32 r = 0; r < ll.g.size(); ++r) row(ln, r) = ll.g[r];
  if (ll.cells_exact) ln.cells = ll.cells;
  else
    for (Cell& c : ln.cells) c.value = not_known(vary, false);
  ln.local = ll.glocal, ln.local_lost = ll.glocal_lost;
  ll.ph = 0;
  if (m_.conds.size() < Machine::kMaxTerms) {
    m_.conds.push_back(holds_always());  // true until filled
    ll.ph = static_cast<u32>(m_.conds.size() - 1);
  }
  const u32 path = ll.ph ? m_.cond_and(ll.q1, ll.ph) : Machine::kNoCond;
  if (path == Machine::kNoCond) return h_.stop(ln, "line " + std::to_string(t.line) + ": more conditions over the symbols than the run keeps");
  ln.path = path;
  ln.stack.back().pc = t.head;
}

// The registers (and cells) whose induction step does not hold after the generalized body.
std::vector<u32> LoopSummary::verify(const Track& t, LaneLoop& ll, const Lane& ln) const {
  std::vector<u32> bad;
  for (u32 r = 0; r < ll.g.size(); ++r) {
    const Val& now = row(ln, r);
    const Val& g = ll.g[r];
    if (ll.rows[r] == Row::invariant && !identical(now, g)) bad.push_back(r);
    if (ll.rows[r] == Row::periodic && !periodic_holds(t, ll, now, r)) bad.push_back(r);
    if (ll.rows[r] != Row::induction) continue;
    if (!now.sym || now.symw != g.symw || now.placement != g.placement || now.window != g.window) {
      bad.push_back(r);
      continue;
    }
    Term want = m_.terms[g.sym];
    const Term& d = ll.steps[r];
    want.c0 += d.c0;
    for (std::size_t j = 0; j < want.c.size(); ++j) want.c[j] += d.c[j];
    if (!(reduced(want, g.symw) == reduced(m_.terms[now.sym], g.symw))) bad.push_back(r);
  }
  if (ll.cells_exact && !same_cells(ln.cells, ll.cells)) bad.push_back(kCells);
  if (!local_within(ln.local, ln.local_lost, ll.glocal, ll.glocal_lost)) bad.push_back(kLocal);
  return bad;
}

// R(i) once the body ran: (i == 0) || taken[R := true][i := i - 1]; (i == 0) alone where the lane
// never goes on past iteration 1 (ends: the back edge is known not taken).
void LoopSummary::fill(const Track& t, LaneLoop& ll, u32 taken, bool ends) {
  if (t.symbol < 0) return;  // no iteration symbol to state R with: it stays true (weaker, sound)
  const std::size_t s = static_cast<std::size_t>(t.symbol);
  Cond first;
  first.kind = Cond::Kind::cmp;
  first.cmp = Cmp::eq;
  first.w = 64;
  first.a.c[s] = 1;
  const u32 zero = m_.cond(first);
  if (zero == Machine::kNoCond) return;  // R stays true: weaker, still sound
  if (ends) {
    m_.conds[ll.ph] = m_.conds[zero];
    return;
  }
  std::unordered_map<u32, u32> memo;
  std::function<u32(u32)> back = [&](u32 x) -> u32 {
    if (x == 0 || x == ll.ph) return 0;
    if (x == Machine::kNoCond) return x;
    if (const auto it = memo.find(x); it != memo.end()) return it->second;
    const Cond k = m_.conds[x];  // a copy: cond() may grow the table
    u32 out = x;
    if (k.kind == Cond::Kind::cmp) {
      Cond c = k;
      c.a.c0 -= c.a.c[s];
      c.b.c0 -= c.b.c[s];
      if (!(c.a == k.a && c.b == k.b)) out = m_.cond(c);
    } else {
      const u32 a = back(k.x), b = k.kind == Cond::Kind::not_ ? 0 : back(k.y);
      if (a == Machine::kNoCond || b == Machine::kNoCond) out = Machine::kNoCond;
      else if (a != k.x || (k.kind != Cond::Kind::not_ && b != k.y)) {
        Cond c = k;
        c.x = a, c.y = b;
        out = k.kind == Cond::Kind::not_ ? m_.cond_not(a) : m_.cond(c);
      }
    }
    memo.emplace(x, out);
    return out;
  };
  const u32 before = back(taken);
  if (before == Machine::kNoCond) return;
  Cond either;
  either.kind = Cond::Kind::or_;
  either.x = zero, either.y = before;
  m_.conds[ll.ph] = either;
}

// The lane leaves the loop at the back edge's fall-through (or finishes where nothing after it
// reaches shared memory). invariants_only: with G's invariants, every other register not known;
// else (the loop ends after iteration 1, before any generalizing) with what H(1) and now agree on.
void LoopSummary::leave(Track& t, Lane& ln, const Instr& in, bool invariants_only) {
  LaneLoop& ll = t.lane[static_cast<std::size_t>(ln.lane)];
  t.members &= ~(u32{1} << ln.lane);
  const u32 why = t.after_why;
  for (u32 r = 0; r < ll.h1.size(); ++r) {
    Val& now = row(ln, r);
    // A lane that leaves in the generalized body keeps an invariant only where it still holds it.
    if (invariants_only ? ll.rows[r] == Row::invariant && identical(now, ll.g[r]) : identical(now, ll.h1[r])) continue;
    now = not_known(why, now.cta || ll.h1[r].cta);
  }
  const bool cells = (!invariants_only || ll.cells_exact) && same_cells(ln.cells, ll.cells);
  if (cells) ln.cells = ll.cells;
  else
    for (Cell& c : ln.cells) c.value = not_known(why, false);
  // What every exit agrees on: the cells the head state knows and the lane still holds.
  if (invariants_only) local_meet(ll.glocal, ll.glocal_lost, ln.local, ln.local_lost, why);
  else local_meet(ll.local, ll.local_lost, ln.local, ln.local_lost, why);
  ln.path = ll.p0;
  const u32 next = ln.stack.back().pc + 1;
  if (in.guard < 0 || !h_.shared_reachable(t.fi, next)) ln.stack.clear();  // every exit it had reaches no shared memory
  else ln.stack.back().pc = next;
}

bool LoopSummary::back_edge(std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                            const std::array<u32, kWarpLanes>& guard_unknown, const std::array<u32, kWarpLanes>& guard_cond,
                            const Function& f, u32 fi, u32 pc, const Instr& in) {
  const u32 target = arg(f, in, 0).index;
  // Per lane: 0 its guard is not known (it stops), 1 not taken, 2 taken where cnd holds (0: always).
  std::array<u8, kWarpLanes> st{};
  std::array<u32, kWarpLanes> cnd{};
  u32 gmask = 0;
  bool need = false;
  for (const int k : group) {
    const std::size_t s = static_cast<std::size_t>(k);
    gmask |= u32{1} << k;
    if (guard_cond[s]) st[s] = 2, cnd[s] = guard_cond[s];
    else if (guard_unknown[s]) st[s] = 0;
    else st[s] = active[s] ? 2 : 1;
    need = need || (st[s] == 2 && (cnd[s] || lanes[s].path));
  }
  auto it = std::find_if(tracks_.begin(), tracks_.end(), [&](const Track& t) { return t.fi == fi && t.back == pc && (t.members & gmask); });
  if (it == tracks_.end() && !need) return false;
  const std::string at = "line " + std::to_string(in.line);
  const auto unknown_guard = [&](int k) {
    h_.stop(lanes[static_cast<std::size_t>(k)], m_.reasons[guard_unknown[static_cast<std::size_t>(k)]] + " decides a branch at " + at);
  };
  if (it == tracks_.end()) {
    Track t;
    t.fi = fi, t.head = target, t.back = pc, t.line = in.line;
    t.vary_why = m_.reason("a value the loop at line " + std::to_string(t.line) + " changes other than by a constant step per iteration: not known inside it");
    t.after_why = m_.reason("a value the loop at line " + std::to_string(t.line) + " changes: not known after it (its trip count depends on the symbols)");
    t.iter_why = m_.reason("computed from the iteration of the loop at line " + std::to_string(t.line) + " (a symbol: the claims are about every iteration)");
    for (const int k : group) {
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      if (st[static_cast<std::size_t>(k)] == 0) unknown_guard(k);
      else if (st[static_cast<std::size_t>(k)] == 1) ++ln.stack.back().pc;
      else begin(t, ln, cnd[static_cast<std::size_t>(k)], target);
    }
    if (t.members) tracks_.push_back(std::move(t));
    return true;
  }
  Track& t = *it;
  // Lanes that are not the track's own, or the track's that are not here, would make one issue of
  // lanes at different iterations: they stop.
  for (int k = 0; k < kWarpLanes; ++k) {
    const u32 bit = u32{1} << k;
    if ((t.members & bit) && !(gmask & bit)) {
      t.members &= ~bit;
      if (k < static_cast<int>(lanes.size()) && !lanes[static_cast<std::size_t>(k)].stack.empty()) {
        if (t.pass == Track::Pass::general) m_.conds[t.lane[static_cast<std::size_t>(k)].ph] = holds_always();
        h_.stop(lanes[static_cast<std::size_t>(k)], at + ": lanes of one warp reach the back edge of a loop whose trip count depends on the symbols apart");
      }
    }
  }
  std::vector<int> taken;
  for (const int k : group) {
    const std::size_t s = static_cast<std::size_t>(k);
    Lane& ln = lanes[s];
    if (!(t.members & (u32{1} << k))) {
      if (st[s] == 0) unknown_guard(k);
      else if (st[s] == 1) ++ln.stack.back().pc;
      else h_.stop(ln, at + ": lanes of one warp reach the back edge of a loop whose trip count depends on the symbols apart");
      continue;
    }
    if (st[s] == 0) {
      if (t.pass == Track::Pass::general) m_.conds[t.lane[s].ph] = holds_always();
      t.members &= ~(u32{1} << k);
      unknown_guard(k);
    } else if (st[s] == 1) {
      if (t.pass == Track::Pass::general) fill(t, t.lane[s], 0, true);
      if (t.pass == Track::Pass::concrete) t.members &= ~(u32{1} << k), ++ln.stack.back().pc;
      else leave(t, ln, in, t.pass == Track::Pass::general);
    } else if (ln.pending.size() != t.lane[s].pending) {
      if (t.pass == Track::Pass::general) m_.conds[t.lane[s].ph] = holds_always();
      t.members &= ~(u32{1} << k);
      h_.stop(ln, at + ": a loop whose trip count depends on the symbols with a region under a condition that does not close inside its body: "
                       "not summarized");
    } else {
      taken.push_back(k);
    }
  }
  const auto erase_if_empty = [&] {
    if (t.members == 0) tracks_.erase(tracks_.begin() + (&t - tracks_.data()));
  };
  if (taken.empty()) {
    erase_if_empty();
    return true;
  }
  switch (t.pass) {
    case Track::Pass::concrete:
    case Track::Pass::one: {
      bool same_path = true;
      for (const int k : taken) {
        const std::size_t s = static_cast<std::size_t>(k);
        same_path = same_path && !t.lane[s].skipped && cnd[s] == 0 && lanes[s].path == t.lane[s].q1;
      }
      if (same_path) {  // the loop goes on under no new condition: it runs as any other
        t.pass = Track::Pass::concrete;
        for (const int k : taken) lanes[static_cast<std::size_t>(k)].stack.back().pc = target;
        break;
      }
      if (t.pass == Track::Pass::concrete) {  // a condition appeared: iteration 0 starts here
        t.pass = Track::Pass::one;
        for (const int k : taken) begin(t, lanes[static_cast<std::size_t>(k)], cnd[static_cast<std::size_t>(k)], target);
        break;
      }
      // With every symbol in use the iteration is not one: the summary keeps the invariants alone
      // (every other value not known inside the loop) and R(i) stays true.
      // A loop where no value changes by a step (a CAS spin: only data changes) needs no symbol.
      t.symbol = std::any_of(taken.begin(), taken.end(), [&](int k) { return stepping(t, lanes[static_cast<std::size_t>(k)]); })
                     ? m_.iteration_symbol(fi, pc, in.line)
                     : -1;
      if (t.symbol < 0)
        t.vary_why = m_.reason("a value the loop at line " + std::to_string(t.line) + " changes (more than " + std::to_string(kMaxSymbols) +
                               " symbols in use: its iteration is not a symbol): not known inside it");
      t.pass = Track::Pass::general;
      for (const int k : taken) {
        LaneLoop& ll = t.lane[static_cast<std::size_t>(k)];
        classify(t, ll, lanes[static_cast<std::size_t>(k)], f);
        apply(t, ll, lanes[static_cast<std::size_t>(k)]);
      }
      break;
    }
    case Track::Pass::general: {
      // The induction step, for every lane that goes on: where it fails, the registers that broke
      // it are not known inside the loop, and the body runs again for every lane (the round's
      // issues are dropped: their R is false).
      bool all = true;
      std::vector<std::vector<u32>> bad(taken.size());
      for (std::size_t j = 0; j < taken.size(); ++j) {
        const Lane& ln = lanes[static_cast<std::size_t>(taken[j])];
        LaneLoop& ll = t.lane[static_cast<std::size_t>(taken[j])];
        bad[j] = verify(t, ll, ln);
        all = all && bad[j].empty();
      }
      if (all) {
        for (const int k : taken) {
          Lane& ln = lanes[static_cast<std::size_t>(k)];
          fill(t, t.lane[static_cast<std::size_t>(k)], m_.cond_and(ln.path, cnd[static_cast<std::size_t>(k)]), false);
          leave(t, ln, in, true);
        }
        break;
      }
      if (++t.rounds >= kMaxRounds) {
        for (std::size_t j = 0; j < taken.size(); ++j) {
          Lane& ln = lanes[static_cast<std::size_t>(taken[j])];
          m_.conds[t.lane[static_cast<std::size_t>(taken[j])].ph] = holds_always();
          t.members &= ~(u32{1} << taken[j]);
          h_.stop(ln, at + ": the loop whose trip count depends on the symbols keeps values that are not invariant or a constant step per "
                           "iteration (" + std::to_string(kMaxRounds) + " rounds): not summarized (give the values: --param, --cta, --grid)");
        }
        break;
      }
      const u32 vary = varying(t);
      for (std::size_t j = 0; j < taken.size(); ++j) {
        Lane& ln = lanes[static_cast<std::size_t>(taken[j])];
        LaneLoop& ll = t.lane[static_cast<std::size_t>(taken[j])];
        m_.conds[ll.ph] = holds_never();  // not true: the round's issues never ran
        for (const u32 r : bad[j]) {
          if (r == kCells) ll.cells_exact = false;
          else if (r == kLocal) local_meet(std::vector<LocalCell>(ln.local), ln.local_lost, ll.glocal, ll.glocal_lost, vary);
          else if (ll.rows[r] != Row::induction || !periodic(t, ll, f, r)) ll.rows[r] = Row::varying, ll.g[r] = not_known(vary, ll.g[r].cta);
        }
        apply(t, ll, ln);
      }
      break;
    }
  }
  erase_if_empty();
  return true;
}

}  // namespace layoutproof::compiled
