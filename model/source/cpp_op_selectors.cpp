// The op selectors of CUTLASS's builders, as kernels call them: each returns the MMA or copy op the
// CUTLASS function computes, as a type the kernel layer reads (model/source/kernel_expr.cpp), and
// refuses where CUTLASS's static_assert does, with its message. Each follows the CUTLASS function
// named in its comment, branch by branch:
//   GMMA::ss_op_selector<ElementA, ElementB, ElementC, TileShape_MNK[, MajorA[, MajorB[, Args...]]]>()
//   GMMA::rs_op_selector<...>()                                  (include/cute/arch/mma_sm90.hpp)
//   detail::sm90_get_smem_store_op_for_accumulator<StrideD, ElementD, EpilogueTile_MN>()
//   detail::sm90_get_smem_load_op_for_source<StrideC, ElementC, EpilogueTile_MN>()   (sm90_common.inl)
//   detail::sm120_get_smem_store_op_for_accumulator<StrideD, ElementD>()
//   detail::sm120_get_smem_load_op_for_source<StrideC, ElementC>()                    (sm120_common.inl)
//   detail::sm100_get_smem_store_op<StrideD, ElementD, ElementAccumulator, AccLoadOp>()
//   detail::sm100_get_smem_load_op<StrideC, ElementC, ElementAccumulator, AccLoadOp>() (sm100_builder.inl)
// Example: ss_op_selector<half_t, half_t, float, Shape<_128,_192,_64>>()
//          = SM90_64x192x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K> (the largest N dividing 192).
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "model/atoms/cute_atoms.hpp"
#include "model/layout/notation.hpp"
#include "model/source/cpp_builtins.hpp"

namespace layoutproof::cpp_detail {
namespace {

std::string last_name(const std::string& name) {
  const std::size_t sep = name.rfind("::");
  return sep == std::string::npos ? name : name.substr(sep + 2);
}

// The type a template argument names (half_t, float, GMMA::Major::K, SM100_TMEM_LOAD_16dp256b2x, ...).
std::string type_arg(CppEvaluator& ev, const CppExpr& t, const std::string& what) {
  const CppValue v = ev.eval(t);
  if (v.kind != CppValue::Kind::type) ev.fail_expected(t, what, v);
  return v.type_name;
}

// MajorA / MajorB: GMMA::Major::K (the default) or GMMA::Major::MN.
bool mn_major_arg(CppEvaluator& ev, const CppExpr& e, std::size_t i) {
  if (e.targs.size() <= i) return false;
  const std::string t = type_arg(ev, e.targs[i], "GMMA::Major::K or GMMA::Major::MN");
  if (t.size() >= 9 && t.compare(t.size() - 9, 9, "Major::MN") == 0) return true;
  if (t.size() >= 8 && t.compare(t.size() - 8, 8, "Major::K") == 0) return false;
  ev.fail(e.targs[i], "expected GMMA::Major::K or GMMA::Major::MN, got type " + t);
}

// One branch of ss_op_selector / rs_op_selector: the accumulator, the two inputs, the name's type
// token, the instruction's K and whether both operands must be K-major (the _TN atoms).
struct GmmaChoice {
  const char* c;
  const char* a;
  const char* b;
  const char* token;
  i64 k;
  bool k_major_only;
};

const std::vector<GmmaChoice>& gmma_choices() {
  static const std::vector<GmmaChoice> v = {
      {"half_t", "half_t", "half_t", "F16F16F16", 16, false},
      {"half_t", "float_e4m3_t", "float_e4m3_t", "F16E4M3E4M3", 32, true},
      {"half_t", "float_e4m3_t", "float_e5m2_t", "F16E4M3E5M2", 32, true},
      {"half_t", "float_e5m2_t", "float_e4m3_t", "F16E5M2E4M3", 32, true},
      {"half_t", "float_e5m2_t", "float_e5m2_t", "F16E5M2E5M2", 32, true},
      {"float", "half_t", "half_t", "F32F16F16", 16, false},
      {"float", "bfloat16_t", "bfloat16_t", "F32BF16BF16", 16, false},
      {"float", "tfloat32_t", "tfloat32_t", "F32TF32TF32", 8, true},
      {"float", "float_e4m3_t", "float_e4m3_t", "F32E4M3E4M3", 32, true},
      {"float", "float_e4m3_t", "float_e5m2_t", "F32E4M3E5M2", 32, true},
      {"float", "float_e5m2_t", "float_e4m3_t", "F32E5M2E4M3", 32, true},
      {"float", "float_e5m2_t", "float_e5m2_t", "F32E5M2E5M2", 32, true},
      {"int32_t", "int8_t", "int8_t", "S32S8S8", 32, true},
      {"int32_t", "int8_t", "uint8_t", "S32S8U8", 32, true},
      {"int32_t", "uint8_t", "int8_t", "S32U8S8", 32, true},
      {"int32_t", "uint8_t", "uint8_t", "S32U8U8", 32, true},
  };
  return v;
}

// ss_op_selector / rs_op_selector (cute/arch/mma_sm90.hpp). The N tried are those compiled without
// CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED (CUTLASS leaves it undefined): 256, 192, 128, 96, 64, 32,
// 16, 8, the first dividing Tile_N.
CppValue gmma_op_selector(CppEvaluator& ev, const CppExpr& e) {
  const bool rs = last_name(e.name) == "rs_op_selector";
  targ_count(ev, e, 4, SIZE_MAX);
  call_args(ev, e, 0, 0);
  const std::string a = type_arg(ev, e.targs[0], "the element type of A");
  const std::string b = type_arg(ev, e.targs[1], "the element type of B");
  const std::string c = type_arg(ev, e.targs[2], "the accumulator type");
  const IntTuple tile = ev.eval_tuple(e.targs[3]);
  const auto refuse = [&](const CppExpr& at, const std::string& why) { ev.fail(at, "static_assert failed: " + why); };
  if (!tile.is_static()) refuse(e.targs[3], "TileShape_MNK must be static. (" + to_string(tile) + ")");
  if (tile.is_leaf() || tile.rank() != 3) refuse(e.targs[3], "TileShape_MNK must be rank 3. (" + to_string(tile) + ")");
  const i64 tile_m = product(tile[0]), tile_n = product(tile[1]), tile_k = product(tile[2]);
  if (tile_m % 64 != 0) refuse(e.targs[3], "Tile_M must be a multiple of 64. (Tile_M = " + std::to_string(tile_m) + ")");
  const bool mn_a = mn_major_arg(ev, e, 4), mn_b = mn_major_arg(ev, e, 5);
  if (rs && mn_a) refuse(e.targs[4], "Register source A operand GMMAs must have K-major A layout.");
  if (c != "half_t" && c != "float" && c != "int32_t") refuse(e.targs[2], "Unknown ElementC accumulator type. (" + c + ")");
  const GmmaChoice* g = nullptr;
  for (const GmmaChoice& x : gmma_choices())
    if (c == x.c && a == x.a && b == x.b) g = &x;
  if (!g) refuse(e.targs[0], "No eligible GMMA operator for request configuration. (" + a + " x " + b + " -> " + c + ")");
  if (g->k_major_only && mn_a) refuse(e.targs[4], "MajorA must be GMMA::Major::K for this config.");
  if (g->k_major_only && mn_b) refuse(e.targs[5], "MajorB must be GMMA::Major::K for this config.");
  if (tile_k % g->k != 0)
    refuse(e.targs[3], "Tile_K must be a multiple of " + std::to_string(g->k) + ". (Tile_K = " + std::to_string(tile_k) + ")");
  i64 n = 0;
  for (i64 x : {256, 192, 128, 96, 64, 32, 16, 8})
    if (n == 0 && tile_n % x == 0) n = x;
  if (n == 0) refuse(e.targs[3], "Tile_N must be a multiple of 8. (Tile_N = " + std::to_string(tile_n) + ")");
  std::vector<std::string> targs;
  if (!g->k_major_only) {
    targs.push_back(std::string("GMMA::Major::") + (mn_a ? "MN" : "K"));
    targs.push_back(std::string("GMMA::Major::") + (mn_b ? "MN" : "K"));
  }
  for (std::size_t i = 6; i < e.targs.size(); ++i) targs.push_back(type_arg(ev, e.targs[i], "a GMMA::ScaleIn argument"));
  std::string name = "SM90_64x" + std::to_string(n) + "x" + std::to_string(g->k) + "_" + g->token + (rs ? "_RS" : "_SS") +
                     (g->k_major_only ? "_TN" : "");
  if (!targs.empty()) {
    name += "<";
    for (std::size_t i = 0; i < targs.size(); ++i) name += (i ? "," : "") + targs[i];
    name += ">";
  }
  return CppValue::of_type(name);
}

// --- the epilogue's smem copy ops ---

// sizeof(T) in bytes (a sub-byte type still takes one).
i64 sizeof_of(CppEvaluator& ev, const CppExpr& t) { return std::max(1, (element_bits_arg(ev, t) + 7) / 8); }

// size<I>(GmemStrideType{}): the product of the stride's mode I, a run-time int64_t being 0.
i64 stride_mode_size(CppEvaluator& ev, const CppExpr& stride, std::size_t mode) {
  const IntTuple s = ev.eval_tuple(stride);
  if (s.is_leaf() || s.rank() <= mode) ev.fail(stride, "the gmem stride " + to_string(s) + " has no mode " + std::to_string(mode));
  return product(s[mode]);
}

// size<1>(EpilogueTile_MN{}): a Shape's mode 1, or the size of a Tile's mode 1.
i64 tile_n(CppEvaluator& ev, const CppExpr& tile_e) {
  const CppValue tile = ev.eval(tile_e);
  if (tile.kind == CppValue::Kind::tuple && tile.tuple.is_tuple() && tile.tuple.rank() >= 2) return product(tile.tuple[1]);
  if (tile.kind == CppValue::Kind::object)
    if (const Tiler* t = std::any_cast<Tiler>(&tile.object); t && t->modes.size() >= 2) {
      const Tiler& m = t->modes[1];
      if (m.kind == Tiler::Kind::layout) return size(m.layout);
      if (m.kind == Tiler::Kind::integer) return m.integer;
    }
  ev.fail_expected(tile_e, "an epilogue tile with two modes (Shape<_64,_32>, a Tile of layouts)", tile);
}

// CUTLASS's selector falls off its end (returns void) where no branch returns: C++ then fails where
// the result is used.
[[noreturn]] void returns_void(CppEvaluator& ev, const CppExpr& e, const std::string& why) {
  ev.fail(e, last_name(e.name) + " returns void here (" + why + "): CUTLASS's selector has no op for this configuration");
}

// sm90_get_smem_store_op_for_accumulator<GmemStrideTypeD, ElementD, EpilogueTile_MN>().
std::string sm90_store_op(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 3, 3);
  call_args(ev, e, 0, 0);
  const i64 bytes = sizeof_of(ev, e.targs[1]);
  const bool m_major = bytes == 2 && stride_mode_size(ev, e.targs[0], 0) == 1;
  const bool n_major = bytes == 2 && !m_major && stride_mode_size(ev, e.targs[0], 1) == 1;
  if (!m_major && !n_major) return "AutoVectorizingCopyWithAssumedAlignment";
  const i64 n = tile_n(ev, e.targs[2]);
  if (n % 16 == 0) return m_major ? "SM90_U16x8_STSM_T" : "SM90_U32x4_STSM_N";
  if (n % 8 == 0) return m_major ? "SM90_U16x4_STSM_T" : "SM90_U32x2_STSM_N";
  returns_void(ev, e, "a 16-bit element and size<1>(EpilogueTile_MN) = " + std::to_string(n) + ", not a multiple of 8");
}

// The ldmatrix twin of a stmatrix store op (sm90_get_smem_load_op_for_source, sm100_get_smem_load_op),
// or "" when there is none.
std::string load_twin(const std::string& store) {
  static const std::vector<std::pair<const char*, const char*>> twins = {
      {"SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T"}, {"SM90_U16x4_STSM_T", "SM75_U16x4_LDSM_T"},
      {"SM90_U32x4_STSM_N", "SM75_U32x4_LDSM_N"}, {"SM90_U32x2_STSM_N", "SM75_U32x2_LDSM_N"},
      {"SM100_U8x16_STSM_T", "SM100_U8x16_LDSM_T"}, {"SM100_U8x8_STSM_T", "SM100_U8x8_LDSM_T"}};
  for (const auto& [s, l] : twins)
    if (store == s) return l;
  return "";
}

CppValue sm90_store(CppEvaluator& ev, const CppExpr& e) { return CppValue::of_type(sm90_store_op(ev, e)); }
CppValue sm90_load(CppEvaluator& ev, const CppExpr& e) {
  const std::string l = load_twin(sm90_store_op(ev, e));
  return CppValue::of_type(l.empty() ? "AutoVectorizingCopyWithAssumedAlignment<128>" : l);
}

// sm120_get_smem_store_op_for_accumulator<GmemStrideTypeD, ElementD>() and
// sm120_get_smem_load_op_for_source<GmemStrideTypeC, ElementC>() (sm120_common.inl).
CppValue sm120_store(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 2, 2);
  call_args(ev, e, 0, 0);
  if (sizeof_of(ev, e.targs[1]) == 2 && stride_mode_size(ev, e.targs[0], 0) == 1) return CppValue::of_type("SM90_U16x4_STSM_T");
  if (sizeof_of(ev, e.targs[1]) == 2 && stride_mode_size(ev, e.targs[0], 1) == 1) return CppValue::of_type("SM90_U32x2_STSM_N");
  return CppValue::of_type("AutoVectorizingCopyWithAssumedAlignment");
}
CppValue sm120_load(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 2, 2);
  call_args(ev, e, 0, 0);
  if (sizeof_of(ev, e.targs[1]) != 2) return CppValue::of_type("AutoVectorizingCopyWithAssumedAlignment<128>");
  if (stride_mode_size(ev, e.targs[0], 0) == 1) return CppValue::of_type("SM75_U16x4_LDSM_T");
  if (stride_mode_size(ev, e.targs[0], 1) == 1) return CppValue::of_type("SM75_U32x2_LDSM_N");
  returns_void(ev, e, "a 16-bit element with a gmem stride neither M- nor N-major");
}

// sm100_get_smem_store_op<GmemStrideTypeD, ElementD, ElementAccumulator, AccLoadOp>() (sm100_builder.inl):
// the stmatrix whose thread-value ownership matches the TMEM load's, else auto-vectorizing.
std::string sm100_store_op(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 4, 4);
  call_args(ev, e, 0, 0);
  const auto major = [&](int mode) {
    const IntTuple s = ev.eval_tuple(e.targs[0]);
    if (s.is_leaf() || s.rank() <= static_cast<std::size_t>(mode)) return false;
    IntTuple x = s[static_cast<std::size_t>(mode)];
    while (x.is_tuple() && x.rank() > 0) x = x[0];
    return x.is_constant(1);  // cutlass::detail::is_major<mode>
  };
  const bool m_major = major(0), n_major = major(1);
  if (!m_major && !n_major) ev.fail(e.targs[0], "static_assert failed: Unsupported gmem layout");
  const int d = element_bits_arg(ev, e.targs[1]), acc = element_bits_arg(ev, e.targs[2]);
  const std::string op = type_arg(ev, e.targs[3], "the TMEM load op (SM100_TMEM_LOAD_...)");
  const std::string load = op.rfind("SM100_TMEM_LOAD_", 0) == 0 ? op.substr(16) : "";
  const auto in = [&](std::initializer_list<const char*> xs) {
    for (const char* x : xs)
      if (load == x) return true;
    return false;
  };
  const bool m8n8_4x = (acc == 32 && d == 32 && n_major && in({"16dp128b2x", "16dp128b4x", "16dp128b8x", "16dp128b16x", "16dp128b32x", "16dp128b64x"})) ||
                       (acc == 32 && d == 16 && in({"16dp256b2x", "16dp256b4x", "16dp256b8x", "16dp256b16x", "16dp256b32x"})) ||
                       (acc == 16 && d == 16 &&
                        in({"16dp128b2x_16b", "16dp128b4x_16b", "16dp128b8x_16b", "16dp128b16x_16b", "16dp128b32x_16b", "16dp128b64x_16b"}));
  const bool m16n8_4x = acc == 32 && d == 8 && m_major && in({"16dp256b4x", "16dp256b8x", "16dp256b16x", "16dp256b32x"});
  const bool m8n8_2x = (acc == 32 && d == 32 && n_major && in({"16dp128b1x"})) || (acc == 32 && d == 16 && in({"16dp256b1x"})) ||
                       (acc == 16 && d == 16 && in({"16dp128b1x_16b"}));
  const bool m16n8_2x = acc == 32 && d == 8 && m_major && in({"16dp256b2x"});
  const bool m16n8_1x = acc == 32 && d == 8 && m_major && in({"16dp256b1x"});
  if (m8n8_4x) return n_major ? "SM90_U32x4_STSM_N" : "SM90_U16x8_STSM_T";
  if (m8n8_2x) return n_major ? "SM90_U32x2_STSM_N" : "SM90_U16x4_STSM_T";
  if (m16n8_4x) return "SM100_U8x16_STSM_T";
  if (m16n8_2x) return "SM100_U8x8_STSM_T";
  if (m16n8_1x) return "SM100_U8x4_STSM_T";
  return "AutoVectorizingCopyWithAssumedAlignment<128>";
}
CppValue sm100_store(CppEvaluator& ev, const CppExpr& e) { return CppValue::of_type(sm100_store_op(ev, e)); }
CppValue sm100_load(CppEvaluator& ev, const CppExpr& e) {
  const std::string l = load_twin(sm100_store_op(ev, e));
  return CppValue::of_type(l.empty() ? "AutoVectorizingCopyWithAssumedAlignment" : l);
}

}  // namespace

const HandlerTable& op_selector_builtins() {
  static const HandlerTable t = {
      {"ss_op_selector", &gmma_op_selector},
      {"rs_op_selector", &gmma_op_selector},
      {"sm90_get_smem_store_op_for_accumulator", &sm90_store},
      {"sm90_get_smem_load_op_for_source", &sm90_load},
      {"sm120_get_smem_store_op_for_accumulator", &sm120_store},
      {"sm120_get_smem_load_op_for_source", &sm120_load},
      {"sm100_get_smem_store_op", &sm100_store},
      {"sm100_get_smem_load_op", &sm100_load},
  };
  return t;
}

}  // namespace layoutproof::cpp_detail
