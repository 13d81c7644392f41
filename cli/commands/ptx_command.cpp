#include "cli/commands/ptx_command.hpp"
#include "cli/commands/tensor_map_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/help.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/output/compiled_report.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/results.hpp"
#include "cli/output/witness_json.hpp"
#include "cli/run_flags.hpp"
#include "model/compiled/compiled_file.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/sass/sass_parse.hpp"
#include "proofs/check/compiled.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::cli {
namespace {

using namespace proofs;
using compiled::u64;

struct PtxArgs {
  std::string file, kernel;
  std::vector<proofs::TensorMapBinding> tensor_maps;  // --tensor-map, --tensor-maps: bound to every claim
  std::string arch;     // --arch: which architecture's code cuobjdump extracts from a binary
  PtxLaunchRequest launch;
  std::vector<PtxClaim> claims;
  OutputFlags out;      // --json [FILE], --junit, --sarif, --markdown, --report DIR, --verbose
  std::string command;  // the command line, for the report
  proofs::Deadline deadline;
};

// "X[,Y[,Z]]": each from lo to max (the ones not given: lo).
std::array<i64, 3> parse_dims(const std::string& v, const std::string& what, i64 max, i64 lo = 1) {
  std::array<i64, 3> d{lo, lo, lo};
  std::size_t at = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t comma = v.find(',', at);
    d[k] = parse_int_in(v.substr(at, comma == std::string::npos ? std::string::npos : comma - at), what, lo, max);
    if (comma == std::string::npos) return d;
    at = comma + 1;
  }
  throw LayoutError(what + " takes X[,Y[,Z]] (at most three numbers), not '" + v + "'");
}

// The --param help of ptx and sass: the value forms and the ranges each format checks.
std::string ptx_param_help() {
  return
      "fix kernel parameter I (0-based) or NAME (as the PTX names it, _Z..._param_0) to V (decimal or 0x "
      "hex), or bytes OFF.. of an aggregate, I+OFF[:BYTES]=V (a field of 1, 2, 4 or 8 bytes; default 4, or "
      "8 for a value past [-2^31, 2^32-1]). V must lie in the parameter's type, never wrapped (exit 2 "
      "naming its type and range): the C++ type of the mangled name decides the sign (nvcc declares int k "
      "as .u32): unsigned types and pointers [0, 2^n-1]; int, long, short, PTX .s [-2^(n-1), 2^(n-1)-1]; "
      "float, char, PTX .u/.b/.f without a C++ type, and fields either spelling [-2^(n-1), 2^n-1]. Each "
      "parameter is given once (by --param or --param-range; by index, name or bytes). A parameter left "
      "free is a symbol: an address that is an affine term in it (s[k], s[4*tid + k + 3], s[tid*k]: add, "
      "sub, mul/shl by a constant, mad, truncation) is decided for EVERY value of it with Z3 (PROVED from "
      "unsat; REFUTED with values that are replayed by re-running the kernel with them as --param); "
      "anything else computed from it (a branch, a loop bound, a shift right, a comparison) is UNKNOWN with "
      "the reason, never guessed";
}

std::string sass_param_help() {
  return
      "parameter I (0-based) of a kernel whose signature names scalar and pointer types\n"
      "(its byte offset follows from their sizes); I+OFF=V: bytes OFF.. of parameter I;\n"
      "@OFF=V: bytes OFF.. of the parameter buffer (c[0x0][0x210+OFF] on sm_90; OFF decimal or 0x hex);\n"
      "KEY:BYTES=V gives a field's width (1, 2, 4, 8; default 4, or 8 for wider values):\n"
      "@8:8=0 is a pointer at byte 8 (pointers given let LDGSTS count its global side).\n"
      "V must lie in the parameter's C++ type (int [-2^31, 2^31-1], pointers and\n"
      "unsigned types [0, 2^n-1]) or, for a field, its bytes (either spelling); each\n"
      "parameter is given once (exit 2 otherwise, as for ptx)\n"
      "A parameter left free is a symbol, as for ptx: addresses affine in it are\n"
      "decided for every value (Z3), what else depends on it is UNKNOWN";
}

std::string ptx_json_help() {
  return
      "{\"kernels\":[{\"name\",\"block\",\"instructions\":[{\"line\",\"sass_offset\",\"text\",\"op\",\n"
      "\"width_bytes\",\"executed\",\"wavefronts\",\"ideal\",\"verdicts\":[...]}],\"not_counted\":\n"
      "[{\"line\",\"text\",\"why\",\"verdicts\"}],\"unapplied\":[...],\"totals\":{...}}]}\n"
      "(wavefronts null where not known; docs/json_output.schema.json)";
}

// The claims ptx and sass decide (proofs/claims/ptx_claims.hpp), for suggestions.
const std::vector<std::string>& ptx_claim_names() {
  static const std::vector<std::string> v = {"conflict-free", "max-ways", "aligned", "in-bounds", "no-overlap", "operand-contract", "tma-aligned", "descriptor-valid", "tensor-map-valid"};
  return v;
}

void add_param(PtxArgs& a, const std::string& p) {
  const std::size_t eq = p.find('=');
  if (eq == std::string::npos || eq == 0) throw LayoutError("--param needs I=V, I+OFFSET=V, NAME=V (PTX) or @OFFSET=V (SASS), not '" + p + "'");
  a.launch.params.push_back({p.substr(0, eq), parse_ptx_param_value(p.substr(eq + 1), "--param " + p.substr(0, eq)), {0, 0}, "--param " + p});
}

void add_param_range(PtxArgs& a, const std::string& p) {
  const std::size_t eq = p.find('='), dots = p.find("..", eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || eq == 0 || dots == std::string::npos)
    throw LayoutError("--param-range needs I=LO..HI or NAME=LO..HI (PTX), @OFFSET=LO..HI (SASS), not '" + p + "'");
  const std::string what = "--param-range " + p.substr(0, eq);
  const i64 lo = compiled::parse_range_end(p.substr(eq + 1, dots - eq - 1), what), hi = compiled::parse_range_end(p.substr(dots + 2), what);
  if (lo > hi) throw LayoutError(what + ": LO " + std::to_string(lo) + " is above HI " + std::to_string(hi) + " (an empty domain proves nothing)");
  a.launch.params.push_back({p.substr(0, eq), std::nullopt, {lo, hi}, "--param-range " + p});
}

// A capture line's binding, its errors at the line.
template <class F>
auto at_line(const std::string& where, F&& f) {
  try {
    return f();
  } catch (const LayoutError& e) {
    throw LayoutError(where + ": " + e.what());
  }
}

void add_claim(PtxArgs& a, const std::string& c) {
  const auto claim = parse_ptx_claim(c);
  if (!claim) throw LayoutError(unknown_word("ptx claim", c, ptx_claim_names(), "", true));
  a.claims.push_back(*claim);
}

// The one table of ptx and sass: the same rows; the help of a few says what differs (cmd).
FlagTable ptx_table(PtxArgs& a, const std::string& cmd) {
  const bool sass = cmd == "sass";
  FlagTable t(cmd);
  t.value({"--kernel"}, "TEXT",
          sass ? "the functions whose mangled or demangled name contains TEXT (default: all)"
               : "the kernels whose mangled or demangled name contains TEXT (default: every kernel)",
          [&a](const std::string& v) { a.kernel = v; });
  t.value({"--block"}, "X,Y,Z",
          sass ? "threads per CTA (required: SASS does not record it; CUDA's limits, as for ptx)"
               : "threads per CTA (default: the kernel's .reqntid; required otherwise: .maxntid, i.e.\n"
                 "`__launch_bounds__`, bounds the block and is not its shape; a block over it: exit 2);\n"
                 "CUDA's limits: x, y <= 1024, z <= 64, x*y*z <= 1024 (past them: exit 2)",
          [&a](const std::string& v) {
            if (a.launch.block) throw LayoutError("--block is given twice");
            a.launch.block = parse_dims(v, "--block", kMaxBlockThreads);
            check_block_dims(*a.launch.block, "--block");
          });
  t.value({"--grid"}, "X,Y,Z",
          "%nctaid (x <= 2^31 - 1, y, z <= 65535): the claims are about every CTA of this grid.\n"
          "Without it they are about every CTA of every grid (%ctaid, %nctaid symbols, decided\n"
          "with Z3); the count table is CTA (0,0,0)'s of this grid (default 1,1,1) either way",
          [&a](const std::string& v) {
            a.launch.grid = parse_dims(v, "--grid", i64{1} << 31);
            a.launch.grid_given = true;
            check_grid_dims(a.launch.grid, "--grid");
          });
  t.value({"--cta"}, "X,Y,Z",
          "the CTA of the grid that runs (%ctaid, from 0; each below --grid's): the counts and the\n"
          "verdicts are then about that CTA alone, and say so",
          [&a](const std::string& v) {
            if (a.launch.cta) throw LayoutError("--cta is given twice");
            a.launch.cta = parse_dims(v, "--cta", (i64{1} << 31) - 2, 0);
          });
  t.value({"--cluster"}, "X,Y,Z",
          "the cluster's shape (the launch attribute; at most 16 CTAs): %cluster_ctaid, %cluster_ctarank,\n"
          "... A kernel that reads them without it has them not known (its claims UNKNOWN, saying so)",
          [&a](const std::string& v) {
            if (a.launch.cluster) throw LayoutError("--cluster is given twice");
            a.launch.cluster = parse_dims(v, "--cluster", 16);
          });
  t.value({"--param"}, "I=V", sass ? sass_param_help() : ptx_param_help(), [&a](const std::string& v) { add_param(a, v); });
  t.value({"--assume"}, "EXPR",
          "the claims are about the launches where EXPR holds (repeatable): C-like integer\n"
          "arithmetic and comparisons over pI or a parameter's name (its bits, signed), blockDim.x,\n"
          "gridDim.x, blockIdx.x (.y, .z), smem_bytes; e.g. --assume 'p2 % 8 == 0' --assume\n"
          "'p2 >= 8'. An assumption no launch meets makes every claim ERROR (vacuous)",
          [&a](const std::string& v) { a.launch.assume.push_back({v, "--assume '" + v + "'"}); });
  t.value({"--param-range"}, "I=LO..HI",
          sass ? "the free parameter (or buffer bytes @OFF=LO..HI) takes only the values LO..HI (signed)"
               : "the free parameter I (or NAME) takes only the values LO..HI (signed); every\nverdict names its domain",
          [&a](const std::string& v) { add_param_range(a, v); });
  t.value({"--max-paths"}, "N",
          "the paths one thread may run at once (default 64): each if on a condition over the\n"
          "symbols (a free parameter, %ctaid) doubles them, both sides decided for every launch;\n"
          "past N the thread stops there and its instructions after it are UNKNOWN, saying so",
          [&a](const std::string& v) { a.launch.max_paths = static_cast<std::size_t>(parse_int_in(v, "--max-paths", 1, i64{1} << 20)); });
  t.value({"--smem-bytes"}, "N",
          sass ? "the CTA's shared memory (static and dynamic), for in-bounds: SASS names no\n"
                 "symbols; user data starts after the 1 KiB the driver reserves (window byte 0x400)"
               : "the dynamic (extern __shared__) shared memory's size, for in-bounds",
          [&a](const std::string& v) { a.launch.smem_bytes = parse_int_in(v, "--smem-bytes", 0, kSmemBytes); });
  t.value({"--arch"}, "SM",
          "FILE is a binary (a .cubin, fatbin, executable or .so): the architecture whose code\n"
          "cuobjdump extracts (sm_90; default: every one it holds); without cuobjdump (CUDA's, on\n"
          "PATH or $LAYOUTPROOF_CUOBJDUMP) a binary is exit 2, naming the command to run",
          [&a](const std::string& v) {
            if (v.size() < 5 || v.rfind("sm_", 0) != 0 || v.find_first_not_of("0123456789af", 3) != std::string::npos)
              throw LayoutError("--arch takes an architecture such as sm_90 or sm_90a, not '" + v + "'");
            a.arch = v;
          });
  t.toggle({"--allow-empty"},
           "a launch that executes no shared-memory instruction passes with no claims (by default it\n"
           "is an ERROR: a gate over nothing; an instruction no lane runs is UNKNOWN, NOT RUN)",
           [&a] { a.launch.allow_empty = true; });
  t.value({"--tensor-map"}, "P=SPEC",
          "the tensor map the host encodes for parameter P (index or name; P+OFF for a map at byte\n"
          "OFF of a struct parameter), as layoutproof tensor-map reads it:\n"
          "dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B (repeatable); the\n"
          "operand-contract and tma-aligned claims read it (docs/hopper.md)",
          [&a](const std::string& v) {
            const std::size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0) throw LayoutError("--tensor-map needs P=SPEC (a parameter, then the map), not '" + v + "'");
            a.tensor_maps.push_back(proofs::bind_tensor_map(v.substr(0, eq), hopper::parse_tensor_map_spec(v.substr(eq + 1))));
          });
  t.value({"--tensor-maps"}, "FILE",
          "tensor maps as a capture writes them (JSON lines: kernel, param, dtype, dims, strides, box,\n"
          "...; layoutproof tensor-map --help); each binds its kernel's parameter",
          [&a](const std::string& v) {
            for (const NamedTensorMap& n : read_tensor_maps(v)) {
              if (n.param.empty()) throw LayoutError(n.where + ": a capture line for ptx needs its \"param\"");
              a.tensor_maps.push_back(at_line(n.where, [&] { return proofs::bind_tensor_map(n.param, n.map, n.kernel); }));
            }
          });
  t.value({"--claim"}, "C",
          sass ? "conflict-free | max-ways:K | aligned | in-bounds | no-overlap (repeatable)"
               : "conflict-free | max-ways:K (the bank model `trace` uses) | aligned | in-bounds |\n"
                 "no-overlap (stores: no two lanes of one issue write a common byte with different\n"
                 "data); each claim is decided per instruction, exhaustively over every warp of the\n"
                 "launch (repeatable); operand-contract (wgmma reads what TMA wrote), tma-aligned (TMA\n"
                 "destinations, descriptors' base offsets), descriptor-valid and tensor-map-valid (the maps\n"
                 "and each mbarrier's expect_tx) with --tensor-map (docs/hopper.md)",
          [&a](const std::string& v) { add_claim(a, v); });
  add_deadline_flag(t, a.deadline,
                    "reading and decoding included: a claim not decided by then is UNKNOWN, and a kernel the "
                    "deadline passed before is listed \"not run\", every claim UNKNOWN for it (each kernel is "
                    "printed as it runs, then dropped)");
  add_output_flags(t, a.out,
                   sass ? "DIR/index.html and DIR/report.svg, as ptx --report"
                        : "DIR/index.html (every instruction's counts and verdicts; per refuted claim the\n"
                          "conflicting phase as 32 bank columns and the witness issue's 32 lanes) and\n"
                          "DIR/report.svg (the first refuted claim's figure). DIR is replaced in one step:\n"
                          "a killed run leaves the old report or the new complete one, never a part");
  t.describe("--json", sass ? "as ptx --json (docs/compiled.md), with \"sass_offset\" the /*0230*/ offset" : ptx_json_help());
  t.positional("FILE", [&a, cmd](const std::string& f) {
    if (!a.file.empty()) throw LayoutError(cmd + " takes one FILE, not also '" + f + "'");
    a.file = f;
  });
  return t;
}

// A tensor map bound to a parameter no selected kernel has is bad input (exit 2), never ignored.
void check_tensor_map_params(const compiled::Program& p, const std::vector<PtxKernelLaunch>& launches,
                             const std::vector<proofs::TensorMapBinding>& maps) {
  for (const proofs::TensorMapBinding& b : maps) {
    bool found = false;
    for (const PtxKernelLaunch& k : launches) {
      const compiled::Function& f = p.functions[k.entry];
      if (!proofs::binds_kernel(b, f)) continue;
      for (std::size_t i = 0; i < f.params.size(); ++i) found = found || proofs::binds_param(b, f, i);
    }
    if (!found)
      throw LayoutError("--tensor-map " + b.param + ": no selected kernel" + (b.kernel.empty() ? "" : " named like '" + b.kernel + "'") +
                        " has parameter " + (b.index ? std::to_string(*b.index) : b.name));
  }
}

PtxArgs parse_args(const std::vector<std::string>& args, const std::string& cmd) {
  PtxArgs a;
  ptx_table(a, cmd).parse(args);
  for (PtxClaim& c : a.claims) c.tensor_maps = a.tensor_maps;  // flags in any order
  check_output_paths(a.out, a.file.empty() ? std::vector<std::string>{} : std::vector<std::string>{a.file});
  if (a.file.empty())
    throw LayoutError(cmd == "sass" ? "sass needs a FILE (cuobjdump -sass or nvdisasm -g output; see layoutproof sass --help)"
                                    : "ptx needs a FILE (the PTX nvcc emits: nvcc -ptx -lineinfo; see layoutproof ptx --help)");
  return a;
}

using json = nlohmann::ordered_json;

// A count, or null where it is not known.
json count_json(bool known, i64 v) { return known ? json(v) : json(nullptr); }
// A file offset or an address, or null for none (-1).
json offset_json(i64 v) { return v < 0 ? json(nullptr) : json(v); }

void print_text(const compiled::Program& p, const PtxKernelResult& k, std::ostream& out) {
  const compiled::KernelRun& r = *k.run;
  const compiled::Function& f = p.functions[r.entry];
  out << p.file << ": kernel " << terminal_text(r.name);
  if (compiled::demangle(r.name) != r.name) out << " (" << terminal_text(compiled::demangle(r.name)) << ")";
  out << "\n  launch: block " << dims_text(r.block) << " (" << k.launch.block_from << "); counts: CTA (" << dims_text(r.cta) << ") of grid "
      << dims_text(r.grid) << "; claims: " << proofs::claims_domain_text(k.launch.launch) << "\n";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    out << "  param " << i << " " << f.params[i].name << " = "
        << (k.launch.launch.params[i] ? ptx_param_text(f, i, *k.launch.launch.params[i]) : std::string("free")) << "\n";
  for (const compiled::Placement& pl : r.placements) {
    const compiled::SharedSymbol& s = p.shared[pl.symbol];
    out << "  shared " << terminal_text(s.name) << ": byte " << pl.base << ", "
        << (s.dynamic ? (pl.bytes < 0 ? std::string("dynamic, size not given (--smem-bytes)") : "dynamic, " + std::to_string(pl.bytes) + " bytes")
                      : std::to_string(s.bytes) + " bytes")
        << ", .align " << s.align << "\n";
  }
  char head[160];
  std::snprintf(head, sizeof head, "  %-6s %-22s %9s %11s %7s  %s\n", "line", "CUDA", "executed", "wavefronts", "ideal", "instruction");
  out << head;
  for (const compiled::Site& s : r.sites) {
    char row[200];
    const std::string src = s.source.empty() ? "-" : std::filesystem::path(s.source).filename().string();
    const bool counted = compiled::counts_unknown(r, s).empty(), issued = compiled::executed_unknown(r, s).empty();
    std::snprintf(row, sizeof row, "  %-6u %-22s %9s %11s %7s  ", s.line, terminal_text(src).c_str(),
                  issued ? std::to_string(s.executed).c_str() : "?", counted ? std::to_string(s.wavefronts).c_str() : "?",
                  counted ? std::to_string(s.ideal).c_str() : "?");
    const i64 off = s.sass_offset;
    char at[24] = "";
    if (off >= 0) std::snprintf(at, sizeof at, "/*%04llx*/ ", static_cast<unsigned long long>(off));
    out << row << at << terminal_text(s.text) << "\n";
  }
  for (const compiled::NotCounted& n : r.not_counted) {  // counted by a measured rule (wgmma): a row too
    if (!n.counts) continue;
    char row[200];
    const std::string src = n.source.empty() ? "-" : std::filesystem::path(n.source).filename().string();
    std::snprintf(row, sizeof row, "  %-6u %-22s %9lld %11lld %7lld  ", n.line, terminal_text(src).c_str(), static_cast<long long>((*n.counts)[0]),
                  static_cast<long long>((*n.counts)[1]), static_cast<long long>((*n.counts)[2]));
    out << row << terminal_text(n.text) << "\n";
  }
  const compiled::KernelTotals tt = compiled::kernel_totals(r);
  char tot[200];
  std::snprintf(tot, sizeof tot, "  %-6s %-22s %9s %11s %7s\n", "totals", "", tt.executed_known ? std::to_string(tt.executed).c_str() : "?",
                tt.counts_known ? std::to_string(tt.wavefronts).c_str() : "?", tt.counts_known ? std::to_string(tt.ideal).c_str() : "?");
  out << tot;
  if (!tt.why.empty()) out << "  note: totals not known: " << terminal_text(tt.why) << "\n";
  for (const compiled::Site& s : r.sites) {
    const std::string at = "  note: line " + std::to_string(s.line) + ": ";
    if (!s.unknown.empty() && s.unknown_issues) out << at << s.unknown_issues << " issue(s) with a lane not known: " << terminal_text(s.unknown) << "\n";
    if (!s.symbolic.empty())
      out << at << s.symbolic.size() << " distinct issue(s) whose addresses or guards depend on symbols: not counted ("
          << terminal_text(symbolic_domain(k.launch.launch, r, s)) << ")\n";
    if (!s.invalid.empty()) out << at << "the bank model refused an issue: " << terminal_text(s.invalid) << "\n";
    if (!s.executed_why.empty()) out << at << "executed not known: " << terminal_text(s.executed_why) << "\n";
    if (!s.divergent.empty()) out << at << "divergent: " << s.divergent << "\n";
  }
  if (!r.stopped.empty()) out << "  note: a lane stopped early: " << terminal_text(r.stopped) << "\n";
  for (const compiled::NotCounted& n : r.not_counted) out << "  note: line " << n.line << ": " << terminal_text(n.why) << "\n";
  if (r.sites.empty()) out << "  no shared-memory instruction counted\n";
}

// Every verdict of a kernel, each once: the sites', the not-counted accesses', the kernel's own.
template <class F>
void each_verdict(const PtxKernelResult& k, F&& f) {
  for (const auto& row : k.verdicts)
    for (const PtxClaimResult& v : row) f(v.applicable, v.verdict);
  for (const auto& row : k.not_counted)
    for (const PtxClaimResult& v : row) f(v.applicable, v.verdict);
  for (const auto& v : k.unapplied)
    if (v) f(true, *v);
}

// The distinct warp issues of a site (at most kMaxIssuesShown): where each first ran, how many
// issues had exactly these lanes, and each lane's byte address (-1: inactive).
constexpr std::size_t kMaxIssuesShown = 64;
json issues_json(const compiled::Site& t) {
  json s = json::array();
  for (std::size_t i = 0; i < t.patterns.size() && i < kMaxIssuesShown; ++i)
    s.push_back({{"warp", t.patterns[i].warp}, {"execution", t.patterns[i].execution}, {"count", t.patterns[i].count},
                 {"addrs", t.trace.instructions[i].addr}});
  return s;
}

// The applicable verdicts of one row (a site's, a not-counted access's, the kernel's), one per
// claim: the view's copy of the verdicts the results hold (claim_json, cli/output/results.hpp).
json verdicts_json(const PtxArgs& a, const std::vector<PtxClaimResult>& row, const AddressTrace* trace) {
  json s = json::array();
  for (std::size_t c = 0; c < a.claims.size() && c < row.size(); ++c) {
    const PtxClaimResult& v = row[c];
    if (!v.applicable) continue;
    // A REFUTED over every launch has no trace of its own (its issue is the re-run launch's): its
    // witness is the launch's symbol values and the flags that replay it.
    const json w = v.witness && trace                                           ? witness_json(*v.witness, trace)
                   : v.verdict.is_refuted() && !v.verdict.witness.points.empty() ? json(witness_json(v.verdict.witness))
                                                                                  : json();
    s.push_back(claim_json(a.claims[c].text, v.verdict, w));
  }
  return s;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// One kernel's view, as JSON text (ptx --json's "kernels" holds one per kernel, each written as
// its kernel ran: a library's kernels are not held at once).
std::string kernel_json(const compiled::Program& p, const PtxKernelResult& k, const PtxArgs& a) {
  const compiled::KernelRun& r = *k.run;
  json instructions = json::array();
  for (std::size_t si = 0; si < r.sites.size(); ++si) {
    const compiled::Site& t = r.sites[si];
    json one = {{"line", t.line}, {"sass_offset", offset_json(t.sass_offset)}, {"source", t.source}};
    if (!t.inlined.empty()) one["inlined_from"] = t.inlined;
    const std::string issued = compiled::executed_unknown(r, t);
    one["text"] = t.text, one["op"] = t.op, one["width_bytes"] = t.width_bytes, one["executed"] = count_json(issued.empty(), t.executed);
    if (!issued.empty()) one["executed_unknown"] = issued;
    const std::string why = compiled::counts_unknown(r, t);
    one["wavefronts"] = count_json(why.empty(), t.wavefronts), one["ideal"] = count_json(why.empty(), t.ideal);
    if (!why.empty()) one["counts_unknown"] = why;
    one["issues"] = issues_json(t), one["verdicts"] = verdicts_json(a, k.verdicts[si], &t.trace);
    instructions.push_back(std::move(one));
  }
  json not_counted = json::array();
  for (std::size_t ni = 0; ni < r.not_counted.size(); ++ni) {
    const compiled::NotCounted& n = r.not_counted[ni];
    json one = {{"line", n.line}, {"sass_offset", offset_json(n.sass_offset)}, {"source", n.source}};
    if (!n.inlined.empty()) one["inlined_from"] = n.inlined;
    one["text"] = n.text, one["why"] = n.why, one["verdicts"] = verdicts_json(a, k.not_counted[ni], nullptr);
    if (n.counts) one["executed"] = (*n.counts)[0], one["wavefronts"] = (*n.counts)[1], one["ideal"] = (*n.counts)[2];  // a measured rule's (wgmma)
    not_counted.push_back(std::move(one));
  }
  std::vector<PtxClaimResult> unapplied;
  for (const auto& v : k.unapplied) unapplied.push_back({v.has_value(), v.value_or(Verdict{}), std::nullopt});
  const compiled::KernelTotals tt = compiled::kernel_totals(r);
  json j = {{"name", r.name},
            {"demangled", compiled::demangle(r.name)},
            {"block", r.block},
            {"grid", r.grid},
            {"cta", r.cta},
            {"claims_domain", proofs::claims_domain_text(k.launch.launch)},
            {"instructions", std::move(instructions)},
            {"not_counted", std::move(not_counted)},
            {"totals", {{"executed", count_json(tt.executed_known, tt.executed)}, {"wavefronts", count_json(tt.counts_known, tt.wavefronts)}, {"ideal", count_json(tt.counts_known, tt.ideal)}}},
            {"stopped", r.stopped.empty() ? json(nullptr) : json(r.stopped)},
            {"unapplied", verdicts_json(a, unapplied, nullptr)}};
  if (!tt.why.empty()) j["totals_unknown"] = tt.why;
  return dump(j);
}

// A kernel the deadline passed before: its name and every claim UNKNOWN for the kernel.
void print_not_run(const compiled::Program& p, const PtxKernelResult& k, std::ostream& out) {
  const std::string& name = p.functions[k.launch.entry].name;
  out << p.file << ": kernel " << terminal_text(name);
  if (compiled::demangle(name) != name) out << " (" << terminal_text(compiled::demangle(name)) << ")";
  out << "\n  not run: " << terminal_text(k.not_run) << "\n";
}

std::string not_run_json(const compiled::Program& p, const PtxKernelResult& k, const PtxArgs& a) {
  const std::string& name = p.functions[k.launch.entry].name;
  std::vector<PtxClaimResult> unapplied;
  for (const auto& v : k.unapplied) unapplied.push_back({true, *v, std::nullopt});
  const json j = {{"name", name},
                  {"demangled", compiled::demangle(name)},
                  {"block", k.launch.launch.block},
                  {"grid", k.launch.launch.grid},
                  {"instructions", json::array()},
                  {"not_counted", json::array()},
                  {"totals", {{"executed", nullptr}, {"wavefronts", nullptr}, {"ideal", nullptr}}},
                  {"totals_unknown", "not run: " + k.not_run},
                  {"stopped", nullptr},
                  {"not_run", k.not_run},
                  {"unapplied", verdicts_json(a, unapplied, nullptr)}};
  return dump(j);
}

// The run's tally, kept as each kernel's result is printed (the results themselves are not).
struct Tally {
  i64 applicable = 0, refuted = 0, other = 0;
  bool incomplete = false;  // counts alone: a lane stopped, an access is not counted, a kernel did not run
  void add(const PtxKernelResult& k) {
    incomplete = incomplete || !k.run || !k.run->stopped.empty() || !k.run->not_counted.empty();
    each_verdict(k, [&](bool is_applicable, const Verdict& v) {
      if (!is_applicable) return;
      ++applicable;
      if (v.is_refuted()) ++refuted;
      else if (!v.is_proved()) ++other;
    });
  }
};

// One kernel: decoded (with its callees) and run, unless the deadline passed before it or while it
// was decoded.
PtxKernelResult run_one(compiled::Program& p, const PtxKernelLaunch& k, const PtxArgs& a, const ProveOptions& o) {
  const auto why = [&](const std::string& when) { return o.smt.deadline.reason() + " " + when; };
  if (o.smt.deadline.passed()) return skipped_ptx_kernel(k, a.claims, why("before this kernel ran"));
  try {
    compiled::decode_with_callees(p, k.entry, o.smt.deadline.at);
  } catch (const compiled::DeadlineReached& e) {
    return skipped_ptx_kernel(k, a.claims, why(e.what()));
  }
  return run_ptx_kernel(p, k, a.claims, o);
}

// The deadline passed while the file was read: no kernel is known, the run decided nothing.
// Every claim UNKNOWN for the file.
int deadline_while_reading(const PtxArgs& a, const std::string& why, std::ostream& out) {
  if (!a.out.json_stdout) out << a.file << ": not run: " << terminal_text(why) << " (no kernel ran)\n";
  const auto entry = std::make_shared<CompiledEntry>();
  entry->file = a.file;
  entry->claims = a.claims;
  std::vector<CheckResult> results;
  for (const PtxClaim& c : a.claims) {
    Check check;
    check.name = a.file;
    check.subject = proofs::CompiledSubject{entry, ""};
    check.claim = {c.text, c};
    results.push_back({std::move(check), Verdict::unknown("deadline", why), {}});
  }
  ResultView view;
  view.source = a.file;
  view.one_subject = true;
  view.json_extra = {{"file", a.file}, {"kernels", nlohmann::ordered_json::array()}, {"stopped", why}};
  view.incomplete = true;
  return emit(out, results, a.out, view);
}

}  // namespace

FlagTable compiled_flags(compiled::CompiledFormat format) {
  auto a = std::make_shared<PtxArgs>();
  FlagTable t = ptx_table(*a, format == compiled::CompiledFormat::sass ? "sass" : "ptx");
  t.keep(a);
  return t;
}

int run_compiled_command(const std::vector<std::string>& args, std::ostream& out, compiled::CompiledFormat format) {
  const char* const name = format == compiled::CompiledFormat::sass ? "sass" : "ptx";
  for (const auto& x : args)
    if (x == "--help" || x == "-h") {
      out << *help_text(name);
      return 0;
    }
  PtxArgs a = parse_args(args, name);
  a.command = command_line(std::string("layoutproof ") + name, args);
  check_output_paths(a.out, {a.file});
  if (!a.out.report_dir.empty()) check_report_folder(a.out.report_dir);
  ProveOptions o;
  o.smt.deadline = a.deadline;
  std::optional<compiled::Program> read;
  try {
    read = compiled::read_compiled_file(a.file, format, a.deadline.at, a.arch);
  } catch (const compiled::DeadlineReached& e) {
    return deadline_while_reading(a, a.deadline.reason() + " " + e.what(), out);
  }
  compiled::Program& p = *read;
  const std::vector<PtxKernelLaunch> launches = plan_ptx_launches(p, a.kernel, a.launch);
  check_tensor_map_params(p, launches, a.tensor_maps);
  // Each kernel's view is printed as soon as it ran and then dropped, unless the report needs
  // them all; its results are kept for emit (a REFUTED one with a copy of its instruction's issues).
  const auto entry = std::make_shared<CompiledEntry>();
  entry->file = a.file;
  entry->claims = a.claims;
  entry->claim_where.resize(a.claims.size());
  Check check;
  check.name = a.file;
  check.subject = proofs::CompiledSubject{entry, ""};
  std::vector<PtxKernelResult> kept;
  std::vector<CheckResult> results;
  std::string kernels_json;
  Tally t;
  const bool json = a.out.json_stdout || !a.out.json_file.empty();
  for (std::size_t i = 0; i < launches.size(); ++i) {
    PtxKernelResult k = run_one(p, launches[i], a, o);
    t.add(k);
    if (json) kernels_json += (i ? "," : "") + (k.run ? kernel_json(p, k, a) : not_run_json(p, k, a));
    if (!a.out.json_stdout) k.run ? print_text(p, k, out) : print_not_run(p, k, out);
    for (auto& r : compiled_kernel_results(check, compiled::demangle(p.functions[k.launch.entry].name), k)) {
      r.check.origin.command.clear();  // the command line itself decides each of them
      results.push_back(std::move(r));
    }
    if (!a.out.report_dir.empty()) kept.push_back(std::move(k));
  }
  ResultView view;
  view.source = a.file;
  view.one_subject = true;
  view.incomplete = t.incomplete;
  view.json_extra = {{"file", a.file}};
  if (json) view.json_raw.push_back({"kernels", "[" + kernels_json + "]"});
  view.report = [&](const std::string& dir) { write_compiled_report(dir, {a.command, &p, &kept, &a.claims}); };
  return emit(out, results, a.out, view);
}

}  // namespace layoutproof::cli
