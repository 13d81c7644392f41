// CuTe's MMA and copy atoms as data. Every layout below was read from CUTLASS (NVIDIA/cutlass at
// 7107b055): include/cute/atom/mma_traits{,_sm61,_sm75,_sm80,_sm90,_sm90_gmma,_sm90_gmma_ext}.hpp,
// include/cute/atom/mma_traits_{sm70,sm89,sm100}.hpp (the warp and FFMA2 atoms; SM120 in
// cute_atoms_sm120.cpp, UMMA in cute_atoms_umma.cpp), include/cute/atom/copy_traits{,_sm75,_sm80,
// _sm90,_sm100}.hpp and the ops' register types in include/cute/arch/{mma,copy,copy_sm75,copy_sm80,
// copy_sm90,copy_sm100,mma_sm90_gmma}.hpp. The layouts are
// written in CuTe notation exactly as the traits state them (a default stride written out: CuTe
// gives a size-1 mode stride 0, so Layout<_1> is 1:0 and Layout<Shape<_1,_1>> is (1,1):(0,0)).
#include "model/atoms/cute_atoms.hpp"

#include <algorithm>
#include <cctype>

#include "model/atoms/atom_spelling.hpp"
#include "model/atoms/name_suggest.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace atom_spelling {

// ------------------------------------------------------------------------------------------------
// Spelling: names, namespaces and template arguments
// ------------------------------------------------------------------------------------------------

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Drops leading "::", "cute::" and "cutlass::": CuTe re-exports CUTLASS's numeric types, so
// cute::half_t, cutlass::half_t and half_t are one type.
std::string_view strip_namespaces(std::string_view s) {
  for (bool again = true; again;) {
    again = false;
    for (std::string_view p : {"::", "cute::", "cutlass::"})
      if (starts_with(s, p)) {
        s.remove_prefix(p.size());
        again = true;
      }
  }
  return s;
}

// A type as this file names it: trimmed, namespaces dropped, also inside one template argument
// ("cute::complex<cute::half_t>" -> "complex<half_t>"), spaces removed.
std::string canonical_type(std::string_view t) {
  std::string out;
  std::string_view rest = strip_namespaces(trim(t));
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    out += c;
    if (c == '<' || c == ',') {
      const std::string_view inner = strip_namespaces(trim(rest.substr(i + 1)));
      i = rest.size() - inner.size() - 1;
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) s += sep;
    s += parts[i];
  }
  return s;
}

std::string with_targs(std::string_view op, const std::vector<std::string>& targs) {
  return targs.empty() ? std::string(op) : std::string(op) + "<" + join(targs, ",") + ">";
}

// Splits "a,b<c,d>" at its top-level commas. @pre the brackets of `s` balance.
std::vector<std::string> split_top_level(std::string_view s, std::string_view whole) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c == '<') ++depth;
    if (c == '>' && --depth < 0) throw LayoutError("unbalanced '>' in '" + std::string(whole) + "'");
    if (c != ',' || depth != 0) continue;
    const std::string_view arg = trim(s.substr(start, i - start));
    if (arg.empty()) throw LayoutError("empty template argument in '" + std::string(whole) + "'");
    out.emplace_back(arg);
    start = i + 1;
  }
  if (depth != 0) throw LayoutError("unbalanced '<' in '" + std::string(whole) + "'");
  return out;
}

Spelling spell(std::string_view name, const std::vector<std::string>& targs) {
  const std::string_view text = trim(name);
  const std::size_t open = text.find('<');
  if (open == std::string_view::npos) return {std::string(strip_namespaces(text)), targs};
  if (text.back() != '>') throw LayoutError("'" + std::string(text) + "' does not end in '>'");
  if (!targs.empty())
    throw LayoutError("'" + std::string(text) + "': template arguments given both in the name and apart");
  const std::string_view inner = text.substr(open + 1, text.size() - open - 2);
  return {std::string(strip_namespaces(trim(text.substr(0, open)))), split_top_level(inner, text)};
}

[[noreturn]] void bad_targs(std::string_view op, const std::vector<std::string>& got, const std::string& expected) {
  throw LayoutError(std::string(op) + ": template arguments <" + join(got, ",") + "> are not valid; expected " + expected);
}

std::optional<i64> parse_decimal(std::string_view s) {
  if (s.empty() || s.size() > 4 || s[0] == '0') return std::nullopt;
  i64 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = checked_add(checked_mul(v, 10), c - '0');
  }
  return v;
}

}  // namespace atom_spelling

namespace {
using namespace atom_spelling;


// Bits of a type, or a LayoutError that names the closest known ones (model/atoms/cute_types.cpp).
int require_type_bits(std::string_view op, const std::string& type) {
  if (const auto bits = type_bits(type)) return *bits;
  throw LayoutError(std::string(op) + ": unknown type '" + type + "'" + name_hint(type, type_names()));
}

// ------------------------------------------------------------------------------------------------
// Warp-level MMA atoms (SM75, SM80, SM90 f64): 32 threads, ThrID 32:1, no template arguments
// ------------------------------------------------------------------------------------------------

// The four (thr,val) layouts shared by many SM80 atoms (mma_traits_sm80.hpp's anonymous namespace).
constexpr const char* kSm80_8x4 = "((4,8),1):((8,1),0)";             // (T32,V1) -> (M8,N4)
constexpr const char* kSm80_8x8Row = "((4,8),2):((16,1),8)";         // (T32,V2) -> (M8,N8)
constexpr const char* kSm80_8x16Row = "((4,8),4):((32,1),8)";        // (T32,V4) -> (M8,N16)
constexpr const char* kSm80_16x8Row = "((4,8),(2,2)):((32,1),(16,8))";  // (T32,V4) -> (M16,N8)

// Shape_MNK with LayoutA/B/C_TV and ThrID (a warp, 32:1, but for SM70's quadpairs).
struct WarpShape {
  i64 m, n, k;
  const char* a;
  const char* b;
  const char* c;
  const char* thr = "32:1";
};

const WarpShape kH16x8x8{16, 8, 8, kSm80_16x8Row, kSm80_8x8Row, kSm80_16x8Row};
const WarpShape kH16x8x16{16, 8, 16, "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))", kSm80_16x8Row};
const WarpShape kTf16x8x4{16, 8, 4, "((4,8),2):((16,1),8)", kSm80_8x4, kSm80_16x8Row};
const WarpShape kTf16x8x8{16, 8, 8, "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", kSm80_16x8Row};
const WarpShape kD8x8x4{8, 8, 4, kSm80_8x4, kSm80_8x4, kSm80_8x8Row};
const WarpShape kI8_8x8x16{8, 8, 16, kSm80_8x16Row, kSm80_8x16Row, kSm80_8x8Row};
const WarpShape kI8_16x8x16{16, 8, 16, "((4,8),(4,2)):((64,1),(16,8))", kSm80_8x16Row, kSm80_16x8Row};
const WarpShape kI8_16x8x32{16, 8, 32, "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", kSm80_16x8Row};
// The int4 atoms write their value mode as a 1-tuple, Shape<_8>, kept here as (8).
const WarpShape kI4_8x8x32{8, 8, 32, "((4,8),(8)):((64,1),(8))", "((4,8),(8)):((64,1),(8))", kSm80_8x8Row};
const WarpShape kI4_16x8x32{16, 8, 32, "((4,8),(8,2)):((128,1),(16,8))", "((4,8),(8)):((64,1),(8))", kSm80_16x8Row};
const WarpShape kI4_16x8x64{16, 8, 64, "((4,8),(8,2,2)):((128,1),(16,8,512))", "((4,8),(8,2)):((64,1),(8,256))", kSm80_16x8Row};
const WarpShape kB1_16x8x256{16, 8, 256, "((4,8),(32,2,2)):((512,1),(16,8,2048))", "((4,8),(32,2)):((256,1),(8,1024))", kSm80_16x8Row};
const WarpShape kB1_8x8x128{8, 8, 128, "((4,8),32):((256,1),8)", "((4,8),32):((256,1),8)", kSm80_8x8Row};
// SM90's warp-level f64 MMAs (mma_traits_sm90.hpp).
const WarpShape kD16x8x4{16, 8, 4, "((4,8),2):((16,1),8)", kSm80_8x4, kSm80_16x8Row};
const WarpShape kD16x8x8{16, 8, 8, "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", kSm80_16x8Row};
const WarpShape kD16x8x16{16, 8, 16, "((4,8),(2,4)):((16,1),(8,64))", "((4,8),4):((8,1),32)", kSm80_16x8Row};

// SM70's quadpair atoms (mma_traits_sm70.hpp): ThrID SM70_QuadPair = (4,2):(1,16), A and B each
// SM70_8x4_Row (8,4):(1,8) for a T operand, SM70_8x4_Col ((4,2),4):((8,4),1) for an N operand (the
// name's two letters are A's and B's), C SM70_8x8_16b (8,8):(1,8) or SM70_8x8_32b.
constexpr const char* kSm70Row = "(8,4):(1,8)";
constexpr const char* kSm70Col = "((4,2),4):((8,4),1)";
constexpr const char* kSm70C16 = "(8,8):(1,8)";
constexpr const char* kSm70C32 = "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))";
constexpr const char* kQuadPair = "(4,2):(1,16)";
const WarpShape kSm70H_TN{8, 8, 4, kSm70Row, kSm70Row, kSm70C16, kQuadPair};
const WarpShape kSm70H_NT{8, 8, 4, kSm70Col, kSm70Col, kSm70C16, kQuadPair};
const WarpShape kSm70H_NN{8, 8, 4, kSm70Col, kSm70Row, kSm70C16, kQuadPair};
const WarpShape kSm70H_TT{8, 8, 4, kSm70Row, kSm70Col, kSm70C16, kQuadPair};
const WarpShape kSm70F_TN{8, 8, 4, kSm70Row, kSm70Row, kSm70C32, kQuadPair};
const WarpShape kSm70F_NT{8, 8, 4, kSm70Col, kSm70Col, kSm70C32, kQuadPair};
const WarpShape kSm70F_NN{8, 8, 4, kSm70Col, kSm70Row, kSm70C32, kQuadPair};
const WarpShape kSm70F_TT{8, 8, 4, kSm70Row, kSm70Col, kSm70C32, kQuadPair};

struct WarpAtom {
  std::string name;
  const WarpShape* shape;
  std::string d, a, b, c;  // ValTypeD/A/B/C
};

// The integer atoms come in every signedness of A and B with the same layouts, each also as
// _SATURATE: SM80_16x8x32_S32{S8,U8}{S8,U8}S32_TN[_SATURATE].
void add_int_variants(std::vector<WarpAtom>& out, const std::string& mnk, const WarpShape* shape, const char* s_tag,
                      const char* u_tag, const char* s_type, const char* u_type, bool saturate) {
  for (int ab = 0; ab < 4; ++ab) {
    const bool ua = ab & 2, ub = ab & 1;
    const std::string base =
        "SM80_" + mnk + "_S32" + (ua ? u_tag : s_tag) + (ub ? u_tag : s_tag) + "S32_TN";
    const std::string ta = ua ? u_type : s_type, tb = ub ? u_type : s_type;
    out.push_back({base, shape, "int32_t", ta, tb, "int32_t"});
    if (saturate) out.push_back({base + "_SATURATE", shape, "int32_t", ta, tb, "int32_t"});
  }
}

std::vector<WarpAtom> make_warp_atoms() {
  constexpr const char* kZ = "complex<double>";
  constexpr const char* kE4 = "float_e4m3_t";
  constexpr const char* kE5 = "float_e5m2_t";
  std::vector<WarpAtom> v = {
      // mma_traits_sm70.hpp
      {"SM70_8x8x4_F16F16F16F16_TN", &kSm70H_TN, "half_t", "half_t", "half_t", "half_t"},
      {"SM70_8x8x4_F16F16F16F16_NT", &kSm70H_NT, "half_t", "half_t", "half_t", "half_t"},
      {"SM70_8x8x4_F16F16F16F16_NN", &kSm70H_NN, "half_t", "half_t", "half_t", "half_t"},
      {"SM70_8x8x4_F16F16F16F16_TT", &kSm70H_TT, "half_t", "half_t", "half_t", "half_t"},
      {"SM70_8x8x4_F32F16F16F32_TN", &kSm70F_TN, "float", "half_t", "half_t", "float"},
      {"SM70_8x8x4_F32F16F16F32_NT", &kSm70F_NT, "float", "half_t", "half_t", "float"},
      {"SM70_8x8x4_F32F16F16F32_NN", &kSm70F_NN, "float", "half_t", "half_t", "float"},
      {"SM70_8x8x4_F32F16F16F32_TT", &kSm70F_TT, "float", "half_t", "half_t", "float"},
      // mma_traits_sm89.hpp: FP8 on Ada, the layouts of SM80_16x8x32_S32S8S8S32_TN
      {"SM89_16x8x32_F32E4M3E4M3F32_TN", &kI8_16x8x32, "float", kE4, kE4, "float"},
      {"SM89_16x8x32_F32E4M3E5M2F32_TN", &kI8_16x8x32, "float", kE4, kE5, "float"},
      {"SM89_16x8x32_F32E5M2E5M2F32_TN", &kI8_16x8x32, "float", kE5, kE5, "float"},
      {"SM89_16x8x32_F32E5M2E4M3F32_TN", &kI8_16x8x32, "float", kE5, kE4, "float"},
      {"SM89_16x8x32_F16E4M3E4M3F16_TN", &kI8_16x8x32, "half_t", kE4, kE4, "half_t"},
      {"SM89_16x8x32_F16E4M3E5M2F16_TN", &kI8_16x8x32, "half_t", kE4, kE5, "half_t"},
      {"SM89_16x8x32_F16E5M2E5M2F16_TN", &kI8_16x8x32, "half_t", kE5, kE5, "half_t"},
      {"SM89_16x8x32_F16E5M2E4M3F16_TN", &kI8_16x8x32, "half_t", kE5, kE4, "half_t"},
      // mma_traits_sm75.hpp
      {"SM75_16x8x8_F32F16F16F32_TN", &kH16x8x8, "float", "half_t", "half_t", "float"},
      {"SM75_16x8x8_F16F16F16F16_TN", &kH16x8x8, "half_t", "half_t", "half_t", "half_t"},
      {"SM75_8x8x16_S32S8S8S32_TN", &kI8_8x8x16, "int32_t", "int8_t", "int8_t", "int32_t"},
      // mma_traits_sm80.hpp: fp16, bf16, tf32, fp64
      {"SM80_16x8x8_F16F16F16F16_TN", &kH16x8x8, "half_t", "half_t", "half_t", "half_t"},
      {"SM80_16x8x16_F16F16F16F16_TN", &kH16x8x16, "half_t", "half_t", "half_t", "half_t"},
      {"SM80_16x8x8_F32F16F16F32_TN", &kH16x8x8, "float", "half_t", "half_t", "float"},
      {"SM80_16x8x16_F32F16F16F32_TN", &kH16x8x16, "float", "half_t", "half_t", "float"},
      {"SM80_16x8x8_F32BF16BF16F32_TN", &kH16x8x8, "float", "bfloat16_t", "bfloat16_t", "float"},
      {"SM80_16x8x16_F32BF16BF16F32_TN", &kH16x8x16, "float", "bfloat16_t", "bfloat16_t", "float"},
      {"SM80_16x8x4_F32TF32TF32F32_TN", &kTf16x8x4, "float", "tfloat32_t", "tfloat32_t", "float"},
      {"SM80_16x8x8_F32TF32TF32F32_TN", &kTf16x8x8, "float", "tfloat32_t", "tfloat32_t", "float"},
      {"SM80_8x8x4_F64F64F64F64_TN", &kD8x8x4, "double", "double", "double", "double"},
      {"SM80_8x8x4_C64C64C64C64_TN", &kD8x8x4, kZ, kZ, kZ, kZ},
      // Gaussian complex: F64's layouts, C and D held as the op's GaussComplex (three doubles).
      {"SM80_8x8x4_GC64C64C64GC64_TN", &kD8x8x4, "SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex", kZ, kZ,
       "SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex"},
      // 1-bit: XOR and AND popcount share layouts. SM80_16x8x128_S32U1U1S32_TN_{XOR,AND}POPC is
      // left out: its ALayout's value stride is Stride<Stride<_16,_8>> for Shape<_32,_2>, not
      // congruent, so it is not a layout.
      {"SM80_16x8x256_S32U1U1S32_TN_XORPOPC", &kB1_16x8x256, "int32_t", "uint1b_t", "uint1b_t", "int32_t"},
      {"SM80_16x8x256_S32U1U1S32_TN_ANDPOPC", &kB1_16x8x256, "int32_t", "uint1b_t", "uint1b_t", "int32_t"},
      {"SM80_8x8x128_S32U1U1S32_TN_XORPOPC", &kB1_8x8x128, "int32_t", "uint1b_t", "uint1b_t", "int32_t"},
      {"SM80_8x8x128_S32U1U1S32_TN_ANDPOPC", &kB1_8x8x128, "int32_t", "uint1b_t", "uint1b_t", "int32_t"},
      // mma_traits_sm90.hpp: warp-level f64 / complex f64 on Hopper
      {"SM90_16x8x4_F64F64F64F64_TN", &kD16x8x4, "double", "double", "double", "double"},
      {"SM90_16x8x8_F64F64F64F64_TN", &kD16x8x8, "double", "double", "double", "double"},
      {"SM90_16x8x16_F64F64F64F64_TN", &kD16x8x16, "double", "double", "double", "double"},
      {"SM90_16x8x4_C64C64C64C64_TN", &kD16x8x4, kZ, kZ, kZ, kZ},
      {"SM90_16x8x8_C64C64C64C64_TN", &kD16x8x8, kZ, kZ, kZ, kZ},
      {"SM90_16x8x16_C64C64C64C64_TN", &kD16x8x16, kZ, kZ, kZ, kZ},
  };
  add_int_variants(v, "8x8x16", &kI8_8x8x16, "S8", "U8", "int8_t", "uint8_t", true);
  add_int_variants(v, "16x8x16", &kI8_16x8x16, "S8", "U8", "int8_t", "uint8_t", true);
  add_int_variants(v, "16x8x32", &kI8_16x8x32, "S8", "U8", "int8_t", "uint8_t", true);
  add_int_variants(v, "8x8x32", &kI4_8x8x32, "S4", "U4", "int4b_t", "uint4b_t", true);
  add_int_variants(v, "16x8x32", &kI4_16x8x32, "S4", "U4", "int4b_t", "uint4b_t", true);
  add_int_variants(v, "16x8x64", &kI4_16x8x64, "S4", "U4", "int4b_t", "uint4b_t", true);
  return v;
}

const std::vector<WarpAtom>& warp_atoms() {
  static const std::vector<WarpAtom> atoms = make_warp_atoms();
  return atoms;
}

MmaAtomInfo warp_info(const WarpAtom& w) {
  MmaAtomInfo info;
  info.name = w.name;
  info.m = w.shape->m, info.n = w.shape->n, info.k = w.shape->k;
  info.thr_id = parse_layout(w.shape->thr);
  info.a_tv = parse_layout(w.shape->a);
  info.b_tv = parse_layout(w.shape->b);
  info.c_tv = parse_layout(w.shape->c);
  info.a_type = w.a, info.b_type = w.b, info.c_type = w.c, info.d_type = w.d;
  return info;
}

std::optional<MmaAtomInfo> find_warp_atom(const Spelling& s) {
  for (const WarpAtom& w : warp_atoms()) {
    if (w.name != s.op) continue;
    if (!s.targs.empty()) bad_targs(s.op, s.targs, "none (" + s.op + " is not a template)");
    return warp_info(w);
  }
  return std::nullopt;
}

// ------------------------------------------------------------------------------------------------
// UniversalFMA<D, A = D, B = A, C = D> (arch/mma.hpp; traits in atom/mma_traits.hpp): one thread,
// MNK 1x1x1, ThrID Layout<_1> = 1:0, every TV layout Layout<Shape<_1,_1>> = (1,1):(0,0).
// ------------------------------------------------------------------------------------------------

std::optional<MmaAtomInfo> find_universal_fma(const Spelling& s) {
  if (s.op != "UniversalFMA") return std::nullopt;
  if (s.targs.empty() || s.targs.size() > 4)
    bad_targs(s.op, s.targs, "<D[,A[,B[,C]]]> with A = D, B = A, C = D by default; types: " + join(type_names(), ", "));
  std::vector<std::string> t;
  for (const std::string& x : s.targs) {
    t.push_back(canonical_type(x));
    require_type_bits(s.op, t.back());
  }
  // CuTe's defaults, in order: A = D, B = A, C = D.
  if (t.size() < 2) t.push_back(t[0]);
  if (t.size() < 3) t.push_back(t[1]);
  if (t.size() < 4) t.push_back(t[0]);
  // Canonical name: the shortest argument list that gives the same four types.
  std::vector<std::string> shown = t;
  if (shown[3] == shown[0]) {
    shown.pop_back();
    if (shown[2] == shown[1]) {
      shown.pop_back();
      if (shown[1] == shown[0]) shown.pop_back();
    }
  }
  MmaAtomInfo info;
  info.name = with_targs(s.op, shown);
  info.thr_id = parse_layout("1:0");
  info.a_tv = info.b_tv = info.c_tv = parse_layout("(1,1):(0,0)");
  info.d_type = t[0], info.a_type = t[1], info.b_type = t[2], info.c_type = t[3];
  return info;
}

// ------------------------------------------------------------------------------------------------
// SM61 dot-product atoms (arch/mma_sm61.hpp, atom/mma_traits_sm61.hpp): one thread, ThrID
// Layout<_1> = 1:0, MNK 1x1xK, A = B = Layout<Shape<_1,K>> = (1,K):(0,1), C = (1,1):(0,0).
//   SM61_DP4A: K = 4, int8_t x int8_t -> int32_t;  SM61_DP2A: K = 2, int16_t x int16_t -> int32_t.
// ------------------------------------------------------------------------------------------------

// SM100's paired FFMA (arch/mma_sm100.hpp, mma_traits_sm100.hpp): one thread, ThrID Layout<_1>,
// float only. SM100_2x1x1_F32F32F32F32: MNK 2x1x1, A = C = Layout<Shape<_1,_2>> = (1,2):(0,1),
// B = (1,1):(0,0); SM100_1x2x1_F32F32F32F32: MNK 1x2x1, B = C = (1,2):(0,1), A = (1,1):(0,0).
std::optional<MmaAtomInfo> find_sm100_ffma2(const Spelling& s) {
  const bool m2 = s.op == "SM100_2x1x1_F32F32F32F32";
  if (!m2 && s.op != "SM100_1x2x1_F32F32F32F32") return std::nullopt;
  if (!s.targs.empty()) bad_targs(s.op, s.targs, "none (" + s.op + " is not a template)");
  MmaAtomInfo info;
  info.name = s.op;
  info.m = m2 ? 2 : 1, info.n = m2 ? 1 : 2;
  info.thr_id = parse_layout("1:0");
  const Layout pair = parse_layout("(1,2):(0,1)"), one = parse_layout("(1,1):(0,0)");
  info.a_tv = m2 ? pair : one;
  info.b_tv = m2 ? one : pair;
  info.c_tv = pair;
  info.a_type = info.b_type = info.c_type = info.d_type = "float";
  return info;
}

std::optional<MmaAtomInfo> find_sm61(const Spelling& s) {
  const bool dp4a = s.op == "SM61_DP4A";
  if (!dp4a && s.op != "SM61_DP2A") return std::nullopt;
  if (!s.targs.empty()) bad_targs(s.op, s.targs, "none (" + s.op + " is not a template)");
  const i64 k = dp4a ? 4 : 2;
  MmaAtomInfo info;
  info.name = s.op;
  info.k = k;
  info.thr_id = parse_layout("1:0");
  info.a_tv = info.b_tv = Layout(IntTuple::tuple({1, k}), IntTuple::tuple({0, 1}));
  info.c_tv = parse_layout("(1,1):(0,0)");
  info.a_type = info.b_type = dp4a ? "int8_t" : "int16_t";
  info.c_type = info.d_type = "int32_t";
  return info;
}

// ------------------------------------------------------------------------------------------------
// SM90 GMMA (warpgroup) atoms: SM90_64x{N}x{K}_{types}_{SS|RS}[_TN][_SATURATE]
// (mma_traits_sm90_gmma.hpp for N in 8,16,32,64,96,128,192,256; _ext.hpp for the other N).
// Every one has Shape_MNK (64,N,K), ThrID Layout<_128> = 128:1, C = CLayout_64xN, and
//   SS: A = ABLayout<64,K>,  B = ABLayout<N,K>   (both operands read from smem descriptors)
//   RS: A = ALayout_64x{K},  B = ABLayout<N,K>   (A from registers: 64x8 / 64x16 / 64x32 for
//       32- / 16- / 8-bit values)
// ------------------------------------------------------------------------------------------------

struct GmmaFamily {
  const char* types;  // the name's type token, e.g. "F32F16F16"
  i64 k;              // K of the instruction: 256 bits of A per row
  bool tn;            // name ends in _TN: both operands K-major, no Major arguments
  bool majors;        // takes <GMMA::Major tnspA, GMMA::Major tnspB, ...>
  bool scales;        // takes GMMA::ScaleIn scaleA, scaleB (defaulted to One)
  bool int8;          // the int8 set of N, and _SATURATE twins
  const char* d;      // ValTypeD = ValTypeC
  const char* a;
  const char* b;
};

const std::vector<GmmaFamily>& gmma_families() {
  static const std::vector<GmmaFamily> f = {
      {"F16F16F16", 16, false, true, true, false, "half_t", "half_t", "half_t"},
      {"F32F16F16", 16, false, true, true, false, "float", "half_t", "half_t"},
      {"F32BF16BF16", 16, false, true, true, false, "float", "bfloat16_t", "bfloat16_t"},
      {"F32TF32TF32", 8, true, false, true, false, "float", "tfloat32_t", "tfloat32_t"},
      {"S32S8S8", 32, true, false, false, true, "int32_t", "int8_t", "int8_t"},
      {"S32S8U8", 32, true, false, false, true, "int32_t", "int8_t", "uint8_t"},
      {"S32U8S8", 32, true, false, false, true, "int32_t", "uint8_t", "int8_t"},
      {"S32U8U8", 32, true, false, false, true, "int32_t", "uint8_t", "uint8_t"},
      {"F16E4M3E4M3", 32, true, false, true, false, "half_t", "float_e4m3_t", "float_e4m3_t"},
      {"F32E4M3E4M3", 32, true, false, true, false, "float", "float_e4m3_t", "float_e4m3_t"},
      {"F16E4M3E5M2", 32, true, false, true, false, "half_t", "float_e4m3_t", "float_e5m2_t"},
      {"F32E4M3E5M2", 32, true, false, true, false, "float", "float_e4m3_t", "float_e5m2_t"},
      {"F16E5M2E4M3", 32, true, false, true, false, "half_t", "float_e5m2_t", "float_e4m3_t"},
      {"F32E5M2E4M3", 32, true, false, true, false, "float", "float_e5m2_t", "float_e4m3_t"},
      {"F16E5M2E5M2", 32, true, false, true, false, "half_t", "float_e5m2_t", "float_e5m2_t"},
      {"F32E5M2E5M2", 32, true, false, true, false, "float", "float_e5m2_t", "float_e5m2_t"},
  };
  return f;
}

// N that CuTe defines: 8..256 step 8; the int8 atoms only 8, 16, 24 and multiples of 16.
bool gmma_has_n(const GmmaFamily& f, i64 n) {
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  return !f.int8 || n <= 24 || n % 16 == 0;
}

struct GmmaName {
  const GmmaFamily* family;
  i64 n;
  bool rs;
  bool saturate;
};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

std::optional<GmmaName> parse_gmma_name(std::string_view op) {
  // SM90 _ 64x{N}x{K} _ TYPES _ SS|RS [_ TN] [_ SATURATE]
  const std::vector<std::string_view> tok = split(op, '_');
  if (tok.size() < 4 || tok.size() > 6 || tok[0] != "SM90") return std::nullopt;
  const std::vector<std::string_view> mnk = split(tok[1], 'x');
  if (mnk.size() != 3 || mnk[0] != "64") return std::nullopt;
  const auto n = parse_decimal(mnk[1]), k = parse_decimal(mnk[2]);
  if (!n || !k || (tok[3] != "SS" && tok[3] != "RS")) return std::nullopt;
  const bool tn = tok.size() >= 5 && tok[4] == "TN";
  const bool saturate = tok.size() == 5 + (tn ? 1u : 0u) && tok.back() == "SATURATE";
  if (tok.size() != 4 + (tn ? 1u : 0u) + (saturate ? 1u : 0u)) return std::nullopt;
  for (const GmmaFamily& f : gmma_families()) {
    if (tok[2] != f.types || *k != f.k || tn != f.tn || (saturate && !f.int8) || !gmma_has_n(f, *n)) continue;
    return GmmaName{&f, *n, tok[3] == "RS", saturate};
  }
  return std::nullopt;
}

// "GMMA::Major::MN" -> "MN": the enumerator after any of cute::, SM90::, GMMA::, <enum>::.
std::string_view gmma_enumerator(std::string_view arg, std::string_view enum_name) {
  std::string_view s = strip_namespaces(trim(arg));
  for (std::string_view p : {"SM90::", "GMMA::"})
    if (starts_with(s, p)) s.remove_prefix(p.size());
  if (starts_with(s, enum_name) && s.substr(enum_name.size(), 2) == "::") s.remove_prefix(enum_name.size() + 2);
  return s;
}

std::string gmma_expected(const GmmaFamily& f, bool rs) {
  const std::string scale = "GMMA::ScaleIn::One|GMMA::ScaleIn::Neg";
  if (f.majors)
    return std::string("<") + (rs ? "GMMA::Major::K" : "GMMA::Major::K|GMMA::Major::MN") +
           ", GMMA::Major::K|GMMA::Major::MN[, " + scale + "[, " + scale + "]]>" +
           " (none given: K, K" + (rs ? "; a register-sourced A must be K-major, CuTe static_asserts it" : "") + ")";
  if (f.scales) return "[<" + scale + "[, " + scale + "]>] (both operands K-major: _TN)";
  return "none (both operands K-major: _TN)";
}

// Checks the template arguments against the family; returns them canonically spelled, defaulted
// trailing scales left out, the Majors always shown (CuTe has no default for them).
std::vector<std::string> gmma_targs(const std::string& op, const GmmaName& g, const std::vector<std::string>& targs) {
  const GmmaFamily& f = *g.family;
  const std::size_t n_majors = f.majors ? 2 : 0, n_max = n_majors + (f.scales ? 2 : 0);
  const bool count_ok = targs.size() <= n_max && (targs.empty() || targs.size() >= n_majors);
  if (!count_ok) bad_targs(op, targs, gmma_expected(f, g.rs));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n_majors; ++i) {
    const std::string_view m = targs.empty() ? "K" : gmma_enumerator(targs[i], "Major");
    if (m != "K" && m != "MN") bad_targs(op, targs, gmma_expected(f, g.rs));
    if (i == 0 && g.rs && m != "K") bad_targs(op, targs, gmma_expected(f, g.rs));
    out.push_back("GMMA::Major::" + std::string(m));
  }
  std::vector<std::string> scales;
  for (std::size_t i = n_majors; i < targs.size(); ++i) {
    const std::string_view sc = gmma_enumerator(targs[i], "ScaleIn");
    if (sc != "One" && sc != "Neg") bad_targs(op, targs, gmma_expected(f, g.rs));
    scales.push_back("GMMA::ScaleIn::" + std::string(sc));
  }
  while (!scales.empty() && scales.back() == "GMMA::ScaleIn::One") scales.pop_back();
  out.insert(out.end(), scales.begin(), scales.end());
  return out;
}

Layout tuple_layout(std::vector<IntTuple> shape, std::vector<IntTuple> stride) {
  return Layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride)));
}

// CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)): thread (t0,t1,w) of warp w holds
// rows 16w + t1 (+8) and column pairs 2*t0 (+1) of every 8-column block.
Layout gmma_c_layout(i64 n) {
  return tuple_layout({IntTuple::tuple({4, 8, 4}), IntTuple::tuple({2, 2, n / 8})},
                      {IntTuple::tuple({128, 1, 16}), IntTuple::tuple({64, 8, 512})});
}

// ABLayout<MN,K> = (128,(MN,K)):(0,(1,MN)): every thread of the warpgroup "holds" the whole
// smem tile (the descriptor), so the thread mode has stride 0.
Layout gmma_smem_layout(i64 mn, i64 k) {
  return tuple_layout({128, IntTuple::tuple({mn, k})}, {0, IntTuple::tuple({1, mn})});
}

// ALayout_64x{K} for a register-sourced A (the CLayout pattern over 64 x 256 bits of A).
Layout gmma_a_register_layout(i64 k) {
  if (k == 8) return parse_layout("((4,8,4),(2,2)):((64,1,16),(8,256))");
  if (k == 16) return parse_layout("((4,8,4),(2,2,2)):((128,1,16),(64,8,512))");
  return parse_layout("((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))");  // k == 32
}

std::optional<MmaAtomInfo> find_gmma(const Spelling& s) {
  const auto g = parse_gmma_name(s.op);
  if (!g) return std::nullopt;
  const GmmaFamily& f = *g->family;
  MmaAtomInfo info;
  info.name = with_targs(s.op, gmma_targs(s.op, *g, s.targs));
  info.m = 64, info.n = g->n, info.k = f.k;
  info.thr_id = parse_layout("128:1");
  info.a_tv = g->rs ? gmma_a_register_layout(f.k) : gmma_smem_layout(64, f.k);
  info.b_tv = gmma_smem_layout(g->n, f.k);
  info.c_tv = gmma_c_layout(g->n);
  info.a_type = f.a, info.b_type = f.b, info.c_type = f.d, info.d_type = f.d;
  return info;
}

std::vector<std::string> gmma_names() {
  std::vector<std::string> out;
  for (const GmmaFamily& f : gmma_families())
    for (const char* ab : {"SS", "RS"})
      for (i64 n = 8; n <= 256; n += 8) {
        if (!gmma_has_n(f, n)) continue;
        const std::string name = "SM90_64x" + std::to_string(n) + "x" + std::to_string(f.k) + "_" + f.types + "_" + ab +
                                 (f.tn ? "_TN" : "");
        out.push_back(name);
        if (f.int8) out.push_back(name + "_SATURATE");
      }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Copy operations
// ------------------------------------------------------------------------------------------------

// ldmatrix / stmatrix: 32 threads. The smem side gives each thread one 128-bit row address
// ((8,4) / (16,2) threads with stride 0 on the repeat: only threads 0-7 / 0-15 address rows of
// .x1 / .x2); the register side gives each thread N 32-bit registers. STSM's traits are LDSM's
// with Src and Dst swapped (copy_traits_sm90.hpp), and Ref is the register side in both.
struct MatrixOp {
  const char* name;
  CopyKind kind;
  int matrices;  // .xN of the PTX instruction
  bool transposed;
  const char* smem;  // (thr,val) -> bit of the 8x8 b16 matrices in smem
  const char* regs;  // (thr,val) -> bit of the same matrices in registers
};

constexpr const char* kRows1 = "((8,4),128):((128,0),1)";
constexpr const char* kRows2 = "((16,2),128):((128,0),1)";
constexpr const char* kRows4 = "(32,128):(128,1)";
constexpr const char* kRegsN1 = "(32,32):(32,1)";
constexpr const char* kRegsN2 = "(32,(32,2)):(32,(1,1024))";
constexpr const char* kRegsN4 = "(32,(32,4)):(32,(1,1024))";
constexpr const char* kRegsT1 = "((4,8),(16,2)):((256,16),(1,128))";
constexpr const char* kRegsT2 = "((4,8),(16,2,2)):((256,16),(1,128,1024))";
constexpr const char* kRegsT4 = "((4,8),(16,2,4)):((256,16),(1,128,1024))";

const std::vector<MatrixOp>& matrix_ops() {
  static const std::vector<MatrixOp> ops = {
      {"SM75_U32x1_LDSM_N", CopyKind::ldsm, 1, false, kRows1, kRegsN1},
      {"SM75_U32x2_LDSM_N", CopyKind::ldsm, 2, false, kRows2, kRegsN2},
      {"SM75_U32x4_LDSM_N", CopyKind::ldsm, 4, false, kRows4, kRegsN4},
      {"SM75_U16x2_LDSM_T", CopyKind::ldsm, 1, true, kRows1, kRegsT1},
      {"SM75_U16x4_LDSM_T", CopyKind::ldsm, 2, true, kRows2, kRegsT2},
      {"SM75_U16x8_LDSM_T", CopyKind::ldsm, 4, true, kRows4, kRegsT4},
      {"SM90_U32x1_STSM_N", CopyKind::stsm, 1, false, kRows1, kRegsN1},
      {"SM90_U32x2_STSM_N", CopyKind::stsm, 2, false, kRows2, kRegsN2},
      {"SM90_U32x4_STSM_N", CopyKind::stsm, 4, false, kRows4, kRegsN4},
      {"SM90_U16x2_STSM_T", CopyKind::stsm, 1, true, kRows1, kRegsT1},
      {"SM90_U16x4_STSM_T", CopyKind::stsm, 2, true, kRows2, kRegsT2},
      {"SM90_U16x8_STSM_T", CopyKind::stsm, 4, true, kRows4, kRegsT4},
      // copy_traits_sm100.hpp: 8-bit ldmatrix/stmatrix (m16n16 / m16n8 .trans .b8, and m8n16
      // .b8x16 from packed 4-/6-bit rows). `matrices` counts the lanes that address a 16-byte
      // row: 8, 16 or 32, as for .x1, .x2, .x4 of the 16-bit forms.
      {"SM100_U8x8_LDSM_T", CopyKind::ldsm, 2, true, "((2,2,4,2),128):((128,1024,256,0),1)",
       "((4,8),(8,2,2,2)):((256,8),(1,128,64,1024))"},
      {"SM100_U8x16_LDSM_T", CopyKind::ldsm, 4, true, "((2,2,4,2),128):((128,1024,256,2048),1)",
       "((4,8),(8,2,2,4)):((256,8),(1,128,64,1024))"},
      {"SM100_SU4_DU8x16_x1_LDSM_N", CopyKind::ldsm, 1, false, kRows1, kRegsN1},
      {"SM100_SU6_DU8x16_x1_LDSM_N", CopyKind::ldsm, 1, false, kRows1, kRegsN1},
      {"SM100_SU4_DU8x16_x2_LDSM_N", CopyKind::ldsm, 2, false, kRows2, kRegsN2},
      {"SM100_SU6_DU8x16_x2_LDSM_N", CopyKind::ldsm, 2, false, kRows2, kRegsN2},
      {"SM100_SU4_DU8x16_x4_LDSM_N", CopyKind::ldsm, 4, false, kRows4, kRegsN4},
      {"SM100_SU6_DU8x16_x4_LDSM_N", CopyKind::ldsm, 4, false, kRows4, kRegsN4},
      {"SM100_U8x4_STSM_T", CopyKind::stsm, 1, true, kRows1, "((4,8),(8,2,2)):((256,8),(1,128,64))"},
      {"SM100_U8x8_STSM_T", CopyKind::stsm, 2, true, kRows2, "((4,8),(8,2,2,2)):((256,8),(1,128,64,1024))"},
      {"SM100_U8x16_STSM_T", CopyKind::stsm, 4, true, kRows4, "((4,8),(8,2,2,4)):((256,8),(1,128,64,1024))"},
  };
  return ops;
}

CopyOpInfo matrix_info(const MatrixOp& m) {
  const bool load = m.kind == CopyKind::ldsm;
  CopyOpInfo info;
  info.name = m.name;
  info.kind = m.kind;
  info.thr_id = parse_layout("32:1");
  info.src = parse_layout(load ? m.smem : m.regs);
  info.dst = parse_layout(load ? m.regs : m.smem);
  info.ref = parse_layout(m.regs);
  info.matrices = m.matrices;
  info.transposed = m.transposed;
  // SRegisters / DRegisters: uint128_t[1] on the smem side, uint32_t[N] on the register side.
  info.src_reg_bits = load ? 128 : 32;
  info.dst_reg_bits = load ? 32 : 128;
  return info;
}

std::optional<CopyOpInfo> find_matrix_op(const Spelling& s) {
  for (const MatrixOp& m : matrix_ops()) {
    if (s.op != m.name) continue;
    if (!s.targs.empty()) bad_targs(s.op, s.targs, "none (" + s.op + " is not a template)");
    return matrix_info(m);
  }
  return std::nullopt;
}

// One thread moving one S register to one D register: ThrID Layout<_1> = 1:0, Src
// Layout<Shape<_1,Int<bits(S)>>> = (1,bits):(0,1), Dst likewise with D, Ref = Src. Shared by
// UniversalCopy (copy_traits.hpp) and the four cp.async ops (copy_traits_sm80.hpp).
CopyOpInfo one_register_copy(std::string name, CopyKind kind, int s_bits, int d_bits) {
  CopyOpInfo info;
  info.name = std::move(name);
  info.kind = kind;
  info.thr_id = parse_layout("1:0");
  info.src = Layout(IntTuple::tuple({1, s_bits}), IntTuple::tuple({0, 1}));
  info.dst = Layout(IntTuple::tuple({1, d_bits}), IntTuple::tuple({0, 1}));
  info.ref = info.src;
  info.src_reg_bits = s_bits;
  info.dst_reg_bits = d_bits;
  return info;
}

// <S[,D = S]> canonically spelled, D left out when it is S.
std::vector<std::string> source_dest_targs(const Spelling& s, const std::string& expected) {
  if (s.targs.empty() || s.targs.size() > 2) bad_targs(s.op, s.targs, expected);
  std::vector<std::string> t = {canonical_type(s.targs[0])};
  if (s.targs.size() == 2) t.push_back(canonical_type(s.targs[1]));
  if (t.size() == 2 && t[1] == t[0]) t.pop_back();
  return t;
}

// SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<TS, TD = TS> (arch/copy_sm80.hpp): CuTe asserts
// sizeof(TS) == sizeof(TD) and sizeof(TS) in {4, 8, 16}, only 16 for CACHEGLOBAL (cp.async.cg).
std::optional<CopyOpInfo> find_cp_async(const Spelling& s) {
  const bool always = s.op == "SM80_CP_ASYNC_CACHEALWAYS" || s.op == "SM80_CP_ASYNC_CACHEALWAYS_ZFILL";
  const bool global = s.op == "SM80_CP_ASYNC_CACHEGLOBAL" || s.op == "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL";
  if (!always && !global) return std::nullopt;
  const std::string sizes = always ? "4, 8 or 16 bytes" : "16 bytes";
  const std::string expected = "<TS[,TD]> with sizeof(TS) == sizeof(TD) == " + sizes + " (e.g. uint128_t)";
  const std::vector<std::string> t = source_dest_targs(s, expected);
  const int s_bits = require_type_bits(s.op, t[0]);
  const int d_bits = require_type_bits(s.op, t.back());
  const bool size_ok = always ? (s_bits == 32 || s_bits == 64 || s_bits == 128) : s_bits == 128;
  if (!size_ok || s_bits != d_bits) bad_targs(s.op, s.targs, expected);
  return one_register_copy(with_targs(s.op, t), CopyKind::cp_async, s_bits, d_bits);
}

// UniversalCopy<S, D = S> (arch/copy.hpp): any types of at least 8 bits (CuTe asserts it).
std::optional<CopyOpInfo> find_universal_copy(const Spelling& s) {
  if (s.op != "UniversalCopy") return std::nullopt;
  const std::string expected = "<S[,D]> with types of at least 8 bits (CuTe asserts sizeof_bits >= 8)";
  const std::vector<std::string> t = source_dest_targs(s, expected);
  const int s_bits = require_type_bits(s.op, t[0]);
  const int d_bits = require_type_bits(s.op, t.back());
  if (s_bits < 8 || d_bits < 8) bad_targs(s.op, s.targs, expected);
  return one_register_copy(with_targs(s.op, t), CopyKind::universal, s_bits, d_bits);
}

// AutoVectorizingCopyWithAssumedAlignment<MaxVecBits = 128> (arch/copy.hpp), aliased as
// AutoVectorizingCopy (<128>) and DefaultCopy (<8>). Its traits are a placeholder: ThrID 1:0 and
// Src = Dst = Ref = (1,1):(0,0); the copy algorithm vectorizes up to MaxVecBits itself. Its
// registers are those of the UniversalCopy<uint_bit_t<MaxVecBits>> it derives from.
std::optional<CopyOpInfo> find_autovec(const Spelling& s) {
  int bits = 0;
  const std::string expected = "<8|16|32|64|128> (default 128)";
  if (s.op == "DefaultCopy" || s.op == "AutoVectorizingCopy") {
    if (!s.targs.empty()) bad_targs(s.op, s.targs, "none (" + s.op + " is an alias)");
    bits = s.op == "DefaultCopy" ? 8 : 128;
  } else if (s.op == "AutoVectorizingCopyWithAssumedAlignment") {
    if (s.targs.size() > 1) bad_targs(s.op, s.targs, expected);
    const std::optional<i64> b = s.targs.empty() ? 128 : parse_decimal(trim(s.targs[0]));
    if (!b || (*b != 8 && *b != 16 && *b != 32 && *b != 64 && *b != 128)) bad_targs(s.op, s.targs, expected);
    bits = static_cast<int>(*b);
  } else {
    return std::nullopt;
  }
  CopyOpInfo info;
  info.name = s.op == "AutoVectorizingCopyWithAssumedAlignment" ? with_targs(s.op, {std::to_string(bits)}) : s.op;
  info.kind = CopyKind::autovec;
  info.thr_id = parse_layout("1:0");
  info.src = info.dst = info.ref = parse_layout("(1,1):(0,0)");
  info.src_reg_bits = info.dst_reg_bits = info.max_vec_bits = bits;
  return info;
}

}  // namespace

std::optional<MmaAtomInfo> find_mma_atom(std::string_view name, const std::vector<std::string>& targs) {
  Spelling s = spell(name, targs);
  // SM90::MMA_16x8x4_F64F64F64F64_TN is the arch name of SM90_16x8x4_F64F64F64F64_TN (mma_traits_sm90.hpp).
  if (starts_with(s.op, "SM90::MMA_")) s.op = "SM90_" + s.op.substr(10);
  if (auto w = find_warp_atom(s)) return w;
  if (auto u = find_universal_fma(s)) return u;
  if (auto d = find_sm61(s)) return d;
  if (auto f = find_sm100_ffma2(s)) return f;
  if (auto g = find_gmma(s)) return g;
  if (auto q = find_sm120_mma(s.op, s.targs)) return q;
  return find_umma(s.op, s.targs);
}

std::vector<std::string> mma_atom_names() {
  std::vector<std::string> out;
  for (const WarpAtom& w : warp_atoms()) out.push_back(w.name);
  out.push_back("UniversalFMA");
  out.push_back("SM61_DP4A");
  out.push_back("SM61_DP2A");
  out.push_back("SM100_2x1x1_F32F32F32F32");
  out.push_back("SM100_1x2x1_F32F32F32F32");
  for (std::string& q : sm120_mma_names()) out.push_back(std::move(q));
  for (std::string& g : gmma_names()) out.push_back(std::move(g));
  for (std::string& u : umma_names()) out.push_back(std::move(u));
  return out;
}

std::optional<CopyOpInfo> find_copy_op(std::string_view name, const std::vector<std::string>& targs) {
  const Spelling s = spell(name, targs);
  if (auto m = find_matrix_op(s)) return m;
  if (auto c = find_cp_async(s)) return c;
  if (auto u = find_universal_copy(s)) return u;
  return find_autovec(s);
}

std::vector<std::string> copy_op_names() {
  std::vector<std::string> out;
  for (const MatrixOp& m : matrix_ops()) out.push_back(m.name);
  for (const char* n : {"SM80_CP_ASYNC_CACHEALWAYS", "SM80_CP_ASYNC_CACHEGLOBAL", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL",
                        "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", "UniversalCopy", "DefaultCopy", "AutoVectorizingCopy",
                        "AutoVectorizingCopyWithAssumedAlignment"})
    out.push_back(n);
  return out;
}

}  // namespace layoutproof
