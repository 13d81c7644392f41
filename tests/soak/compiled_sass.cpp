// The compiled-kernel soak's SASS printer (compiled_kernel.hpp): the abstract kernel as the sm_90
// SASS ptxas would write for it, in `cuobjdump -sass` form (tests/compiled/measured/*.sass): the
// address arithmetic in the forms ptxas uses (IMAD, IMAD.SHL, IMAD.IADD, IADD3, VIADD, LEA, SHF,
// LOP3.LUT, MOV, HFMA2.MMA constants), parameters from the constant bank (LDC, LDC.U8/.U16, ULDC),
// loops and branches by offset with BSSY/BSYNC, calls inlined, every LDS/STS width, LDSM/STSM
// (.16.M88/.MT88, no count for one matrix), LDGSTS, ATOMS, and the listed forms (STAS, generic LD/ST).
// Registers: R0 tid.x, R1 tid.y, R2..R5 the parameters, R10:R11 the global pointer, R8:R9 a global
// address, R12..R15 loop counters, R16..R31 stored data, R32.. scratch (per statement).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tests/soak/compiled_kernel.hpp"

namespace soakc {
namespace {

using O = Expr::Op;

u32 take(u32& s, int n) {
  const u32 v = s & ((1u << n) - 1);
  s = (s >> n) | (s << (32 - n));
  return v;
}

std::string hex(u64 v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// A half's bits as the decimal HFMA2 prints (nullopt for infinities and NaNs).
std::optional<std::string> half_text(u32 h) {
  const u32 e = (h >> 10) & 31, m = h & 1023;
  if (e == 31) return std::nullopt;
  const double v = (e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, static_cast<int>(e) - 25)) * ((h >> 15) ? -1 : 1);
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return std::string(b);
}

struct Printer {
  explicit Printer(const Kernel& kk) : k(kk) {}
  const Kernel& k;
  std::vector<std::pair<std::string, int>> code;  // instruction text (branch targets as @Ln), access id
  std::map<int, std::size_t> label_at;             // label -> instruction index
  int labels = 0, scratch = 32;
  Printed out;
  bool tainted = false;  // the address being built went through LEA/LOP3 of a free parameter's value

  std::string R() { return "R" + std::to_string(scratch++); }
  void put(const std::string& t, int id = -1) { code.push_back({t, id}); }
  void label(int n) { label_at[n] = code.size(); }

  bool free_param(const Expr& e) const {
    if (e.op == O::param) return !k.params[e.value].fixed;
    for (const Expr& x : e.k)
      if (free_param(x)) return true;
    return false;
  }

  std::string reg_of_const(u32 v, u32& s) {
    const std::string d = R();
    const u32 form = take(s, 2);
    const auto hi = half_text(v >> 16), lo = half_text(v & 0xffff);
    if (form == 0 && hi && lo) put("HFMA2.MMA " + d + ", -RZ, RZ, " + *hi + ", " + *lo);
    else if (form == 1) put("MOV " + d + ", " + hex(v));
    else put("IMAD.MOV.U32 " + d + ", RZ, RZ, " + hex(v));
    return d;
  }

  std::string val(const Expr& e, bool imm_ok, u32& s) {
    switch (e.op) {
      case O::c: return imm_ok ? hex(e.value) : reg_of_const(e.value, s);
      case O::tidx: return "R0";
      case O::tidy: return "R1";
      case O::lane: {
        const std::string d = R();
        put("S2R " + d + ", SR_LANEID");
        return d;
      }
      case O::ntid: {
        const std::string d = R();
        if (take(s, 1)) put("ULDC UR5, c[0x0][0x0]"), put("MOV " + d + ", UR5");
        else put("LDC " + d + ", c[0x0][0x0]");
        return d;
      }
      case O::loop: return "R" + std::to_string(12 + e.value);
      case O::param: return "R" + std::to_string(2 + e.value);
      case O::opaque: {
        const std::string d = R();
        put("LDG.E " + d + ", desc[UR6][R10.64]");
        return d;
      }
      default: break;
    }
    const bool taint = k.symbolic() && free_param(e);
    if (e.op == O::add && e.k[0].op == O::shl && take(s, 1)) {  // LEA d, a, b, n: (a << n) + b
      const std::string a = val(e.k[0].k[0], false, s), b = val(e.k[1], false, s), d = R();
      tainted = tainted || taint;
      put("LEA " + d + ", " + a + ", " + b + ", " + hex(e.k[0].value));
      return d;
    }
    if (e.op == O::add && e.k[0].op == O::mul && take(s, 1)) {  // IMAD d, a, b, c
      const std::string a = val(e.k[0].k[0], false, s), b = val(e.k[0].k[1], true, s), c = val(e.k[1], false, s), d = R();
      put("IMAD " + d + ", " + a + ", " + b + ", " + c);
      return d;
    }
    if (e.op == O::viaf) {  // inlined: the helper's add
      const std::string a = val(e.k[0], false, s), d = R();
      put((take(s, 1) ? "VIADD " + d + ", " + a + ", " : "IADD3 " + d + ", " + a + ", RZ, ") + hex(e.value));
      return d;
    }
    if (e.op == O::add && e.k[0].op == O::add && take(s, 2) == 0) {  // three sources
      const std::string a = val(e.k[0].k[0], false, s), b = val(e.k[0].k[1], true, s), c = val(e.k[1], false, s), d = R();
      put("IADD3 " + d + ", " + a + ", " + b + ", " + c);
      return d;
    }
    if (e.op == O::sel) {  // a per-lane predicate on a bit of tid.x (P5, P6: guards and branches use P0..P3)
      const std::string a = val(e.k[0], false, s), b = val(e.k[1], true, s), t = R(), d = R();
      const std::string p = take(s, 1) ? "P5" : "P6";
      put("LOP3.LUT " + t + ", R0, " + hex(u32{1} << e.value) + ", RZ, 0xc0, !PT");
      put("ISETP.NE.U32.AND " + p + ", PT, " + t + ", RZ, PT");
      put("SEL " + d + ", " + a + ", " + b + ", " + p);
      return d;
    }
    const std::string a = val(e.k[0], false, s);
    const std::string d = R();
    if (e.op == O::sra) {
      put("SHF.R.S32.HI " + d + ", RZ, " + hex(e.value) + ", " + a);
      return d;
    }
    if (e.op == O::abs) {
      put("IABS " + d + ", " + a);
      return d;
    }
    if (e.op == O::sext || e.op == O::zext) {
      put(std::string(e.op == O::sext ? "SGXT " : "SGXT.U32 ") + d + ", " + a + ", " + hex(e.value));
      return d;
    }
    if (e.op == O::shl) {
      const u32 form = take(s, 2);
      if (form == 0) put("SHF.L.U32 " + d + ", " + a + ", " + hex(e.value) + ", RZ");
      else if (form == 1 && e.value < 31) put("IMAD.SHL.U32 " + d + ", " + a + ", " + hex(u32{1} << e.value) + ", RZ");
      else if (form == 2 && e.value < 32) {
        tainted = tainted || taint;
        put("LEA " + d + ", " + a + ", RZ, " + hex(e.value));
      } else put("SHF.L.U32 " + d + ", " + a + ", " + hex(e.value) + ", RZ");
      return d;
    }
    if (e.op == O::shr) {
      put("SHF.R.U32.HI " + d + ", RZ, " + hex(e.value) + ", " + a);
      return d;
    }
    const bool imm = e.k[1].op == O::c;
    const std::string b = val(e.k[1], true, s);
    switch (e.op) {
      case O::add: {
        const u32 form = take(s, 2);
        if (form == 0 && !imm) put("IMAD.IADD " + d + ", " + a + ", 0x1, " + b);
        else if (form == 1) put("VIADD " + d + ", " + a + ", " + b);
        else put("IADD3 " + d + ", " + a + ", " + b + ", RZ");
        return d;
      }
      case O::sub:
        put("IADD3 " + d + ", " + a + ", " + (imm ? "-" + hex(e.k[1].value) : "-" + b) + ", RZ");
        return d;
      case O::mulhi:
        put("IMAD.HI.U32 " + d + ", " + a + ", " + b + ", RZ");
        return d;
      case O::min: case O::max:
        put("IMNMX.U32 " + d + ", " + a + ", " + b + (e.op == O::min ? ", PT" : ", !PT"));
        return d;
      case O::mul: {
        const u32 v = e.k[1].value;
        if (imm && v && !(v & (v - 1)) && take(s, 1)) put("IMAD.SHL.U32 " + d + ", " + a + ", " + b + ", RZ");
        else put("IMAD " + d + ", " + a + ", " + b + ", RZ");
        return d;
      }
      default: {
        tainted = tainted || taint;
        const char* lut = e.op == O::band ? "0xc0" : e.op == O::bor ? "0xfc" : "0x3c";
        put("LOP3.LUT " + d + ", " + a + ", " + b + ", RZ, " + lut + ", !PT");
        return d;
      }
    }
  }

  // "@P0 " (or "@!P0 " with the inverse test) true where the condition holds (negate: fails).
  std::string pred(const Cond& c, bool negate, u32& s) {
    static const char* cmp[] = {"LT", "GE", "EQ", "NE"};
    static const int inverse[] = {1, 0, 3, 2};
    const std::string lhs = val(c.lhs, false, s);
    const std::string p = "P" + std::to_string(take(s, 2));
    const bool flip = take(s, 1);
    int ci = static_cast<int>(c.cmp);
    if (flip != negate) ci = inverse[ci];
    put("ISETP." + std::string(cmp[ci]) + ".U32.AND " + p + ", PT, " + lhs + ", " + hex(c.rhs) + ", PT");
    return flip ? "@!" + p + " " : "@" + p + " ";
  }

  // "[R40+0x410]" and variants: the symbol's window address, the offset and the immediate.
  std::string address(const Access& a, u32& s) {
    tainted = false;
    const u32 base = static_cast<u32>(placements(k, Format::sass)[static_cast<std::size_t>(a.symbol)]);
    const std::string off = val(a.offset, false, s);
    switch (take(s, 2)) {
      case 0: {  // the base added first
        const std::string d = R();
        put("IADD3 " + d + ", " + off + ", " + hex(base) + ", RZ");
        return "[" + d + (a.imm ? "+" + hex(a.imm) : "") + "]";
      }
      case 1:  // the base in a uniform register, as ptxas's prologue makes it (the CTA's rank in its cluster reads 0)
        put("UMOV UR4, " + hex(base));
        if (take(s, 1)) put("S2UR UR5, SR_CgaCtaId"), put("ULEA UR4, UR5, UR4, 0x18");
        return "[" + off + "+UR4" + (a.imm ? "+" + hex(a.imm) : "") + "]";
      default: return "[" + off + "+" + hex(base + a.imm) + "]";
    }
  }

  // Sometimes (a spelling bit), the shared address `addr` ("[Rd+imm]" alone: one register) as the
  // generic address ptxas makes of it: S2R R9, SR_SWINHI (the window's high word), R8 the shared
  // address; window_addr is then "desc[UR4][R8.64+imm]".
  std::string window_addr;
  bool generic_spelling(const std::string& addr, u32& s) {
    const std::size_t plus = addr.find('+');
    const std::string reg = addr.substr(1, (plus == std::string::npos ? addr.size() - 1 : plus) - 1);
    if (reg.empty() || reg[0] != 'R' || addr.find("UR") != std::string::npos || take(s, 2) != 0) return false;
    const std::string imm = plus == std::string::npos ? "" : addr.substr(plus, addr.size() - 1 - plus);
    if (!imm.empty() && imm.find("0x") == std::string::npos) return false;
    put("S2R R9, SR_SWINHI");
    put("MOV R8, " + reg);
    window_addr = "desc[UR4][R8.64" + imm + "]";
    return true;
  }

  // The 32-bit words a store of `a` writes, as expressions (compiled_kernel.hpp: element j is
  // data + j, its low bytes; bytes 4..7 of an 8-byte element are 0).
  std::vector<Expr> words(const Access& a) {
    const int w = a.width();
    std::vector<Expr> out;
    const auto elem = [&](int j) { return j ? bin(O::add, a.data, lit(static_cast<u32>(j))) : a.data; };
    for (int m = 0; m < std::max(1, w / 4); ++m) {
      if (a.elem >= 4) {
        const int b = 4 * m, j = b / a.elem;
        out.push_back(b % a.elem == 0 ? elem(j) : lit(0));
        continue;
      }
      Expr acc;
      bool first = true;
      for (int b = 4 * m; b < std::min(w, 4 * m + 4); b += a.elem) {
        Expr part = bin(O::band, elem(b / a.elem), lit(a.elem == 1 ? 0xffu : 0xffffu));
        if (b % 4) part = shift(O::shl, part, static_cast<u32>(8 * (b % 4)));
        acc = first ? part : bin(O::bor, acc, part);
        first = false;
      }
      out.push_back(acc);
    }
    return out;
  }

  void access(const Access& a) {
    u32 s = a.spell;
    scratch = 32;
    if (a.kind == Access::Kind::listed) {
      const std::string addr = address(a, s);
      switch (a.listed) {
        case Listed::st_async: put("STAS " + addr + ", R0", a.id); return;
        // A generic access whose high word was loaded from memory: it may touch shared memory.
        case Listed::ld_cluster: case Listed::generic_ld: put("LDG.E R9, desc[UR4][R2.64]"), put("LD.E R16, desc[UR4][R8.64]", a.id); return;
        default: put("LDG.E R9, desc[UR4][R2.64]"), put("ST.E desc[UR4][R8.64], R0", a.id); return;
      }
    }
    if (a.kind == Access::Kind::st) {
      const std::vector<Expr> ws = words(a);
      for (std::size_t m = 0; m < ws.size(); ++m) {
        const std::string v = val(ws[m], true, s);
        const std::string r = "R" + std::to_string(16 + m);
        put(take(s, 1) ? "MOV " + r + ", " + v : "IMAD.MOV.U32 " + r + ", RZ, RZ, " + v);
      }
    }
    if (a.kind == Access::Kind::cp_async) put("IMAD.WIDE.U32 R8, R0, " + hex(static_cast<u32>(a.elem)) + ", R10");
    const std::string g = a.guard ? pred(*a.guard, false, s) : "";
    const std::string addr = address(a, s);
    if (tainted) out.lea_lop3.insert(a.id);
    const int w = a.width();
    switch (a.kind) {
      case Access::Kind::ld: case Access::Kind::st: {
        const bool ld = a.kind == Access::Kind::ld;
        std::string mod;
        const u32 sf = take(s, 2);
        if (w == 1) mod = ld && (sf & 1) ? ".S8" : ".U8";
        else if (w == 2) mod = ld && (sf & 1) ? ".S16" : ".U16";
        else if (w == 4) mod = sf == 1 ? ".32" : sf == 2 && ld ? ".U" : "";
        else mod = (ld && sf == 1 ? ".U" : "") + std::string(w == 8 ? ".64" : ".128");
        if (w >= 4 && generic_spelling(addr, s)) {  // through the shared window: LD.E/ST.E on the pair R8, R9
          const std::string gm = ".E" + std::string(w == 8 ? ".64" : w == 16 ? ".128" : "");
          put(g + (ld ? "LD" + gm + " R20, " + window_addr : "ST" + gm + " " + window_addr + ", R16"), a.id);
          return;
        }
        put(g + (ld ? "LDS" + mod + " R20, " + addr : "STS" + mod + " " + addr + ", R16"), a.id);
        return;
      }
      case Access::Kind::atom: case Access::Kind::red: {
        const bool wide = a.elem == 8;
        static const char* ops[] = {".ADD", ".EXCH", ".MIN.S32", ".MAX", ".AND", ".OR", ".XOR", ".INC", ".DEC", ".CAS"};
        std::string op = ops[take(s, 4) % (wide ? 2u : 10u)];
        if (a.kind == Access::Kind::red) op = wide ? ".ADD" : ops[take(s, 3) % 9];
        const std::string d = a.kind == Access::Kind::red ? "RZ" : "R20";
        const std::string srcs = op == ".CAS" ? "R22, R23" : "R22";
        put(g + "ATOMS" + op + (wide ? ".64" : "") + " " + d + ", " + addr + ", " + srcs, a.id);
        return;
      }
      case Access::Kind::ldsm: case Access::Kind::stsm: {
        const std::string mn = std::string(a.kind == Access::Kind::ldsm ? "LDSM" : "STSM") + ".16." + (a.trans ? "MT88" : "M88") +
                               (a.matrices == 1 ? "" : "." + std::to_string(a.matrices));
        put(mn + (a.kind == Access::Kind::ldsm ? " R20, " + addr : " " + addr + ", R20"), a.id);
        return;
      }
      default: {
        static const char* mods4[] = {".E"};
        static const char* mods8[] = {".E.64", ".E.LTC128B.64"};
        static const char* mods16[] = {".E.128", ".E.BYPASS.128", ".E.LTC128B.128", ".E.BYPASS.LTC128B.128"};
        const std::string mod = a.elem == 4 ? mods4[0] : a.elem == 8 ? mods8[take(s, 1)] : mods16[take(s, 2)];
        put(g + "LDGSTS" + mod + " " + addr + ", desc[UR6][R8.64]", a.id);
        if (take(s, 1)) put("LDGDEPBAR"), put("DEPBAR.LE SB0, 0x0");
        return;
      }
    }
  }

  // `call_end`: the label after the inlined call body a return jumps to (-1: the kernel's level).
  void block(const std::vector<Stmt>& body, int loops, int call_end) {
    for (const Stmt& st : body) {
      u32 s = st.spell;
      switch (st.kind) {
        case Stmt::Kind::access: access(st.a); break;
        case Stmt::Kind::branch: {
          scratch = 32;
          const int els = labels++, end = labels++;
          const std::string g = pred(st.cond, true, s);
          put("BSSY B0, @L" + std::to_string(end));
          put(g + "BRA @L" + std::to_string(st.else_.empty() ? end : els));
          block(st.then_, loops, call_end);
          if (!st.else_.empty()) {
            put("BRA @L" + std::to_string(end));
            label(els);
            block(st.else_, loops, call_end);
          }
          label(end);
          put("BSYNC B0");
          break;
        }
        case Stmt::Kind::loop: {
          const std::string c = "R" + std::to_string(12 + loops), b = "R" + std::to_string(24 + loops);
          const int top = labels++;
          if (st.bound) {
            scratch = 32;
            const std::string v = val(*st.bound, false, s);
            put("MOV " + b + ", " + v);
          }
          put(take(s, 1) ? "MOV " + c + ", RZ" : "IMAD.MOV.U32 " + c + ", RZ, RZ, RZ");
          label(top);
          block(st.body, loops + 1, call_end);
          put("VIADD " + c + ", " + c + ", 0x1");
          const std::string p = "P" + std::to_string(take(s, 2));
          if (st.bound) put("ISETP.LT.U32.AND " + p + ", PT, " + c + ", " + b + ", PT");
          else put(std::string(take(s, 1) ? "ISETP.NE.U32.AND " : "ISETP.LT.U32.AND ") + p + ", PT, " + c + ", " + hex(static_cast<u32>(st.trips)) + ", PT");
          put("@" + p + " BRA @L" + std::to_string(top));
          break;
        }
        case Stmt::Kind::call: {  // ptxas inlines: SASS has no call here
          const int end = labels++;
          block(st.body, loops, end);
          label(end);
          break;
        }
        case Stmt::Kind::ret: {
          scratch = 32;
          const std::string g = pred(st.cond, false, s);
          put(g + (st.exit || call_end < 0 ? std::string("EXIT") : "BRA @L" + std::to_string(call_end)));
          break;
        }
      }
    }
  }
};

}  // namespace

Printed print_sass(const Kernel& k) {
  Printer pr(k);
  u32 s = k.spell;
  pr.put("S2R R0, SR_TID.X");
  pr.put("S2R R1, SR_TID.Y");
  pr.put("LDC.64 R10, c[0x0][0x210]");
  pr.put("ULDC.64 UR6, c[0x0][0x208]");
  for (std::size_t j = 0; j < k.params.size(); ++j) {
    const int bits = k.params[j].bits;
    const std::string c = "c[0x0][" + hex(0x218 + 4 * j) + "]", r = "R" + std::to_string(2 + j);
    const std::string mod = bits == 8 ? ".U8" : bits == 16 ? ".U16" : "";
    if (bits == 32 && take(s, 1)) pr.put("ULDC UR5, " + c), pr.put("MOV " + r + ", UR5");
    else pr.put("LDC" + mod + " " + r + ", " + c);
  }
  pr.block(k.body, 0, -1);
  pr.put("EXIT");
  pr.put("BRA @L" + std::to_string(pr.labels));  // ptxas's trailing self-loop
  pr.label(pr.labels);
  Printed& out = pr.out;
  out.text = "\n\tcode for sm_90\n\t\tFunction : " + k.name + "\n\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n";
  u32 line = 4;
  for (std::size_t i = 0; i < pr.code.size(); ++i) {
    std::string t = pr.code[i].first;
    if (const std::size_t at = t.find("@L"); at != std::string::npos) {
      const int n = std::stoi(t.substr(at + 2));
      const std::size_t target = std::min(pr.label_at.at(n), pr.code.size() - 1);
      t = t.substr(0, at) + hex(16 * target);
    }
    char off[16];
    std::snprintf(off, sizeof off, "%04zx", 16 * i);
    out.text += "        /*" + std::string(off) + "*/                   " + t + " ;\n";
    ++line;
    if (pr.code[i].second >= 0) out.line[pr.code[i].second] = line;
  }
  out.args = {"--block", std::to_string(k.bx) + "," + std::to_string(k.by), "--smem-bytes", std::to_string(window_bytes(k))};
  for (std::size_t j = 0; j < k.params.size(); ++j) {
    const Param& p = k.params[j];
    const std::string at = "@" + std::to_string(8 + 4 * j);
    if (p.fixed) out.args.insert(out.args.end(), {"--param", at + "=" + std::to_string(*p.fixed)});
    else if (p.range)
      out.args.insert(out.args.end(), {"--param-range", at + "=" + std::to_string(p.range->first) + ".." + std::to_string(p.range->second)});
  }
  return out;
}

}  // namespace soakc
