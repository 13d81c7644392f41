#pragma once
// Internal to the SASS reader (model/compiled/sass/sass_parse.hpp): the lowering of one SASS
// instruction into the one compiled-kernel IR (sass_lower.cpp) and the text helpers the reader
// shares with it (sass_read.cpp). Not an interface: nothing outside model/compiled/sass/ includes it.
#include <map>
#include <optional>
#include <bit>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled::sass {

using OK = Operand::Kind;

// Register numbering of a lowered SASS function: R0..R255, UR0..UR63, P0..P7 (P7 is PT), UP0..UP7
// (UP7 is UPT), then temporaries of the lowering.
constexpr u32 kR = 0, kUR = 256, kP = 320, kUP = 328, kTmp = 336, kTmps = 24;
constexpr u32 kPT = kP + 7, kUPT = kUP + 7;
constexpr i64 kLocalStackTop = 0xfffc00;  // c[0x0][0x28] (Lowering::constant)

std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view p);
// "IMAD.WIDE.U32" -> {"IMAD", "WIDE", "U32"}.
std::vector<std::string> split_dots(std::string_view s);
// Operands split at top-level commas (brackets nest: desc[UR4][R2.64+0x10]), each with the byte
// offset of its first character (at + its position in s).
std::vector<std::pair<std::string_view, std::size_t>> split_operands(std::string_view s, std::size_t at);
// Decimal or 0x hex, optionally signed; nullopt for anything else or more than 64 bits.
std::optional<i64> parse_int(std::string_view s);

// A SASS register or predicate name: its IR register (-1: RZ/URZ/SRZ, the zero register).
struct RegName {
  bool ok = false;
  i64 reg = -1;      // -1: zero
  bool pred = false;
  bool pair = false;  // .64
};
RegName reg_name(std::string_view s);

// The binary16 bits of a decimal literal that is exactly a half ("1.9073486328125e-06" -> 0x0020,
// "-2" -> 0xc000); nullopt when it is not exactly representable (or not a number).
std::optional<u32> half_bits(std::string_view s);


struct Lowering;
// One SASS instruction as its lowering rule reads it: the opcode's base ("IMAD"; a uniform form,
// "UIMAD", folded into it), its modifiers, its operands with the byte offset of each.
struct SassInstr {
  Lowering& l;
  std::string base;
  std::vector<std::string> mods;
  std::vector<std::pair<std::string_view, std::size_t>> ops;
  std::size_t at = 0;  // where the operands begin (for errors)
  bool has(const char* mod) const;
  Operand S(std::size_t k) const;  // operand k as a source (a missing one: an error, then 0)
  Operand D(std::size_t k) const;  // operand k as a destination
  bool is_pred(std::size_t k) const;
};

// One SASS function being lowered.
struct Lowering {
  Program& p;
  Function& f;
  int arch = 90;
  i64 param_base = 0x210;
  Lowering(Program& program, Function& function, int sm, i64 params_at) : p(program), f(function), arch(sm), param_base(params_at) {}
  // The SASS instruction being lowered.
  u32 line = 0, text_begin = 0, text_end = 0, loc_file = 0, loc_line = 0, call_file = 0, call_line = 0;
  i64 offset = -1;
  // The registers I2F.RP (rounding toward +inf) wrote and the offsets it did so at: the first step
  // of ptxas's integer division, whose MUFU.RCP follows within a few instructions (several
  // divisions interleave).
  std::vector<std::pair<i64, i64>> rp_writes;
  i64 guard = -1;
  bool guard_neg = false;
  u32 next_tmp = 0;
  bool shared_opcode = false;  // the instruction being lowered is LDS/STS/LDSM/STSM/LDGSTS/ATOMS/...
  std::string error;  // the first operand this lowering could not read ("" none)
  std::size_t error_at = 0;
  // Branches to resolve once the function is read: by label name (nvdisasm) or by offset (cuobjdump).
  std::vector<std::pair<std::size_t, std::string>> pending_names;
  struct PendingOffset {
    std::size_t instr = 0;  // the branch (f.code index)
    u32 line = 0;           // its line and the byte offset of its target operand (for the error)
    std::size_t at = 0;
  };
  std::vector<PendingOffset> pending_offsets;
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
    if (guarded) in.guard = guard, in.guard_neg = guard_neg, in.never = guard == static_cast<i64>(kPT) && guard_neg;
    in.first = static_cast<u32>(f.operands.size());
    for (const Operand& o : ops) f.operands.push_back(o);
    in.count = static_cast<u32>(ops.size());
    in.line = line, in.text_begin = text_begin, in.text_end = text_end;
    in.loc_file = loc_file, in.loc_line = loc_line;
    in.call_file = call_file, in.call_line = call_line;
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
    // The offset: an immediate, or RZ/URZ (0) plus one: CUDA 13 reads blockDim.x as c[0x0][RZ].
    const auto offset_of = [&](std::string_view o) -> std::optional<i64> {
      o = trim(o);
      for (const std::string_view z : {std::string_view("URZ"), std::string_view("RZ")})
        if (o.substr(0, z.size()) == z) {
          o = trim(o.substr(z.size()));
          if (o.empty()) return 0;
          if (o[0] != '+') return std::nullopt;
          return parse_int(trim(o.substr(1)));
        }
      return parse_int(o);
    };
    const auto off = a == std::string_view::npos || e == std::string_view::npos ? std::nullopt : offset_of(s.substr(a + 2, e - a - 2));
    if (!bank || !off) {  // an indexed constant (c[0x0][R2+0x10]): not known
      const u32 t = tmp();
      Opcode c = op(Op::ld);
      c.space = Space::const_;
      emit(c, {reg(t), addr(imm(0), 0)});
      (void)at;
      return reg(t);
    }
    // c[0x0][0x28]: the top of the thread's stack in its local window, what every kernel's first
    // LDC puts in R1. Its value is the driver's and only local addresses derive from it, which the
    // thread reads back where it wrote them: any fixed value stands for it.
    if (*bank == 0 && *off == 0x28 && bits == 32) return imm(kLocalStackTop);
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
    if (const auto f = float_literal(s)) return imm(static_cast<i64>(*f));
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
    // A half selector (R2.H1) or a name the model does not read: its value is not known, so what
    // it feeds is UNKNOWN (naming the instruction); the file still reads.
    (void)at;
    const u32 t = tmp();
    Opcode u;
    u.op = Op::unknown;
    emit(u, {reg(t)}, false, false);
    return reg(t);
  }

  // A binary32 source of a float instruction (FADD, FMUL, FFMA, FSETP, FMNMX, FSEL): -x and |x|
  // flip and clear the sign bit (never an integer negation), and an immediate written as an
  // integer is that float value: nvdisasm prints 1.0f as "1" (FMUL.FTZ R12, R0, 1). Hexadecimal
  // immediates are bits.
  Operand fsrc(std::string_view s, std::size_t at) {
    s = trim(s);
    if (!s.empty() && (s[0] == '-' || (s[0] == '|' && s.size() > 2 && s.back() == '|'))) {
      const bool negate = s[0] == '-';
      const std::string_view inner = negate ? s.substr(1) : s.substr(1, s.size() - 2);
      const Operand x = fsrc(inner, at + 1);
      const bool literal = !inner.empty() && std::isdigit(static_cast<unsigned char>(inner[0]));
      if (negate && literal && x.kind == Operand::Kind::imm) return imm(static_cast<i64>(static_cast<u64>(x.imm) ^ 0x80000000u));  // -1, -0.5
      const u32 t = tmp();
      emit(op(negate ? Op::neg : Op::abs, TypeKind::f, 32), {reg(t), x});
      return reg(t);
    }
    if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0])) && s.substr(0, 2) != "0x" &&
        s.find_first_not_of("0123456789") == std::string_view::npos) {
      const std::string text(s);
      return imm(static_cast<i64>(std::bit_cast<u32>(std::strtof(text.c_str(), nullptr))));
    }
    return src(s, at);
  }

  // A binary32 literal as ptxas prints one (1.5, -0.25, 1e-05, +INF, -INF, QNAN, -QNAN): its bits;
  // nullopt for anything else (an integer is parse_int's).
  static std::optional<u32> float_literal(std::string_view s) {
    bool neg = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) neg = s[0] == '-', s.remove_prefix(1);
    if (s == "INF") return (neg ? 0x80000000u : 0u) | 0x7f800000u;
    if (s == "QNAN" || s == "NAN") return (neg ? 0x80000000u : 0u) | 0x7fffffffu;
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])) || s.find_first_of(".eE") == std::string_view::npos ||
        s.substr(0, 2) == "0x")
      return std::nullopt;
    const std::string text(s);
    char* end = nullptr;
    const float f = std::strtof(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return std::nullopt;
    return std::bit_cast<u32>(f) | (neg ? 0x80000000u : 0u);
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
    // A shared-memory opcode in a form outside the model is listed as such (never silently uncounted).
    if (shared_opcode) c.space = Space::shared;
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
      if (shared_opcode) nop.space = Space::shared;
      emit(nop, {sink()});
      return;
    }
    emit(c, {vec(dsts)});
  }

  // d = the low word of the sum of `terms` (32-bit values): their 32-bit sum, an add.u32 chain (an
  // affine term when the terms are, as the PTX path's add); `carry`, when given, becomes whether
  // the 64-bit sum of the zero-extended terms reached 2^32 (one carry: callers model single
  // carry-outs only), computed beside it (a comparison: never a term).
  void add_with_carry(const Operand& d, const std::vector<Operand>& terms, std::optional<Operand> carry) {
    if (carry) {
      const u32 sum = tmp(), t = tmp();
      emit(op(Op::mov, TypeKind::b, 64), {reg(sum), imm(0)});
      for (const Operand& x : terms) {
        Opcode cv = op(Op::cvt, TypeKind::u, 64);
        cv.src = Type{TypeKind::u, 32};
        emit(cv, {reg(t), x});
        emit(op(Op::add, TypeKind::u, 64), {reg(sum), reg(sum), reg(t)});
      }
      emit(op(Op::shr, TypeKind::u, 64), {reg(t), reg(sum), imm(32)});
      Opcode st = op(Op::setp, TypeKind::u, 64);
      st.cmp = Cmp::ne;
      emit(st, {*carry, reg(t), imm(0)});  // the terms are registers or temporaries, never the predicate
    }
    const u32 lo = tmp();
    emit(op(Op::mov, TypeKind::b, 32), {reg(lo), terms.empty() ? imm(0) : terms[0]});
    for (std::size_t k = 1; k < terms.size(); ++k) emit(op(Op::add, TypeKind::u, 32), {reg(lo), reg(lo), terms[k]});
    emit(op(Op::mov), {d, reg(lo)});
  }
  // A carry-in operand (P0, !P1, PT, !PT) as the 32-bit value 0 or 1.
  Operand carry_in(std::string_view s, std::size_t at) {
    const Operand p = src(s, at);
    if (p.kind == OK::imm) return imm(p.imm != 0);
    const u32 t = tmp();
    emit(op(Op::selp, TypeKind::b, 32), {reg(t), imm(1), imm(0), p});
    return reg(t);
  }

  // Lowers one instruction: the rule its opcode names (Lowering::lower's table), else not modelled.
  void lower(std::string_view opcode, std::string_view operands, std::size_t operands_at);
  // The rules, one per opcode family (sass_lower.cpp).
  using Rule = void (Lowering::*)(const SassInstr&);
  void lower_shared(const SassInstr& i);
  void lower_nop(const SassInstr& i);
  void lower_bra(const SassInstr& i);
  void emit_jump(const SassInstr& i, const Opcode& c);
  void emit_stop();
  void lower_exit(const SassInstr& i);
  void lower_call(const SassInstr& i);
  void lower_mov(const SassInstr& i);
  void lower_elect(const SassInstr& i);
  void lower_bits(const SassInstr& i);  // sass_bits.cpp
  void lower_vote(const SassInstr& i);
  void lower_match(const SassInstr& i);
  void lower_syncs(const SassInstr& i);
  void lower_hfma2(const SassInstr& i);
  void lower_s2r(const SassInstr& i);
  void lower_cs2r(const SassInstr& i);
  void lower_ldc(const SassInstr& i);
  bool emit_conversion(const SassInstr& i, const Opcode& c);
  void lower_i2f(const SassInstr& i);
  void lower_f2i(const SassInstr& i);
  void lower_f2f(const SassInstr& i);
  void lower_mufu(const SassInstr& i);
  void lower_shfl(const SassInstr& i);
  void lower_imad(const SassInstr& i);
  void lower_iadd3(const SassInstr& i);
  void lower_viadd(const SassInstr& i);
  void lower_iabs(const SassInstr& i);
  void lower_imnmx(const SassInstr& i);
  void lower_lea(const SassInstr& i);
  void lower_lop3(const SassInstr& i);
  void lower_plop3(const SassInstr& i);
  void lower_shf(const SassInstr& i);
  void lower_sgxt(const SassInstr& i);
  void lower_prmt(const SassInstr& i);
  void lower_sel(const SassInstr& i);
  void lower_isetp(const SassInstr& i);
  // sass_float.cpp: FADD FMUL FFMA FSETP FMNMX FSEL, evaluated as the GPU does (exec/float_arith.hpp)
  void lower_fadd(const SassInstr& i);
  void lower_fsetp(const SassInstr& i);
  void lower_fmnmx(const SassInstr& i);
  void lower_fsel(const SassInstr& i);
  // sass_generic.cpp: LD/ST/ATOM/RED through a 64-bit generic address, and SR_SWINHI
  void lower_generic(const SassInstr& i);
  void lower_swinhi(const SassInstr& i);
  std::optional<Operand> generic_address(std::string_view s, std::size_t at);
  void lower_p2r(const SassInstr& i);
  void lower_r2p(const SassInstr& i);
  void lower_memory(const std::string& base, const std::vector<std::string>& mods,
                    const std::vector<std::pair<std::string_view, std::size_t>>& ops);
};

}  // namespace layoutproof::compiled::sass
