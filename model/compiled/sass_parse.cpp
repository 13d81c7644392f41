#include "model/compiled/sass_parse.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "model/layout/notation.hpp"  // ParseError

namespace layoutproof::ptx {
namespace {

using OK = Operand::Kind;

// Register numbering of a lowered SASS function: R0..R255, UR0..UR63, P0..P7 (P7 is PT), UP0..UP7
// (UP7 is UPT), then temporaries of the lowering.
constexpr u32 kR = 0, kUR = 256, kP = 320, kUP = 328, kTmp = 336, kTmps = 24;
constexpr u32 kPT = kP + 7, kUPT = kUP + 7;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string> split_dots(std::string_view s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') out.emplace_back(s.substr(b, i - b)), b = i + 1;
  return out;
}

// Operands split at top-level commas (brackets nest: desc[UR4][R2.64+0x10]).
std::vector<std::pair<std::string_view, std::size_t>> split_operands(std::string_view s, std::size_t at) {
  std::vector<std::pair<std::string_view, std::size_t>> out;
  int depth = 0;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && (s[i] == '[' || s[i] == '(')) ++depth;
    if (i < s.size() && (s[i] == ']' || s[i] == ')')) --depth;
    if (i == s.size() || (s[i] == ',' && depth == 0)) {
      std::string_view o = s.substr(b, i - b);
      std::size_t lead = 0;
      while (lead < o.size() && std::isspace(static_cast<unsigned char>(o[lead]))) ++lead;
      o = trim(o);
      if (!o.empty()) out.push_back({o, at + b + lead});
      b = i + 1;
    }
  }
  return out;
}

std::optional<i64> parse_int(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) neg = s[0] == '-', s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  u64 v = 0;
  if (starts_with(s, "0x") || starts_with(s, "0X")) {
    s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return std::nullopt;
    for (const char c : s) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
      v = v * 16 + static_cast<u64>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10));
    }
  } else {
    if (s.size() > 18) return std::nullopt;
    for (const char c : s) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      v = v * 10 + static_cast<u64>(c - '0');
    }
  }
  return neg ? -static_cast<i64>(v) : static_cast<i64>(v);
}

// A SASS register or predicate name: its IR register (-1: RZ/URZ/SRZ, the zero register).
struct RegName {
  bool ok = false;
  i64 reg = -1;      // -1: zero
  bool pred = false;
  bool pair = false;  // .64
};

RegName reg_name(std::string_view s) {
  RegName r;
  if (s.size() > 7 && s.substr(s.size() - 6) == ".reuse") s.remove_suffix(6);
  if (s.size() > 3 && s.substr(s.size() - 3) == ".64") s.remove_suffix(3), r.pair = true;
  const auto num = [&](std::string_view p, u32 base, u32 limit, bool pred) {
    if (!starts_with(s, p)) return false;
    const auto n = parse_int(s.substr(p.size()));
    if (!n || s.size() == p.size() || *n < 0 || *n >= static_cast<i64>(limit) || !std::isdigit(static_cast<unsigned char>(s[p.size()])))
      return false;
    r.ok = true, r.reg = base + static_cast<u32>(*n), r.pred = pred;
    return true;
  };
  if (s == "RZ" || s == "URZ" || s == "SRZ") return r.ok = true, r;
  if (s == "PT") return r.ok = true, r.reg = kPT, r.pred = true, r;
  if (s == "UPT") return r.ok = true, r.reg = kUPT, r.pred = true, r;
  if (num("UR", kUR, 64, false) || num("UP", kUP, 7, true) || num("R", kR, 256, false) || num("P", kP, 7, true)) return r;
  return RegName{};
}

// The binary16 bits of a decimal literal that is exactly a half ("1.9073486328125e-06" -> 0x0020,
// "-2" -> 0xc000); nullopt when it is not exactly representable (or not a number).
std::optional<u32> half_bits(std::string_view s) {
  const std::string t(s);
  char* end = nullptr;
  double x = std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(x)) return std::nullopt;
  const u32 sign = std::signbit(x) ? 0x8000u : 0u;
  x = std::fabs(x);
  if (x == 0) return sign;
  if (x < std::ldexp(1.0, -14)) {  // subnormal: a multiple of 2^-24
    const double m = std::ldexp(x, 24);
    if (m != std::floor(m) || m >= 1024) return std::nullopt;
    return sign | static_cast<u32>(m);
  }
  int e = 0;
  const double fr = std::frexp(x, &e);  // x = fr * 2^e, fr in [0.5, 1)
  const int exp = e - 1;                 // x = (2 fr) * 2^exp
  if (exp > 15) return std::nullopt;
  const double frac = (2 * fr - 1) * 1024;
  if (frac != std::floor(frac)) return std::nullopt;
  return sign | static_cast<u32>(exp + 15) << 10 | static_cast<u32>(frac);
}

struct Lowering;

// One SASS function being lowered.
struct Lowering {
  Program& p;
  Function& f;
  int arch = 90;
  i64 param_base = 0x210;
  // The SASS instruction being lowered.
  u32 line = 0, text_begin = 0, text_end = 0, loc_file = 0, loc_line = 0;
  i64 offset = -1;
  i64 guard = -1;
  bool guard_neg = false;
  u32 next_tmp = 0;
  std::string error;  // the first operand this lowering could not read ("" none)
  std::size_t error_at = 0;
  // Branches to resolve once the function is read: by label name (nvdisasm) or by offset (cuobjdump).
  std::vector<std::pair<std::size_t, std::string>> pending_names;
  std::vector<std::size_t> pending_offsets;
  std::map<i64, u32> first_of_offset;          // SASS offset -> its first IR instruction
  std::map<std::string, i64> label_offsets;    // nvdisasm label -> the offset it names

  u32 tmp() {
    const u32 t = kTmp + next_tmp % kTmps;
    ++next_tmp;
    return t;
  }

  u32 put(const Operand& o) {
    f.operands.push_back(o);
    return static_cast<u32>(f.operands.size() - 1);
  }
  static Operand reg(u32 r) {
    Operand o;
    o.kind = OK::reg, o.index = r;
    return o;
  }
  static Operand imm(i64 v) {
    Operand o;
    o.kind = OK::imm, o.imm = v;
    return o;
  }
  static Operand sink() {
    Operand o;
    o.kind = OK::sink;
    return o;
  }
  static Operand special(Special s) {
    Operand o;
    o.kind = OK::special, o.special = s;
    return o;
  }
  Operand vec(const std::vector<Operand>& parts) {
    Operand o;
    o.kind = OK::vec, o.count = static_cast<u32>(parts.size());
    o.index = static_cast<u32>(f.operands.size());
    for (const Operand& x : parts) f.operands.push_back(x);
    return o;
  }
  Operand addr(const Operand& base, i64 off) {
    Operand o;
    o.kind = OK::addr, o.index = put(base), o.imm = off;
    return o;
  }
  Operand param_addr(i64 off) {
    Operand b;
    b.kind = OK::param, b.index = 0;
    return addr(b, off);
  }

  void emit(Opcode code, const std::vector<Operand>& ops, bool dual = false, bool guarded = true) {
    Instr in;
    in.code = code;
    if (guarded) in.guard = guard, in.guard_neg = guard_neg;
    in.first = static_cast<u32>(f.operands.size());
    for (const Operand& o : ops) f.operands.push_back(o);
    in.count = static_cast<u32>(ops.size());
    in.line = line, in.text_begin = text_begin, in.text_end = text_end;
    in.loc_file = loc_file, in.loc_line = loc_line;
    in.sass_offset = offset;
    in.dual = dual;
    f.code.push_back(in);
  }
  static Opcode op(Op o, TypeKind k = TypeKind::b, int bits = 32) {
    Opcode c;
    c.op = o, c.type = Type{k, static_cast<u8>(bits)};
    return c;
  }

  void fail(std::size_t at, const std::string& what) {
    if (error.empty()) error = what, error_at = at;
  }

  // A destination register operand (RZ and PT: dropped).
  Operand dst(std::string_view s, std::size_t at) {
    const RegName r = reg_name(s);
    if (!r.ok) {
      fail(at, "a destination register (R0..R255, UR0..UR63, P0..P6, RZ, PT), not '" + std::string(s) + "'");
      return sink();
    }
    if (r.reg < 0 || r.reg == kPT || r.reg == kUPT) return sink();
    return reg(static_cast<u32>(r.reg));
  }
  // Registers d .. d+n-1 as one destination (RZ: dropped).
  Operand dst_n(std::string_view s, std::size_t at, int n) {
    const RegName r = reg_name(s);
    if (!r.ok || r.pred) {
      fail(at, "a destination register, not '" + std::string(s) + "'");
      return sink();
    }
    if (r.reg < 0) return sink();
    if (n == 1) return reg(static_cast<u32>(r.reg));
    const u32 limit = r.reg >= kUR ? kUR + 64 : kR + 256;
    std::vector<Operand> parts;
    for (int k = 0; k < n; ++k)
      parts.push_back(static_cast<u32>(r.reg) + static_cast<u32>(k) < limit ? reg(static_cast<u32>(r.reg) + static_cast<u32>(k)) : sink());
    return vec(parts);
  }

  // A constant-bank value c[0xB][0xO]: %ntid/%nctaid, a kernel parameter's bytes, or a load whose
  // value is not known (other constants).
  Operand constant(std::string_view s, std::size_t at, int bits = 32) {
    const std::size_t a = s.find("]["), e = s.rfind(']');
    const auto bank = a == std::string_view::npos ? std::nullopt : parse_int(s.substr(2, a - 2));
    const auto off = a == std::string_view::npos || e == std::string_view::npos ? std::nullopt : parse_int(s.substr(a + 2, e - a - 2));
    if (!bank || !off) {  // an indexed constant (c[0x0][R2+0x10]): not known
      const u32 t = tmp();
      Opcode c = op(Op::ld);
      c.space = Space::const_;
      emit(c, {reg(t), addr(imm(0), 0)});
      (void)at;
      return reg(t);
    }
    if (*bank == 0 && *off >= 0 && *off < 0x18 && *off % 4 == 0 && bits == 32) {
      static constexpr Special k[] = {Special::ntid_x, Special::ntid_y, Special::ntid_z,
                                      Special::nctaid_x, Special::nctaid_y, Special::nctaid_z};
      return special(k[*off / 4]);
    }
    const u32 t = tmp();
    if (*bank == 0 && *off >= param_base) {
      emit(op(Op::ld, TypeKind::b, bits), {reg(t), param_addr(*off - param_base)}, false, false);
      f.code.back().code.space = Space::param;
      return reg(t);
    }
    Opcode c = op(Op::ld, TypeKind::b, bits);
    c.space = Space::const_;
    emit(c, {reg(t), addr(imm(*off), 0)}, false, false);
    return reg(t);
  }

  // A source value: a register (RZ: 0), an immediate, a special register, a constant, with its
  // prefix (-x, ~x, |x|, !p) applied through a temporary.
  Operand src(std::string_view s, std::size_t at) {
    s = trim(s);
    if (s.empty()) {
      fail(at, "an operand");
      return imm(0);
    }
    if (s[0] == '-' && !std::isdigit(static_cast<unsigned char>(s.size() > 1 ? s[1] : ' '))) {
      const Operand x = src(s.substr(1), at + 1);
      const u32 t = tmp();
      emit(op(Op::neg, TypeKind::s, 32), {reg(t), x});
      return reg(t);
    }
    if (s[0] == '~') {
      const Operand x = src(s.substr(1), at + 1);
      const u32 t = tmp();
      emit(op(Op::not_, TypeKind::b, 32), {reg(t), x});
      return reg(t);
    }
    if (s[0] == '|' && s.size() > 2 && s.back() == '|') {
      const Operand x = src(s.substr(1, s.size() - 2), at + 1);
      const u32 t = tmp();
      emit(op(Op::abs, TypeKind::s, 32), {reg(t), x});
      return reg(t);
    }
    if (s[0] == '!') {
      const RegName r = reg_name(s.substr(1));
      if (!r.ok || !r.pred) {
        fail(at, "a predicate after '!', not '" + std::string(s) + "'");
        return imm(0);
      }
      Operand o = reg(static_cast<u32>(r.reg));
      o.neg = true;
      return o;
    }
    if (starts_with(s, "c[")) return constant(s, at);
    if (starts_with(s, "SR_")) return special_register_of(s, at);
    if (const auto v = parse_int(s)) return imm(*v);
    const RegName r = reg_name(s);
    if (r.ok) return r.reg < 0 ? imm(0) : reg(static_cast<u32>(r.reg));
    // A float literal, a half selector (R2.H1) or a name the model does not read.
    fail(at, "an operand the model does not read: '" + std::string(s) + "'");
    return imm(0);
  }

  Operand special_register_of(std::string_view s, std::size_t at) {
    static const std::map<std::string_view, Special> k = {
        {"SR_TID.X", Special::tid_x},     {"SR_TID.Y", Special::tid_y},     {"SR_TID.Z", Special::tid_z},
        {"SR_CTAID.X", Special::ctaid_x}, {"SR_CTAID.Y", Special::ctaid_y}, {"SR_CTAID.Z", Special::ctaid_z},
        {"SR_LANEID", Special::laneid},   {"SR_EQMASK", Special::lanemask_eq}, {"SR_LTMASK", Special::lanemask_lt},
        {"SR_LEMASK", Special::lanemask_le}, {"SR_GTMASK", Special::lanemask_gt}, {"SR_GEMASK", Special::lanemask_ge}};
    if (s == "SR_CgaCtaId") return imm(0);
    const auto it = k.find(s);
    if (it != k.end()) return special(it->second);
    (void)at;
    return special(Special::other);
  }

  // A shared-memory address [R+UR+imm] (any part may be absent) as an IR address operand.
  std::optional<Operand> shared_address(std::string_view s, std::size_t at) {
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
    std::string_view in = s.substr(1, s.size() - 2);
    i64 off = 0;
    std::vector<Operand> parts;
    std::size_t b = 0;
    for (std::size_t i = 0; i <= in.size(); ++i) {
      if (i < in.size() && !(in[i] == '+' || (in[i] == '-' && i > 0))) continue;
      std::string_view part = trim(in.substr(b, i - b));
      const bool minus = b > 0 && in[b - 1] == '-';
      b = i + 1;
      if (part.empty()) continue;
      if (const auto v = parse_int(part)) {
        off += minus ? -*v : *v;
        continue;
      }
      const RegName r = reg_name(part);
      if (!r.ok || r.pred || minus) {
        fail(at, "a shared address [R+UR+offset], not '" + std::string(s) + "'");
        return addr(imm(0), 0);
      }
      if (r.reg >= 0) parts.push_back(reg(static_cast<u32>(r.reg)));
    }
    if (parts.empty()) return addr(imm(0), off);
    Operand base = parts[0];
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const u32 t = tmp();
      emit(op(Op::add, TypeKind::u, 32), {reg(t), base, parts[k]});
      base = reg(t);
    }
    return addr(base, off);
  }

  // Marks what an instruction outside the model writes as not known: its leading predicates and
  // its first register (n registers from it).
  void not_modelled(const std::vector<std::pair<std::string_view, std::size_t>>& ops, int n, bool float_op) {
    Opcode c;
    c.op = Op::unknown;
    c.float_op = float_op;
    std::vector<Operand> dsts;
    for (std::size_t k = 0; k < ops.size() && k < 2; ++k) {
      const RegName r = reg_name(ops[k].first);
      if (!r.ok) break;
      if (r.pred) {
        if (r.reg >= 0 && r.reg != kPT && r.reg != kUPT) dsts.push_back(reg(static_cast<u32>(r.reg)));
        continue;
      }
      const Operand d = dst_n(ops[k].first, ops[k].second, n);
      if (d.kind == OK::vec)
        for (u32 j = 0; j < d.count; ++j) dsts.push_back(f.operands[d.index + j]);
      else if (d.kind == OK::reg)
        dsts.push_back(d);
      break;
    }
    if (dsts.empty()) {
      Opcode nop;
      nop.op = Op::unknown;
      nop.float_op = float_op;
      emit(nop, {sink()});
      return;
    }
    emit(c, {vec(dsts)});
  }

  void lower(std::string_view opcode, std::string_view operands, std::size_t operands_at);
  void lower_memory(const std::string& base, const std::vector<std::string>& mods,
                    const std::vector<std::pair<std::string_view, std::size_t>>& ops);
};

// The registers an instruction outside the model writes from its first destination: exact for the
// opcodes whose width is known, else 4 (more is never wrong: a register made unknown only turns a
// verdict into UNKNOWN).
int written_registers(const std::string& base, const std::vector<std::string>& mods) {
  for (const std::string& m : mods) {
    if (m == "128") return 4;
    if (m == "64" || m == "F64") return 2;
  }
  static const std::set<std::string> one = {
      "FADD", "FMUL", "FFMA", "FMNMX", "FSET", "I2F", "I2FP", "F2I", "F2F", "F2FP", "FRND", "MUFU", "HADD2", "HMUL2",
      "HFMA2", "HMNMX2", "HSET2", "POPC", "FLO", "BREV", "BMSK", "IDP", "IDP4A", "VABSDIFF", "VABSDIFF4", "LDG", "LD",
      "LDL", "LDS", "ATOMG", "ATOM", "ATOMS", "SHFL", "VOTE", "VOTEU", "MATCH", "REDUX", "CREDUX", "S2R", "S2UR", "CS2R",
      "R2UR", "LDC", "ULDC", "ELECT", "FCHK", "F2IP", "I2I", "I2IP", "LOP", "IMNMX", "FSWZADD", "QSPC", "ISCADD", "IMUL",
      "XMAD", "BFE", "BFI"};
  static const std::set<std::string> two = {"DADD", "DMUL", "DFMA", "DMNMX", "DSETP"};
  if (one.count(base)) return 1;
  if (two.count(base)) return 2;
  if (base == "HMMA" || base == "IMMA" || base == "HGMMA") {
    for (const std::string& m : mods)
      if (m == "F16" || m == "BF16") return 2;
    return 4;
  }
  return 4;
}

bool float_opcode(const std::string& base) {
  return !base.empty() && (base[0] == 'F' || base[0] == 'H' || base[0] == 'D' || base == "MUFU" || base.find("2F") != std::string::npos ||
                           base.find("MMA") != std::string::npos);
}

void Lowering::lower_memory(const std::string& base, const std::vector<std::string>& mods,
                            const std::vector<std::pair<std::string_view, std::size_t>>& ops) {
  const auto has = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
  const auto addr_of = [&](std::size_t k) -> Operand {
    if (k >= ops.size()) {
      fail(0, "an address operand");
      return addr(imm(0), 0);
    }
    const auto a = shared_address(ops[k].first, ops[k].second);
    if (!a) {
      fail(ops[k].second, "a shared address [R+offset], not '" + std::string(ops[k].first) + "'");
      return addr(imm(0), 0);
    }
    return *a;
  };
  if (base == "LDS" || base == "STS") {
    Opcode c;
    c.op = base == "LDS" ? Op::ld : Op::st;
    c.space = Space::shared;
    c.type = Type{TypeKind::b, 32};
    int regs = 1;
    for (const std::string& m : mods) {
      if (m == "U8") c.type = Type{TypeKind::u, 8};
      else if (m == "S8") c.type = Type{TypeKind::s, 8};
      else if (m == "U16") c.type = Type{TypeKind::u, 16};
      else if (m == "S16") c.type = Type{TypeKind::s, 16};
      else if (m == "64") c.vec = 2, regs = 2;
      else if (m == "128") c.vec = 4, regs = 4;
      else if (m == "32" || m == "U" || m == "U32") continue;
      else return not_modelled(ops, regs, false);
    }
    if (ops.size() < 2) return fail(0, base + " needs two operands");
    if (c.op == Op::ld) {
      const Operand d = dst_n(ops[0].first, ops[0].second, regs);
      const Operand a = addr_of(1);
      std::vector<Operand> parts;
      if (d.kind == OK::vec)
        for (u32 j = 0; j < d.count; ++j) parts.push_back(f.operands[d.index + j]);
      else
        parts.assign(static_cast<std::size_t>(regs), d);
      return emit(c, {regs == 1 ? d : vec(parts), a});
    }
    const Operand a = addr_of(0);
    const RegName r = reg_name(ops[1].first);
    if (!r.ok || r.pred) return fail(ops[1].second, "a source register, not '" + std::string(ops[1].first) + "'");
    std::vector<Operand> parts;
    for (int k = 0; k < regs; ++k) parts.push_back(r.reg < 0 ? imm(0) : reg(static_cast<u32>(r.reg) + static_cast<u32>(k)));
    return emit(c, {a, regs == 1 ? parts[0] : vec(parts)});
  }
  if (base == "LDSM" || base == "STSM") {
    Opcode c;
    c.op = base == "LDSM" ? Op::ldmatrix : Op::stmatrix;
    c.space = Space::shared;
    c.type = Type{TypeKind::b, 16};
    c.m8n8 = true;
    bool shape = false;
    for (const std::string& m : mods) {
      if (m == "16") continue;
      if (m == "M88") shape = true;
      else if (m == "MT88") shape = true, c.trans = true;
      else if (m == "1" || m == "2" || m == "4") c.matrices = static_cast<u8>(m[0] - '0');
      else return not_modelled(ops, 4, false);
    }
    if (!shape || c.matrices == 0 || ops.size() < 2) return not_modelled(ops, 4, false);
    if (c.op == Op::ldmatrix) {
      const Operand d = dst_n(ops[0].first, ops[0].second, c.matrices);
      return emit(c, {d, addr_of(1)});
    }
    const Operand a = addr_of(0);
    const RegName r = reg_name(ops[1].first);
    std::vector<Operand> parts;
    for (int k = 0; k < c.matrices; ++k) parts.push_back(r.ok && r.reg >= 0 ? reg(static_cast<u32>(r.reg) + static_cast<u32>(k)) : imm(0));
    return emit(c, {a, vec(parts)});
  }
  if (base == "LDGSTS") {
    Opcode c;
    c.op = Op::cp_async;
    c.space = Space::shared;
    i64 bytes = 4;
    if (has("64")) bytes = 8;
    if (has("128")) bytes = 16;
    for (const std::string& m : mods)
      if (m != "E" && m != "BYPASS" && m != "LTC128B" && m != "LTC64B" && m != "LTC256B" && m != "64" && m != "128" && m != "32" &&
          m != "ZFILL" && m != "EL" && m != "EF" && m != "LU" && m != "NA")
        return not_modelled(ops, 1, false);
    // The shared operand is the bracket without desc[...]: cuobjdump writes it first.
    for (std::size_t k = 0; k < ops.size(); ++k)
      if (!ops[k].first.empty() && ops[k].first[0] == '[') return emit(c, {addr_of(k), imm(0), imm(bytes)});
    return fail(ops.empty() ? 0 : ops[0].second, "LDGSTS without a shared address");
  }
  // ATOMS.op d, [a], v...: the addresses and the claims that need no bank rule.
  Opcode c;
  c.op = Op::atom;
  c.space = Space::shared;
  c.type = Type{TypeKind::b, static_cast<u8>(has("64") ? 64 : 32)};
  if (ops.size() < 2) return fail(0, "ATOMS needs a destination and an address");
  const Operand d = dst_n(ops[0].first, ops[0].second, has("64") ? 2 : 1);
  std::vector<Operand> all{d, addr_of(1)};
  emit(c, all);
}

void Lowering::lower(std::string_view opcode, std::string_view operands, std::size_t operands_at) {
  std::vector<std::string> parts = split_dots(opcode);
  std::string base = parts[0];
  std::vector<std::string> mods(parts.begin() + 1, parts.end());
  const auto ops = split_operands(operands, operands_at);
  const auto has = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
  static const std::set<std::string> uniform = {"MOV", "IADD3", "LEA", "LOP3", "SHF", "SEL", "ISETP", "IMAD", "PRMT",
                                                "SGXT", "PLOP3", "LDC", "IABS", "IMNMX", "P2R", "R2P", "VIADD"};
  if (base.size() > 1 && base[0] == 'U' && uniform.count(base.substr(1))) base = base.substr(1);
  const auto S = [&](std::size_t k) { return k < ops.size() ? src(ops[k].first, ops[k].second) : (fail(0, "a missing operand"), imm(0)); };
  const auto D = [&](std::size_t k) { return k < ops.size() ? dst(ops[k].first, ops[k].second) : (fail(0, "a missing operand"), sink()); };
  const auto is_pred = [&](std::size_t k) {
    if (k >= ops.size()) return false;
    const RegName r = reg_name(ops[k].first[0] == '!' ? ops[k].first.substr(1) : ops[k].first);
    return r.ok && r.pred;
  };
  static const std::set<std::string> nops = {"BSSY", "BSYNC", "WARPSYNC", "BAR", "DEPBAR", "LDGDEPBAR", "NOP", "MEMBAR",
                                             "FENCE", "ERRBAR", "CCTL", "CCTLL", "YIELD", "NANOSLEEP", "BMOV", "ARRIVES",
                                             "UCGABAR_ARV", "UCGABAR_WAIT", "CGAERRBAR", "SYNCS", "ACQBULK", "PREEXIT",
                                             "LEPC", "WARPGROUP", "DEPBAR", "BREAK", "PMTRIG", "VOTEU"};
  if (base == "VOTEU") return not_modelled(ops, 1, false);
  if (nops.count(base)) {
    Opcode c;
    c.op = Op::nop;
    return emit(c, {});
  }
  if (base == "LDS" || base == "STS" || base == "LDSM" || base == "STSM" || base == "LDGSTS" || base == "ATOMS")
    return lower_memory(base, mods, ops);
  if (base == "BRA" || base == "JMP") {
    if (has("DIV")) {  // taken only where the warp has diverged: a converged warp falls through
      Opcode c;
      c.op = Op::nop;
      return emit(c, {});
    }
    std::string_view t = ops.empty() ? std::string_view{} : ops.back().first;
    Opcode c;
    c.op = Op::bra;
    Operand label;
    label.kind = OK::label;
    if (starts_with(t, "`(") && t.back() == ')') {
      label.index = 0x80000000u;  // resolved by name after the function is read
      label.imm = -1;
      pending_names.push_back({f.code.size(), std::string(t.substr(2, t.size() - 3))});
    } else if (const auto v = parse_int(t)) {
      label.imm = *v;
      pending_offsets.push_back(f.code.size());
    } else {
      Operand none;
      return emit(c, {none});  // an indirect branch: the lane stops (UNKNOWN), never guessed
    }
    return emit(c, {label});
  }
  if (base == "EXIT" || base == "KILL") {
    Opcode c;
    c.op = Op::exit;
    return emit(c, {});
  }
  if (base == "CALL" || base == "RET" || base == "BPT" || base == "BRX" || base == "JMX" || base == "RTT") {
    Opcode c;
    c.op = Op::bra;  // without a label: the lane stops, with the reason
    Operand none;
    return emit(c, {none});
  }
  if (base == "MOV" || base == "R2UR") return emit(op(Op::mov), {D(0), S(1)});
  if (base == "HFMA2" && ops.size() == 5) {
    // ptxas materialises 32-bit constants as HFMA2[.MMA] d, -RZ, RZ, hi, lo: 0 * 0 + (hi, lo), the
    // two halves' bits (HFMA2.MMA R6, -RZ, RZ, 0, 1.9073486328125e-06 sets R6 = 0x00000020).
    const auto zero = [&](std::size_t k) { return ops[k].first == "RZ" || ops[k].first == "-RZ"; };
    const auto hi = half_bits(ops[3].first), lo = half_bits(ops[4].first);
    if (zero(1) && zero(2) && hi && lo) return emit(op(Op::mov), {D(0), imm(static_cast<i64>(*hi << 16 | *lo))});
  }
  if (base == "S2R" || base == "S2UR") {
    if (ops.size() < 2) return fail(operands_at, base + " needs two operands");
    const Operand s = special_register_of(ops[1].first, ops[1].second);
    if (s.kind == OK::special && s.special == Special::other) return not_modelled(ops, 1, false);
    return emit(op(Op::mov), {D(0), s});
  }
  if (base == "CS2R") {
    if (ops.size() < 2 || ops[1].first != "SRZ") return not_modelled(ops, 2, false);
    const Operand d = dst_n(ops[0].first, ops[0].second, has("32") ? 1 : 2);
    if (d.kind == OK::vec)
      for (u32 j = 0; j < d.count; ++j) emit(op(Op::mov), {f.operands[d.index + j], imm(0)});
    else
      emit(op(Op::mov), {d, imm(0)});
    return;
  }
  if (base == "LDC") {
    int bits = 32, regs = 1;
    for (const std::string& m : mods) {
      if (m == "64") regs = 2;
      else if (m == "U8" || m == "S8") bits = 8;
      else if (m == "U16" || m == "S16") bits = 16;
      else return not_modelled(ops, 2, false);
    }
    if (ops.size() < 2 || !starts_with(ops[1].first, "c[")) return not_modelled(ops, regs, false);
    const Operand d = dst_n(ops[0].first, ops[0].second, regs);
    const std::string_view cs = ops[1].first;
    for (int k = 0; k < regs; ++k) {
      std::string word(cs);
      if (k > 0) {  // the next word of the constant
        const std::size_t a = word.find("][");
        const auto off = a == std::string::npos ? std::nullopt : parse_int(std::string_view(word).substr(a + 2, word.size() - a - 3));
        if (!off) return not_modelled(ops, regs, false);
        word = word.substr(0, a + 2) + "0x" + [](i64 v) { char b[24]; std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v)); return std::string(b); }(*off + 4 * k) + "]";
      }
      const Operand v = constant(word, ops[1].second, bits);
      const Operand dk = d.kind == OK::vec ? f.operands[d.index + static_cast<u32>(k)] : d;
      emit(op(Op::mov, TypeKind::b, 32), {dk, v});
      if (bits < 32 && (mods[0] == "S8" || mods[0] == "S16")) emit(op(Op::bfe, TypeKind::s, 32), {dk, dk, imm(0), imm(bits)});
    }
    return;
  }
  if (base == "IMAD") {
    if (has("X")) return not_modelled(ops, 1, false);  // a carry chain: not modelled
    if (has("WIDE")) {
      if (ops.size() < 4) return fail(operands_at, "IMAD.WIDE needs four operands");
      const Operand a = S(1), b = S(2);
      const RegName c = reg_name(ops[3].first);
      const u32 t = tmp(), w = tmp();
      if (!c.ok || c.pred) {
        const Operand cv = S(3);  // an immediate or constant addend (sign-extended as SASS does)
        emit(op(Op::cvt, TypeKind::s, 64), {reg(t), cv});
        f.code.back().code.src = Type{TypeKind::s, 32};
      } else if (c.reg < 0) {
        emit(op(Op::mov, TypeKind::b, 64), {reg(t), imm(0)});
      } else {
        emit(op(Op::mov, TypeKind::b, 64), {reg(t), vec({reg(static_cast<u32>(c.reg)), reg(static_cast<u32>(c.reg) + 1)})});
      }
      Opcode m = op(Op::mad, has("U32") ? TypeKind::u : TypeKind::s, 32);
      m.wide = true;
      emit(m, {reg(w), a, b, reg(t)});
      const Operand d = dst_n(ops[0].first, ops[0].second, 2);
      if (d.kind == OK::vec) emit(op(Op::mov, TypeKind::b, 64), {d, reg(w)});
      return;
    }
    if (has("HI")) {
      if (ops.size() < 4) return fail(operands_at, "IMAD.HI needs four operands");
      const RegName c = reg_name(ops[3].first);
      if (!(c.ok && c.reg < 0)) return not_modelled(ops, 1, false);  // an addend into the high word
      Opcode m = op(Op::mul, has("U32") ? TypeKind::u : TypeKind::s, 32);
      m.hi = true;
      return emit(m, {D(0), S(1), S(2)});
    }
    if (ops.size() < 4) return fail(operands_at, "IMAD needs four operands");
    Opcode m = op(Op::mad, TypeKind::u, 32);
    m.lo = true;
    const Operand a = S(1), b = S(2), c = S(3);
    return emit(m, {D(0), a, b, c});
  }
  if (base == "IADD3") {
    if (has("X")) return not_modelled(ops, 1, false);
    // IADD3 d, [carry-out predicates,] a, b, c: carries are not modelled (what reads them is .X).
    std::size_t k = 1;
    std::vector<std::pair<std::string_view, std::size_t>> carries;
    while (k < ops.size() && is_pred(k)) carries.push_back(ops[k]), ++k;
    if (ops.size() < k + 3) return fail(operands_at, "IADD3 needs three sources");
    for (const auto& cpred : carries) not_modelled({cpred}, 1, false);
    const Operand a = S(k), b = S(k + 1), c = S(k + 2);
    const u32 t = tmp();
    emit(op(Op::add, TypeKind::u, 32), {reg(t), a, b});
    return emit(op(Op::add, TypeKind::u, 32), {D(0), reg(t), c});
  }
  if (base == "VIADD") return emit(op(Op::add, TypeKind::u, 32), {D(0), S(1), S(2)});
  if (base == "IABS") return emit(op(Op::abs, TypeKind::s, 32), {D(0), S(1)});
  if (base == "IMNMX" || base == "VIMNMX") {
    if (ops.size() < 4) return fail(operands_at, base + " needs four operands");
    const TypeKind k = has("U32") ? TypeKind::u : TypeKind::s;
    const Operand a = S(1), b = S(2), p = S(3);
    const u32 lo = tmp(), hi = tmp();
    emit(op(Op::min, k, 32), {reg(lo), a, b});
    emit(op(Op::max, k, 32), {reg(hi), a, b});
    return emit(op(Op::selp, TypeKind::b, 32), {D(0), reg(lo), reg(hi), p});  // PT: min, !PT: max
  }
  if (base == "LEA") {
    if (has("X")) return not_modelled(ops, 1, false);
    std::size_t k = 1;
    std::vector<std::pair<std::string_view, std::size_t>> carries;
    while (k < ops.size() && is_pred(k)) carries.push_back(ops[k]), ++k;
    for (const auto& cpred : carries) not_modelled({cpred}, 1, false);
    const u32 t = tmp();
    if (has("HI")) {
      if (has("SX32")) {  // hi word of (sign-extended a) << s: a >> (32 - s), arithmetic
        if (ops.size() < k + 3) return fail(operands_at, "LEA.HI.SX32 needs three sources");
        const Operand a = S(k), b = S(k + 1);
        const auto s = parse_int(ops[k + 2].first);
        if (!s || *s < 1 || *s > 31) return not_modelled(ops, 1, false);
        emit(op(Op::shr, TypeKind::s, 32), {reg(t), a, imm(32 - *s)});
        return emit(op(Op::add, TypeKind::u, 32), {D(0), reg(t), b});
      }
      if (ops.size() < k + 4) return fail(operands_at, "LEA.HI needs four sources");
      const Operand a = S(k), b = S(k + 1), hi = S(k + 2), s = S(k + 3);
      Opcode sh = op(Op::shf, TypeKind::b, 32);
      sh.left = true, sh.clamp = true;
      emit(sh, {reg(t), a, hi, s});
      return emit(op(Op::add, TypeKind::u, 32), {D(0), reg(t), b});
    }
    if (ops.size() < k + 3) return fail(operands_at, "LEA needs three sources");
    const Operand a = S(k), b = S(k + 1), s = S(k + 2);
    emit(op(Op::shl, TypeKind::b, 32), {reg(t), a, s});
    return emit(op(Op::add, TypeKind::u, 32), {D(0), reg(t), b});
  }
  if (base == "LOP3") {
    // LOP3.LUT [Pd,] d, a, b, c, lut, p: d = lut(a, b, c); Pd = (d != 0) when p is !PT.
    std::size_t k = 0;
    std::optional<std::pair<std::string_view, std::size_t>> pd;
    if (is_pred(0)) pd = ops[0], k = 1;
    if (ops.size() < k + 5) return fail(operands_at, "LOP3.LUT needs a destination, three sources and a table");
    const Operand a = S(k + 1), b = S(k + 2), c = S(k + 3), lut = S(k + 4);
    const Operand d = D(k);
    const u32 t = tmp();
    Opcode l = op(Op::lop3, TypeKind::b, 32);
    emit(l, {reg(t), a, b, c, lut});
    emit(op(Op::mov), {d, reg(t)});
    if (pd) {
      const bool plain = ops.size() > k + 5 && ops[k + 5].first == "!PT";
      if (!plain) return not_modelled({*pd}, 1, false);
      Opcode s = op(Op::setp, TypeKind::u, 32);
      s.cmp = Cmp::ne;
      emit(s, {dst(pd->first, pd->second), reg(t), imm(0)});
    }
    return;
  }
  if (base == "PLOP3") {
    // PLOP3.LUT Pd, Pe, a, b, c, lut1, lut2: Pd = lut1(a, b, c), Pe = lut2(a, b, c) over predicates.
    if (ops.size() < 7) return fail(operands_at, "PLOP3.LUT needs two destinations, three sources and two tables");
    const Operand a = S(2), b = S(3), c = S(4);
    const u32 ix = tmp(), t = tmp();
    emit(op(Op::selp, TypeKind::b, 32), {reg(ix), imm(4), imm(0), a});
    emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(2), imm(0), b});
    emit(op(Op::or_, TypeKind::b, 32), {reg(ix), reg(ix), reg(t)});
    emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(1), imm(0), c});
    emit(op(Op::or_, TypeKind::b, 32), {reg(ix), reg(ix), reg(t)});
    for (int j = 0; j < 2; ++j) {
      emit(op(Op::shr, TypeKind::u, 32), {reg(t), S(5 + static_cast<std::size_t>(j)), reg(ix)});
      emit(op(Op::and_, TypeKind::b, 32), {reg(t), reg(t), imm(1)});
      Opcode s = op(Op::setp, TypeKind::u, 32);
      s.cmp = Cmp::ne;
      emit(s, {D(static_cast<std::size_t>(j)), reg(t), imm(0)});
    }
    return;
  }
  if (base == "SHF") {
    if (ops.size() < 4) return fail(operands_at, "SHF needs four operands");
    const bool left = has("L"), hi = has("HI"), wrap = has("W");
    const bool s32 = has("S32"), u64 = has("U64") || has("S64");
    const Operand lo = S(1), s = S(2), h = S(3);
    const Operand d = D(0);
    if (left && !hi) return emit(op(Op::shl, TypeKind::b, 32), {d, lo, s});
    if (!left && hi && !u64) return emit(op(Op::shr, s32 ? TypeKind::s : TypeKind::u, 32), {d, h, s});
    Opcode sh = op(Op::shf, TypeKind::b, 32);
    sh.left = left;
    sh.clamp = !wrap;
    if (left) return emit(sh, {d, lo, h, s});  // the high word of {h:lo} << s
    if (!hi) return emit(sh, {d, lo, h, s});   // the low word of {h:lo} >> s
    return not_modelled(ops, 1, false);        // the high word of a 64-bit right shift
  }
  if (base == "SGXT") {
    if (ops.size() < 3) return fail(operands_at, "SGXT needs three operands");
    return emit(op(Op::bfe, has("U32") ? TypeKind::u : TypeKind::s, 32), {D(0), S(1), imm(0), S(2)});
  }
  if (base == "PRMT") {
    if (ops.size() < 4 || mods.size() > 0) return not_modelled(ops, 1, false);
    return emit(op(Op::prmt, TypeKind::b, 32), {D(0), S(1), S(3), S(2)});
  }
  if (base == "SEL" || base == "FSEL") {
    if (ops.size() < 4) return fail(operands_at, base + " needs four operands");
    return emit(op(Op::selp, TypeKind::b, 32), {D(0), S(1), S(2), S(3)});
  }
  if (base == "ISETP") {
    if (has("EX") || ops.size() < 5) return not_modelled(ops, 1, false);
    Opcode s = op(Op::setp, has("U32") ? TypeKind::u : TypeKind::s, 32);
    static const std::map<std::string, Cmp> cmps = {{"EQ", Cmp::eq}, {"NE", Cmp::ne}, {"LT", Cmp::lt},
                                                    {"LE", Cmp::le}, {"GT", Cmp::gt}, {"GE", Cmp::ge}};
    for (const std::string& m : mods) {
      if (cmps.count(m)) s.cmp = cmps.at(m);
      else if (m == "AND") s.boolop = BoolOp::and_;
      else if (m == "OR") s.boolop = BoolOp::or_;
      else if (m == "XOR") s.boolop = BoolOp::xor_;
    }
    if (s.cmp == Cmp::none || s.boolop == BoolOp::none) return not_modelled(ops, 1, false);
    return emit(s, {D(0), D(1), S(2), S(3), S(4)}, true);
  }
  if (base == "P2R") {
    // P2R d, PR, r, mask: d = (r & ~mask) | (P0..P6 packed & mask).
    if (ops.size() < 4 || ops[1].first != "PR") return not_modelled(ops, 1, false);
    const auto mask = parse_int(ops[3].first);
    if (!mask) return not_modelled(ops, 1, false);
    const Operand r = S(2);
    const u32 acc = tmp(), t = tmp();
    emit(op(Op::and_, TypeKind::b, 32), {reg(acc), r, imm(~*mask & 0xffffffff)});
    for (u32 i = 0; i < 7; ++i)
      if ((*mask >> i) & 1) {
        emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(i64{1} << i), imm(0), reg(kP + i)});
        emit(op(Op::or_, TypeKind::b, 32), {reg(acc), reg(acc), reg(t)});
      }
    return emit(op(Op::mov), {D(0), reg(acc)});
  }
  if (base == "R2P") {
    if (ops.size() < 3 || ops[0].first != "PR") return not_modelled(ops, 1, false);
    const auto mask = parse_int(ops[2].first);
    if (!mask) return not_modelled(ops, 1, false);
    const Operand r = S(1);
    const u32 t = tmp();
    for (u32 i = 0; i < 7; ++i)
      if ((*mask >> i) & 1) {
        emit(op(Op::and_, TypeKind::b, 32), {reg(t), r, imm(i64{1} << i)});
        Opcode s = op(Op::setp, TypeKind::u, 32);
        s.cmp = Cmp::ne;
        emit(s, {reg(kP + i), reg(t), imm(0)});
      }
    return;
  }
  not_modelled(ops, written_registers(base, mods), float_opcode(base));
}

// The architecture a listing is for ("code for sm_90", ".target sm_90", EF_CUDA_SM90): 0 if none.
int arch_of_line(std::string_view l) {
  for (const std::string_view key : {std::string_view("sm_"), std::string_view("EF_CUDA_SM")}) {
    const std::size_t k = l.find(key);
    if (k == std::string_view::npos) continue;
    int v = 0;
    std::size_t i = k + key.size();
    while (i < l.size() && std::isdigit(static_cast<unsigned char>(l[i])) && v < 10000) v = v * 10 + (l[i++] - '0');
    if (v > 0) return v;
  }
  return 0;
}

struct Reader {
  Program& p;
  int arch = 0;
  std::optional<Lowering> cur;
  std::map<std::string, u32> file_ids;
  u32 loc_file = 0, loc_line = 0;
  std::vector<std::string> labels_waiting;  // labels seen before the next instruction

  [[noreturn]] void fail(u32 line, std::size_t line_start, std::size_t pos, const std::string& what) {
    const std::size_t eol = p.text.find('\n', line_start);
    std::string shown = p.text.substr(line_start, (eol == std::string::npos ? p.text.size() : eol) - line_start);
    for (char& c : shown)
      if (c == '\t' || c == '\r') c = ' ';
    if (shown.size() > 200) shown = shown.substr(0, 200);
    const std::size_t col = pos >= line_start ? pos - line_start + 1 : 1;
    throw ParseError::located(p.file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what,
                              std::min(col, shown.size() + 1), shown);
  }

  void finish(u32 line, std::size_t line_start) {
    if (!cur) return;
    Lowering& lw = *cur;
    Function& f = lw.f;
    const auto target = [&](i64 off) -> std::optional<u32> {
      const auto it = lw.first_of_offset.lower_bound(off);
      if (it == lw.first_of_offset.end()) return static_cast<u32>(f.code.size());  // past the end: the lane finishes
      return it->second;
    };
    for (const std::size_t k : lw.pending_offsets) {
      Operand& o = f.operands[f.code[k].first];
      if (const auto t = target(o.imm)) o.index = *t;
    }
    for (const auto& [k, name] : lw.pending_names) {
      const auto it = lw.label_offsets.find(name);
      if (it == lw.label_offsets.end()) fail(line, line_start, line_start, "branch to '" + name + "', a label this function does not define");
      f.operands[f.code[k].first].index = *target(it->second);
    }
    // A final EXIT so a lane that runs past the last instruction finishes.
    Instr ex;
    ex.code.op = Op::exit;
    ex.line = f.line;
    f.code.push_back(ex);
    f.decoded = true;
    cur.reset();
  }

  void start(const std::string& name, u32 line) {
    Function f;
    f.name = name;
    f.is_entry = true;
    f.line = line;
    ParamDecl buf;
    buf.name = "the parameter buffer";
    buf.type = Type{TypeKind::b, 8};
    buf.bytes = 4096;
    f.params.push_back(buf);
    f.param_slots = 1;
    f.registers = kTmp + kTmps;
    p.functions.push_back(std::move(f));
    BodyRange b;
    b.has_body = true;
    b.line = line;
    p.bodies.push_back(b);
    const int a = arch == 0 ? 90 : arch;
    if (a < 70 || a > 90)
      throw LayoutError(p.file + ": SASS for sm_" + std::to_string(a) + ": the constant bank layout is modelled for sm_70..sm_90 only");
    cur.emplace(Lowering{p, p.functions.back(), a, a >= 90 ? 0x210 : 0x160});
    Lowering& lw = *cur;
    lw.line = line;
    Opcode t;  // PT and UPT: true
    t.op = Op::setp, t.type = Type{TypeKind::u, 32}, t.cmp = Cmp::eq;
    lw.emit(t, {Lowering::reg(kPT), Lowering::imm(0), Lowering::imm(0)}, false, false);
    lw.emit(t, {Lowering::reg(kUPT), Lowering::imm(0), Lowering::imm(0)}, false, false);
    loc_file = loc_line = 0;
    labels_waiting.clear();
  }

  void instruction(std::string_view l, u32 line, std::size_t line_start, std::size_t close) {
    // "/*0230*/   @!P0 OPCODE.MODS operands ;"
    const auto off = parse_int("0x" + std::string(l.substr(2, close - 2)));
    if (!off) fail(line, line_start, line_start + static_cast<std::size_t>(l.data() - (p.text.data() + line_start)), "a hex offset /*0230*/");
    if (!cur) fail(line, line_start, line_start, "an instruction outside a function (no 'Function :' or '.text.NAME:' before it)");
    Lowering& lw = *cur;
    const std::size_t base = static_cast<std::size_t>(l.data() - p.text.data());
    std::size_t i = close + 2;
    while (i < l.size() && std::isspace(static_cast<unsigned char>(l[i]))) ++i;
    const std::size_t semi = l.find(';', i);
    if (semi == std::string_view::npos) fail(line, line_start, base + l.size(), "';' at the end of the instruction");
    const std::size_t begin = i;
    lw.guard = -1, lw.guard_neg = false;
    if (i < l.size() && l[i] == '@') {
      std::size_t e = i + 1;
      while (e < semi && !std::isspace(static_cast<unsigned char>(l[e]))) ++e;
      std::string_view g = l.substr(i + 1, e - i - 1);
      if (!g.empty() && g[0] == '!') lw.guard_neg = true, g.remove_prefix(1);
      const RegName r = reg_name(g);
      if (!r.ok || !r.pred) fail(line, line_start, base + i, "a guard predicate (@P0, @!PT, @UP1), not '@" + std::string(g) + "'");
      lw.guard = r.reg;
      i = e;
      while (i < semi && std::isspace(static_cast<unsigned char>(l[i]))) ++i;
    }
    std::size_t e = i;
    while (e < semi && !std::isspace(static_cast<unsigned char>(l[e]))) ++e;
    const std::string_view opcode = l.substr(i, e - i);
    if (opcode.empty() || !std::isupper(static_cast<unsigned char>(opcode[0])))
      fail(line, line_start, base + i, "an opcode (LDS, IMAD, ...)");
    lw.line = line;
    lw.text_begin = static_cast<u32>(base + begin);
    lw.text_end = static_cast<u32>(base + semi);
    lw.loc_file = loc_file, lw.loc_line = loc_line;
    lw.offset = *off;
    lw.first_of_offset.emplace(*off, static_cast<u32>(lw.f.code.size()));
    for (const std::string& name : labels_waiting) lw.label_offsets[name] = *off;
    labels_waiting.clear();
    lw.error.clear();
    lw.lower(opcode, l.substr(e, semi - e), base + e);
    if (!lw.error.empty()) fail(line, line_start, lw.error_at == 0 ? base + i : lw.error_at, lw.error);
  }

  void read() {
    const std::string& t = p.text;
    std::size_t pos = 0;
    u32 line = 0;
    while (pos < t.size()) {
      const std::size_t eol = t.find('\n', pos);
      const std::size_t end = eol == std::string::npos ? t.size() : eol;
      ++line;
      const std::size_t line_start = pos;
      std::string_view l = trim(std::string_view(t).substr(pos, end - pos));
      pos = end + 1;
      if (l.empty()) continue;
      if (const std::size_t k = l.find("Function : "); k != std::string_view::npos && !starts_with(l, "/*")) {
        finish(line, line_start);
        start(std::string(trim(l.substr(k + 11))), line);
        continue;
      }
      if (starts_with(l, ".text.") && l.back() == ':') {
        finish(line, line_start);
        start(std::string(l.substr(6, l.size() - 7)), line);
        continue;
      }
      if (starts_with(l, "//## File \"")) {  // nvdisasm -g: //## File "path", line N
        const std::size_t q = l.find('"', 11);
        const std::size_t n = l.find("line ", q == std::string_view::npos ? 0 : q);
        if (q != std::string_view::npos && n != std::string_view::npos) {
          const std::string path(l.substr(11, q - 11));
          const auto [it, fresh] = file_ids.try_emplace(path, static_cast<u32>(file_ids.size() + 1));
          if (fresh) p.modules[0].files[it->second] = path;
          std::size_t d = n + 5, v = 0;
          while (d < l.size() && std::isdigit(static_cast<unsigned char>(l[d])) && v < 100000000) v = v * 10 + static_cast<std::size_t>(l[d++] - '0');
          loc_file = it->second, loc_line = static_cast<u32>(v);
        }
        continue;
      }
      if (starts_with(l, "/*") && l.size() > 6 && l.find("*/") != std::string_view::npos && std::isxdigit(static_cast<unsigned char>(l[2]))) {
        const std::size_t close = l.find("*/");
        const std::string_view inner = l.substr(2, close - 2);
        if (starts_with(inner, " 0x") || starts_with(inner, "0x")) continue;  // an encoding line
        instruction(l, line, line_start, close);
        continue;
      }
      if (starts_with(l, "/*") || starts_with(l, "//") || l[0] == '.' || l[0] == '#') {
        if (const int a = arch_of_line(l); a > 0 && (l.find("code for") != std::string_view::npos || starts_with(l, ".target") ||
                                                   l.find("EF_CUDA_SM") != std::string_view::npos) && arch == 0)
          arch = a;
        if (l[0] == '.' && l.back() == ':' && cur) labels_waiting.emplace_back(l.substr(0, l.size() - 1));  // .L_x_14:
        continue;
      }
      if (l.find("code for sm_") != std::string_view::npos) {
        arch = arch_of_line(l);
        continue;
      }
      if (l.back() == ':' && l.find(' ') == std::string_view::npos) {  // a function's symbol (nvdisasm) or a label
        if (cur) labels_waiting.emplace_back(l.substr(0, l.size() - 1));
        continue;
      }
      if (starts_with(l, "Fatbin ") || starts_with(l, "=====") || starts_with(l, "arch =") || starts_with(l, "code version") ||
          starts_with(l, "host =") || starts_with(l, "compile_size") || starts_with(l, "identifier") || starts_with(l, "ptxasOptions") ||
          starts_with(l, "has debug"))
        continue;  // cuobjdump's banners
      fail(line, line_start, line_start + static_cast<std::size_t>(l.data() - (t.data() + line_start)),
           "not SASS as cuobjdump -sass or nvdisasm print it (an instruction is '/*0230*/ OPCODE operands ;')");
    }
    finish(line, line_start_of_last());
    if (p.functions.empty()) throw LayoutError(p.file + ": no SASS function (cuobjdump -sass prints 'Function : NAME' before each)");
  }
  std::size_t line_start_of_last() const {
    const std::size_t k = p.text.rfind('\n', p.text.empty() ? 0 : p.text.size() - 1);
    return k == std::string::npos ? 0 : k + 1;
  }
};

}  // namespace

bool looks_like_sass(const std::string& text) {
  const std::string_view head = std::string_view(text).substr(0, 1 << 16);
  if (head.find(".entry") != std::string_view::npos || head.find(".visible") != std::string_view::npos) return false;
  return head.find("Function : ") != std::string_view::npos || head.find("/*0000*/") != std::string_view::npos;
}

Program parse_sass(std::string text, const std::string& file) {
  Program p;
  p.file = file;
  p.text = std::move(text);
  p.modules.push_back(Module{});
  p.shared_window_base = 0x400;
  Reader r{p};
  r.read();
  return p;
}

}  // namespace layoutproof::ptx
