// Per-lane semantics of PTX's integer and bit opcodes (ptx_machine.hpp), as the PTX ISA defines
// them at every width (.b8 .. .b64, .u/.s): results are masked to the type's bits; signed
// operations sign-extend their operands from that width first. execute_alu checks what every
// opcode needs (a type, at most 64 bits, no floating point, no carry chain) and hands the issue to
// its opcode class (alu.hpp).
#include <bit>
#include <optional>

#include "model/compiled/exec/alu.hpp"
#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {

namespace alu {

std::optional<Masked> masked_term(Term t, int w, int bits, u64 f0, u64 f1) {
  w = std::min(w, bits);
  f0 = mask_bits(f0, bits), f1 = mask_bits(f1, bits);
  t.c0 = mask_bits(t.c0, w);
  int j = w;
  for (u64& c : t.c) {
    c = mask_bits(c, w);
    if (c) j = std::min(j, std::countr_zero(c));
  }
  const u64 keep = f0 ^ f1, low = mask_bits(t.c0, j);
  const u64 above = j < 64 ? mask_bits(keep >> j, w - j) : 0;
  if (above == 0) return Masked{Term{64, mask_bits((low & keep) ^ f0, bits), {}}, 0};
  if ((above & (above + 1)) != 0) return std::nullopt;
  const int k = j + std::bit_width(above);
  if (k < 64 && (f0 >> k) != 0) return std::nullopt;
  const u64 flips = f0 & ~mask_bits(~u64{0}, j);  // f0's bits j..k-1
  if (flips != 0 && flips != u64{1} << (k - 1)) return std::nullopt;
  t.c0 = ((t.c0 - low + (low & keep)) ^ mask_bits(f0, j)) + flips;
  t.w = k;
  return Masked{t, k};
}

}  // namespace alu

using namespace alu;

Val Machine::symbolic(const Term& t0, int w, u32 why, int placement, bool cta) {
  Term t = t0;
  t.w = w;
  t.c0 = mask_bits(t.c0, w);
  bool constant = true;
  for (u64& c : t.c) c = mask_bits(c, w), constant = constant && c == 0;
  Val v;
  v.placement = placement;
  v.cta = cta;
  if (constant) {  // the symbols cancelled (x - x, 0 * x): a known value
    v.v = t.c0;
    return v;
  }
  if (terms.size() >= kMaxTerms) {
    v.why = reason("more than " + std::to_string(kMaxTerms) + " values computed from free parameters: the rest are not kept");
    return v;
  }
  terms.push_back(t);
  v.why = why;
  v.sym = static_cast<u32>(terms.size() - 1);
  v.symw = static_cast<u8>(w);
  return v;
}

Val Machine::cta_symbol(Symbol::Kind kind, int dim) {
  static const char* axis[] = {"x", "y", "z"};
  const std::string name = std::string(kind == Symbol::Kind::ctaid ? "%ctaid." : "%nctaid.") + axis[dim] + " (" +
                           (kind == Symbol::Kind::ctaid ? "blockIdx." : "gridDim.") + axis[dim] + ")";
  const u32 why = reason(name + " is a symbol: the claims are about every " + (kind == Symbol::Kind::ctaid ? "CTA" : "grid") +
                         " (--cta, --grid fix it)");
  std::size_t i = 0;
  while (i < symbols.size() && !(symbols[i].kind == kind && symbols[i].dim == dim)) ++i;
  if (i == symbols.size()) {
    if (i >= static_cast<std::size_t>(kMaxSymbols)) {
      Val v;
      v.why = reason(name + ": more than " + std::to_string(kMaxSymbols) + " symbols (free parameters, %ctaid, %nctaid): not a symbol");
      v.cta = true;
      return v;
    }
    Symbol s;
    s.kind = kind;
    s.dim = dim;
    s.bits = 32;
    s.name = name;
    symbols.push_back(s);
  }
  Term t;
  t.c[i] = 1;
  return symbolic(t, 32, why, -1, kind == Symbol::Kind::ctaid);
}

int Machine::iteration_symbol(u32 fi, u32 pc, u32 line) {
  for (std::size_t i = 0; i < symbols.size(); ++i)
    if (symbols[i].kind == Symbol::Kind::iteration && symbols[i].param == fi && symbols[i].offset == static_cast<i64>(pc)) return static_cast<int>(i);
  if (symbols.size() >= static_cast<std::size_t>(kMaxSymbols)) return -1;
  Symbol s;
  s.kind = Symbol::Kind::iteration;
  s.param = fi;
  s.offset = static_cast<i64>(pc);
  s.dim = static_cast<int>(line);
  s.bits = 64;
  s.name = "i (iteration 1 + i of the loop at line " + std::to_string(line) + ")";
  symbols.push_back(s);
  return static_cast<int>(symbols.size() - 1);
}

int Machine::derived(const Derived& d, const std::string& what) {
  for (std::size_t i = 0; i < symbols.size(); ++i)
    if (symbols[i].kind == Symbol::Kind::derived && symbols[i].def == d) return static_cast<int>(i);
  if (symbols.size() >= static_cast<std::size_t>(kMaxSymbols)) return -1;
  Symbol s;
  s.kind = Symbol::Kind::derived;
  s.bits = d.w;
  s.def = d;
  s.name = "a value computed from the symbols (" + what + ")";
  symbols.push_back(s);
  return static_cast<int>(symbols.size() - 1);
}

namespace {
// What identifies a condition: a comparison is its terms; a combination its operands (a data atom
// is never interned: its serial is unique).
bool same_cond(const Cond& p, const Cond& q) {
  if (p.kind != q.kind || p.cmp != q.cmp || p.is_signed != q.is_signed || p.w != q.w || p.x != q.x || p.y != q.y)
    return false;
  if (p.kind == Cond::Kind::cmp) return p.a == q.a && p.b == q.b;
  return p.kind != Cond::Kind::data;
}
u64 cond_hash(const Cond& c) {
  u64 h = 0xcbf29ce484222325ull;
  const auto mix = [&](u64 v) { h = (h ^ v) * 0x100000001b3ull; h ^= h >> 29; };
  mix(static_cast<u64>(c.kind) | static_cast<u64>(c.cmp) << 8 | static_cast<u64>(c.is_signed) << 16 |
      static_cast<u64>(static_cast<u32>(c.w)) << 32);
  mix(static_cast<u64>(c.x) << 32 | c.y);
  if (c.kind == Cond::Kind::cmp) {
    for (const Term* t : {&c.a, &c.b}) {
      mix(static_cast<u64>(static_cast<u32>(t->w)));
      mix(t->c0);
      for (const u64 k : t->c) mix(k);
    }
  }
  return h;
}
}  // namespace

u32 Machine::cond(const Cond& c) {
  if (c.x == kNoCond || c.y == kNoCond) return kNoCond;
  if (c.kind == Cond::Kind::data) {  // unique by its serial: nothing to look up
    if (conds.size() >= kMaxTerms) return kNoCond;
    conds.push_back(c);
    return static_cast<u32>(conds.size() - 1);
  }
  // Interned: every lane of an issue, and every iteration, asks for the same conditions.
  const u64 h = cond_hash(c);
  for (auto [it, end] = cond_ids.equal_range(h); it != end; ++it)
    if (same_cond(conds[it->second], c)) return it->second;
  if (conds.size() >= kMaxTerms) return kNoCond;
  conds.push_back(c);
  const u32 id = static_cast<u32>(conds.size() - 1);
  cond_ids.emplace(h, id);
  return id;
}
u32 Machine::data_cond(u32 why, u32 line, u64 at) {
  Cond c;
  c.kind = Cond::Kind::data;
  c.a.c0 = ++data_atoms;  // unique: interning never merges two
  c.a.c[0] = at;
  auto [it, fresh] = data_reasons.try_emplace(static_cast<u64>(why) << 32 | line, 0);
  if (fresh) it->second = reason(reasons[why] + " decides the branch at line " + std::to_string(line));
  c.b.c0 = it->second;
  return cond(c);
}
u32 Machine::cond_and(u32 x, u32 y) {
  if (x == kNoCond || y == kNoCond) return kNoCond;
  if (!x || !y || x == y) return x ? x : y;
  Cond c;
  c.kind = Cond::Kind::and_;
  c.x = x, c.y = y;
  return cond(c);
}
u32 Machine::cond_not(u32 x) {
  if (x == kNoCond) return kNoCond;
  if (conds[x].kind == Cond::Kind::not_) return conds[x].x;
  Cond c;
  c.kind = Cond::Kind::not_;
  c.x = x;
  return cond(c);
}

u32 Machine::reason(const std::string& text) {
  const auto it = reason_ids.find(text);
  if (it != reason_ids.end()) return it->second;
  reasons.push_back(text);
  const u32 id = static_cast<u32>(reasons.size() - 1);
  reason_ids.emplace(text, id);
  return id;
}

std::string Machine::mnemonic(const Instr& in) const {
  const std::string t = program.text_of(in);
  std::size_t b = 0;
  if (!t.empty() && t[0] == '@') b = t.find(' ') == std::string::npos ? t.size() : t.find(' ') + 1;
  const std::size_t e = t.find(' ', b);
  return t.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

Val read_operand(Machine& m, const Lane& ln, const Function& f, const Operand& o, const Instr& in) {
  Val v;
  switch (o.kind) {
    case OK::reg: v = reg(ln, o.index); break;
    case OK::imm: v.v = static_cast<u64>(o.imm); break;
    case OK::special: {
      const auto& b = m.launch.block;
      const auto& g = m.launch.grid;
      const u64 lane = static_cast<u64>(ln.lane);
      switch (o.special) {
        case Special::tid_x: v.v = static_cast<u64>(ln.tid[0]); break;
        case Special::tid_y: v.v = static_cast<u64>(ln.tid[1]); break;
        case Special::tid_z: v.v = static_cast<u64>(ln.tid[2]); break;
        case Special::ntid_x: v.v = static_cast<u64>(b[0]); break;
        case Special::ntid_y: v.v = static_cast<u64>(b[1]); break;
        case Special::ntid_z: v.v = static_cast<u64>(b[2]); break;
        case Special::ctaid_x: case Special::ctaid_y: case Special::ctaid_z: {
          const int d = static_cast<int>(o.special) - static_cast<int>(Special::ctaid_x);
          m.reads_cta = true;
          if (m.launch.every_cta && (m.launch.every_grid || g[static_cast<std::size_t>(d)] > 1))
            return m.cta_symbol(Symbol::Kind::ctaid, d);
          v.v = static_cast<u64>(m.launch.cta[static_cast<std::size_t>(d)]), v.cta = true;
          break;
        }
        case Special::nctaid_x: case Special::nctaid_y: case Special::nctaid_z: {
          const int d = static_cast<int>(o.special) - static_cast<int>(Special::nctaid_x);
          m.reads_cta = true;
          if (m.launch.every_grid) return m.cta_symbol(Symbol::Kind::nctaid, d);
          v.v = static_cast<u64>(g[static_cast<std::size_t>(d)]);
          break;
        }
        case Special::laneid: v.v = lane; break;
        case Special::lanemask_eq: v.v = u64{1} << lane; break;
        case Special::lanemask_lt: v.v = (u64{1} << lane) - 1; break;
        case Special::lanemask_le: v.v = (u64{2} << lane) - 1; break;
        case Special::lanemask_gt: v.v = mask_bits(~((u64{2} << lane) - 1), 32); break;
        case Special::lanemask_ge: v.v = mask_bits(~((u64{1} << lane) - 1), 32); break;
        case Special::cluster_ctaid_x: case Special::cluster_ctaid_y: case Special::cluster_ctaid_z:
        case Special::cluster_nctaid_x: case Special::cluster_nctaid_y: case Special::cluster_nctaid_z:
        case Special::cluster_ctarank: case Special::cluster_nctarank: {
          if (!m.launch.cluster) return unknown(m.reason_at(in, "the cluster's shape is not known: give --cluster X,Y,Z (the launch's cluster dimensions)"));
          const auto& c = *m.launch.cluster;
          const int s = static_cast<int>(o.special);
          if (s >= static_cast<int>(Special::cluster_nctaid_x) && s <= static_cast<int>(Special::cluster_nctaid_z)) {
            v.v = static_cast<u64>(c[static_cast<std::size_t>(s - static_cast<int>(Special::cluster_nctaid_x))]);
            break;
          }
          if (o.special == Special::cluster_nctarank) {
            v.v = static_cast<u64>(c[0] * c[1] * c[2]);
            break;
          }
          // The CTA's coordinates in its cluster: its %ctaid mod the cluster's; of every CTA, known
          // only where the cluster is one CTA wide in that dimension.
          std::array<u64, 3> in_cluster{};
          for (std::size_t d = 0; d < 3; ++d) {
            if (m.launch.every_cta && c[d] > 1 && (m.launch.every_grid || g[d] > 1))
              return unknown(m.reason_at(in, "%cluster_ctaid of every CTA (its %ctaid mod the cluster's): give --cta"));
            in_cluster[d] = static_cast<u64>(m.launch.cta[d] % c[d]);
          }
          if (o.special == Special::cluster_ctarank) {
            v.v = in_cluster[0] + in_cluster[1] * static_cast<u64>(c[0]) + in_cluster[2] * static_cast<u64>(c[0] * c[1]);
            break;
          }
          v.v = in_cluster[static_cast<std::size_t>(s - static_cast<int>(Special::cluster_ctaid_x))];
          break;
        }
        case Special::warpid:
          v = unknown(m.reason("%warpid is the hardware's warp slot (it may differ from tid/32 and change); use %tid"));
          break;
        default: v = unknown(m.reason_at(in, "a special register whose value is not modelled")); break;
      }
      break;
    }
    case OK::shared: {
      const int p = o.index < m.placement_of_symbol.size() ? m.placement_of_symbol[o.index] : -1;
      if (p < 0) return unknown(m.reason_at(in, "a shared symbol without a placement"));
      v.v = static_cast<u64>(m.placements[static_cast<std::size_t>(p)].base);
      v.placement = p;
      break;
    }
    case OK::var: return unknown(m.reason_at(in, "the address of a .global/.const/.local variable (not modelled)"));
    case OK::param:  // the parameter's address in the param window (ptx_ir.hpp kParamWindow)
      v.v = kParamWindow + (static_cast<u64>(o.index) << 20);
      break;
    case OK::unknown_name:
      return unknown(m.reason_at(in, "'" + f.unknown_names[o.index] + "' is declared nowhere in this file"));
    default: return unknown(m.reason_at(in, "an operand that has no value here"));
  }
  if (o.neg && v.known()) v.v = v.v ? 0 : 1;  // `!%p`
  if (o.neg && cond_of(v)) {                    // a condition's negation
    const u32 n = m.cond_not(cond_of(v));
    return n == Machine::kNoCond ? Val{0, v.why, -1, v.cta} : cond_val(n, v.why, v.cta);
  }
  if (o.neg) v.sym = 0, v.lowk = 0, v.placement = -1;  // not a term, nor partly known
  return v;
}

void write_operand(Lane& ln, const Function& f, const Operand& o, Val v, int bits) {
  (void)f;
  if (o.kind != OK::reg) return;
  truncate(v, bits);
  reg(ln, o.index) = v;
}

void write_unknown(Lane& ln, const Function& f, const Operand& o, u32 why) {
  if (o.kind == OK::vec) {
    for (u32 k = 0; k < o.count; ++k) write_unknown(ln, f, f.operands[o.index + k], why);
    return;
  }
  if (o.kind == OK::reg) write_operand(ln, f, o, unknown(why), 64);
}

void execute_alu(Machine& m, Group& g, const Function& f, const Instr& in) {
  const Opcode& c = in.code;
  const u32 n = in.count;
  if (n == 0 || g.mask == 0) return;
  const Operand& dst = arg(f, in, 0);
  alu::Issue x{m, g, f, in, c, n, dst, g.lanes.data(), dst.kind == OK::reg ? g.file.row(g.reg_base + dst.index) : nullptr,
          in.dual && n > 1 && arg(f, in, 1).kind == OK::reg ? g.file.row(g.reg_base + arg(f, in, 1).index) : nullptr,
          in.dual ? 2 : 1, 0, false, false};
  if (c.op == Op::unknown) {
    return x.all_unknown(m.reason_once(in, 1, [&] {
      const std::string mn = m.mnemonic(in);
      // SASS's global loads and atomics are kept outside the model: what they return is data.
      const auto starts = [&](const char* p) { return mn.rfind(p, 0) == 0; };
      if ((starts("LDG.") || mn == "LDG" || starts("ATOMG")) && !starts("LDGSTS") && !starts("LDGDEPBAR"))
        return "a value loaded from global memory (data is not modelled: " + mn + ")";
      return c.float_op ? mn + ": floating-point arithmetic (not modelled)" : mn + " is not modelled";
    }));
  }
  if (c.op == Op::mbarrier_wait) {  // the wait completes (ptx_ir.hpp)
    each(g.mask, [&](int k) { x.put(k, Val{1, 0, -1, false}, 1); });
    return;
  }
  const Type t = c.type;
  if (t.kind == TypeKind::none) return x.not_modelled(m.mnemonic(in) + ": no type suffix");
  if (t.bits > 64) return x.not_modelled(m.mnemonic(in) + ": 128-bit arithmetic (not modelled)");
  x.bits = t.bits;
  x.sgn = t.is_signed();
  x.fl = t.is_float();
  switch (c.op) {  // moves and conversions first: they take floating-point types too
    case Op::mov: case Op::cvta: return x.move();
    case Op::cvt: return x.convert();
    case Op::rcp: return x.reciprocal();
    default: break;
  }
  if (x.fl) return c.op == Op::setp ? x.select() : x.floating();
  if (c.carry) return x.not_modelled(m.mnemonic(in) + ": carry chains (.cc) are not modelled");
  switch (c.op) {
    case Op::add: case Op::sub: case Op::mul: case Op::mad: case Op::mul24: case Op::mad24: case Op::div: case Op::rem:
    case Op::min: case Op::max:
      return x.arithmetic();
    case Op::abs: case Op::neg: case Op::not_: case Op::cnot: case Op::clz: case Op::popc: case Op::brev: case Op::bfind:
      return x.unary();
    case Op::and_: case Op::or_: case Op::xor_: case Op::shl: case Op::shr: case Op::shf: case Op::bfe: case Op::bfi: case Op::prmt:
    case Op::lop3:
      return x.logic();
    case Op::setp: case Op::selp: return x.select();
    default: return x.not_modelled(m.mnemonic(in) + " is not modelled here");
  }
}

}  // namespace layoutproof::compiled
