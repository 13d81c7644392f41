#include "model/compiled/ptx_exec.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "model/support/error.hpp"

namespace layoutproof {
namespace {

using u64 = unsigned long long;
using Value = std::optional<u64>;  // nullopt: not known (never guessed)

// The integer type of an opcode's last type suffix (.u32, .s64, .b16, .pred ...): bits and sign.
struct IntType {
  int bits = 0;  // 0: not an integer type (floats, none)
  bool is_signed = false;
};
IntType int_type(const std::string& suffix) {
  if (suffix.size() < 2) return {};
  const char k = suffix[0];
  if (k != 'u' && k != 's' && k != 'b') return {};
  const std::string n = suffix.substr(1);
  if (n != "8" && n != "16" && n != "32" && n != "64") return {};
  return {std::stoi(n), k == 's'};
}

u64 mask(u64 v, int bits) { return bits >= 64 ? v : v & ((u64{1} << bits) - 1); }
long long sext(u64 v, int bits) {
  if (bits >= 64) return static_cast<long long>(v);
  const u64 m = u64{1} << (bits - 1);
  v = mask(v, bits);
  return static_cast<long long>((v ^ m) - m);
}

std::vector<std::string> split_dots(const std::string& op) {
  std::vector<std::string> parts;
  std::string cur;
  for (const char c : op) {
    if (c == '.') parts.push_back(cur), cur.clear();
    else cur += c;
  }
  parts.push_back(cur);
  return parts;
}

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(' '));
  s.erase(s.find_last_not_of(' ') + 1);
  return s;
}

bool has(const std::vector<std::string>& parts, const char* m) { return std::find(parts.begin(), parts.end(), m) != parts.end(); }

// The last integer type among the opcode's suffixes (cvt has two: destination first).
IntType last_int_type(const std::vector<std::string>& parts) {
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (const IntType t = int_type(*it); t.bits) return t;
  return {};
}
bool has_float_type(const std::vector<std::string>& parts) {
  for (const auto& p : parts)
    if (p == "f16" || p == "f32" || p == "f64" || p == "bf16" || p == "f16x2" || p == "bf16x2") return true;
  return false;
}

// One thread's state.
struct Thread {
  std::map<std::string, Value> regs;
  std::array<i64, 3> tid{0, 0, 0};
  i64 linear = 0;
};

struct Access {  // one dynamic instance of a shared-memory instruction by one thread
  std::size_t pc = 0;
  i64 instance = 0;
  i64 thread = 0;
  bool active = true;
  Value addr;
};

class Executor {
 public:
  Executor(const PtxEntry& e, const PtxLaunch& l) : e_(e), l_(l) {
    i64 at = 0;
    for (const auto& s : e.shared) {
      if (s.dynamic) continue;
      at = checked_mul((at + s.align - 1) / s.align, s.align);
      symbols_[s.name] = {at, s.bytes};
      at = checked_add(at, s.bytes);
    }
    const i64 dyn = (at + 15) / 16 * 16;
    for (const auto& s : e.shared)
      if (s.dynamic) symbols_[s.name] = {dyn, l.dynamic_smem_bytes};
    for (std::size_t i = 0; i < e.params.size(); ++i) {
      for (const auto& [name, v] : l.params)
        if (name == e.params[i] || name == "#" + std::to_string(i)) params_[e.params[i]] = static_cast<u64>(v);
    }
  }

  void run_thread(Thread& t, std::vector<Access>& out, std::vector<std::size_t>& path) {
    std::map<std::size_t, i64> instance;
    i64 steps = 0;
    for (std::size_t pc = 0; pc < e_.code.size();) {
      if (++steps > l_.max_steps_per_thread) {
        stop("a thread ran more than " + std::to_string(l_.max_steps_per_thread) + " instructions (a loop bound not known?)");
        return;
      }
      const PtxInstruction& in = e_.code[pc];
      path.push_back(pc);
      bool active = true;
      if (!in.guard.empty()) {
        const Value g = reg(t, in.guard);
        if (!g) {
          if (is_smem(in)) out.push_back({pc, instance[pc]++, t.linear, true, std::nullopt});
          if (split_dots(in.opcode)[0] == "bra") {
            stop("line " + std::to_string(in.line) + ": a branch on a value that is not known (" + in.guard + ")");
            return;
          }
          // Whether it ran is not known: so is what it writes (never the value from before).
          if (!in.operands.empty()) set_all_unknown(t, in.operands[0]);
          ++pc;
          continue;
        }
        active = (*g != 0) != in.guard_negated;
      }
      if (is_smem(in)) out.push_back({pc, instance[pc]++, t.linear, active, active ? smem_address(t, in) : Value{}});
      if (!active) {
        ++pc;
        continue;
      }
      const std::string base = split_dots(in.opcode)[0];
      if (base == "ret" || base == "exit") return;
      if (base == "bra") {
        const auto it = e_.labels.find(in.operands.empty() ? "" : in.operands[0]);
        if (it == e_.labels.end()) {
          stop("line " + std::to_string(in.line) + ": a branch to an unknown label");
          return;
        }
        pc = it->second;
        continue;
      }
      execute(t, in);
      ++pc;
    }
  }

  const std::map<std::string, std::pair<i64, i64>>& symbols() const { return symbols_; }
  const std::string& stopped() const { return stopped_; }
  const std::set<std::string>& not_modelled() const { return not_modelled_; }

  static bool is_smem(const PtxInstruction& in) {
    const auto p = split_dots(in.opcode);
    if (p[0] == "ldmatrix" || p[0] == "stmatrix") return true;
    if (p[0] == "cp" && has(p, "async") && has(p, "shared") && !has(p, "bulk")) return true;
    return (p[0] == "ld" || p[0] == "st") && has(p, "shared");
  }

 private:
  void stop(std::string why) {
    if (stopped_.empty()) stopped_ = std::move(why);
  }

  Value special(const Thread& t, const std::string& r) {
    static const char* dims = "xyz";
    for (int d = 0; d < 3; ++d) {
      const std::string s(1, dims[d]);
      if (r == "%tid." + s) return static_cast<u64>(t.tid[static_cast<std::size_t>(d)]);
      if (r == "%ntid." + s) return static_cast<u64>(l_.block[static_cast<std::size_t>(d)]);
      if (r == "%ctaid." + s) return u64{0};
      if (r == "%nctaid." + s) return static_cast<u64>(l_.grid[static_cast<std::size_t>(d)]);
    }
    if (r == "%laneid") return static_cast<u64>(t.linear % kWarpLanes);
    if (r == "%warpid") return static_cast<u64>(t.linear / kWarpLanes);
    return std::nullopt;
  }

  Value reg(const Thread& t, const std::string& r) {
    if (const auto it = t.regs.find(r); it != t.regs.end()) return it->second;
    return special(t, r);
  }

  // An operand's value: a register, an immediate, a shared symbol's address (as mov takes it).
  Value value(const Thread& t, std::string o) {
    if (o.empty()) return std::nullopt;
    if (o[0] == '%') return reg(t, o);
    if (const auto it = symbols_.find(o); it != symbols_.end()) return static_cast<u64>(it->second.first);
    if (o.size() > 2 && o[0] == '0' && (o[1] == 'f' || o[1] == 'd' || o[1] == 'F' || o[1] == 'D')) return std::nullopt;  // float bits
    bool neg = false;
    if (o[0] == '-') neg = true, o = o.substr(1);
    try {
      std::size_t used = 0;
      const u64 v = std::stoull(o, &used, 0);
      if (used != o.size() && !(used + 1 == o.size() && (o.back() == 'U' || o.back() == 'u'))) return std::nullopt;
      return neg ? static_cast<u64>(0) - v : v;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  // "[%r4+132]", "[sym]", "[%rd1+-8]": base + offset.
  Value address(const Thread& t, const std::string& op) {
    if (op.size() < 2 || op.front() != '[' || op.back() != ']') return std::nullopt;
    const std::string in = op.substr(1, op.size() - 2);
    std::size_t plus = in.find('+', 1);
    std::string base = in, off;
    if (plus != std::string::npos) base = in.substr(0, plus), off = in.substr(plus + 1);
    else if (const std::size_t minus = in.find('-', 1); minus != std::string::npos) base = in.substr(0, minus), off = in.substr(minus);
    const Value b = value(t, trim(base));
    const Value o = off.empty() ? Value{0} : value(t, trim(off));
    if (!b || !o) return std::nullopt;
    return *b + *o;
  }

  Value smem_address(const Thread& t, const PtxInstruction& in) {
    const auto p = split_dots(in.opcode);
    // ld/st/ldmatrix: the address is the operand in brackets; cp.async: its first (the shared dst).
    for (const auto& o : in.operands)
      if (!o.empty() && o.front() == '[') {
        const Value a = address(t, o);
        return a ? Value{mask(*a, 32)} : a;  // the shared window is 32-bit
      }
    return std::nullopt;
  }

  void set(Thread& t, const std::string& dst, Value v, int bits) {
    // Only a plain register takes a computed value; a vector ({%r1, %r2}) or a pair (%r1|%p1)
    // destination is not modelled: each of its registers becomes not known.
    if (dst.find_first_of("{|, ") != std::string::npos) return set_all_unknown(t, dst);
    if (dst.empty() || dst[0] != '%') return;
    t.regs[dst] = v ? Value{mask(*v, bits)} : v;
  }
  void set_all_unknown(Thread& t, const std::string& dst) {
    if (dst.empty()) return;
    if (const std::size_t bar = dst.find('|'); bar != std::string::npos) {  // %r1|%p1
      set_all_unknown(t, dst.substr(0, bar));
      set_all_unknown(t, dst.substr(bar + 1));
      return;
    }
    if (dst[0] == '{') {  // a vector destination {%f1, %f2}
      std::string cur;
      for (const char c : dst.substr(1)) {
        if (c == ',' || c == '}') {
          cur = trim(cur);
          if (!cur.empty()) t.regs[cur] = std::nullopt;
          cur.clear();
        } else cur += c;
      }
      return;
    }
    if (dst[0] == '%') t.regs[dst] = std::nullopt;
  }

  void execute(Thread& t, const PtxInstruction& in) {
    const auto p = split_dots(in.opcode);
    const std::string& base = p[0];
    const auto& ops = in.operands;
    const auto arg = [&](std::size_t k) { return k < ops.size() ? value(t, ops[k]) : Value{}; };
    const IntType ty = last_int_type(p);
    const int bits = ty.bits ? ty.bits : 64;
    const bool fl = has_float_type(p);
    if (base == "bar" || base == "barrier" || base == "membar" || base == "fence" || base == "cp" || base == "st" ||
        base == "stmatrix" || base == "red" || base == "prefetch" || base == "griddepcontrol" || base == "nanosleep")
      return;  // no register result (a cp.async/st's shared address was recorded)
    if (ops.empty()) return;
    const std::string& dst = ops[0];
    if (base == "ld" || base == "ldmatrix" || base == "atom" || base == "ldu") {
      if (base == "ld" && has(p, "param") && ops.size() >= 2) {
        std::string name = ops[1].substr(1, ops[1].size() - 2);
        const std::size_t plus = name.find('+');
        if (plus != std::string::npos) name = name.substr(0, plus);  // a param's element: not known
        const auto it = params_.find(name);
        set(t, dst, plus == std::string::npos && it != params_.end() ? Value{it->second} : Value{}, bits);
        return;
      }
      set_all_unknown(t, dst);  // data read from memory: never guessed
      return;
    }
    if (fl && base != "cvt" && base != "setp" && base != "selp" && base != "mov") {
      set_all_unknown(t, dst);
      return;
    }
    const Value a = arg(1), b = arg(2), c = arg(3);
    const auto both = [&](auto f) -> Value { return a && b ? Value{f(*a, *b)} : Value{}; };
    if (base == "mov" || base == "cvta") {
      set(t, dst, fl ? Value{} : a, bits);
    } else if (base == "add") {
      set(t, dst, both([](u64 x, u64 y) { return x + y; }), bits);
    } else if (base == "sub") {
      set(t, dst, both([](u64 x, u64 y) { return x - y; }), bits);
    } else if (base == "mul" || base == "mad") {
      if (!a || !b || (base == "mad" && !c)) return set(t, dst, std::nullopt, bits);
      const bool wide = has(p, "wide"), hi = has(p, "hi");
      const u64 x = ty.is_signed ? static_cast<u64>(sext(*a, bits)) : mask(*a, bits);
      const u64 y = ty.is_signed ? static_cast<u64>(sext(*b, bits)) : mask(*b, bits);
      u64 r;
      if (hi) {
        const __int128 prod = ty.is_signed ? static_cast<__int128>(static_cast<long long>(x)) * static_cast<long long>(y)
                                           : static_cast<__int128>(static_cast<unsigned __int128>(x) * y);
        r = static_cast<u64>(prod >> bits);
      } else r = x * y;
      if (base == "mad") r += *c;
      set(t, dst, r, wide ? 2 * bits : bits);
    } else if (base == "div" || base == "rem") {
      if (!a || !b || mask(*b, bits) == 0) return set(t, dst, std::nullopt, bits);
      const u64 r = ty.is_signed ? static_cast<u64>(base == "div" ? sext(*a, bits) / sext(*b, bits) : sext(*a, bits) % sext(*b, bits))
                                 : (base == "div" ? mask(*a, bits) / mask(*b, bits) : mask(*a, bits) % mask(*b, bits));
      set(t, dst, r, bits);
    } else if (base == "and") {
      set(t, dst, both([](u64 x, u64 y) { return x & y; }), bits);
    } else if (base == "or") {
      set(t, dst, both([](u64 x, u64 y) { return x | y; }), bits);
    } else if (base == "xor") {
      set(t, dst, both([](u64 x, u64 y) { return x ^ y; }), bits);
    } else if (base == "not") {
      set(t, dst, a ? Value{~*a} : a, bits);
    } else if (base == "neg") {
      set(t, dst, a ? Value{u64{0} - *a} : a, bits);
    } else if (base == "shl") {
      set(t, dst, both([&](u64 x, u64 y) { return y >= static_cast<u64>(bits) ? 0 : x << y; }), bits);
    } else if (base == "shr") {
      set(t, dst, both([&](u64 x, u64 y) {
            const u64 s = std::min<u64>(y, static_cast<u64>(bits - 1) + (ty.is_signed ? 0 : 1));
            if (ty.is_signed) return static_cast<u64>(sext(x, bits) >> std::min<u64>(s, 63));
            return s >= static_cast<u64>(bits) ? 0 : mask(x, bits) >> s;
          }),
          bits);
    } else if (base == "min" || base == "max") {
      set(t, dst, both([&](u64 x, u64 y) {
            const bool lt = ty.is_signed ? sext(x, bits) < sext(y, bits) : mask(x, bits) < mask(y, bits);
            return (base == "min") == lt ? x : y;
          }),
          bits);
    } else if (base == "cvt") {
      // cvt.DST.SRC: extend by the source type, keep the destination's bits.
      IntType d{}, s{};
      for (const auto& q : p)
        if (const IntType it = int_type(q); it.bits) (d.bits ? s : d) = it;
      if (fl || !a || !d.bits || !s.bits) return set(t, dst, std::nullopt, 64);
      const u64 v = s.is_signed ? static_cast<u64>(sext(*a, s.bits)) : mask(*a, s.bits);
      set(t, dst, v, d.bits);
    } else if (base == "setp") {
      const std::string cmp = p.size() > 1 ? p[1] : "";
      if (!a || !b || fl || ops.size() != 3) return set(t, dst, std::nullopt, 1);
      const bool sg = ty.is_signed || cmp == "lt" || cmp == "le" || cmp == "gt" || cmp == "ge" ? ty.is_signed : false;
      const long long x = sg ? sext(*a, bits) : 0, y = sg ? sext(*b, bits) : 0;
      const u64 ux = mask(*a, bits), uy = mask(*b, bits);
      bool r = false;
      if (cmp == "eq") r = ux == uy;
      else if (cmp == "ne") r = ux != uy;
      else if (cmp == "lt") r = sg ? x < y : ux < uy;
      else if (cmp == "le") r = sg ? x <= y : ux <= uy;
      else if (cmp == "gt") r = sg ? x > y : ux > uy;
      else if (cmp == "ge") r = sg ? x >= y : ux >= uy;
      else if (cmp == "lo") r = ux < uy;
      else if (cmp == "ls") r = ux <= uy;
      else if (cmp == "hi") r = ux > uy;
      else if (cmp == "hs") r = ux >= uy;
      else return set(t, dst, std::nullopt, 1);
      set(t, dst, r ? 1 : 0, 1);
    } else if (base == "selp") {
      set(t, dst, c ? (*c ? a : b) : Value{}, bits);
    } else if (base == "lop3") {
      const Value lut = arg(4);
      if (!a || !b || !c || !lut) return set(t, dst, std::nullopt, bits);
      u64 r = 0;
      for (int i = 0; i < bits; ++i) {
        const int idx = static_cast<int>((((*a >> i) & 1) << 2) | (((*b >> i) & 1) << 1) | ((*c >> i) & 1));
        r |= ((*lut >> idx) & 1) << i;
      }
      set(t, dst, r, bits);
    } else if (base == "bfe") {
      if (!a || !b || !c) return set(t, dst, std::nullopt, bits);
      const u64 pos = *b & 0xff, len = *c & 0xff;
      u64 r = len == 0 || pos >= static_cast<u64>(bits) ? 0 : (mask(*a, bits) >> pos) & (len >= 64 ? ~u64{0} : (u64{1} << len) - 1);
      if (ty.is_signed && len > 0 && len < 64 && ((r >> (len - 1)) & 1)) r |= ~((u64{1} << len) - 1);
      set(t, dst, r, bits);
    } else {
      not_modelled_.insert(base);
      set_all_unknown(t, dst);
    }
  }

  const PtxEntry& e_;
  const PtxLaunch& l_;
  std::map<std::string, std::pair<i64, i64>> symbols_;  // name -> (base, bytes)
  std::map<std::string, u64> params_;
  std::string stopped_;
  std::set<std::string> not_modelled_;
};

// The op and width a shared-memory instruction issues per lane.
std::pair<SmemOp, int> op_width(const PtxInstruction& in) {
  const auto p = split_dots(in.opcode);
  if (p[0] == "ldmatrix" || p[0] == "stmatrix") {
    const bool ld = p[0] == "ldmatrix";
    const int x = has(p, "x4") ? 4 : has(p, "x2") ? 2 : 1;
    const SmemOp op = ld ? (x == 4 ? SmemOp::ldsm4 : x == 2 ? SmemOp::ldsm2 : SmemOp::ldsm1)
                         : (x == 4 ? SmemOp::stsm4 : x == 2 ? SmemOp::stsm2 : SmemOp::stsm1);
    return {op, 16};
  }
  if (p[0] == "cp") {
    int bytes = 0;
    if (in.operands.size() >= 3) {
      try {
        bytes = std::stoi(in.operands[2]);
      } catch (const std::exception&) {
        bytes = 0;
      }
    }
    return {SmemOp::ldgsts, bytes};
  }
  int bytes = 0, vec = 1;
  for (const auto& q : p) {
    if (q == "v2") vec = 2;
    if (q == "v4") vec = 4;
    if (const IntType t = int_type(q); t.bits) bytes = t.bits / 8;
    if (q == "f16" || q == "bf16") bytes = 2;
    if (q == "f32" || q == "f16x2" || q == "bf16x2") bytes = 4;
    if (q == "f64") bytes = 8;
    if (q == "b128") bytes = 16;
  }
  return {p[0] == "ld" ? SmemOp::ld : SmemOp::st, bytes * vec};
}

std::string where_text(const PtxModule& m, const PtxInstruction& in) {
  std::string s = m.file + ":" + std::to_string(in.line);
  if (in.source_line > 0) {
    const auto it = m.files.find(in.source_file);
    s += " (" + (it == m.files.end() ? std::string("source") : it->second) + ":" + std::to_string(in.source_line) + ")";
  }
  return s;
}

}  // namespace

PtxRun run_ptx(const PtxEntry& entry, const PtxModule& module, const PtxLaunch& launch_in) {
  PtxLaunch launch = launch_in;
  for (int d = 0; d < 3; ++d) {
    auto& b = launch.block[static_cast<std::size_t>(d)];
    if (b == 0) b = entry.reqntid[static_cast<std::size_t>(d)] ? entry.reqntid[static_cast<std::size_t>(d)] : (d == 0 ? 0 : 1);
  }
  if (launch.block[0] <= 0)
    throw LayoutError(entry.name + " has no .reqntid/.maxntid: give the block size (--block X[,Y[,Z]])");
  const i64 threads = checked_mul(checked_mul(launch.block[0], launch.block[1]), launch.block[2]);
  if (threads > kMaxBlockThreads)
    throw LayoutError("a block of " + std::to_string(threads) + " threads; a thread block has at most " + std::to_string(kMaxBlockThreads));
  Executor ex(entry, launch);
  std::vector<Access> accesses;
  std::vector<std::vector<std::size_t>> paths(static_cast<std::size_t>(threads));
  for (i64 z = 0; z < launch.block[2]; ++z)
    for (i64 y = 0; y < launch.block[1]; ++y)
      for (i64 x = 0; x < launch.block[0]; ++x) {
        Thread t;
        t.tid = {x, y, z};
        t.linear = x + launch.block[0] * (y + launch.block[1] * z);
        ex.run_thread(t, accesses, paths[static_cast<std::size_t>(t.linear)]);
      }
  PtxRun run;
  run.kernel = entry.name;
  run.block = launch.block;
  run.stopped = ex.stopped();
  run.not_modelled.assign(ex.not_modelled().begin(), ex.not_modelled().end());
  for (i64 w = 0; w * kWarpLanes < threads && !run.divergent; ++w)
    for (i64 l = w * kWarpLanes + 1; l < std::min(threads, (w + 1) * kWarpLanes); ++l)
      if (paths[static_cast<std::size_t>(l)] != paths[static_cast<std::size_t>(w * kWarpLanes)]) run.divergent = true;
  // Group: site (pc) -> (instance, warp) -> lanes.
  std::map<std::size_t, std::map<std::pair<i64, i64>, TraceInstruction>> by_site;
  for (const Access& a : accesses) {
    const PtxInstruction& in = entry.code[a.pc];
    const auto [op, width] = op_width(in);
    TraceInstruction& ti = by_site[a.pc][{a.instance, a.thread / kWarpLanes}];
    if (ti.where.empty()) {
      ti.op = op;
      ti.width_bytes = width;
      ti.addr.fill(-1);
      ti.thread.fill(-1);
      ti.warp = a.thread / kWarpLanes;
      ti.index = a.instance;
      ti.where = where_text(module, in) + ", issue " + std::to_string(a.instance) + " of warp " + std::to_string(ti.warp);
    }
    const std::size_t lane = static_cast<std::size_t>(a.thread % kWarpLanes);
    if (a.active && a.addr) ti.addr[lane] = static_cast<i64>(*a.addr), ti.thread[lane] = a.thread;
    if (a.active && !a.addr) ti.where += " [unknown address]";
  }
  for (auto& [pc, issues] : by_site) {
    const PtxInstruction& in = entry.code[pc];
    PtxSmemSite site;
    site.instruction = &in;
    const auto [op, width] = op_width(in);
    site.trace.op = op;
    site.trace.width_bytes = width;
    site.trace.threads = threads;
    site.trace.smem_is_destination = op == SmemOp::st || op == SmemOp::stsm1 || op == SmemOp::stsm2 || op == SmemOp::stsm4 ||
                                     op == SmemOp::ldgsts;
    site.trace.provenance = where_text(module, in) + ": " + in.text;
    site.trace.name = where_text(module, in) + ": " + in.opcode;
    for (auto& [key, ti] : issues) {
      if (ti.where.find("[unknown address]") != std::string::npos && site.unknown.empty())
        site.unknown = "line " + std::to_string(in.line) + ": an address depends on a value that is not known";
      site.trace.instructions.push_back(std::move(ti));
    }
    if (!run.stopped.empty() && site.unknown.empty()) site.unknown = run.stopped;
    // A divergent warp's issues are not known exactly (the k-th run by each lane may be a different
    // issue): nothing is claimed about them rather than something wrong.
    if (run.divergent && site.unknown.empty()) site.unknown = "a warp's lanes ran different instruction sequences (divergence is not modelled)";
    // The symbol its lanes address: the one whose extent holds every address.
    std::string sym;
    bool one = true;
    for (const auto& ins : site.trace.instructions)
      for (int l = 0; l < kWarpLanes; ++l) {
        const i64 a = ins.addr[static_cast<std::size_t>(l)];
        if (a < 0) continue;
        std::string here;
        for (const auto& [name, ext] : ex.symbols())
          if (a >= ext.first && a < ext.first + std::max<i64>(ext.second, 1)) here = name;
        if (sym.empty()) sym = here;
        else if (sym != here) one = false;
      }
    if (one && !sym.empty()) {
      site.symbol = sym;
      site.symbol_base = ex.symbols().at(sym).first;
      site.symbol_bytes = ex.symbols().at(sym).second;
    }
    run.sites.push_back(std::move(site));
  }
  return run;
}

}  // namespace layoutproof
