// The compiled-kernel soak's PTX printer (compiled_kernel.hpp): the abstract kernel as the PTX nvcc
// would write for it, in the many spellings PTX has for one shared-memory access (.shared and
// .shared::cta; .volatile, .weak, .relaxed.cta, .acquire.cta/.release.cta; every type of the width;
// .v2/.v4; 16-, 32-, 64- and 128-bit data registers; 32- and 64-bit addresses; cp.async .ca/.cg
// with .L2::128B; every atom/red operation), calls through param space, and the listed forms.
#include <algorithm>

#include "tests/soak/compiled_kernel.hpp"

namespace soakc {
namespace {

using O = Expr::Op;

// Takes n random bits from s.
u32 take(u32& s, int n) {
  const u32 v = s & ((1u << n) - 1);
  s = (s >> n) | (s << (32 - n));
  return v;
}

struct Fn {
  std::vector<std::pair<std::string, int>> lines;  // text, access id (-1)
  int r = 0, rd = 0, p = 0, rs = 0, f = 0, fd = 0, rq = 0;
  std::string tidx, tidy, gptr;
  std::vector<std::string> params, loops, syms;
  std::string R() { return "%r" + std::to_string(r++); }
  std::string RD() { return "%rd" + std::to_string(rd++); }
  std::string P() { return "%p" + std::to_string(p++); }
  void put(const std::string& t, int id = -1) { lines.push_back({t, id}); }
};

struct Printer {
  explicit Printer(const Kernel& kk) : k(kk) {}
  const Kernel& k;
  int labels = 0, calls = 0, helpers = 0;
  std::vector<std::vector<std::pair<std::string, int>>> funcs;  // finished .func definitions
  std::vector<std::string> protos;

  std::string val(Fn& f, const Expr& e, bool imm_ok, u32& s) {
    switch (e.op) {
      case O::c: {
        if (imm_ok) return std::to_string(e.value);
        const std::string d = f.R();
        f.put("mov.u32 " + d + ", " + std::to_string(e.value) + ";");
        return d;
      }
      case O::tidx: return f.tidx;
      case O::tidy: return f.tidy;
      case O::lane: case O::ntid: {
        const std::string d = f.R();
        f.put("mov.u32 " + d + (e.op == O::lane ? ", %laneid;" : ", %ntid.x;"));
        return d;
      }
      case O::loop: return f.loops[e.value];
      case O::param: return f.params[e.value];
      case O::opaque: {
        const std::string d = f.R();
        f.put("ld.global.u32 " + d + ", [" + f.gptr + "];");
        return d;
      }
      default: break;
    }
    if (e.op == O::add && e.k[0].op == O::mul && e.k[0].k[1].op == O::c && take(s, 1)) {  // mad
      const std::string a = val(f, e.k[0].k[0], false, s), c = val(f, e.k[1], false, s), d = f.R();
      f.put(std::string(take(s, 1) ? "mad.lo.s32 " : "mad.lo.u32 ") + d + ", " + a + ", " + std::to_string(e.k[0].k[1].value) + ", " + c + ";");
      return d;
    }
    if (e.op == O::viaf) {  // a helper .func returning k[0] + value through param space
      const std::string a = val(f, e.k[0], false, s), d = f.R(), name = "h" + std::to_string(helpers++);
      const std::string head = ".func (.param .b32 " + name + "_r) " + name + "(.param .b32 " + name + "_a)";
      protos.push_back(head + ";");
      funcs.push_back({{head, -1}, {"{", -1}, {".reg .b32 %r<3>;", -1}, {"  ld.param.u32 %r0, [" + name + "_a];", -1},
                       {"  add.u32 %r1, %r0, " + std::to_string(e.value) + ";", -1}, {"  st.param.b32 [" + name + "_r], %r1;", -1},
                       {"  ret;", -1}, {"}", -1}});
      f.put("{");
      f.put(".param .b32 param0;");
      f.put("st.param.b32 [param0], " + a + ";");
      f.put(".param .b32 retval0;");
      f.put("call.uni (retval0), " + name + ", (param0);");
      f.put("ld.param.b32 " + d + ", [retval0];");
      f.put("}");
      return d;
    }
    if (e.op == O::sel) {  // a per-lane predicate on a bit of tid.x
      const std::string a = val(f, e.k[0], false, s), b = val(f, e.k[1], true, s), t = f.R(), p = f.P(), d = f.R();
      f.put("and.b32 " + t + ", " + f.tidx + ", " + std::to_string(1u << e.value) + ";");
      f.put("setp.ne.u32 " + p + ", " + t + ", 0;");
      f.put("selp.b32 " + d + ", " + a + ", " + b + ", " + p + ";");
      return d;
    }
    const std::string a = val(f, e.k[0], false, s);
    const std::string d = f.R();
    if (e.op == O::abs) {
      f.put("abs.s32 " + d + ", " + a + ";");
      return d;
    }
    if (e.op == O::sext || e.op == O::zext) {
      f.put(std::string(e.op == O::sext ? "bfe.s32 " : "bfe.u32 ") + d + ", " + a + ", 0, " + std::to_string(e.value) + ";");
      return d;
    }
    if (e.op == O::shl || e.op == O::shr || e.op == O::sra) {
      f.put(std::string(e.op == O::shl ? "shl.b32 " : e.op == O::shr ? "shr.u32 " : "shr.s32 ") + d + ", " + a + ", " + std::to_string(e.value) + ";");
      return d;
    }
    const std::string b = val(f, e.k[1], true, s);
    const bool sgn = take(s, 1);
    std::string op;
    switch (e.op) {
      case O::add: op = sgn ? "add.s32" : "add.u32"; break;
      case O::sub: op = sgn ? "sub.s32" : "sub.u32"; break;
      case O::mul: op = sgn ? "mul.lo.s32" : "mul.lo.u32"; break;
      case O::band: op = "and.b32"; break;
      case O::min: op = "min.u32"; break;
      case O::mulhi: op = "mul.hi.u32"; break;
      case O::max: op = "max.u32"; break;
      case O::bor: op = "or.b32"; break;
      default: op = "xor.b32"; break;
    }
    f.put(op + " " + d + ", " + a + ", " + b + ";");
    return d;
  }

  // The guard or branch predicate and its prefix: "@%p3 " (or "@!%p3 " with the inverse test).
  std::string pred(Fn& f, const Cond& c, bool negate, u32& s) {
    static const char* cmp[] = {"lt", "ge", "eq", "ne"};
    static const int inverse[] = {1, 0, 3, 2};
    const std::string lhs = val(f, c.lhs, false, s), p = f.P();
    const bool flip = take(s, 1);
    int ci = static_cast<int>(c.cmp);
    if (flip != negate) ci = inverse[ci];
    f.put("setp." + std::string(cmp[ci]) + ".u32 " + p + ", " + lhs + ", " + std::to_string(c.rhs) + ";");
    return flip ? "@!" + p + " " : "@" + p + " ";
  }

  // "[%r7+16]" for the access's address (32- or 64-bit register). With generic_ok (ld/st), it may be
  // a generic address in the shared window (generic_used: the instruction names no state space).
  bool generic_ok = false, generic_used = false;
  std::string address(Fn& f, const Access& a, u32& s) {
    const std::string off = val(f, a.offset, false, s);
    const std::string sym = f.syms[static_cast<std::size_t>(a.symbol)];
    const std::string imm = a.imm ? "+" + std::to_string(a.imm) : "";
    const int form = static_cast<int>(take(s, 2));
    if (form == 0 && !k.symbolic()) {  // 64-bit: a zero-extended offset (a free parameter's term would not stay one)
      const std::string o64 = f.RD(), b64 = f.RD(), a64 = f.RD();
      f.put("cvt.u64.u32 " + o64 + ", " + off + ";");
      f.put("mov.u64 " + b64 + ", " + k.symbols[static_cast<std::size_t>(a.symbol)].name + ";");
      f.put("add.s64 " + a64 + ", " + b64 + ", " + o64 + ";");
      if (!take(s, 2)) {  // to the generic window and back: the same shared address
        const std::string g = f.RD(), back = f.RD();
        f.put("cvta.shared.u64 " + g + ", " + a64 + ";");
        if (generic_ok && take(s, 1)) {  // or a generic ld/st through the window: the same access
          generic_used = true;
          return "[" + g + imm + "]";
        }
        f.put("cvta.to.shared.u64 " + back + ", " + g + ";");
        return "[" + back + imm + "]";
      }
      return "[" + a64 + imm + "]";
    }
    const std::string d = f.R();
    f.put("add.u32 " + d + ", " + sym + ", " + off + ";");
    if (form == 1 && a.imm) {  // the immediate folded into the register
      const std::string e = f.R();
      f.put("add.u32 " + e + ", " + d + ", " + std::to_string(a.imm) + ";");
      return "[" + e + "]";
    }
    return "[" + d + imm + "]";
  }

  static std::string type_of(int elem, u32& s) {
    switch (elem) {
      case 1: return std::vector<std::string>{"b8", "u8", "s8"}[take(s, 2) % 3];
      case 2: return std::vector<std::string>{"b16", "u16", "s16"}[take(s, 2) % 3];
      case 4: return std::vector<std::string>{"b32", "u32", "s32", "f32"}[take(s, 2)];
      case 8: return std::vector<std::string>{"b64", "u64", "s64", "f64"}[take(s, 2)];
      default: return "b128";
    }
  }

  // A data register of `type` holding `v` (a 32-bit register) as its element (zero-extended).
  std::string data_reg(Fn& f, const std::string& type, const std::string& v, u32& s) {
    const int bits = type == "b128" ? 128 : std::stoi(type.substr(1));
    if (bits == 128) {
      const std::string lo = f.RD(), q = "%rq" + std::to_string(f.rq++);
      f.put("cvt.u64.u32 " + lo + ", " + v + ";");
      f.put("mov.b128 " + q + ", {" + lo + ", " + lo + "};");
      return q;
    }
    if (bits == 64) {
      const std::string d = f.RD();
      f.put("cvt.u64.u32 " + d + ", " + v + ";");
      if (type[0] != 'f') return d;
      const std::string x = "%fd" + std::to_string(f.fd++);
      f.put("mov.b64 " + x + ", " + d + ";");
      return x;
    }
    if (type == "f32") {
      const std::string x = "%f" + std::to_string(f.f++);
      f.put("mov.b32 " + x + ", " + v + ";");
      return x;
    }
    if (bits <= 16 && take(s, 1)) {  // nvcc keeps narrow data in 16-bit registers
      const std::string x = "%rs" + std::to_string(f.rs++);
      f.put("cvt.u16.u32 " + x + ", " + v + ";");
      return x;
    }
    return v;
  }

  std::string dest_reg(Fn& f, const std::string& type) {
    const int bits = type == "b128" ? 128 : std::stoi(type.substr(1));
    if (bits == 128) return "%rq" + std::to_string(f.rq++);
    if (bits == 64) return type[0] == 'f' ? "%fd" + std::to_string(f.fd++) : f.RD();
    if (type == "f32") return "%f" + std::to_string(f.f++);
    return f.R();
  }

  void access(Fn& f, const Access& a) {
    u32 s = a.spell;
    const std::string space = take(s, 1) ? ".shared::cta" : ".shared";
    if (a.kind == Access::Kind::listed) {
      const std::string off = val(f, a.offset, false, s), d = f.R();
      f.put("add.u32 " + d + ", " + f.syms[static_cast<std::size_t>(a.symbol)] + ", " + off + ";");
      switch (a.listed) {
        case Listed::st_async:
          f.put("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [" + d + "], " + f.tidx + ", [" + d + "];", a.id);
          return;
        case Listed::ld_cluster: f.put("ld.shared::cluster.u32 " + f.R() + ", [" + d + "];", a.id); return;
        default: {  // a generic access whose address was loaded from memory: it may touch shared memory
          const std::string g = f.RD();
          f.put("ld.global.u64 " + g + ", [" + f.gptr + "];");
          f.put(a.listed == Listed::generic_ld ? "ld.u32 " + f.R() + ", [" + g + "];" : "st.u32 [" + g + "], " + f.tidx + ";", a.id);
          return;
        }
      }
    }
    // Data first (a store's registers), then the guard, then the address: nvcc interleaves them freely.
    std::vector<std::string> data;
    std::string type;
    if (a.kind == Access::Kind::ld || a.kind == Access::Kind::st) type = type_of(a.elem, s);
    if (a.kind == Access::Kind::st) {
      const std::string d0 = val(f, a.data, false, s);
      for (int j = 0; j < a.vec; ++j) {
        std::string v = d0;
        if (j) {
          v = f.R();
          f.put("add.u32 " + v + ", " + d0 + ", " + std::to_string(j) + ";");
        }
        data.push_back(data_reg(f, type, v, s));
      }
    }
    const std::string g = a.guard ? pred(f, *a.guard, false, s) : "";
    generic_ok = a.kind == Access::Kind::ld || a.kind == Access::Kind::st;
    generic_used = false;
    const std::string addr = address(f, a, s);
    const std::string space_used = generic_used ? "" : space;
    const auto list = [](const std::vector<std::string>& v) {
      std::string t = v.size() == 1 ? v[0] : "{";
      for (std::size_t i = 0; v.size() > 1 && i < v.size(); ++i) t += (i ? ", " : "") + v[i];
      return v.size() == 1 ? t : t + "}";
    };
    const std::string vec = a.vec == 2 ? ".v2" : a.vec == 4 ? ".v4" : "";
    switch (a.kind) {
      case Access::Kind::ld: case Access::Kind::st: {
        const bool ld = a.kind == Access::Kind::ld;
        const std::vector<std::string> quals = space == ".shared"
                                                   ? std::vector<std::string>{"", ".volatile", ".weak", ".relaxed.cta", ld ? ".acquire.cta" : ".release.cta",
                                                                              ".relaxed.gpu", ld ? ".acquire.sys" : ".release.gpu", ".relaxed.sys"}
                                                   : std::vector<std::string>{"", ".relaxed.cta", ".relaxed.gpu", ld ? ".acquire.cta" : ".release.cta"};
        const std::string q = quals[take(s, 3) % quals.size()];
        const std::string mn = (ld ? "ld" : "st") + q + space_used + vec + "." + type;
        if (ld) {
          std::vector<std::string> dst;
          for (int j = 0; j < a.vec; ++j) dst.push_back(dest_reg(f, type));
          f.put(g + mn + " " + list(dst) + ", " + addr + ";", a.id);
        } else {
          f.put(g + mn + " " + addr + ", " + list(data) + ";", a.id);
        }
        return;
      }
      case Access::Kind::atom: case Access::Kind::red: {
        const bool wide = a.elem == 8;
        static const char* ops4[] = {"add.u32", "add.s32", "add.f32", "min.u32", "min.s32", "max.u32", "max.s32", "inc.u32",
                                     "dec.u32", "and.b32", "or.b32", "xor.b32", "exch.b32", "cas.b32"};
        static const char* ops8[] = {"add.u64", "add.f64", "min.u64", "min.s64", "max.u64", "and.b64", "or.b64", "xor.b64", "exch.b64", "cas.b64"};
        const int n = wide ? (a.kind == Access::Kind::red ? 8 : 10) : (a.kind == Access::Kind::red ? 12 : 14);
        const std::string op = (wide ? ops8 : ops4)[take(s, 4) % static_cast<u32>(n)];
        const bool fl = op.find(".f") != std::string::npos;
        const auto reg = [&] { return wide ? (fl ? "%fd" + std::to_string(f.fd++) : f.RD()) : (fl ? "%f" + std::to_string(f.f++) : f.R()); };
        const std::string sem = std::vector<std::string>{"", ".relaxed.cta", ".acq_rel.cta", ".relaxed.gpu"}[take(s, 2)];
        const std::string b = reg();
        if (a.kind == Access::Kind::red) {
          f.put(g + "red" + sem + space + "." + op + " " + addr + ", " + b + ";", a.id);
        } else {
          const std::string d = reg(), c = op.rfind("cas", 0) == 0 ? ", " + reg() : "";
          f.put(g + "atom" + sem + space + "." + op + " " + d + ", " + addr + ", " + b + c + ";", a.id);
        }
        return;
      }
      case Access::Kind::ldsm: case Access::Kind::stsm: {
        std::vector<std::string> regs;
        for (int j = 0; j < a.matrices; ++j) regs.push_back(f.R());
        const std::string regs_text = "{" + [&] { std::string t; for (std::size_t i = 0; i < regs.size(); ++i) t += (i ? ", " : "") + regs[i]; return t; }() + "}";
        const std::string mn = std::string(a.kind == Access::Kind::ldsm ? "ldmatrix" : "stmatrix") + ".sync.aligned.m8n8.x" +
                               std::to_string(a.matrices) + (a.trans ? ".trans" : "") + space + ".b16";
        if (a.kind == Access::Kind::stsm)
          for (const std::string& x : regs) f.put("mov.u32 " + x + ", " + f.tidx + ";");
        f.put(mn + " " + (a.kind == Access::Kind::ldsm ? regs_text + ", " + addr : addr + ", " + regs_text) + ";", a.id);
        return;
      }
      default: {  // cp.async: the global side from the pointer (parameter 0, never fixed)
        const std::string wide = f.RD(), src = f.RD();
        f.put("mul.wide.u32 " + wide + ", " + f.tidx + ", " + std::to_string(a.elem) + ";");
        f.put("add.s64 " + src + ", " + f.gptr + ", " + wide + ";");
        const std::string kind = a.elem == 16 && take(s, 1) ? "cg" : "ca";
        const bool l2 = take(s, 1);
        f.put(g + "cp.async." + kind + space + ".global" + (l2 ? ".L2::128B" : "") + " " + addr + ", [" + src + "], " +
                  std::to_string(a.elem) + (l2 && take(s, 1) ? ", " + std::to_string(a.elem) : "") + ";",
              a.id);
        if (take(s, 1)) f.put("cp.async.commit_group;"), f.put("cp.async.wait_group 0;");
        return;
      }
    }
  }

  void block(Fn& f, const std::vector<Stmt>& body) {
    for (const Stmt& st : body) {
      u32 s = st.spell;
      switch (st.kind) {
        case Stmt::Kind::access: access(f, st.a); break;
        case Stmt::Kind::branch: {
          const int n = labels++;
          const std::string els = "$L__else" + std::to_string(n), end = "$L__end" + std::to_string(n);
          const std::string g = pred(f, st.cond, true, s);  // taken when the condition fails
          f.put(g + "bra " + (st.else_.empty() ? end : els) + ";");
          block(f, st.then_);
          if (!st.else_.empty()) {
            f.put("bra.uni " + end + ";");
            f.put(els + ":");
            block(f, st.else_);
          }
          f.put(end + ":");
          break;
        }
        case Stmt::Kind::loop: {
          const int n = labels++;
          const std::string c = f.R(), top = "$L__loop" + std::to_string(n);
          const std::string bound = st.bound ? val(f, *st.bound, false, s) : std::to_string(st.trips);
          f.put("mov.u32 " + c + ", 0;");
          f.put(top + ":");
          f.loops.push_back(c);
          block(f, st.body);
          f.loops.pop_back();
          const std::string p = f.P();
          f.put("add.u32 " + c + ", " + c + ", 1;");
          f.put("setp.lt.u32 " + p + ", " + c + ", " + bound + ";");
          f.put("@" + p + " bra " + top + ";");
          break;
        }
        case Stmt::Kind::call: call(f, st); break;
        case Stmt::Kind::ret: f.put(pred(f, st.cond, false, s) + (st.exit ? "exit;" : "ret;")); break;
      }
    }
  }

  // Arguments: the parameters' values, the loop counters in scope, the global pointer.
  std::string signature(const std::string& name, std::size_t np, std::size_t nl) {
    std::string t = ".func " + name + "(";
    for (std::size_t i = 0; i < np + nl; ++i) t += ".param .b32 " + name + "_a" + std::to_string(i) + ", ";
    return t + ".param .b64 " + name + "_g)";
  }

  void pass(Fn& f, const std::string& callee, const std::vector<std::string>& vals, const std::string& g, bool uni) {
    f.put("{");
    std::string args;
    for (std::size_t i = 0; i < vals.size(); ++i) {
      f.put(".param .b32 param" + std::to_string(i) + ";");
      f.put("st.param.b32 [param" + std::to_string(i) + "], " + vals[i] + ";");
      args += "param" + std::to_string(i) + ", ";
    }
    f.put(".param .b64 paramg;");
    f.put("st.param.b64 [paramg], " + g + ";");
    f.put(std::string(uni ? "call.uni " : "call ") + callee + ", (" + args + "paramg);");
    f.put("}");
  }

  void call(Fn& f, const Stmt& st) {
    const int id = calls++;
    const std::size_t np = f.params.size(), nl = f.loops.size();
    const auto name = [&](int level) { return "c" + std::to_string(id) + "_" + std::to_string(level); };
    std::vector<std::string> vals = f.params;
    vals.insert(vals.end(), f.loops.begin(), f.loops.end());
    pass(f, name(1), vals, f.gptr, st.spell & 1);
    for (int level = 1; level <= st.depth; ++level) {
      protos.push_back(signature(name(level), np, nl) + ";");
      Fn g;
      std::vector<std::string> got;
      for (std::size_t i = 0; i < np + nl; ++i) {
        got.push_back(g.R());
        g.put("ld.param.u32 " + got.back() + ", [" + name(level) + "_a" + std::to_string(i) + "];");
      }
      g.gptr = g.RD();
      g.put("ld.param.u64 " + g.gptr + ", [" + name(level) + "_g];");
      if (level < st.depth) {
        pass(g, name(level + 1), got, g.gptr, true);
      } else {
        g.params.assign(got.begin(), got.begin() + static_cast<long>(np));
        g.loops.assign(got.begin() + static_cast<long>(np), got.end());
        prologue(g);
        block(g, st.body);
      }
      g.put("ret;");
      funcs.push_back(finish(g, signature(name(level), np, nl)));
    }
  }

  void prologue(Fn& f) {
    f.tidx = f.R();
    f.put("mov.u32 " + f.tidx + ", %tid.x;");
    f.tidy = f.R();
    f.put("mov.u32 " + f.tidy + ", %tid.y;");
    for (const Symbol& s : k.symbols) {
      f.syms.push_back(f.R());
      f.put("mov.u32 " + f.syms.back() + ", " + s.name + ";");
    }
  }

  std::vector<std::pair<std::string, int>> finish(Fn& f, const std::string& head) {
    std::vector<std::pair<std::string, int>> out{{head, -1}, {"{", -1}};
    out.push_back({".reg .b32 %r<" + std::to_string(f.r + 1) + ">;", -1});
    out.push_back({".reg .b64 %rd<" + std::to_string(f.rd + 1) + ">;", -1});
    out.push_back({".reg .pred %p<" + std::to_string(f.p + 1) + ">;", -1});
    if (f.rs) out.push_back({".reg .b16 %rs<" + std::to_string(f.rs + 1) + ">;", -1});
    if (f.f) out.push_back({".reg .f32 %f<" + std::to_string(f.f + 1) + ">;", -1});
    if (f.fd) out.push_back({".reg .f64 %fd<" + std::to_string(f.fd + 1) + ">;", -1});
    if (f.rq) out.push_back({".reg .b128 %rq<" + std::to_string(f.rq + 1) + ">;", -1});
    for (auto& l : f.lines) out.push_back({(l.first.back() == ':' || l.first == "{" || l.first == "}" ? "" : "  ") + l.first, l.second});
    out.push_back({"}", -1});
    return out;
  }
};

}  // namespace

Printed print_ptx(const Kernel& k) {
  Printer pr(k);
  Fn f;
  u32 s = k.spell;
  f.gptr = f.RD();
  f.put("ld.param.u64 " + f.gptr + ", [" + k.name + "_param_0];");
  const std::string g = f.RD();
  f.put("cvta.to.global.u64 " + g + ", " + f.gptr + ";");
  f.gptr = g;
  for (std::size_t j = 0; j < k.params.size(); ++j) {
    const int bits = k.params[j].bits;
    const std::string name = "[" + k.name + "_param_" + std::to_string(j + 1) + "]";
    f.params.push_back(f.R());
    if (bits < 32 && take(s, 1)) {  // through a 16-bit register, then widened
      const std::string h = "%rs" + std::to_string(f.rs++);
      f.put("ld.param.u" + std::to_string(bits) + " " + h + ", " + name + ";");
      f.put("cvt.u32.u" + std::to_string(bits) + " " + f.params.back() + ", " + h + ";");
    } else {
      f.put("ld.param.u" + std::to_string(bits) + " " + f.params.back() + ", " + name + ";");
    }
  }
  pr.prologue(f);
  pr.block(f, k.body);
  f.put("ret;");
  std::string head = ".visible .entry " + k.name + "(\n  .param .u64 " + k.name + "_param_0";
  for (std::size_t j = 0; j < k.params.size(); ++j)
    head += ",\n  .param .u" + std::to_string(k.params[j].bits) + " " + k.name + "_param_" + std::to_string(j + 1);
  head += "\n)";
  std::vector<std::pair<std::string, int>> all{{"//", -1}, {".version 8.3", -1}, {".target sm_90a", -1}, {".address_size 64", -1}, {"", -1}};
  for (const Symbol& sym : k.symbols)
    if (!sym.local) all.push_back({sym.dynamic ? ".extern .shared .align " + std::to_string(sym.align) + " .b8 " + sym.name + "[];"
                               : ".shared .align " + std::to_string(sym.align) + " .b8 " + sym.name + "[" + std::to_string(sym.bytes) + "];",
                   -1});
  for (const std::string& p : pr.protos) all.push_back({p, -1});
  for (auto& fn : pr.funcs) all.insert(all.end(), fn.begin(), fn.end());
  std::vector<std::pair<std::string, int>> entry = pr.finish(f, head);
  for (const Symbol& sym : k.symbols)  // after the .reg lines, before the first instruction
    if (sym.local) {
      const auto at = std::find_if(entry.begin() + 2, entry.end(), [](const auto& l) { return l.first.rfind(".reg", 0) != 0; });
      entry.insert(at, {".shared .align " + std::to_string(sym.align) + " .b8 " + sym.name + "[" + std::to_string(sym.bytes) + "];", -1});
    }
  all.insert(all.end(), entry.begin(), entry.end());
  Printed out;
  u32 line = 0;
  for (const auto& [t, id] : all) {
    line += 1 + static_cast<u32>(std::count(t.begin(), t.end(), '\n'));
    out.text += t + "\n";
    if (id >= 0) out.line[id] = line;
  }
  out.args = {"--block", std::to_string(k.bx) + "," + std::to_string(k.by)};
  for (std::size_t j = 0; j < k.params.size(); ++j) {
    const Param& p = k.params[j];
    if (p.fixed) out.args.insert(out.args.end(), {"--param", std::to_string(j + 1) + "=" + std::to_string(*p.fixed)});
    else if (p.range)
      out.args.insert(out.args.end(), {"--param-range", std::to_string(j + 1) + "=" + std::to_string(p.range->first) + ".." + std::to_string(p.range->second)});
  }
  for (const Symbol& sym : k.symbols)
    if (sym.dynamic) out.args.insert(out.args.end(), {"--smem-bytes", std::to_string(sym.bytes)});
  return out;
}

}  // namespace soakc
