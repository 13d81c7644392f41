#include "cli/commands/ptx_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli/help.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/witness_json.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/sass_parse.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::cli {
namespace {

using namespace proofs;
using ptx::u64;

struct PtxArgs {
  CompiledFormat format = CompiledFormat::ptx;
  std::string file, kernel;
  std::optional<std::array<i64, 3>> block;
  std::array<i64, 3> grid{1, 1, 1};
  std::vector<std::pair<std::string, u64>> params;  // (index or name, value)
  i64 smem_bytes = -1;
  std::vector<PtxClaim> claims;
  bool json = false;
  proofs::Deadline deadline;
};

// "X[,Y[,Z]]": each from 1 to max.
std::array<i64, 3> parse_dims(const std::string& v, const std::string& what, i64 max) {
  std::array<i64, 3> d{1, 1, 1};
  std::size_t at = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t comma = v.find(',', at);
    d[k] = parse_int_in(v.substr(at, comma == std::string::npos ? std::string::npos : comma - at), what, 1, max);
    if (comma == std::string::npos) return d;
    at = comma + 1;
  }
  throw LayoutError(what + " takes X[,Y[,Z]] (at most three numbers), not '" + v + "'");
}

// A parameter value: decimal (optionally negative: its two's complement) or 0x hex, 64 bits.
u64 parse_param_value(const std::string& v, const std::string& what) {
  const bool neg = !v.empty() && v[0] == '-';
  const std::string s = neg ? v.substr(1) : v;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  const bool ok = !digits.empty() && digits.size() <= (hex ? 16u : 19u) &&
                  digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos;
  if (!ok) throw LayoutError(what + " needs a decimal or 0x hex integer of 64 bits, not '" + v + "'");
  const u64 x = std::stoull(digits, nullptr, hex ? 16 : 10);
  if (neg && x > (u64{1} << 63)) throw LayoutError(what + " needs a value that fits in 64 bits, not '" + v + "'");
  return neg ? 0 - x : x;
}

PtxArgs parse_args(const std::vector<std::string>& args, const std::string& cmd) {
  PtxArgs a;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& f = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw LayoutError(f + " needs a value (layoutproof " + cmd + " --help)");
      return args[++i];
    };
    if (f == "--kernel") a.kernel = value();
    else if (f == "--block") {
      if (a.block) throw LayoutError("--block is given twice");
      a.block = parse_dims(value(), "--block", kMaxBlockThreads);
    } else if (f == "--grid") a.grid = parse_dims(value(), "--grid", i64{1} << 31);
    else if (f == "--param") {
      const std::string p = value();
      const std::size_t eq = p.find('=');
      if (eq == std::string::npos || eq == 0) throw LayoutError("--param needs I=V, I+OFFSET=V, NAME=V (PTX) or @OFFSET=V (SASS), not '" + p + "'");
      a.params.push_back({p.substr(0, eq), parse_param_value(p.substr(eq + 1), "--param " + p.substr(0, eq))});
    } else if (f == "--smem-bytes") a.smem_bytes = parse_int_in(value(), "--smem-bytes", 0, kSmemBytes);
    else if (f == "--claim") {
      const std::string c = value();
      const auto claim = parse_ptx_claim(c);
      if (!claim)
        throw LayoutError("unknown ptx claim '" + c + "' (conflict-free, max-ways:K, aligned, in-bounds, no-overlap)");
      a.claims.push_back(*claim);
    } else if (f == "--json") a.json = true;
    else if (f == "--deadline-s") a.deadline = proofs::Deadline::parse(value());
    else if (f == "--report") {
      (void)value();
      throw LayoutError(cmd + " --report is not implemented yet (the figures of `trace --report` for compiled sites come later)");
    } else if (!f.empty() && f[0] == '-' && f != "-") throw LayoutError("unknown option '" + f + "' (layoutproof " + cmd + " --help)");
    else if (a.file.empty()) a.file = f;
    else throw LayoutError(cmd + " takes one FILE, not also '" + f + "'");
  }
  if (a.file.empty())
    throw LayoutError(cmd == "sass" ? "sass needs a FILE (cuobjdump -sass or nvdisasm -g output; see layoutproof sass --help)"
                                    : "ptx needs a FILE (the PTX nvcc emits: nvcc -ptx -lineinfo; see layoutproof ptx --help)");
  return a;
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw LayoutError("cannot read '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LayoutError("cannot read '" + path + "'");
  std::string s;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    s.append(buf, static_cast<std::size_t>(in.gcount()));
    if (s.size() > ptx::kMaxPtxBytes)
      throw LayoutError(path + ": more than " + std::to_string(ptx::kMaxPtxBytes >> 20) + " MiB of PTX (the limit)");
  }
  return s;
}

std::string dims_text(const std::array<i64, 3>& d) { return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]); }
std::string dims_json(const std::array<i64, 3>& d) { return "[" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + "]"; }

struct KernelResult {
  ptx::Launch launch;
  ptx::KernelRun run;
  std::string block_from;
  std::vector<std::vector<PtxClaimResult>> verdicts;  // per site, per claim
};

// The byte offset and size of each parameter of a kernel whose demangled signature names only
// scalar and pointer types ("stages(float*, int)" -> (0, 8), (8, 4)): how SASS's constant bank
// lays them out (each at its natural alignment). It stops at the first type whose size is not
// known from its name (a struct, a template): those need --param @OFFSET=V.
std::vector<std::pair<i64, i64>> sass_parameter_layout(const std::string& sig) {
  std::vector<std::pair<i64, i64>> out;
  const std::size_t open = sig.find('(');
  if (open == std::string::npos) return out;
  std::vector<std::string> types;
  int depth = 0;
  std::string cur;
  for (std::size_t i = open + 1; i < sig.size(); ++i) {
    const char c = sig[i];
    if (c == '(' || c == '<') ++depth;
    if ((c == ')' || c == '>') && depth > 0) { --depth; cur += c; continue; }
    if (c == ')' && depth == 0) { types.push_back(cur); break; }
    if (c == ',' && depth == 0) { types.push_back(cur); cur.clear(); continue; }
    cur += c;
  }
  static const std::map<std::string, i64> sizes = {
      {"bool", 1}, {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"short", 2}, {"unsigned short", 2},
      {"int", 4}, {"unsigned int", 4}, {"float", 4}, {"long", 8}, {"unsigned long", 8}, {"long long", 8},
      {"unsigned long long", 8}, {"double", 8}, {"__half", 2}, {"half", 2}, {"int2", 8}, {"float2", 8}, {"uint2", 8},
      {"int4", 16}, {"float4", 16}, {"uint4", 16}, {"double2", 16}, {"longlong2", 16}};
  i64 at = 0;
  for (std::string t : types) {
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
    while (!t.empty() && t.back() == ' ') t.pop_back();
    if (t.empty() || t == "void") break;
    i64 size = 0;
    if (t.back() == '*' || t.back() == '&') size = 8;
    else {
      for (const char* q : {"const ", "volatile "})
        if (t.rfind(q, 0) == 0) t = t.substr(std::string(q).size());
      for (const char* q : {" const", " volatile"})
        if (t.size() > std::string(q).size() && t.substr(t.size() - std::string(q).size()) == q) t.resize(t.size() - std::string(q).size());
      const auto it = sizes.find(t);
      if (it == sizes.end()) break;
      size = it->second;
    }
    at = (at + size - 1) / size * size;
    out.push_back({at, size});
    at += size;
  }
  return out;
}

ptx::Launch launch_for(const ptx::Program& p, std::size_t e, const PtxArgs& a, std::string& block_from) {
  const ptx::Function& f = p.functions[e];
  ptx::Launch l;
  if (a.block) l.block = *a.block, block_from = "--block";
  else if (f.reqntid[0] > 0) l.block = f.reqntid, block_from = ".reqntid";
  else if (f.maxntid[0] > 0) l.block = f.maxntid, block_from = ".maxntid (an upper bound; --block gives the launch's)";
  else if (a.format == CompiledFormat::sass) throw LayoutError(f.name + ": SASS does not say the block size: give it (--block X[,Y[,Z]])");
  else throw LayoutError(f.name + " has no .reqntid or .maxntid: give the block size (--block X[,Y[,Z]])");
  l.grid = a.grid;
  l.dynamic_smem_bytes = a.smem_bytes;
  l.params.assign(f.params.size(), std::nullopt);
  const bool sass = a.format == CompiledFormat::sass;
  const std::vector<std::pair<i64, i64>> sass_params = sass ? sass_parameter_layout(ptx::demangle(f.name)) : std::vector<std::pair<i64, i64>>{};
  for (const auto& [key, v] : a.params) {
    const std::size_t plus = key.find('+');
    const std::string head = key.substr(0, plus);
    const i64 field = plus == std::string::npos ? -1 : parse_int_in(key.substr(plus + 1), "--param " + key + "'s byte offset", 0, 4095);
    const i64 bytes = v >> 32 ? 8 : 4;  // a field: the value's own width (a read past it is not known)
    if (!head.empty() && head[0] == '@') {  // SASS: bytes of the parameter buffer
      if (!sass) throw LayoutError("--param " + key + ": '@OFFSET' names bytes of SASS's parameter buffer; PTX names parameters (I, I+OFFSET, NAME)");
      l.fields.push_back({0, parse_int_in(head.substr(1), "--param " + key + "'s byte offset", 0, 4095), bytes, v});
      continue;
    }
    std::optional<std::size_t> idx;
    const bool by_index = head.find_first_not_of("0123456789") == std::string::npos;
    if (sass) {
      if (!by_index) throw LayoutError("--param " + key + ": SASS has no parameter names; give its index (I, I+OFFSET) or the byte offset (@OFFSET)");
      const i64 i = parse_int_in(head, "--param's index", 0, 1 << 20);
      if (i >= static_cast<i64>(sass_params.size()))
        throw LayoutError("--param " + key + ": the byte offset of parameter " + head + " of " + f.name +
                          " is not known from its signature (" + std::to_string(sass_params.size()) +
                          " parameter(s) have known sizes): give the byte offset, --param @OFFSET=V");
      const auto [at, size] = sass_params[static_cast<std::size_t>(i)];
      l.fields.push_back({0, at + std::max<i64>(field, 0), field >= 0 ? bytes : size, v});
      continue;
    }
    if (by_index) {
      const i64 i = parse_int_in(head, "--param's index", 0, 1 << 20);
      if (static_cast<std::size_t>(i) >= f.params.size()) continue;  // another selected kernel's (one must have it)
      idx = static_cast<std::size_t>(i);
    } else {
      for (std::size_t i = 0; i < f.params.size(); ++i)
        if (f.params[i].name == head) idx = i;
      if (!idx) continue;  // another kernel's parameter (a name that matches no kernel is refused)
    }
    if (field >= 0) {
      l.fields.push_back({*idx, field, bytes, v});
      continue;
    }
    if (f.params[*idx].bytes > 8)
      throw LayoutError("--param " + key + ": parameter " + std::to_string(*idx) + " is a " + std::to_string(f.params[*idx].bytes) +
                        "-byte aggregate; fix its fields with --param " + head + "+OFFSET=V");
    l.params[*idx] = v;
  }
  if (a.deadline.at) l.deadline = *a.deadline.at;
  return l;
}

std::string count_json(bool known, i64 v) { return known ? std::to_string(v) : "null"; }

void print_text(const ptx::Program& p, const KernelResult& k, const PtxArgs& a, std::ostream& out) {
  const ptx::KernelRun& r = k.run;
  const ptx::Function& f = p.functions[r.entry];
  out << p.file << ": kernel " << terminal_text(r.name);
  if (ptx::demangle(r.name) != r.name) out << " (" << terminal_text(ptx::demangle(r.name)) << ")";
  out << "\n  launch: block " << dims_text(r.block) << " (" << k.block_from << "), CTA (0,0,0) of grid " << dims_text(r.grid) << "\n";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    out << "  param " << i << " " << f.params[i].name << " = "
        << (k.launch.params[i] ? std::to_string(static_cast<i64>(*k.launch.params[i])) : std::string("free")) << "\n";
  for (const ptx::Placement& pl : r.placements) {
    const ptx::SharedSymbol& s = p.shared[pl.symbol];
    out << "  shared " << terminal_text(s.name) << ": byte " << pl.base << ", "
        << (s.dynamic ? (pl.bytes < 0 ? std::string("dynamic, size not given (--smem-bytes)") : "dynamic, " + std::to_string(pl.bytes) + " bytes")
                      : std::to_string(s.bytes) + " bytes")
        << ", .align " << s.align << "\n";
  }
  char head[160];
  std::snprintf(head, sizeof head, "  %-6s %-22s %9s %11s %7s  %s\n", "line", "CUDA", "executed", "wavefronts", "ideal", "instruction");
  out << head;
  i64 ex = 0, wf = 0, id = 0;
  bool known = true;
  for (const ptx::Site& s : r.sites) {
    char row[200];
    const std::string src = s.source.empty() ? "-" : std::filesystem::path(s.source).filename().string();
    std::snprintf(row, sizeof row, "  %-6u %-22s %9lld %11s %7s  ", s.line, terminal_text(src).c_str(),
                  static_cast<long long>(s.executed), s.counts_known ? std::to_string(s.wavefronts).c_str() : "?",
                  s.counts_known ? std::to_string(s.ideal).c_str() : "?");
    const i64 off = p.functions[s.function].code[s.pc].sass_offset;
    char at[24] = "";
    if (off >= 0) std::snprintf(at, sizeof at, "/*%04llx*/ ", static_cast<unsigned long long>(off));
    out << row << at << terminal_text(s.text) << "\n";
    ex += s.executed, wf += s.wavefronts, id += s.ideal;
    known = known && s.counts_known;
  }
  char tot[200];
  std::snprintf(tot, sizeof tot, "  %-6s %-22s %9lld %11s %7s\n", "totals", "", static_cast<long long>(ex),
                known ? std::to_string(wf).c_str() : "?", known ? std::to_string(id).c_str() : "?");
  out << tot;
  for (const ptx::Site& s : r.sites) {
    const std::string at = "  note: line " + std::to_string(s.line) + ": ";
    if (!s.unknown.empty()) out << at << s.unknown_issues << " issue(s) with a lane not known: " << terminal_text(s.unknown) << "\n";
    if (!s.bank_modelled) out << at << s.op << ".shared: wavefronts not known (the bank model has no rule for atomics)\n";
    if (!s.invalid.empty()) out << at << "the bank model refused an issue: " << terminal_text(s.invalid) << "\n";
    if (!s.divergent.empty()) out << at << "divergent: " << s.divergent << "\n";
  }
  if (!r.stopped.empty()) out << "  note: a lane stopped early: " << terminal_text(r.stopped) << "\n";
  for (const auto& [line, op] : r.not_lane_addressed)
    out << "  note: line " << line << ": " << terminal_text(op) << " touches shared memory but is not lane-addressed here (not counted)\n";
  if (r.sites.empty()) out << "  no shared-memory instruction\n";
  for (std::size_t si = 0; si < r.sites.size(); ++si)
    for (std::size_t c = 0; c < a.claims.size(); ++c) {
      const PtxClaimResult& v = k.verdicts[si][c];
      if (!v.applicable) continue;
      out << "  " << to_string(v.verdict.kind) << "  " << a.claims[c].text << "  line " << r.sites[si].line << ": "
          << terminal_text(v.witness ? "witness: " + v.witness->why : v.verdict.detail) << "  [" << v.verdict.method << "]\n";
    }
}

// The distinct warp issues of a site (at most kMaxIssuesShown): where each first ran, how many
// issues had exactly these lanes, and each lane's byte address (-1: inactive).
constexpr std::size_t kMaxIssuesShown = 64;
std::string issues_json(const ptx::Site& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.patterns.size() && i < kMaxIssuesShown; ++i) {
    const TraceInstruction& in = t.trace.instructions[i];
    s += (i ? "," : "") + std::string("{\"warp\":") + std::to_string(t.patterns[i].warp) + ",\"execution\":" +
         std::to_string(t.patterns[i].execution) + ",\"count\":" + std::to_string(t.patterns[i].count) + ",\"addrs\":[";
    for (int l = 0; l < kWarpLanes; ++l) s += (l ? "," : "") + std::to_string(in.addr[static_cast<std::size_t>(l)]);
    s += "]}";
  }
  return s + "]";
}

std::string kernel_json(const ptx::Program& p, const KernelResult& k, const PtxArgs& a) {
  const ptx::KernelRun& r = k.run;
  std::string s = "{\"name\":" + json_str(r.name) + ",\"demangled\":" + json_str(ptx::demangle(r.name)) +
                  ",\"block\":" + dims_json(r.block) + ",\"grid\":" + dims_json(r.grid) + ",\"instructions\":[";
  i64 ex = 0, wf = 0, id = 0;
  bool known = true;
  for (std::size_t si = 0; si < r.sites.size(); ++si) {
    const ptx::Site& t = r.sites[si];
    const i64 off = p.functions[t.function].code[t.pc].sass_offset;
    s += (si ? "," : "") + std::string("{\"line\":") + std::to_string(t.line) + ",\"sass_offset\":" +
         (off < 0 ? std::string("null") : std::to_string(off)) + ",\"source\":" +
         json_str(t.source) + ",\"text\":" + json_str(t.text) + ",\"op\":" + json_str(t.op) +
         ",\"width_bytes\":" + std::to_string(t.width_bytes) + ",\"executed\":" + std::to_string(t.executed) +
         ",\"wavefronts\":" + count_json(t.counts_known, t.wavefronts) + ",\"ideal\":" + count_json(t.counts_known, t.ideal) +
         ",\"issues\":" + issues_json(t) + ",\"verdicts\":[";
    bool first = true;
    for (std::size_t c = 0; c < a.claims.size(); ++c) {
      const PtxClaimResult& v = k.verdicts[si][c];
      if (!v.applicable) continue;
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.1f", v.verdict.time_ms);
      s += (first ? "" : ",") + std::string("{\"claim\":") + json_str(a.claims[c].text) + ",\"verdict\":" +
           json_str(to_string(v.verdict.kind)) + ",\"method\":" + json_str(v.verdict.method) + ",\"detail\":" +
           json_str(v.verdict.detail) + ",\"time_ms\":" + ms + ",\"witness\":" +
           (v.witness ? witness_to_json(*v.witness, &t.trace) : std::string("null")) + "}";
      first = false;
    }
    s += "]}";
    ex += t.executed, wf += t.wavefronts, id += t.ideal;
    known = known && t.counts_known;
  }
  s += "],\"totals\":{\"executed\":" + std::to_string(ex) + ",\"wavefronts\":" + count_json(known, wf) +
       ",\"ideal\":" + count_json(known, id) + "},\"stopped\":" + (r.stopped.empty() ? std::string("null") : json_str(r.stopped)) + "}";
  return s;
}

}  // namespace

int run_compiled_command(const std::vector<std::string>& args, std::ostream& out, CompiledFormat format) {
  const char* const name = format == CompiledFormat::sass ? "sass" : "ptx";
  for (const auto& x : args)
    if (x == "--help" || x == "-h") {
      out << *help_text(name);
      return 0;
    }
  PtxArgs a = parse_args(args, name);
  a.format = format;
  std::string text = read_file(a.file);
  if (format == CompiledFormat::ptx && ptx::looks_like_sass(text))
    throw LayoutError(a.file + " is SASS (cuobjdump -sass / nvdisasm), not PTX: use layoutproof sass " + a.file);
  ptx::Program p = format == CompiledFormat::sass ? ptx::parse_sass(std::move(text), a.file) : ptx::parse_ptx(std::move(text), a.file);
  const std::vector<std::size_t> entries = ptx::select_entries(p, a.kernel);
  if (entries.empty()) {
    std::string names;
    for (const ptx::Function& f : p.functions)
      if (f.is_entry) names += (names.empty() ? "" : ", ") + f.name;
    throw LayoutError(a.kernel.empty() ? a.file + " has no kernel (.entry with a body)"
                                       : "no kernel of " + a.file + " matches --kernel '" + a.kernel + "' (kernels: " +
                                             (names.empty() ? "none" : names) + ")");
  }
  for (const auto& [whole, v] : a.params) {  // a parameter index or name must belong to a selected kernel
    const std::string key = whole.substr(0, whole.find('+'));
    if (format == CompiledFormat::sass || (!key.empty() && key[0] == '@')) continue;  // checked per kernel
    const bool by_index = key.find_first_not_of("0123456789") == std::string::npos;
    bool found = false;
    std::size_t most = 0;
    for (const std::size_t e : entries) {
      const std::vector<ptx::ParamDecl>& ps = p.functions[e].params;
      most = std::max(most, ps.size());
      if (by_index) found = found || parse_int_in(key, "--param's index", 0, 1 << 20) < static_cast<i64>(ps.size());
      else
        for (const ptx::ParamDecl& d : ps) found = found || d.name == key;
    }
    if (!found && by_index)
      throw LayoutError("--param " + key + ": no selected kernel has a parameter " + key + " (the most any has is " +
                        std::to_string(most) + ", numbered from 0)");
    if (!found) throw LayoutError("--param " + key + ": no selected kernel has a parameter of that name (PTX names them _Z..._param_I)");
  }
  ProveOptions o;
  o.smt.deadline = a.deadline;
  std::vector<KernelResult> results;
  int refuted = 0, other = 0;
  bool stopped = false;
  for (const std::size_t e : entries) {
    ptx::decode_with_callees(p, e);
    KernelResult k;
    k.launch = launch_for(p, e, a, k.block_from);
    k.run = ptx::run_kernel(p, e, k.launch);
    stopped = stopped || !k.run.stopped.empty();
    for (const ptx::Site& s : k.run.sites) {
      std::vector<PtxClaimResult> row;
      for (const PtxClaim& c : a.claims) {
        row.push_back(prove_ptx_site(p, k.launch, k.run, s, c, o));
        if (!row.back().applicable) continue;
        if (row.back().verdict.is_refuted()) ++refuted;
        else if (!row.back().verdict.is_proved()) ++other;
      }
      k.verdicts.push_back(std::move(row));
    }
    results.push_back(std::move(k));
  }
  if (a.json) {
    out << "{\"file\":" << json_str(a.file) << ",\"kernels\":[";
    for (std::size_t i = 0; i < results.size(); ++i) out << (i ? "," : "") << kernel_json(p, results[i], a);
    out << "]}\n";
  } else {
    for (const KernelResult& k : results) print_text(p, k, a, out);
    if (!a.claims.empty()) {
      i64 applicable = 0;
      for (const KernelResult& k : results)
        for (const auto& row : k.verdicts)
          for (const auto& v : row) applicable += v.applicable;
      out << applicable - refuted - other << " proved, " << refuted << " refuted, " << other << " unknown or error\n";
    }
  }
  if (refuted) return 1;
  if (other || (a.claims.empty() && stopped)) return 3;
  return 0;
}

}  // namespace layoutproof::cli
