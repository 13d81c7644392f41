#include "model/compiled/sass/sass_lower.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <unordered_map>

namespace layoutproof::compiled::sass {

using OK = Operand::Kind;

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

namespace {

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

}  // namespace

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
  if (base == "LDS" || base == "STS" || base == "LDL" || base == "STL") {
    // LDL/STL: the thread's local memory (its stack: spills, arrays indexed at run time), read
    // back by the executor where it stored it (exec/ptx_machine.hpp Lane::local); not shared.
    Opcode c;
    c.op = base == "LDS" || base == "LDL" ? Op::ld : Op::st;
    c.space = base == "LDL" || base == "STL" ? Space::local : Space::shared;
    c.type = Type{TypeKind::b, 32};
    int regs = 1;
    for (const std::string& m : mods) {
      if (m == "U8") c.type = Type{TypeKind::u, 8};
      else if (m == "S8") c.type = Type{TypeKind::s, 8};
      else if (m == "U16") c.type = Type{TypeKind::u, 16};
      else if (m == "S16") c.type = Type{TypeKind::s, 16};
      else if (m == "64") c.vec = 2, regs = 2;
      else if (m == "128") c.vec = 4, regs = 4;
      else if (m == "32" || m == "U" || m == "U32" || (m == "LU" && base == "LDL")) continue;  // .LU: a last-use hint
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
    if (shape && c.matrices == 0) c.matrices = 1;  // ptxas writes the single matrix with no count: LDSM.16.M88 R4, [R2]
    if (!shape || ops.size() < 2) return not_modelled(ops, 4, false);
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
    c.bypass = has("BYPASS");
    i64 bytes = 4;
    if (has("64")) bytes = 8;
    if (has("128")) bytes = 16;
    for (const std::string& m : mods)
      if (m != "E" && m != "BYPASS" && m != "LTC128B" && m != "LTC64B" && m != "LTC256B" && m != "64" && m != "128" && m != "32" &&
          m != "ZFILL" && m != "EL" && m != "EF" && m != "LU" && m != "NA")
        return not_modelled(ops, 1, false);
    // The shared operand is the bracket without desc[...] (cuobjdump writes it first); the global
    // one is desc[URx][Rn.64+off]. Its count depends on the global address mod 128 alone (the L1
    // banks it reads: model/bank/bank.hpp count_ldgsts_measured), which is the low word's: the low
    // register stands for the pair, so a pointer's term in it (IMAD.WIDE's low word is one) counts.
    std::optional<Operand> shared;
    Operand global = addr(Operand{}, 0);
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const std::string_view o = ops[k].first;
      if (!o.empty() && o[0] == '[' && !shared) {
        shared = addr_of(k);
        continue;
      }
      const std::size_t b = o.rfind('[');
      if (b == std::string_view::npos || o.back() != ']') continue;
      std::string_view in = o.substr(b + 1, o.size() - b - 2);
      i64 off = 0;
      if (const std::size_t plus = in.find('+'); plus != std::string_view::npos) {
        const auto v = parse_int(in.substr(plus + 1));
        if (!v) continue;
        off = *v;
        in = in.substr(0, plus);
      }
      const RegName r = reg_name(in);
      if (!r.ok || r.pred) continue;
      const u32 t = tmp();
      if (r.reg < 0) emit(op(Op::mov, TypeKind::b, 32), {reg(t), imm(0)});
      else emit(op(Op::mov, TypeKind::b, 32), {reg(t), reg(static_cast<u32>(r.reg))});
      global = addr(reg(t), off);
    }
    if (!shared) return fail(ops.empty() ? 0 : ops[0].second, "LDGSTS without a shared address");
    return emit(c, {*shared, global, imm(bytes)});
  }
  // ATOMS.op d, [a], v...: the addresses and the claims that need no bank rule.
  Opcode c;
  c.op = Op::atom;
  c.space = Space::shared;
  c.type = Type{TypeKind::b, static_cast<u8>(has("64") ? 64 : 32)};
  if (ops.size() < 2) return fail(0, "ATOMS needs a destination and an address");
  // ATOMS.CAST.SPIN writes a predicate (whether the swap happened); the others a register (pair).
  const RegName first = reg_name(ops[0].first);
  const Operand d = first.ok && first.pred ? dst(ops[0].first, ops[0].second) : dst_n(ops[0].first, ops[0].second, has("64") ? 2 : 1);
  std::vector<Operand> all{d, addr_of(1)};
  emit(c, all);
}

bool SassInstr::has(const char* m) const { return std::find(mods.begin(), mods.end(), m) != mods.end(); }
Operand SassInstr::S(std::size_t k) const {
  return k < ops.size() ? l.src(ops[k].first, ops[k].second) : (l.fail(0, "a missing operand"), Lowering::imm(0));
}
Operand SassInstr::D(std::size_t k) const {
  return k < ops.size() ? l.dst(ops[k].first, ops[k].second) : (l.fail(0, "a missing operand"), Lowering::sink());
}
bool SassInstr::is_pred(std::size_t k) const {
  if (k >= ops.size()) return false;
  const RegName r = reg_name(ops[k].first[0] == '!' ? ops[k].first.substr(1) : ops[k].first);
  return r.ok && r.pred;
}

// The memory opcodes (lower_memory), and a no-op.
void Lowering::lower_shared(const SassInstr& i) { lower_memory(i.base, i.mods, i.ops); }
// LDGDEPBAR commits the warp's cp.async group and DEPBAR.LE SB0, N waits for all but N of them
// (Opcode::async): no effect on a value either.
void Lowering::lower_nop(const SassInstr& i) {
  Opcode c;
  c.op = Op::nop;
  if (i.base == "LDGDEPBAR") c.async = Opcode::AsyncGroup::commit;
  if (i.base == "DEPBAR" && i.has("LE") && i.ops.size() >= 2 && i.ops[0].first == "SB0") {
    c.async = Opcode::AsyncGroup::wait;
    return emit(c, {i.S(1)});
  }
  emit(c, {});
}

// BRA, JMP
void Lowering::lower_bra(const SassInstr& i) {
  if (i.has("DIV")) {  // taken only where the warp has diverged: a converged warp falls through
    Opcode c;
    c.op = Op::nop;
    return emit(c, {});
  }
  Opcode c;
  c.op = Op::bra;
  return emit_jump(i, c);
}

// A branch or call to an instruction of this function, by label name (nvdisasm) or offset
// (cuobjdump); any other target is indirect: the lane stops there (UNKNOWN), never guessed.
void Lowering::emit_jump(const SassInstr& i, const Opcode& c) {
  std::string_view t = i.ops.empty() ? std::string_view{} : i.ops.back().first;
  Operand label;
  label.kind = OK::label;
  if (starts_with(t, "`(") && t.back() == ')') {
    label.index = 0x80000000u;  // resolved by name after the function is read
    label.imm = -1;
    pending_names.push_back({f.code.size(), std::string(t.substr(2, t.size() - 3))});
  } else if (const auto v = parse_int(t)) {
    label.imm = *v;
    pending_offsets.push_back({f.code.size(), line, i.ops.back().second});
  } else {
    return emit_stop();  // never guessed
  }
  return emit(c, {label});
}

// A branch without a label: the lane stops there (UNKNOWN), with the reason.
void Lowering::emit_stop() {
  Opcode stop;
  stop.op = Op::bra;
  Operand none;
  return emit(stop, {none});
}

// EXIT, KILL
void Lowering::lower_exit(const SassInstr&) {
  Opcode c;
  c.op = Op::exit;
  return emit(c, {});
}

// CALL, RET, BPT, BRX, JMX, RTT. BPT.TRAP ends the lane as EXIT does (a trap: Opcode::trap). CALL.REL calls a subroutine ptxas placed in the function's own
// code (the slow paths of float division and square root, __noinline__ functions): it runs in the
// same registers and RET.REL returns past the call (the return address register, R20 or any, is
// the call's own: the executor keeps the return point itself). CALL.ABS (vprintf, __assertfail,
// a function of another module), BRX, JMX and the others stop the lane, with the reason.
void Lowering::lower_call(const SassInstr& i) {
  if (i.base == "BPT" && i.has("TRAP")) {  // __trap(), an assert's end: the lane ends (Opcode::trap)
    Opcode c;
    c.op = Op::exit;
    c.trap = true;
    return emit(c, {});
  }
  if (i.base == "CALL" && i.has("REL")) {
    Opcode call;
    call.op = Op::call;
    return emit_jump(i, call);
  }
  if (i.base == "RET" && i.has("REL")) {
    Opcode ret;
    ret.op = Op::ret;
    return emit(ret, {});
  }
  return emit_stop();
}

// ELECT Pd, URd, PT: elect.sync URd|Pd over the lanes of the issue (membermask PT: all of them).
// Another membermask is not modelled.
void Lowering::lower_elect(const SassInstr& i) {
  if (i.ops.size() != 3 || !i.is_pred(0) || i.ops[2].first != "PT") return not_modelled(i.ops, 1, false);
  Opcode c = op(Op::elect, TypeKind::b, 32);
  return emit(c, {i.D(1), i.D(0), imm(0xffffffff)}, true);
}

// SYNCS: SYNCS.PHASECHK (mbarrier try_wait / test_wait) completes, its predicate true (ptx_ir.hpp
// Op::mbarrier_wait); the other mbarrier operations (arrive, expect-tx, init) write nothing an
// address depends on that the model reads: not modelled, and listed as shared-memory operations.
void Lowering::lower_syncs(const SassInstr& i) {
  if (i.has("PHASECHK") && !i.ops.empty() && i.is_pred(0)) {
    Opcode c = op(Op::mbarrier_wait, TypeKind::b, 64);
    c.space = Space::shared;
    return emit(c, {i.D(0)});
  }
  return not_modelled(i.ops, written_registers(i.base, i.mods), false);
}

// MOV, R2UR. R2UR Pd, URd, Ra (ptxas's loop that makes a value uniform one distinct value at a
// time, `@P1 BRA.U.ANY` back to it while Pd holds): URd is Ra of the lowest lane of the issue
// (elect.sync, then shfl.sync.idx from it), Pd true in the lanes whose Ra differs (.OR: or-ed into
// Pd). Every lane is served in the round whose URd equals its Ra, whichever lane the hardware
// picks first, so what the lanes compute from URd does not depend on that choice.
void Lowering::lower_mov(const SassInstr& i) {
  if (i.base != "R2UR" || !i.is_pred(0)) return emit(op(Op::mov), {i.D(0), i.S(1)});
  for (const std::string& m : i.mods)
    if (m != "OR") return not_modelled(i.ops, 1, false);
  if (i.ops.size() != 3) return not_modelled(i.ops, 1, false);
  const u32 leader = tmp(), value = tmp();
  emit(op(Op::elect, TypeKind::b, 32), {reg(leader), sink(), imm(0xffffffff)}, true);
  Opcode from = op(Op::shfl, TypeKind::b, 32);
  from.shfl = ShflMode::idx;
  emit(from, {reg(value), sink(), i.S(2), reg(leader), imm(0x1f), imm(-1)}, true);
  emit(op(Op::mov), {i.D(1), reg(value)});
  Opcode differs = op(Op::setp, TypeKind::u, 32);
  differs.cmp = Cmp::ne;
  differs.boolop = i.has("OR") ? BoolOp::or_ : BoolOp::and_;
  const Operand acc = i.has("OR") ? i.S(0) : imm(1);
  return emit(differs, {i.D(0), sink(), i.S(2), reg(value), acc}, true);
}

// HFMA2
void Lowering::lower_hfma2(const SassInstr& i) {
  if (i.ops.size() == 5) {
    // ptxas materialises 32-bit constants as HFMA2[.MMA] d, -RZ, RZ, hi, lo: 0 * 0 + (hi, lo), the
    // two halves' bits (HFMA2.MMA R6, -RZ, RZ, 0, 1.9073486328125e-06 sets R6 = 0x00000020).
    const auto zero = [&](std::size_t k) { return i.ops[k].first == "RZ" || i.ops[k].first == "-RZ"; };
    const auto hi = half_bits(i.ops[3].first), lo = half_bits(i.ops[4].first);
    if (zero(1) && zero(2) && hi && lo) return emit(op(Op::mov), {i.D(0), imm(static_cast<i64>(*hi << 16 | *lo))});
  }
  not_modelled(i.ops, written_registers(i.base, i.mods), float_opcode(i.base));
}

// S2R, S2UR
void Lowering::lower_s2r(const SassInstr& i) {
  if (i.ops.size() < 2) return fail(i.at, i.base + " needs two operands");
  if (i.ops[1].first == "SR_SWINHI") return lower_swinhi(i);
  const Operand s = special_register_of(i.ops[1].first, i.ops[1].second);
  if (s.kind == OK::special && s.special == Special::other) return not_modelled(i.ops, 1, false);
  return emit(op(Op::mov), {i.D(0), s});
}

// CS2R
void Lowering::lower_cs2r(const SassInstr& i) {
  if (i.ops.size() < 2 || i.ops[1].first != "SRZ") return not_modelled(i.ops, 2, false);
  const Operand d = dst_n(i.ops[0].first, i.ops[0].second, i.has("32") ? 1 : 2);
  if (d.kind == OK::vec)
    for (u32 j = 0; j < d.count; ++j) emit(op(Op::mov), {f.operands[d.index + j], imm(0)});
  else
    emit(op(Op::mov), {d, imm(0)});
  return;
}

// LDC
void Lowering::lower_ldc(const SassInstr& i) {
  int bits = 32, regs = 1;
  for (const std::string& m : i.mods) {
    if (m == "64") regs = 2;
    else if (m == "U8" || m == "S8") bits = 8;
    else if (m == "U16" || m == "S16") bits = 16;
    else return not_modelled(i.ops, 2, false);
  }
  if (i.ops.size() < 2 || !starts_with(i.ops[1].first, "c[")) return not_modelled(i.ops, regs, false);
  const Operand d = dst_n(i.ops[0].first, i.ops[0].second, regs);
  const std::string_view cs = i.ops[1].first;
  for (int k = 0; k < regs; ++k) {
    std::string word(cs);
    if (k > 0) {  // the next word of the constant
      const std::size_t a = word.find("][");
      const auto off = a == std::string::npos ? std::nullopt : parse_int(std::string_view(word).substr(a + 2, word.size() - a - 3));
      if (!off) return not_modelled(i.ops, regs, false);
      word = word.substr(0, a + 2) + "0x" + [](i64 v) { char b[24]; std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v)); return std::string(b); }(*off + 4 * k) + "]";
    }
    const Operand v = constant(word, i.ops[1].second, bits);
    const Operand dk = d.kind == OK::vec ? f.operands[d.index + static_cast<u32>(k)] : d;
    emit(op(Op::mov, TypeKind::b, 32), {dk, v});
    if (bits < 32 && (i.mods[0] == "S8" || i.mods[0] == "S16")) emit(op(Op::bfe, TypeKind::s, 32), {dk, dk, imm(0), imm(bits)});
  }
  return;
}

// The conversion `c` (I2F, F2I) of operand 1 into operand 0: a 64-bit source is its register pair,
// a 64-bit result goes to the destination's pair. False (what it writes made not known) when a
// 64-bit source is not a register.
bool Lowering::emit_conversion(const SassInstr& i, const Opcode& c) {
  const int regs = c.type.bits / 32;
  const Operand d = dst_n(i.ops[0].first, i.ops[0].second, regs);
  Operand a = i.S(1);
  if (c.src.bits == 64) {
    const RegName r = reg_name(i.ops[1].first);
    if (!r.ok || r.pred || r.reg < 0) {
      not_modelled(i.ops, regs, true);
      return false;
    }
    const u32 t = tmp();
    emit(op(Op::mov, TypeKind::b, 64), {reg(t), vec({reg(static_cast<u32>(r.reg)), reg(static_cast<u32>(r.reg) + 1)})});
    a = reg(t);
  }
  if (regs == 2) {
    const u32 t = tmp();
    emit(c, {reg(t), a});
    emit(op(Op::mov, TypeKind::b, 64), {d, reg(t)});
  } else {
    emit(c, {d, a});
  }
  return true;
}

// I2F[.F64][.U32|.S32|.U64|.S64|.U16|.S16|.U8|.S8][.RN|.RZ|.RM|.RP] d, a: an integer to a float;
// I2FP.F32.<U32|S32>[.RZ...] (sm_86 and later) is the same conversion.
void Lowering::lower_i2f(const SassInstr& i) {
  Opcode c = op(Op::cvt, TypeKind::f, 32);
  c.src = Type{TypeKind::s, 32};
  for (const std::string& m : i.mods) {
    if (m == "F64") c.type.bits = 64;
    else if (m == "F32") c.type.bits = 32;
    else if (m == "U32" || m == "S32" || m == "U64" || m == "S64" || m == "U16" || m == "S16" || m == "U8" || m == "S8")
      c.src = Type{m[0] == 'U' ? TypeKind::u : TypeKind::s, static_cast<u8>(std::stoi(m.substr(1)))};
    else if (m == "RN") c.rnd = Round::rn;
    else if (m == "RZ") c.rnd = Round::rz;
    else if (m == "RM") c.rnd = Round::rm;
    else if (m == "RP") c.rnd = Round::rp;
    else return not_modelled(i.ops, written_registers("I2F", i.mods), true);
  }
  if (i.ops.size() < 2) return fail(i.at, "I2F needs a destination and a source");
  if (!emit_conversion(i, c)) return;
  const RegName dr = reg_name(i.ops[0].first);
  if (dr.ok && !dr.pred && dr.reg >= 0) {
    std::erase_if(rp_writes, [&](const std::pair<i64, i64>& w) { return w.first == dr.reg; });
    if (c.rnd == Round::rp && c.type.bits == 32) rp_writes.emplace_back(dr.reg, offset);
  }
}

// F2I[.FTZ][.U32|.S32|.U64|.S64][.F64][.TRUNC|.FLOOR|.CEIL][.NTZ] d, a: a float to an integer
// (default: to nearest even), saturating, NaN -> 0.
void Lowering::lower_f2i(const SassInstr& i) {
  Opcode c = op(Op::cvt, TypeKind::s, 32);
  c.src = Type{TypeKind::f, 32};
  c.rnd = Round::rn;
  for (const std::string& m : i.mods) {
    if (m == "FTZ") c.ftz = true;
    else if (m == "NTZ") continue;  // no effect on the value (the trailing-zero hint)
    else if (m == "U32" || m == "S32" || m == "U64" || m == "S64")
      c.type = Type{m[0] == 'U' ? TypeKind::u : TypeKind::s, static_cast<u8>(std::stoi(m.substr(1)))};
    else if (m == "F64") c.src.bits = 64;
    else if (m == "TRUNC") c.rnd = Round::rz;
    else if (m == "FLOOR") c.rnd = Round::rm;
    else if (m == "CEIL") c.rnd = Round::rp;
    else return not_modelled(i.ops, written_registers("F2I", i.mods), true);
  }
  if (i.ops.size() < 2) return fail(i.at, "F2I needs a destination and a source");
  emit_conversion(i, c);
}

// F2F.<F64.F32|F32.F64>[.RN|.RZ|.RM|.RP][.FTZ] d, a: a float to a float of the other width (the
// destination's type first; a 64-bit side is a register pair). Same-width forms (rounding to an
// integer) are not modelled.
void Lowering::lower_f2f(const SassInstr& i) {
  std::vector<int> widths;
  Opcode c = op(Op::cvt, TypeKind::f, 32);
  for (const std::string& m : i.mods) {
    if (m == "F64" || m == "F32") widths.push_back(m == "F64" ? 64 : 32);
    else if (m == "RN") c.rnd = Round::rn;
    else if (m == "RZ") c.rnd = Round::rz;
    else if (m == "RM") c.rnd = Round::rm;
    else if (m == "RP") c.rnd = Round::rp;
    else if (m == "FTZ") c.ftz = true;
    else return not_modelled(i.ops, written_registers("F2F", i.mods), true);
  }
  if (widths.size() != 2 || widths[0] == widths[1]) return not_modelled(i.ops, written_registers("F2F", i.mods), true);
  if (i.ops.size() < 2) return fail(i.at, "F2F needs a destination and a source");
  c.type.bits = static_cast<u8>(widths[0]);
  c.src = Type{TypeKind::f, static_cast<u8>(widths[1])};
  if (widths[0] == 32 && c.rnd == Round::none) c.rnd = Round::rn;  // narrowing: to nearest even unless told
  emit_conversion(i, c);
}

// MUFU.RCP d, a where a is what an I2F.RP wrote a few instructions before: the reciprocal estimate
// of ptxas's integer division, which its Newton step and correction make an exact quotient for
// any estimate within MUFU's 1 ulp, so the correctly rounded one stands for the hardware's. Any
// other MUFU (a user's fast 1/x, exp, sin...) is not modelled: its last bits are the hardware's.
void Lowering::lower_mufu(const SassInstr& i) {
  const RegName a = i.ops.size() >= 2 ? reg_name(i.ops[1].first) : RegName{};
  // Within 16 instructions of its I2F.RP, in the same function (offsets only grow within one).
  const auto w = std::find_if(rp_writes.begin(), rp_writes.end(), [&](const std::pair<i64, i64>& x) {
    return a.ok && !a.pred && x.first == a.reg && offset > x.second && offset - x.second <= 0x100;
  });
  const bool division = i.mods.size() == 1 && i.mods[0] == "RCP" && w != rp_writes.end();
  if (w != rp_writes.end()) rp_writes.erase(w);
  if (!division) return not_modelled(i.ops, 1, true);
  Opcode c = op(Op::rcp, TypeKind::f, 32);
  emit(c, {i.D(0), i.S(1)});
}

// SHFL.{IDX,UP,DOWN,BFLY} Pd, Rd, Ra, b, c: PTX's shfl.sync.MODE.b32 d|p, a, b, c over the lanes
// that execute it together (SASS writes no member mask: WARPSYNC before it names them), with b the
// lane or offset and c the packed clamp and segment mask; the one executor's shfl (exec/ptx_warp.cpp).
void Lowering::lower_shfl(const SassInstr& i) {
  Opcode c = op(Op::shfl, TypeKind::b, 32);
  for (const std::string& m : i.mods) {
    if (m == "IDX") c.shfl = ShflMode::idx;
    else if (m == "UP") c.shfl = ShflMode::up;
    else if (m == "DOWN") c.shfl = ShflMode::down;
    else if (m == "BFLY") c.shfl = ShflMode::bfly;
    else return not_modelled(i.ops, 1, false);
  }
  if (c.shfl == ShflMode::none || i.ops.size() < 5 || !i.is_pred(0)) return not_modelled(i.ops, 1, false);
  return emit(c, {i.D(1), i.D(0), i.S(2), i.S(3), i.S(4), imm(-1)}, true);
}

// IMAD
void Lowering::lower_imad(const SassInstr& i) {
  if (i.has("X")) {  // IMAD.X d, a, b, c, P: a * b + c + P (the high word of a 64-bit sum)
    if (i.ops.size() < 5 || i.has("WIDE") || i.has("HI")) return not_modelled(i.ops, 2, false);
    const Operand a = i.S(1), b = i.S(2), c = i.S(3), cin = carry_in(i.ops[4].first, i.ops[4].second);
    const u32 t = tmp();
    Opcode m = op(Op::mad, TypeKind::u, 32);
    m.lo = true;
    emit(m, {reg(t), a, b, c});
    return emit(op(Op::add, TypeKind::u, 32), {i.D(0), reg(t), cin});
  }
  if (i.has("WIDE")) {
    if (i.ops.size() < 4) return fail(i.at, "IMAD.WIDE needs four operands");
    const Operand a = i.S(1), b = i.S(2);
    const RegName c = reg_name(i.ops[3].first);
    const u32 t = tmp(), w = tmp(), lo = tmp();
    Operand c_lo = imm(0);  // the addend's low word
    if (!c.ok || c.pred) {
      c_lo = i.S(3);  // an immediate or constant addend (sign-extended as SASS does)
      emit(op(Op::cvt, TypeKind::s, 64), {reg(t), c_lo});
      f.code.back().code.src = Type{TypeKind::s, 32};
    } else if (c.reg < 0) {
      emit(op(Op::mov, TypeKind::b, 64), {reg(t), imm(0)});
    } else {
      c_lo = reg(static_cast<u32>(c.reg));
      emit(op(Op::mov, TypeKind::b, 64), {reg(t), vec({c_lo, reg(static_cast<u32>(c.reg) + 1)})});
    }
    Opcode m = op(Op::mad, i.has("U32") ? TypeKind::u : TypeKind::s, 32);
    m.wide = true;
    emit(m, {reg(w), a, b, reg(t)});
    // The low word of a * b + c is a * b + c.lo mod 2^32 whatever the signs: mad.lo, an affine
    // term where a or b is a constant (the 64-bit pair is not one term: its high word is not).
    Opcode ml = op(Op::mad, TypeKind::u, 32);
    ml.lo = true;
    emit(ml, {reg(lo), a, b, c_lo});
    const Operand d = dst_n(i.ops[0].first, i.ops[0].second, 2);
    if (d.kind == OK::vec) {
      emit(op(Op::mov, TypeKind::b, 64), {d, reg(w)});
      emit(op(Op::mov), {f.operands[d.index], reg(lo)});
    }
    return;
  }
  if (i.has("HI")) {
    if (i.ops.size() < 4) return fail(i.at, "IMAD.HI needs four operands");
    const RegName c = reg_name(i.ops[3].first);
    Opcode m = op(Op::mul, i.has("U32") ? TypeKind::u : TypeKind::s, 32);
    m.hi = true;
    if (c.ok && c.reg < 0) return emit(m, {i.D(0), i.S(1), i.S(2)});
    // IMAD.HI.U32 d, a, b, Rc: the high word of a * b + the 64-bit pair (Rc+1:Rc), as ptxas's
    // unsigned division and remainder use it (Rc = 0, Rc+1 = the reciprocal: umulhi(x, e) + x,
    // `tid % (2*s)`). The signed form, and an addend that is not a register pair, are not modelled.
    if (!i.has("U32") || !c.ok || c.pred) return not_modelled(i.ops, 1, false);
    const u32 pair = tmp(), w = tmp();
    emit(op(Op::mov, TypeKind::b, 64), {reg(pair), vec({reg(static_cast<u32>(c.reg)), reg(static_cast<u32>(c.reg) + 1)})});
    Opcode mw = op(Op::mad, TypeKind::u, 32);
    mw.wide = true;
    emit(mw, {reg(w), i.S(1), i.S(2), reg(pair)});
    return emit(op(Op::shr, TypeKind::u, 64), {i.D(0), reg(w), imm(32)});
  }
  if (i.ops.size() < 4) return fail(i.at, "IMAD needs four operands");
  Opcode m = op(Op::mad, TypeKind::u, 32);
  m.lo = true;
  const Operand a = i.S(1), b = i.S(2), c = i.S(3);
  return emit(m, {i.D(0), a, b, c});
}

// IADD3
void Lowering::lower_iadd3(const SassInstr& i) {
  // IADD3[.X] d, [carry-outs,] a, b, c [, carry-ins]: one carry-out is modelled (the 64-bit
  // address arithmetic ptxas emits: IADD3 lo, P0, ... then IADD3.X / IMAD.X hi, ..., P0);
  // two carry-outs, or a carry out of a negated operand (a subtraction's borrow), are not.
  std::size_t k = 1;
  std::vector<std::pair<std::string_view, std::size_t>> carries;
  while (k < i.ops.size() && i.is_pred(k)) carries.push_back(i.ops[k]), ++k;
  if (i.ops.size() < k + 3) return fail(i.at, "IADD3 needs three sources");
  const bool negated = i.ops[k].first[0] == '-' || i.ops[k + 1].first[0] == '-' || i.ops[k + 2].first[0] == '-' ||
                       i.ops[k].first[0] == '~' || i.ops[k + 1].first[0] == '~' || i.ops[k + 2].first[0] == '~';
  std::vector<Operand> terms{i.S(k), i.S(k + 1), i.S(k + 2)};
  if (i.has("X"))
    for (std::size_t j = k + 3; j < i.ops.size(); ++j) terms.push_back(carry_in(i.ops[j].first, i.ops[j].second));
  std::optional<Operand> carry;
  if (carries.size() == 1 && !negated) carry = dst(carries[0].first, carries[0].second);
  else
    for (const auto& cpred : carries) not_modelled({cpred}, 1, false);
  if (!negated || carry) return add_with_carry(i.D(0), terms, carry);
  const u32 t = tmp();  // a negated operand: the plain 32-bit sum (its carry is not modelled)
  emit(op(Op::add, TypeKind::u, 32), {reg(t), terms[0], terms[1]});
  emit(op(Op::add, TypeKind::u, 32), {reg(t), reg(t), terms[2]});
  for (std::size_t j = 3; j < terms.size(); ++j) emit(op(Op::add, TypeKind::u, 32), {reg(t), reg(t), terms[j]});
  return emit(op(Op::mov), {i.D(0), reg(t)});
}

// VIADD
void Lowering::lower_viadd(const SassInstr& i) {
  return emit(op(Op::add, TypeKind::u, 32), {i.D(0), i.S(1), i.S(2)});
}

// IABS
void Lowering::lower_iabs(const SassInstr& i) {
  return emit(op(Op::abs, TypeKind::s, 32), {i.D(0), i.S(1)});
}

// IMNMX, VIMNMX
void Lowering::lower_imnmx(const SassInstr& i) {
  if (i.ops.size() < 4) return fail(i.at, i.base + " needs four operands");
  const TypeKind k = i.has("U32") ? TypeKind::u : TypeKind::s;
  const Operand a = i.S(1), b = i.S(2), p = i.S(3);
  const u32 lo = tmp(), hi = tmp();
  emit(op(Op::min, k, 32), {reg(lo), a, b});
  emit(op(Op::max, k, 32), {reg(hi), a, b});
  return emit(op(Op::selp, TypeKind::b, 32), {i.D(0), reg(lo), reg(hi), p});  // PT: min, !PT: max
}

// LEA
void Lowering::lower_lea(const SassInstr& i) {
  // LEA d, [P,] a, b, s: (a << s) + b, with its carry out; LEA.HI[.X][.SX32] d, a, b, [c,] s [, P]:
  // the high word of ({c:a} << s) (sign-extended a for .SX32) + b [+ P].
  std::size_t k = 1;
  std::vector<std::pair<std::string_view, std::size_t>> carries;
  while (k < i.ops.size() && i.is_pred(k)) carries.push_back(i.ops[k]), ++k;
  std::optional<Operand> carry;
  if (carries.size() == 1) carry = dst(carries[0].first, carries[0].second);
  else
    for (const auto& cpred : carries) not_modelled({cpred}, 1, false);
  const u32 t = tmp();
  const bool x = i.has("X");
  if (i.has("HI")) {
    const bool sx = i.has("SX32");
    const std::size_t n = sx ? 3 : 4;  // sources before the carry-ins
    if (i.ops.size() < k + n) return fail(i.at, "LEA.HI needs its sources");
    const Operand a = i.S(k), b = i.S(k + 1);
    if (sx) {
      const auto sh = parse_int(i.ops[k + 2].first);
      if (!sh || *sh < 1 || *sh > 31) return not_modelled(i.ops, 1, false);
      emit(op(Op::shr, TypeKind::s, 32), {reg(t), a, imm(32 - *sh)});
    } else if (const auto s = parse_int(i.ops[k + 3].first); i.ops[k + 2].first == "RZ" && s && *s >= 1 && *s <= 31) {
      // {RZ:a} << s has a >> (32 - s) as its high word: a shift, which a symbol's value keeps
      // exactly (a derived symbol: (n >> 1) - 1 from LEA.HI R6, R16, 0xffffffff, RZ, 0x1f).
      emit(op(Op::shr, TypeKind::u, 32), {reg(t), a, imm(32 - *s)});
    } else {
      const Operand hi = i.S(k + 2), sh = i.S(k + 3);
      Opcode f = op(Op::shf, TypeKind::b, 32);
      f.left = true, f.clamp = true;
      emit(f, {reg(t), a, hi, sh});
    }
    std::vector<Operand> terms{reg(t), b};
    if (x)
      for (std::size_t j = k + n; j < i.ops.size(); ++j) terms.push_back(carry_in(i.ops[j].first, i.ops[j].second));
    return add_with_carry(i.D(0), terms, carry);
  }
  if (x) return not_modelled(i.ops, 1, false);
  if (i.ops.size() < k + 3) return fail(i.at, "LEA needs three sources");
  const Operand a = i.S(k), b = i.S(k + 1), s = i.S(k + 2);
  emit(op(Op::shl, TypeKind::b, 32), {reg(t), a, s});
  return add_with_carry(i.D(0), {reg(t), b}, carry);
}

// LOP3
void Lowering::lower_lop3(const SassInstr& i) {
  // LOP3.LUT [Pd,] d, a, b, c, lut, p: d = lut(a, b, c); Pd = (d != 0) when p is !PT.
  std::size_t k = 0;
  std::optional<std::pair<std::string_view, std::size_t>> pd;
  if (i.is_pred(0)) pd = i.ops[0], k = 1;
  if (i.ops.size() < k + 5) return fail(i.at, "LOP3.LUT needs a destination, three sources and a table");
  const Operand a = i.S(k + 1), b = i.S(k + 2), c = i.S(k + 3), lut = i.S(k + 4);
  const Operand d = i.D(k);
  const u32 t = tmp();
  Opcode l = op(Op::lop3, TypeKind::b, 32);
  emit(l, {reg(t), a, b, c, lut});
  emit(op(Op::mov), {d, reg(t)});
  if (pd) {
    const bool plain = i.ops.size() > k + 5 && i.ops[k + 5].first == "!PT";
    if (!plain) return not_modelled({*pd}, 1, false);
    Opcode s = op(Op::setp, TypeKind::u, 32);
    s.cmp = Cmp::ne;
    emit(s, {dst(pd->first, pd->second), reg(t), imm(0)});
  }
  return;
}

// PLOP3
void Lowering::lower_plop3(const SassInstr& i) {
  // PLOP3.LUT Pd, Pe, a, b, c, lut1, lut2: Pd = lut1(a, b, c), Pe = lut2(a, b, c) over predicates.
  if (i.ops.size() < 7) return fail(i.at, "PLOP3.LUT needs two destinations, three sources and two tables");
  const Operand a = i.S(2), b = i.S(3), c = i.S(4);
  const u32 ix = tmp(), t = tmp();
  emit(op(Op::selp, TypeKind::b, 32), {reg(ix), imm(4), imm(0), a});
  emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(2), imm(0), b});
  emit(op(Op::or_, TypeKind::b, 32), {reg(ix), reg(ix), reg(t)});
  emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(1), imm(0), c});
  emit(op(Op::or_, TypeKind::b, 32), {reg(ix), reg(ix), reg(t)});
  for (int j = 0; j < 2; ++j) {
    emit(op(Op::shr, TypeKind::u, 32), {reg(t), i.S(5 + static_cast<std::size_t>(j)), reg(ix)});
    emit(op(Op::and_, TypeKind::b, 32), {reg(t), reg(t), imm(1)});
    Opcode s = op(Op::setp, TypeKind::u, 32);
    s.cmp = Cmp::ne;
    emit(s, {i.D(static_cast<std::size_t>(j)), reg(t), imm(0)});
  }
  return;
}

// SHF
void Lowering::lower_shf(const SassInstr& i) {
  if (i.ops.size() < 4) return fail(i.at, "SHF needs four operands");
  const bool left = i.has("L"), hi = i.has("HI"), wrap = i.has("W");
  const bool s32 = i.has("S32"), u64 = i.has("U64") || i.has("S64");
  const Operand lo = i.S(1), s = i.S(2), h = i.S(3);
  const Operand d = i.D(0);
  if (left && !hi) return emit(op(Op::shl, TypeKind::b, 32), {d, lo, s});
  if (!left && hi && !u64) return emit(op(Op::shr, s32 ? TypeKind::s : TypeKind::u, 32), {d, h, s});
  Opcode sh = op(Op::shf, TypeKind::b, 32);
  sh.left = left;
  sh.clamp = !wrap;
  if (left) return emit(sh, {d, lo, h, s});  // the high word of {h:lo} << s
  if (!hi) return emit(sh, {d, lo, h, s});   // the low word of {h:lo} >> s
  return not_modelled(i.ops, 1, false);        // the high word of a 64-bit right shift
}

// SGXT
void Lowering::lower_sgxt(const SassInstr& i) {
  if (i.ops.size() < 3) return fail(i.at, "SGXT needs three operands");
  return emit(op(Op::bfe, i.has("U32") ? TypeKind::u : TypeKind::s, 32), {i.D(0), i.S(1), imm(0), i.S(2)});
}

// PRMT
void Lowering::lower_prmt(const SassInstr& i) {
  if (i.ops.size() < 4 || i.mods.size() > 0) return not_modelled(i.ops, 1, false);
  return emit(op(Op::prmt, TypeKind::b, 32), {i.D(0), i.S(1), i.S(3), i.S(2)});
}

// SEL, FSEL
void Lowering::lower_sel(const SassInstr& i) {
  if (i.ops.size() < 4) return fail(i.at, i.base + " needs four operands");
  return emit(op(Op::selp, TypeKind::b, 32), {i.D(0), i.S(1), i.S(2), i.S(3)});
}

// ISETP
void Lowering::lower_isetp(const SassInstr& i) {
  if (i.ops.size() < 5 || (i.has("EX") && i.ops.size() < 6)) return not_modelled(i.ops, 1, false);
  Opcode s = op(Op::setp, i.has("U32") ? TypeKind::u : TypeKind::s, 32);
  static const std::map<std::string, Cmp> cmps = {{"EQ", Cmp::eq}, {"NE", Cmp::ne}, {"LT", Cmp::lt},
                                                  {"LE", Cmp::le}, {"GT", Cmp::gt}, {"GE", Cmp::ge}};
  for (const std::string& m : i.mods) {
    if (cmps.count(m)) s.cmp = cmps.at(m);
    else if (m == "AND") s.boolop = BoolOp::and_;
    else if (m == "OR") s.boolop = BoolOp::or_;
    else if (m == "XOR") s.boolop = BoolOp::xor_;
  }
  if (s.cmp == Cmp::none || s.boolop == BoolOp::none) return not_modelled(i.ops, 1, false);
  if (!i.has("EX")) return emit(s, {i.D(0), i.D(1), i.S(2), i.S(3), i.S(4)}, true);
  // ISETP...EX Pd, Pq, a.hi, b.hi, Pacc, Plo: the high words of a 64-bit compare whose low words
  // gave Plo (ISETP.<cmp>.U32 of them): a < b is hi(a) < hi(b), or equal high words and Plo;
  // EQ is equal high words and Plo, NE different ones or Plo. The high compare takes the
  // signedness the modifier says; the result is combined with Pacc as any ISETP's.
  Opcode strict = op(Op::setp, s.type.kind, 32), equal = op(Op::setp, s.type.kind, 32);
  equal.cmp = Cmp::eq;
  strict.cmp = s.cmp == Cmp::le ? Cmp::lt : s.cmp == Cmp::ge ? Cmp::gt : s.cmp;
  const Operand a = i.S(2), b = i.S(3), lo = i.S(5);
  const u32 t_strict = tmp(), t_equal = tmp(), t_lo = tmp(), r = tmp();
  emit(op(Op::selp, TypeKind::b, 32), {reg(t_lo), imm(1), imm(0), lo});
  emit(equal, {reg(t_equal), a, b});
  emit(op(Op::selp, TypeKind::b, 32), {reg(t_equal), imm(1), imm(0), reg(t_equal)});
  if (s.cmp == Cmp::eq) {
    emit(op(Op::and_, TypeKind::b, 32), {reg(r), reg(t_equal), reg(t_lo)});
  } else if (s.cmp == Cmp::ne) {
    emit(op(Op::xor_, TypeKind::b, 32), {reg(t_equal), reg(t_equal), imm(1)});
    emit(op(Op::or_, TypeKind::b, 32), {reg(r), reg(t_equal), reg(t_lo)});
  } else {
    emit(strict, {reg(t_strict), a, b});
    emit(op(Op::selp, TypeKind::b, 32), {reg(t_strict), imm(1), imm(0), reg(t_strict)});
    emit(op(Op::and_, TypeKind::b, 32), {reg(t_equal), reg(t_equal), reg(t_lo)});
    emit(op(Op::or_, TypeKind::b, 32), {reg(r), reg(t_strict), reg(t_equal)});
  }
  Opcode fin = op(Op::setp, TypeKind::u, 32);
  fin.cmp = Cmp::ne;
  fin.boolop = s.boolop;
  return emit(fin, {i.D(0), i.D(1), reg(r), imm(0), i.S(4)}, true);
}

// P2R
void Lowering::lower_p2r(const SassInstr& i) {
  // P2R d, PR, r, mask: d = (r & ~mask) | (P0..P6 packed & mask).
  if (i.ops.size() < 4 || i.ops[1].first != "PR") return not_modelled(i.ops, 1, false);
  const auto mask = parse_int(i.ops[3].first);
  if (!mask) return not_modelled(i.ops, 1, false);
  const Operand r = i.S(2);
  const u32 acc = tmp(), t = tmp();
  emit(op(Op::and_, TypeKind::b, 32), {reg(acc), r, imm(~*mask & 0xffffffff)});
  for (u32 i = 0; i < 7; ++i)
    if ((*mask >> i) & 1) {
      emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(i64{1} << i), imm(0), reg(kP + i)});
      emit(op(Op::or_, TypeKind::b, 32), {reg(acc), reg(acc), reg(t)});
    }
  return emit(op(Op::mov), {i.D(0), reg(acc)});
}

// R2P
void Lowering::lower_r2p(const SassInstr& i) {
  if (i.ops.size() < 3 || i.ops[0].first != "PR") return not_modelled(i.ops, 1, false);
  const auto mask = parse_int(i.ops[2].first);
  if (!mask) return not_modelled(i.ops, 1, false);
  const Operand r = i.S(1);
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

void Lowering::lower(std::string_view opcode, std::string_view operands, std::size_t operands_at) {
  std::vector<std::string> parts = split_dots(opcode);
  std::string base = parts[0];
  std::vector<std::string> mods(parts.begin() + 1, parts.end());
  static const std::set<std::string> uniform = {"MOV", "IADD3", "LEA", "LOP3", "SHF", "SEL", "ISETP", "IMAD", "PRMT",
                                                "SGXT", "PLOP3", "LDC", "IABS", "IMNMX", "P2R", "R2P", "VIADD", "FLO", "POPC", "BREV"};
  if (base.size() > 1 && base[0] == 'U' && uniform.count(base.substr(1))) base = base.substr(1);
  // Opcodes that touch shared memory: what the lowering does not count is listed (ptx_sites.cpp),
  // never silently left out. Generic LD/ST/ATOM/RED may: where their address is in the shared
  // window (its high word SR_SWINHI's) they are counted (sass_generic.cpp). The L2
  // prefetches (UTMAPF, UBLKPF) and the barriers touch no shared byte.
  static const std::set<std::string> shared_ops = {"LDS", "STS", "LDSM", "STSM", "LDGSTS", "ATOMS", "REDS", "LDSU", "HGMMA", "QGMMA", "IGMMA", "BGMMA",
                                                   "UTMALDG", "UTMASTG", "UBLKCP", "UBLKRED", "UTMAREDG", "SYNCS", "ARRIVES",
                                                   "STAS", "REDAS", "LD", "ST", "ATOM", "RED"};
  shared_opcode = shared_ops.count(base) > 0;
  const SassInstr i{*this, base, std::move(mods), split_operands(operands, operands_at), operands_at};
  // The rules, by opcode (uniform U forms folded into theirs above); what no rule takes is not
  // modelled: what it writes becomes unknown, naming it.
  static const std::unordered_map<std::string_view, Rule> rules = [] {
    std::unordered_map<std::string_view, Rule> t = {
        {"VOTE", &Lowering::lower_vote},
        {"VOTEU", &Lowering::lower_vote},
        {"MATCH", &Lowering::lower_match},
        {"POPC", &Lowering::lower_bits},
        {"BREV", &Lowering::lower_bits},
        {"FLO", &Lowering::lower_bits},
        {"LDS", &Lowering::lower_shared},
        {"LDL", &Lowering::lower_shared},
        {"STL", &Lowering::lower_shared},
        {"STS", &Lowering::lower_shared},
        {"LDSM", &Lowering::lower_shared},
        {"STSM", &Lowering::lower_shared},
        {"LDGSTS", &Lowering::lower_shared},
        {"ATOMS", &Lowering::lower_shared},
        {"LD", &Lowering::lower_generic},
        {"ST", &Lowering::lower_generic},
        {"ATOM", &Lowering::lower_generic},
        {"RED", &Lowering::lower_generic},
        {"BRA", &Lowering::lower_bra},
        {"JMP", &Lowering::lower_bra},
        {"EXIT", &Lowering::lower_exit},
        {"KILL", &Lowering::lower_exit},
        {"CALL", &Lowering::lower_call},
        {"RET", &Lowering::lower_call},
        {"BPT", &Lowering::lower_call},
        {"BRX", &Lowering::lower_call},
        {"JMX", &Lowering::lower_call},
        {"RTT", &Lowering::lower_call},
        {"MOV", &Lowering::lower_mov},
        {"R2UR", &Lowering::lower_mov},
        {"HFMA2", &Lowering::lower_hfma2},
        {"S2R", &Lowering::lower_s2r},
        {"S2UR", &Lowering::lower_s2r},
        {"CS2R", &Lowering::lower_cs2r},
        {"LDC", &Lowering::lower_ldc},
        {"I2F", &Lowering::lower_i2f},
        {"F2F", &Lowering::lower_f2f},
        {"I2FP", &Lowering::lower_i2f},
        {"F2I", &Lowering::lower_f2i},
        {"MUFU", &Lowering::lower_mufu},
        {"SHFL", &Lowering::lower_shfl},
        {"IMAD", &Lowering::lower_imad},
        {"IADD3", &Lowering::lower_iadd3},
        {"VIADD", &Lowering::lower_viadd},
        {"IABS", &Lowering::lower_iabs},
        {"IMNMX", &Lowering::lower_imnmx},
        {"VIMNMX", &Lowering::lower_imnmx},
        {"LEA", &Lowering::lower_lea},
        {"LOP3", &Lowering::lower_lop3},
        {"PLOP3", &Lowering::lower_plop3},
        {"SHF", &Lowering::lower_shf},
        {"SGXT", &Lowering::lower_sgxt},
        {"PRMT", &Lowering::lower_prmt},
        {"SEL", &Lowering::lower_sel},
        {"FSEL", &Lowering::lower_fsel},
        {"FADD", &Lowering::lower_fadd},
        {"FMUL", &Lowering::lower_fadd},
        {"FFMA", &Lowering::lower_fadd},
        {"FSETP", &Lowering::lower_fsetp},
        {"FMNMX", &Lowering::lower_fmnmx},
        {"ISETP", &Lowering::lower_isetp},
        {"P2R", &Lowering::lower_p2r},
        {"R2P", &Lowering::lower_r2p},
        {"ELECT", &Lowering::lower_elect},
        {"SYNCS", &Lowering::lower_syncs},
    };
    // Barriers, fences, reconvergence markers and the like: no effect on any address.
    for (const char* n : {"BSSY", "BSYNC", "WARPSYNC", "BAR", "DEPBAR", "LDGDEPBAR", "NOP", "MEMBAR", "FENCE", "ERRBAR", "CCTL",
                          "CCTLL", "YIELD", "NANOSLEEP", "BMOV", "UCGABAR_ARV", "UCGABAR_WAIT", "CGAERRBAR", "ACQBULK",
                          "PREEXIT", "LEPC", "WARPGROUP", "BREAK", "PMTRIG"})
      t.emplace(n, &Lowering::lower_nop);
    return t;
  }();
  const auto rule = rules.find(i.base);
  if (rule != rules.end()) return (this->*rule->second)(i);
  not_modelled(i.ops, written_registers(i.base, i.mods), float_opcode(i.base));
}

}  // namespace layoutproof::compiled::sass
