// The compiled-kernel soak's INDEPENDENT truth (compiled_kernel.hpp): the abstract kernel run by
// brute force, every warp, every lane, every value of the free parameters, and each claim decided
// from the definitions in proofs/claims/ptx_claims.hpp and docs/bank_model.md. Nothing here includes
// model/ or proofs/.
//
// Bank claims. docs/bank_model.md: a phase needs the most distinct words its active lanes touch in
// one bank, and "conflict-free <=> wavefronts == ideal <=> no phase has a collision, for every
// instruction", the cross-phase merges of LDS.64/LDS.128 (the fitted, measured part of the rule)
// only lowering both. So conflict-free and max-ways:K are decided exactly from the phases alone
// (LDS/STS of 1-4 bytes: one phase; 8: half-warps; 16: quarter-warps; ldmatrix/stmatrix .xN: N
// phases of 8 lanes, lanes >= 8N ignored; cp.async as an STS of its size), for every pattern class
// the generator makes: no class needs restricting. What the fitted part decides (wavefront counts)
// is not compared. cp.async follows the measured H200 rule instead (docs/bank_model.md "cp.async",
// restated in ldgsts_rule below): its global side is the pointer (never fixed) plus tid.x times
// the element size, and a free pointer only rotates the L1 banks, so the rule's count is known.
#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "tests/soak/compiled_kernel.hpp"
#include "tests/soak/reference.hpp"

namespace soakc {

const char* truth_name(Truth t) {
  static const char* n[] = {"holds", "fails", "vacuous", "unknowable", "valid-holds", "invalid", "no-rule", "n/a"};
  return n[static_cast<int>(t)];
}

std::string claim_text(int c, int ways) {
  static const char* n[] = {"conflict-free", "max-ways", "aligned", "in-bounds", "no-overlap"};
  return c == kMaxWays ? "max-ways:" + std::to_string(ways) : n[c];
}

std::vector<i64> placements(const Kernel& k, Format f) {
  std::vector<i64> out;
  i64 at = 0;
  for (const Symbol& s : k.symbols) {
    if (s.dynamic) continue;
    at = (at + s.align - 1) / s.align * s.align;
    out.push_back(at);
    at += s.bytes;
  }
  for (const Symbol& s : k.symbols)
    if (s.dynamic) out.push_back((at + std::max(16, s.align) - 1) / std::max(16, s.align) * std::max(16, s.align));
  // Declaration order: the generator declares the dynamic symbol last, so `out` is in Kernel::symbols order.
  if (f == Format::sass)
    for (i64& b : out) b += 0x400;
  return out;
}

i64 window_bytes(const Kernel& k) {
  const std::vector<i64> p = placements(k, Format::ptx);
  i64 end = 0;
  for (std::size_t i = 0; i < p.size(); ++i) end = std::max(end, p[i] + k.symbols[i].bytes);
  return end;
}

namespace {

constexpr i64 kBlockSmem = 227 * 1024;  // docs/bank_model.md: what a block can address

// One warp-level issue: per lane, absent/inactive (-1), known (address), or not known.
struct Issue {
  std::array<i64, 32> addr;
  std::array<i64, 32> global{};  // cp.async: each lane's global byte offset from the pointer
  std::array<bool, 32> unknown{};
  std::array<std::array<std::uint8_t, 16>, 32> data{};
  bool data_known = true;
  i64 warp = 0, execution = 0;
};

// Accumulated over every issue at every value.
struct Acc {
  std::array<bool, kClaims> fail{}, unknown{}, maybe{};
  std::array<std::string, kClaims> why;
  bool active = false, valid = false, invalid = false;
  SiteTruth out;
};

struct Runner {
  const Kernel& k;
  Format f;
  std::vector<i64> base;
  i64 window = 0;
  std::map<int, Acc> acc;
  std::set<int> listed;
  bool cut = false;
  std::vector<u32> params;  // this value's
  std::string value_text;   // "P0 = 3, P1 = -1" (for `why`)
  bool one_value = true;
  // The warp being run.
  i64 warp = 0;
  int lanes = 0;
  std::map<int, i64> executions;  // per site, this warp
  u32 dead = 0;                   // lanes that exited

  Env env(int lane, const std::vector<u32>& loops) const {
    const i64 t = warp * 32 + lane;
    Env e;
    e.tidx = static_cast<u32>(t % k.bx);
    e.tidy = static_cast<u32>(t / k.bx);
    e.lane = static_cast<u32>(lane);
    e.ntid = static_cast<u32>(k.bx);
    e.loops = &loops;
    e.params = &params;
    return e;
  }

  // Runs `body` on `mask`; returns the lanes that reach its end (not returned, not exited).
  u32 run(const std::vector<Stmt>& body, u32 mask, std::vector<u32>& loops, int depth) {
    for (const Stmt& s : body) {
      mask &= ~dead;
      if (!mask) return 0;
      switch (s.kind) {
        case Stmt::Kind::access: access(s.a, mask, loops); break;
        case Stmt::Kind::branch: case Stmt::Kind::ret: {
          u32 yes = 0;
          for (int l = 0; l < lanes; ++l)
            if ((mask >> l) & 1) {
              const auto c = eval(s.cond, env(l, loops));
              if (c && *c) yes |= u32{1} << l;  // the generator never branches on opaque data
            }
          if (s.kind == Stmt::Kind::ret) {
            if (s.exit || depth == 0) dead |= yes;
            mask &= ~yes;
            break;
          }
          const u32 t = yes ? run(s.then_, yes, loops, depth) : 0;
          const u32 e = mask & ~yes ? run(s.else_, mask & ~yes, loops, depth) : 0;
          mask = t | e;
          break;
        }
        case Stmt::Kind::loop: {
          std::vector<u32> bound(32, static_cast<u32>(s.trips));
          for (int l = 0; s.bound && l < lanes; ++l)
            if ((mask >> l) & 1) bound[static_cast<std::size_t>(l)] = std::max<u32>(1, *eval(*s.bound, env(l, loops)));
          loops.push_back(0);
          for (u32 i = 0;; ++i) {
            u32 m = 0;
            for (int l = 0; l < lanes; ++l)
              if ((mask >> l) & 1 && i < bound[static_cast<std::size_t>(l)]) m |= u32{1} << l;
            m &= ~dead;
            if (!m) break;
            loops.back() = i;
            const u32 out = run(s.body, m, loops, depth);
            mask &= ~(m & ~out);  // lanes that returned or exited leave the loop and the rest
          }
          loops.pop_back();
          break;
        }
        case Stmt::Kind::call:
          // ptx_exec.hpp: a call 64 frames deep stops the lane (the kernel is frame 1): `depth`
          // nested calls below the kernel reach it when depth + depth-so-far >= 64.
          if (f == Format::ptx && depth + s.depth >= 64) cut = true;
          run(s.body, mask, loops, depth + s.depth);
          break;  // the lanes that returned from it are back; those that exited are dead
      }
    }
    return mask & ~dead;
  }

  void access(const Access& a, u32 mask, const std::vector<u32>& loops) {
    if (a.kind == Access::Kind::listed) {
      listed.insert(a.id);
      return;
    }
    Issue is;
    is.addr.fill(-1);
    is.warp = warp;
    is.execution = executions[a.id]++;
    const int w = a.width();
    for (int l = 0; l < lanes; ++l) {
      if (!((mask >> l) & 1)) continue;
      const Env e = env(l, loops);
      if (a.guard) {
        const auto g = eval(*a.guard, e);
        if (!g) {
          is.unknown[static_cast<std::size_t>(l)] = true;
          continue;
        }
        if (!*g) continue;
      }
      const auto off = eval(a.offset, e);
      if (!off) {
        is.unknown[static_cast<std::size_t>(l)] = true;
        continue;
      }
      const u32 ad = static_cast<u32>(base[static_cast<std::size_t>(a.symbol)]) + *off + a.imm;
      is.addr[static_cast<std::size_t>(l)] = ad;
      is.global[static_cast<std::size_t>(l)] = static_cast<i64>(e.tidx) * a.elem;
      if (a.kind == Access::Kind::st) {
        // PTX's .b128 data is one 128-bit register, which the product does not read (unknowable).
        if (f == Format::ptx && a.elem == 16) is.data_known = false;
        const auto d = eval(a.data, e);
        if (!d) is.data_known = false;
        for (int j = 0; d && j < a.vec; ++j) {
          const u32 v = *d + static_cast<u32>(j);
          for (int b = 0; b < a.elem && j * a.elem + b < 16; ++b)
            is.data[static_cast<std::size_t>(l)][static_cast<std::size_t>(j * a.elem + b)] = b < 4 ? static_cast<std::uint8_t>(v >> (8 * b)) : 0;
        }
      } else {
        is.data_known = false;  // stmatrix: other lanes' registers; cp.async: global memory
      }
    }
    (void)w;
    decide(a, is);
  }

  std::string where(const Issue& is, const std::string& what) const {
    return (value_text.empty() ? "" : value_text + ": ") + "warp " + std::to_string(is.warp) + ", execution " +
           std::to_string(is.execution) + ": " + what;
  }

  // cp.async's measured rule, restated from docs/bank_model.md (not from the product's code): per
  // STS phase of the width, G and S are the most active lanes one bank holds on the global and
  // the shared side (a lane on every bank its words touch; lanes on one word are not merged). When
  // every phase has G <= 1 or S <= 1, or global minus shared is one constant mod 128, the copy
  // takes the sum over phases of max(G, S), and its worst phase is the largest max(G, S); else the
  // count is not known (nullopt).
  static std::optional<std::pair<int, int>> ldgsts_rule(const Issue& is, int w) {
    const int phase = w <= 4 ? 32 : w == 8 ? 16 : 8;
    std::optional<i64> shift;
    bool aligned = true;
    for (int l = 0; l < 32; ++l) {
      const i64 s = is.addr[static_cast<std::size_t>(l)];
      if (s < 0) continue;
      const i64 d = ((is.global[static_cast<std::size_t>(l)] - s) % 128 + 128) % 128;
      if (shift && *shift != d) aligned = false;
      shift = d;
    }
    int sum = 0, worst = 0;
    for (int p0 = 0; p0 < 32; p0 += phase) {
      std::array<int, 32> gb{}, sb{};
      for (int l = p0; l < p0 + phase; ++l) {
        const i64 s = is.addr[static_cast<std::size_t>(l)], g = is.global[static_cast<std::size_t>(l)];
        if (s < 0) continue;
        for (i64 word = s / 4; word <= (s + w - 1) / 4; ++word) ++sb[static_cast<std::size_t>(word % 32)];
        for (i64 word = g / 4; word <= (g + w - 1) / 4; ++word) ++gb[static_cast<std::size_t>(word % 32)];
      }
      const int G = *std::max_element(gb.begin(), gb.end()), S = *std::max_element(sb.begin(), sb.end());
      if (!aligned && G > 1 && S > 1) return std::nullopt;
      sum += std::max(G, S);
      worst = std::max(worst, std::max(G, S));
    }
    return std::make_pair(sum, worst);
  }

  // The wavefronts of one issue by the soak's bank model (reference_bank.cpp).
  static void count(const Access& a, const Issue& is, bool unknown, SiteTruth& o) {
    using soakref::Op;
    soakref::Instr in;
    const int n = a.matrices;
    in.op = a.kind == Access::Kind::ld ? Op::ld : a.kind == Access::Kind::st ? Op::st : a.kind == Access::Kind::cp_async ? Op::ldgsts
            : a.kind == Access::Kind::ldsm ? (n == 1 ? Op::ldsm1 : n == 2 ? Op::ldsm2 : Op::ldsm4)
                                           : (n == 1 ? Op::stsm1 : n == 2 ? Op::stsm2 : Op::stsm4);
    in.width = a.width();
    in.addr = is.addr;
    const soakref::BankEval e = soakref::ref_bank(in);
    if (unknown || !e.valid) {
      o.counts_known = false;
      return;
    }
    if (a.kind == Access::Kind::cp_async) {
      const auto rule = ldgsts_rule(is, a.width());
      if (!rule) {
        o.counts_known = false;
        return;
      }
      o.wavefronts += rule->first;
      o.ideal += e.hw_ideal;
      return;
    }
    o.wavefronts += e.wavefronts;
    o.ideal += e.hw_ideal;
  }

  void fail(Acc& x, int c, const std::string& why) {
    if (!x.fail[static_cast<std::size_t>(c)]) x.why[static_cast<std::size_t>(c)] = why;
    x.fail[static_cast<std::size_t>(c)] = true;
  }

  void decide(const Access& a, const Issue& is) {
    Acc& x = acc[a.id];
    SiteTruth& o = x.out;
    const int w = a.width();
    const int used = a.kind == Access::Kind::ldsm || a.kind == Access::Kind::stsm ? 8 * a.matrices : 32;
    bool any_unknown = false, any_active = false;
    for (int l = 0; l < 32; ++l) any_unknown = any_unknown || is.unknown[static_cast<std::size_t>(l)], any_active = any_active || is.addr[static_cast<std::size_t>(l)] >= 0;
    if (one_value) {  // ldmatrix/stmatrix: the lanes >= 8N give no row (inactive in the issue)
      ++o.executed;
      std::array<i64, 32> rows = is.addr;
      for (int l = used; l < 32; ++l) rows[static_cast<std::size_t>(l)] = -1;
      if (any_unknown) o.issues_known = false;
      else if (any_active) o.issues.insert(rows);
    }
    bool used_unknown = false, used_active = false;
    for (int l = 0; l < used; ++l) used_unknown = used_unknown || is.unknown[static_cast<std::size_t>(l)], used_active = used_active || is.addr[static_cast<std::size_t>(l)] >= 0;
    if (used_unknown)
      for (int c = 0; c < kClaims; ++c) x.unknown[static_cast<std::size_t>(c)] = true;
    if (!used_active) return;
    x.active = true;
    if (one_value && a.bank()) count(a, is, any_unknown, o);
    // aligned, in-bounds: every used active lane.
    const i64 lo = f == Format::sass ? 0x400 : base[static_cast<std::size_t>(a.symbol)];
    const i64 hi = f == Format::sass ? 0x400 + window : lo + k.symbols[static_cast<std::size_t>(a.symbol)].bytes;
    bool valid = true;
    for (int l = 0; l < used; ++l) {
      const i64 ad = is.addr[static_cast<std::size_t>(l)];
      if (ad < 0) continue;
      if (ad % w != 0) fail(x, kAligned, where(is, "lane " + std::to_string(l) + " at byte " + std::to_string(ad) + " is misaligned"));
      if (ad < lo || ad + w > hi)
        fail(x, kInBounds, where(is, "lane " + std::to_string(l) + " at byte " + std::to_string(ad) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi - 1)));
      if (ad % w != 0 || ad > kBlockSmem - w) valid = false;
    }
    // conflict-free, max-ways: the phases (the file's comment).
    if (a.bank() && !used_unknown) {
      (valid ? x.valid : x.invalid) = true;
      if (valid) {
        const int phase = a.kind == Access::Kind::ldsm || a.kind == Access::Kind::stsm ? 8 : w <= 4 ? 32 : w == 8 ? 16 : 8;
        const int words = std::max(1, w / 4);
        int ways = 0, at_lane = 0;
        for (int p0 = 0; p0 < used; p0 += phase) {
          std::map<i64, std::set<i64>> bank;
          for (int l = p0; l < p0 + phase; ++l) {
            const i64 ad = is.addr[static_cast<std::size_t>(l)];
            for (int j = 0; ad >= 0 && j < words; ++j) bank[(ad / 4 + j) % 32].insert(ad / 4 + j);
          }
          for (const auto& [b, ws] : bank)
            if (static_cast<int>(ws.size()) > ways) ways = static_cast<int>(ws.size()), at_lane = p0;
        }
        const std::string what = std::to_string(ways) + "-way in the phase of lane " + std::to_string(at_lane);
        if (a.kind == Access::Kind::cp_async) {  // conflict-free: the measured rule, global side included
          const auto rule = ldgsts_rule(is, w);
          if (!rule && ways > 1) fail(x, kConflictFree, where(is, what));  // the shared side alone conflicts: never below it
          else if (!rule) x.unknown[kConflictFree] = true;
          else if (rule->second > 1) fail(x, kConflictFree, where(is, std::to_string(rule->second) + " lanes on one bank (global or shared side)"));
        } else if (ways > 1) {
          fail(x, kConflictFree, where(is, what));
        }
        if (ways > k.ways) fail(x, kMaxWays, where(is, what));
      }
    }
    // no-overlap: two used active lanes whose bytes meet, with different data there.
    if (a.writes() && !used_unknown)
      for (int l = 0; l < used; ++l)
        for (int m = l + 1; m < used; ++m) {
          const i64 p = is.addr[static_cast<std::size_t>(l)], q = is.addr[static_cast<std::size_t>(m)];
          if (p < 0 || q < 0 || p >= q + w || q >= p + w) continue;
          if (!is.data_known) {
            x.maybe[kNoOverlap] = true;
            continue;
          }
          for (i64 b = std::max(p, q); b < std::min(p, q) + w; ++b)
            if (is.data[static_cast<std::size_t>(l)][static_cast<std::size_t>(b - p)] != is.data[static_cast<std::size_t>(m)][static_cast<std::size_t>(b - q)]) {
              fail(x, kNoOverlap, where(is, "lanes " + std::to_string(l) + " and " + std::to_string(m) + " write byte " + std::to_string(b) + " with different data"));
              break;
            }
        }
  }

  Truth finish_claim(const Access& a, Acc& x, int c) const {
    const std::size_t ci = static_cast<std::size_t>(c);
    if (c == kNoOverlap && !a.writes()) return Truth::not_applicable;
    if ((c == kConflictFree || c == kMaxWays) && !a.bank()) return Truth::no_rule;
    if (x.fail[ci]) return Truth::fails;
    if (x.unknown[ci] || x.maybe[ci]) return Truth::unknowable;
    if (!x.active) return Truth::vacuous;
    if (c == kConflictFree || c == kMaxWays) return !x.valid ? Truth::invalid : x.invalid ? Truth::valid_holds : Truth::holds;
    return Truth::holds;
  }
};

void collect(const std::vector<Stmt>& body, std::vector<const Access*>& out) {
  for (const Stmt& s : body) {
    if (s.kind == Stmt::Kind::access) out.push_back(&s.a);
    collect(s.then_, out);
    collect(s.else_, out);
    collect(s.body, out);
  }
}

}  // namespace

Truths reference(const Kernel& k, Format f) {
  Runner r{k, f, placements(k, f), window_bytes(k), {}, {}, false, {}, {}, true, 0, 0, {}};
  // The domain: every fixed value, every value of each free parameter's range (signed LO..HI,
  // read as its bits), every value of a free parameter without one (8-bit only).
  std::vector<std::vector<u32>> choices;
  for (const Param& p : k.params) {
    std::vector<u32> v;
    const u32 mask = p.bits == 32 ? 0xffffffffu : (u32{1} << p.bits) - 1;
    if (p.fixed) v.push_back(*p.fixed & mask);
    else if (p.range)
      for (i64 x = p.range->first; x <= p.range->second; ++x) v.push_back(static_cast<u32>(x) & mask);
    else
      for (u32 x = 0; x <= mask && x < 65536; ++x) v.push_back(x);
    choices.push_back(v);
  }
  i64 values = 1;
  for (const auto& c : choices) values *= static_cast<i64>(c.size());
  r.one_value = values == 1;
  std::vector<std::size_t> at(choices.size(), 0);
  for (i64 n = 0; n < values; ++n) {
    r.params.clear();
    r.value_text.clear();
    for (std::size_t j = 0; j < choices.size(); ++j) {
      r.params.push_back(choices[j][at[j]]);
      if (!k.params[j].fixed) r.value_text += (r.value_text.empty() ? "P" : ", P") + std::to_string(j) + " = " + std::to_string(choices[j][at[j]]);
    }
    const i64 warps = (k.threads() + 31) / 32;
    for (r.warp = 0; r.warp < warps; ++r.warp) {
      r.lanes = static_cast<int>(std::min<i64>(32, k.threads() - 32 * r.warp));
      r.executions.clear();
      r.dead = 0;
      std::vector<u32> loops;
      r.run(k.body, r.lanes == 32 ? 0xffffffffu : (u32{1} << r.lanes) - 1, loops, 0);
    }
    for (std::size_t j = 0; j < at.size(); ++j) {  // the next value, the first parameter fastest
      if (++at[j] < choices[j].size()) break;
      at[j] = 0;
    }
  }
  Truths t;
  t.values = values;
  t.cut = r.cut;
  t.listed = r.listed;
  std::vector<const Access*> all;
  collect(k.body, all);
  for (const Access* a : all) {
    if (a->kind == Access::Kind::listed) continue;
    Acc& x = r.acc[a->id];
    SiteTruth s = x.out;
    for (int c = 0; c < kClaims; ++c) {
      s.claim[static_cast<std::size_t>(c)] = r.finish_claim(*a, x, c);
      s.why[static_cast<std::size_t>(c)] = x.why[static_cast<std::size_t>(c)];
    }
    t.sites[a->id] = s;
  }
  return t;
}

}  // namespace soakc
