// The compiled-kernel executor agrees with the layout model on nvcc's own code. For random
// shared-memory copies, a CUDA kernel is GENERATED whose every (thread, value) address is computed
// by C++ expressions implementing the layout function (crd2idx over the layout's shape and stride,
// then CuTe's swizzle bit operations), written from the model's layout values by the small emitter
// below; nvcc compiles it to PTX, compiled::run_kernel runs it in-process, and each shared-memory
// instruction's issues must be exactly the addresses the model computes directly (evaluate), and,
// for a make_tiled_copy, exactly `trace`'s instructions.
//
// Every access is one `ld/st.volatile.shared` of the value's width written as inline PTX through
// `asm volatile`: nvcc neither fuses, reorders nor drops them, so the k-th access of the kernel is
// the k-th shared-memory site of its PTX, and nothing is fused (trace_copy's unfused trace is the
// right comparison). The address arithmetic (64-bit div/rem by constants, shifts, xor, and) is
// whatever nvcc makes of it: that is what the executor is tested on.
//
// nvcc: $LAYOUTPROOF_NVCC, else the one CMake found (LAYOUTPROOF_NVCC_PATH), else
// /usr/local/cuda/bin/nvcc. Without it each property is skipped with a "SKIPPED: nvcc not found"
// line (scripts/test.sh prints it at the end of the run, so a run that tested nothing here says so).
// Each property case compiles one file of several kernels (nvcc starts in about 1 s).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/source/kernel_expr.hpp"
#include "model/trace/tv.hpp"
#include "properties/check.hpp"
#include "properties/generators.hpp"
#include "properties/kernels.hpp"

#ifndef LAYOUTPROOF_NVCC_PATH
#define LAYOUTPROOF_NVCC_PATH "/usr/local/cuda/bin/nvcc"
#endif

namespace layoutproof {
namespace {

// ---- nvcc -------------------------------------------------------------------------------------

std::string nvcc_path() {
  const char* e = std::getenv("LAYOUTPROOF_NVCC");
  return (e && *e) ? e : LAYOUTPROOF_NVCC_PATH;
}
bool nvcc_available() { return ::access(nvcc_path().c_str(), X_OK) == 0; }

// Whether the properties can run: nvcc present. Absent, the test is skipped with its reason on a line
// of its own, which CTest reports as skipped and scripts/test.sh lists at the end of the run.
#define LP_NVCC_PROP(Suite, Name, Cases)                                                                 \
  void lp_prop_##Suite##_##Name();                                                                    \
  TEST(Suite, Name) {                                                                                 \
    if (!nvcc_available())                                                                            \
      GTEST_SKIP() << "\nSKIPPED: nvcc not found at " << nvcc_path()                                  \
                   << " (the CUDA toolkit; point LAYOUTPROOF_NVCC at nvcc): this property compiles CUDA to PTX"; \
    ::layoutproof::props::check_property(#Suite, #Name, Cases, &lp_prop_##Suite##_##Name);             \
  }                                                                                                   \
  void lp_prop_##Suite##_##Name()

// nvcc -arch=sm_90 -ptx on `cu`; the PTX text. A compile error is a bug of the emitter: it fails
// the case with nvcc's message.
std::string compile_ptx(const std::string& cu) {
  namespace fs = std::filesystem;
  std::string dir_template = (fs::temp_directory_path() / "lp_compiled_copy_XXXXXX").string();
  RC_ASSERT(::mkdtemp(dir_template.data()) != nullptr);
  const fs::path dir = dir_template;
  std::ofstream(dir / "k.cu") << cu;
  const std::string cmd = "'" + nvcc_path() + "' -arch=sm_90 -ptx -o '" + (dir / "k.ptx").string() + "' '" +
                          (dir / "k.cu").string() + "' > '" + (dir / "err.txt").string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  std::stringstream ptx, err;
  ptx << std::ifstream(dir / "k.ptx").rdbuf();
  err << std::ifstream(dir / "err.txt").rdbuf();
  fs::remove_all(dir);
  if (rc != 0) RC_FAIL("nvcc failed (the emitter wrote bad CUDA):\n" + err.str() + "\n" + cu);
  return ptx.str();
}

// ---- the emitter: a layout's function as C++ text ---------------------------------------------

std::string ll(i64 v) { return "(" + std::to_string(v) + "LL)"; }

// crd2idx of one (possibly nested) mode at the 1-D colexicographic index expression x:
//   sum_k ((x / p_k) % s_k) * d_k,  p_k = s_0 * ... * s_{k-1}
// over the mode's leaves (s_k, d_k). Example: (4,(2,8)):(3,(1,40)) at x:
//   ((x / 1) % 4) * 3 + ((x / 4) % 2) * 1 + ((x / 8) % 8) * 40.
std::string emit_mode(const Layout& mode, const std::string& x) {
  const std::vector<i64> s = leaves(mode.shape), d = leaves(mode.stride);
  std::string e = "(0LL";
  i64 p = 1;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s[k] != 1 && d[k] != 0) e += " + ((" + x + " / " + ll(p) + ") % " + ll(s[k]) + ") * " + ll(d[k]);
    p = checked_mul(p, s[k]);
  }
  return e + ")";
}

// CuTe's Swizzle<B,M,S>(y) = y ^ shiftr(y & yyy_msk, S), yyy_msk = ((1 << B) - 1) << (M + max(0, S)),
// shiftr by a negative S shifting left (cute/swizzle.hpp).
std::string emit_swizzle(const Swizzle& sw, const std::string& y) {
  const i64 yyy = ((i64{1} << sw.B) - 1) << (sw.M + std::max(0, sw.S));
  const std::string shift = sw.S >= 0 ? " >> " + std::to_string(sw.S) : " << " + std::to_string(-sw.S);
  return "((" + y + ") ^ (((" + y + ") & " + ll(yyy) + ")" + shift + "))";
}

// The smem layout at per-top-level-mode index expressions: Sw(OFF + sum_m mode_m(x_m)).
std::string emit_smem(const AnyLayout& l, const std::vector<std::string>& x) {
  std::string e = "(" + ll(l.offset);
  if (x.size() == 1) {
    e += " + " + emit_mode(l.layout, x[0]);
  } else {
    for (std::size_t m = 0; m < x.size(); ++m) e += " + " + emit_mode(l.layout.mode(m), x[m]);
  }
  e += ")";
  return l.swizzle ? emit_swizzle(*l.swizzle, e) : e;
}

// One volatile shared access of `width` bytes at the 32-bit shared address expression `a`.
std::string emit_access(bool store, int width, const std::string& a) {
  const std::string suffix = width == 2 ? "b16" : width == 4 ? "b32" : width == 8 ? "v2.b32" : "v4.b32";
  const std::string reg = width == 2 ? "h" : "r";
  const std::string dummy = width == 2 ? "(unsigned short)t" : "(unsigned)t";
  const std::string inner = width == 2 || width == 4 ? "%0" : width == 8 ? "{%0, %1}" : "{%0, %1, %2, %3}";
  const int n = width <= 4 ? 1 : width / 4;
  std::string s;
  if (store) {
    const std::string vals = width <= 4 ? "%1" : width == 8 ? "{%1, %2}" : "{%1, %2, %3, %4}";
    s = "asm volatile(\"st.volatile.shared." + suffix + " [%0], " + vals + ";\" :: \"r\"(" + a + ")";
    for (int i = 0; i < n; ++i) s += ", \"" + reg + "\"(" + dummy + ")";
    return s + " : \"memory\");";
  }
  std::string outs;
  for (int i = 0; i < n; ++i) outs += std::string(i ? ", " : "") + "\"=" + reg + "\"(o" + std::to_string(i) + ")";
  s = std::string(width == 2 ? "unsigned short" : "unsigned") + " o0, o1, o2, o3; (void)o1; (void)o2; (void)o3; ";
  return s + "asm volatile(\"ld.volatile.shared." + suffix + " " + inner + ", [%" + std::to_string(n) + "];\" : " +
         outs + " : \"r\"(" + a + ") : \"memory\");";
}

// A kernel lp_kN of `threads` threads with a static shared array of `bytes` bytes; `accesses` are
// the bodies, in order, with `t` (the thread index) and `s` (the array's shared address) in scope.
std::string emit_kernel(int n, i64 bytes, const std::vector<std::string>& accesses) {
  std::string k = "extern \"C\" __global__ void lp_k" + std::to_string(n) + "() {\n"
                  "  __shared__ __align__(16) unsigned char sm[" + std::to_string(bytes) + "];\n"
                  "  const unsigned s = (unsigned)__cvta_generic_to_shared(sm);\n"
                  "  const long long t = threadIdx.x;\n";
  for (const std::string& a : accesses) k += "  { " + a + " }\n";
  return k + "}\n";
}

// ---- running and comparing --------------------------------------------------------------------

compiled::KernelRun run_entry(compiled::Program& p, int n, i64 threads) {
  const std::string name = "lp_k" + std::to_string(n);
  for (std::size_t f = 0; f < p.functions.size(); ++f) {
    if (!p.functions[f].is_entry || p.functions[f].name != name) continue;
    compiled::decode_with_callees(p, f);
    compiled::Launch l;
    l.block = {threads, 1, 1};
    return compiled::run_kernel(p, f, l);
  }
  RC_FAIL("no entry " + name + " in nvcc's PTX");
}

std::string lanes_text(const std::array<i64, kWarpLanes>& a) {
  std::string s;
  for (int l = 0; l < kWarpLanes; ++l) s += (l ? "," : "") + std::to_string(a[static_cast<std::size_t>(l)]);
  return s;
}

// Site `site` holds, for every warp w, exactly one issue with the lanes want[w] (issues with equal
// lanes are one distinct issue of several counts), of `width` bytes, all known, none divergent.
void expect_site(const compiled::Site& site, bool store, int width, const std::vector<std::array<i64, kWarpLanes>>& want,
                 const std::string& what) {
  RC_LOG() << what << ": PTX line " << site.line << ": " << site.text << "\n";
  RC_ASSERT(site.unknown.empty());
  RC_ASSERT(site.divergent.empty());
  // site.invalid may be set: a padded row can leave a vector access misaligned, which CuTe compiles
  // (alignment is the `aligned` claim's business); its addresses are compared all the same.
  RC_ASSERT(site.op == std::string(store ? "st" : "ld"));
  RC_ASSERT(site.width_bytes == width);
  RC_ASSERT(site.executed == static_cast<i64>(want.size()));
  RC_ASSERT(site.trace.instructions.size() == site.patterns.size());
  std::map<std::array<i64, kWarpLanes>, i64> expected, got;
  for (const auto& w : want) ++expected[w];
  for (std::size_t i = 0; i < site.patterns.size(); ++i) {
    const auto& addr = site.trace.instructions[i].addr;
    got[addr] += site.patterns[i].count;
    // The first occurrence's warp is the warp whose lanes these are.
    const auto w = static_cast<std::size_t>(site.patterns[i].warp);
    RC_ASSERT(w < want.size());
    if (addr != want[w]) RC_FAIL(what + ": warp " + std::to_string(w) + " issued [" + lanes_text(addr) + "], the model says [" +
                                 lanes_text(want[w]) + "]");
  }
  RC_ASSERT(got == expected);
}

// ---- property 1: random swizzled smem layouts, random thread-value maps -----------------------

// A thread-value map: tv(t, v) for t < threads, v < values, into the smem layout's domain
// [0, size). Its thread and value modes are split into leaves; strides are drawn in a random order
// from what is left of size - 1, so tv's image stays inside the domain (0 strides: broadcasts).
struct LaneMap {
  AnyLayout smem;
  Layout tv;       // ((thread leaves), (value leaves))
  i64 threads = 0, values = 0;
  int width = 4;   // bytes per value: one ld/st of this width
  bool store = false;
  i64 base = 0;    // byte address of smem element 0
};

std::vector<i64> split_leaves(i64 n) {
  std::vector<i64> out;
  while (n > 1 && out.size() < 2 && *rc::gen::arbitrary<bool>()) {
    std::vector<i64> ds;
    for (i64 d = 2; d < n; ++d)
      if (n % d == 0) ds.push_back(d);
    if (ds.empty()) break;
    const i64 d = *rc::gen::elementOf(ds);
    out.push_back(d);
    n /= d;
  }
  out.push_back(n);
  return out;
}

rc::Gen<LaneMap> lane_maps() {
  return rc::gen::exec([] {
    LaneMap c;
    const Swizzle sw = *gen::swizzles();
    const Layout inner = *gen::layouts(gen::compact | gen::padded | gen::permuted | gen::broadcast, 4, 1024);
    c.smem = *rc::gen::arbitrary<bool>() ? AnyLayout(sw, *rc::gen::inRange<i64>(0, i64{1} << (sw.span_bits() + 1)), inner)
                                         : AnyLayout(inner);
    c.threads = *rc::gen::element<i64>(32, 64, 128, 96, 48, 100);
    c.values = *rc::gen::inRange<i64>(1, 7);
    c.width = *rc::gen::element(4, 2, 8, 16);
    c.store = *rc::gen::arbitrary<bool>();
    c.base = 16 * *rc::gen::inRange<i64>(0, 8);
    const std::vector<i64> ts = split_leaves(c.threads), vs = split_leaves(c.values);
    std::vector<i64> all = ts;
    all.insert(all.end(), vs.begin(), vs.end());
    std::vector<i64> stride(all.size(), 0);
    i64 left = size(inner) - 1;
    for (int k : gen::draw_order(static_cast<int>(all.size()), true)) {
      const i64 s = all[static_cast<std::size_t>(k)];
      if (s == 1 || left < s - 1) continue;
      const i64 d = *rc::gen::inRange<i64>(0, left / (s - 1) + 1);
      stride[static_cast<std::size_t>(k)] = d;
      left -= d * (s - 1);
    }
    std::vector<IntTuple> tsh, tst, vsh, vst;
    for (std::size_t k = 0; k < all.size(); ++k) {
      (k < ts.size() ? tsh : vsh).emplace_back(all[k]);
      (k < ts.size() ? tst : vst).emplace_back(stride[k]);
    }
    c.tv = Layout(IntTuple::tuple({IntTuple::tuple(tsh), IntTuple::tuple(vsh)}),
                  IntTuple::tuple({IntTuple::tuple(tst), IntTuple::tuple(vst)}));
    return c;
  });
}

void showValue(const LaneMap& c, std::ostream& os) {
  os << (c.store ? "st" : "ld") << "." << 8 * c.width << " of smem " << to_string(c.smem) << " at base " << c.base
     << ", tv " << to_string(c.tv) << " (" << c.threads << " threads x " << c.values << " values)";
}

// The element index the model gives (thread t, value v) and its byte address.
i64 model_address(const LaneMap& c, i64 t, i64 v) {
  const i64 idx = evaluate(c.tv, IntTuple::tuple({IntTuple(t), IntTuple(v)}));
  return checked_add(c.base, checked_mul(c.width, evaluate(c.smem, IntTuple(idx))));
}


// ---- property 2: make_tiled_copy over the kernel generators' smem tensors, against `trace` ------

// make_tiled_copy(Copy_Atom<UniversalCopy<uintB_t>, T>{}, thr, val) with compact thr and val
// layouts (column- or row-major), over an smem tensor (M, N[, stages]) of properties/kernels.hpp's
// draw_smem (padded, K- or MN-major, sometimes swizzled). One atom per thread per tile, so each
// thread issues one B-bit access per (rest M, rest N, stage).
struct TiledCase {
  std::string copy, element, smem;
  int element_bytes = 2, width = 4;
  Layout thr, val;
  std::vector<i64> shape;  // the smem tensor's extents
  bool store = false;
  i64 base = 0;
};

Layout compact_2d(i64 m, i64 n, bool row_major) { return row_major ? Layout::concat({Layout(m, n), Layout(n, 1)}) : Layout::concat({Layout(m, 1), Layout(n, m)}); }

rc::Gen<TiledCase> tiled_cases() {
  return rc::gen::exec([] {
    TiledCase c;
    struct El {
      const char* name;
      int bytes;
    };
    const El el = *rc::gen::element(El{"half_t", 2}, El{"float", 4}, El{"int8_t", 1}, El{"double", 8});
    const int bits = std::max(8 * el.bytes, *rc::gen::element(128, 64, 32));
    c.element = el.name;
    c.element_bytes = el.bytes;
    c.width = bits / 8;
    const auto [tm, tn] = gen::split_pow2(*rc::gen::element<i64>(32, 64, 128));
    const auto [vm, vn] = gen::split_pow2(bits / (8 * el.bytes));
    const bool thr_row = *rc::gen::arbitrary<bool>(), val_row = *rc::gen::arbitrary<bool>();
    c.thr = compact_2d(tm, tn, thr_row);
    c.val = compact_2d(vm, vn, val_row);
    c.copy = "make_tiled_copy(Copy_Atom<UniversalCopy<uint" + std::to_string(bits) + "_t>, " + el.name + ">{}, " +
             gen::cute_layout_cpp(tm, tn, thr_row) + ", " + gen::cute_layout_cpp(vm, vn, val_row) + ")";
    c.shape = {tm * vm * *rc::gen::element<i64>(1, 2), tn * vn * *rc::gen::element<i64>(1, 2)};
    if (*rc::gen::arbitrary<bool>()) c.shape.push_back(2);
    c.smem = gen::draw_smem(c.shape);
    c.store = *rc::gen::arbitrary<bool>();
    c.base = 128 * *rc::gen::inRange<i64>(0, 4);
    return c;
  });
}

void showValue(const TiledCase& c, std::ostream& os) {
  os << "layoutproof trace --side " << (c.store ? "D" : "S") << " --element " << c.element << " --smem '" << c.smem
     << "' --copy '" << c.copy << "'" << (c.base ? " --base " + std::to_string(c.base) : "");
}

// Thread t's coordinate in a compact layout l (the inverse of l at t): i_k = (t / d_k) % s_k.
std::string emit_inverse_coord(const Layout& l, int k, const std::string& t) {
  const Layout m = l.mode(static_cast<std::size_t>(k));
  return "((" + t + " / " + ll(m.stride.value()) + ") % " + ll(m.shape.value()) + ")";
}

}  // namespace

LP_NVCC_PROP(CompiledCopy, RandomLayoutLaneAddressesAreTheModels, 20) {
  const auto cases = *rc::gen::container<std::vector<LaneMap>>(4, lane_maps()).as("kernels");
  std::string cu;
  std::vector<i64> bytes(cases.size());
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const LaneMap& c = cases[n];
    i64 top = 0;
    for (i64 t = 0; t < c.threads; ++t)
      for (i64 v = 0; v < c.values; ++v) top = std::max(top, model_address(c, t, v) + c.width);
    RC_PRE(top <= 200 * 1024);  // a static shared array of at most 200 KiB
    std::vector<std::string> acc;
    for (i64 v = 0; v < c.values; ++v) {
      const std::string idx = "(" + emit_mode(c.tv.mode(0), "t") + " + " + emit_mode(c.tv.mode(1), ll(v)) + ")";
      const std::string y = emit_smem(c.smem, {"i"});
      acc.push_back("const long long i = " + idx + "; const long long y = " + y + "; const unsigned a = s + (unsigned)(" +
                    ll(c.base) + " + " + ll(c.width) + " * y); " + emit_access(c.store, c.width, "a"));
    }
    cu += emit_kernel(static_cast<int>(n), top, acc);
  }
  compiled::Program p = compiled::parse_ptx(compile_ptx(cu), "lp_compiled_copy.ptx");
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const LaneMap& c = cases[n];
    const compiled::KernelRun run = run_entry(p, static_cast<int>(n), c.threads);
    RC_ASSERT(run.stopped.empty());
    RC_ASSERT(static_cast<i64>(run.sites.size()) == c.values);
    const i64 warps = (c.threads + kWarpLanes - 1) / kWarpLanes;
    for (i64 v = 0; v < c.values; ++v) {
      std::vector<std::array<i64, kWarpLanes>> want(static_cast<std::size_t>(warps));
      for (i64 w = 0; w < warps; ++w)
        for (int l = 0; l < kWarpLanes; ++l) {
          const i64 t = kWarpLanes * w + l;
          want[static_cast<std::size_t>(w)][static_cast<std::size_t>(l)] = t < c.threads ? model_address(c, t, v) : -1;
        }
      expect_site(run.sites[static_cast<std::size_t>(v)], c.store, c.width, want,
                  "kernel " + std::to_string(n) + " value " + std::to_string(v));
    }
  }
  RC_TAG(cases.front().smem.is_swizzled() ? "swizzled" : "plain");
}

// Every thread's access of tile rest coordinate (cm, cn) and stage st is at
//   base + bytes * smem(vm * i + Tm * cm, vn * j + Tn * cn, st),   (i, j) = thr^-1(t)
// (make_tiled_copy's raked product: a thread's values are contiguous, its first value at
// (vm * i, vn * j) of the (Tm, Tn) = (tm * vm, tn * vn) tile), and `trace` issues exactly these.
LP_NVCC_PROP(CompiledCopy, TiledCopyLaneAddressesAreTraces, 16) {
  const auto cases = *rc::gen::container<std::vector<TiledCase>>(4, tiled_cases()).as("copies");
  std::string cu;
  std::vector<AddressTrace> traces;
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const TiledCase& c = cases[n];
    const AnyLayout smem = parse_smem_layout(c.smem);
    TraceOptions o;
    o.base_address = c.base;
    try {
      traces.push_back(trace_copy(parse_tiled_copy(c.copy), smem, c.store ? CopySide::D : CopySide::S, o));
    } catch (const LayoutError& e) {
      if (std::string(e.what()).find("a compile error in CuTe") == std::string::npos) throw;
      RC_DISCARD("CuTe refuses this copy at compile time");
    }
    RC_ASSERT(traces.back().width_bytes == c.width);
    const i64 vm = size(c.val.mode(0)), vn = size(c.val.mode(1));
    const i64 tile_m = size(c.thr.mode(0)) * vm, tile_n = size(c.thr.mode(1)) * vn;
    const i64 stages = c.shape.size() > 2 ? c.shape[2] : 1;
    i64 top = 0;
    std::vector<std::string> acc;
    for (i64 st = 0; st < stages; ++st)
      for (i64 cn = 0; cn < c.shape[1] / tile_n; ++cn)
        for (i64 cm = 0; cm < c.shape[0] / tile_m; ++cm) {
          std::vector<std::string> x = {"(" + ll(vm) + " * " + emit_inverse_coord(c.thr, 0, "t") + " + " + ll(tile_m * cm) + ")",
                                        "(" + ll(vn) + " * " + emit_inverse_coord(c.thr, 1, "t") + " + " + ll(tile_n * cn) + ")"};
          if (c.shape.size() > 2) x.push_back(ll(st));
          acc.push_back("const long long y = " + emit_smem(smem, x) + "; const unsigned a = s + (unsigned)(" + ll(c.base) +
                        " + " + ll(c.element_bytes) + " * y); " + emit_access(c.store, c.width, "a"));
        }
    for (const TraceInstruction& in : traces.back().instructions)
      for (i64 a : in.addr) top = std::max(top, a + c.width);
    cu += emit_kernel(static_cast<int>(n), top, acc);
  }
  compiled::Program p = compiled::parse_ptx(compile_ptx(cu), "lp_compiled_copy.ptx");
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const TiledCase& c = cases[n];
    const AddressTrace& tr = traces[n];
    const AnyLayout smem = parse_smem_layout(c.smem);
    const compiled::KernelRun run = run_entry(p, static_cast<int>(n), tr.threads);
    RC_ASSERT(run.stopped.empty());
    const i64 warps = (tr.threads + kWarpLanes - 1) / kWarpLanes;
    RC_ASSERT(static_cast<i64>(tr.instructions.size()) == warps * static_cast<i64>(run.sites.size()));
    // trace's instructions by (copy coordinate, warp); the kernel's k-th access is rest coordinate k.
    std::map<std::vector<i64>, std::vector<std::array<i64, kWarpLanes>>> by_coord;
    for (const TraceInstruction& in : tr.instructions) {
      RC_ASSERT(in.copy_coord.at(0) == 0);  // one atom per thread per tile: rest value 0
      auto& v = by_coord[std::vector<i64>(in.copy_coord.begin() + 1, in.copy_coord.end())];
      v.resize(static_cast<std::size_t>(warps));
      v[static_cast<std::size_t>(in.warp)] = in.addr;
    }
    const i64 vm = size(c.val.mode(0)), vn = size(c.val.mode(1));
    const i64 tile_m = size(c.thr.mode(0)) * vm, tile_n = size(c.thr.mode(1)) * vn;
    std::size_t k = 0;
    for (i64 st = 0; st < (c.shape.size() > 2 ? c.shape[2] : 1); ++st)
      for (i64 cn = 0; cn < c.shape[1] / tile_n; ++cn)
        for (i64 cm = 0; cm < c.shape[0] / tile_m; ++cm, ++k) {
          std::vector<i64> coord = {cm, cn};
          if (c.shape.size() > 2) coord.push_back(st);
          RC_ASSERT(by_coord.count(coord) == 1u);
          const auto& want = by_coord[coord];
          // The model directly: the smem layout at each thread's first element.
          for (i64 w = 0; w < warps; ++w)
            for (int l = 0; l < kWarpLanes; ++l) {
              const i64 t = kWarpLanes * w + l;
              i64 direct = -1;
              if (t < tr.threads) {
                i64 i = -1, j = -1;
                for (i64 a = 0; a < size(c.thr.mode(0)); ++a)
                  for (i64 b = 0; b < size(c.thr.mode(1)); ++b)
                    if (evaluate(c.thr, IntTuple::tuple({IntTuple(a), IntTuple(b)})) == t) i = a, j = b;
                std::vector<IntTuple> crd = {IntTuple(vm * i + tile_m * cm), IntTuple(vn * j + tile_n * cn)};
                if (c.shape.size() > 2) crd.emplace_back(st);
                direct = checked_add(c.base, checked_mul(c.element_bytes, evaluate(smem, IntTuple::tuple(crd))));
              }
              RC_ASSERT(want[static_cast<std::size_t>(w)][static_cast<std::size_t>(l)] == direct);
            }
          expect_site(run.sites.at(k), c.store, c.width, want, "copy " + std::to_string(n) + " access " + std::to_string(k));
        }
    RC_ASSERT(k == run.sites.size());
  }
  RC_TAG(cases.front().smem.find("Sw<") == std::string::npos ? "plain" : "swizzled");
}

}  // namespace layoutproof
