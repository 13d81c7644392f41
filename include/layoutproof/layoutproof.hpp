#pragma once
// layoutproof's C++ API, for kernel projects that prove their shared-memory layouts in their own
// code and unit tests (docs/package.md). A thin facade: every call goes to the functions the
// `layoutproof` command runs (model/ for parsing and tracing, proofs/ for verdicts), so the API and
// the CLI give the same verdicts. The installed header needs nothing but the standard library.
//
//   find_package(layoutproof REQUIRED)
//   target_link_libraries(my_tests PRIVATE layoutproof::layoutproof)
//
//   #include <layoutproof/layoutproof.hpp>
//   namespace lp = layoutproof::api;
//   auto l = lp::parse_layout("Sw<3,3,3> o (8,64):(64,1)");   // or the kernel's C++
//   if (!l) { std::cerr << l.error().to_string() << "\n"; return 2; }  // located, with a caret
//   lp::Verdict v = lp::prove(*l, "contiguous:16");
//   // v.outcome == Outcome::refuted; v.witness.text():
//   //   "x: index 1 (1,0) -> 72 (group base offset 72 is not a multiple of 16)"
//
// Verdicts are values (PROVED / REFUTED with a replayed witness / UNKNOWN / ERROR), never a bool
// and never an exception. Bad input (a layout or claim that does not parse) is an Error value:
// parse_layout and trace return a Result; prove returns an ERROR verdict with `bad_input` set.
//
// Everything but version() is in layoutproof::api: the namespace layoutproof itself holds the
// library's internal types (model/: its own Layout, ...), which the installed headers never expose.
#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace layoutproof {
namespace api {

// The package version, e.g. "0.1.0": the string `layoutproof --version` prints and the version
// find_package(layoutproof) reports (one source: project(layoutproof VERSION ...) in CMakeLists.txt).
std::string version();

// Bad input, located where there is text: `column` is 1-based in `input` (0: no column).
// Example: parse_layout("(8,64):(64,1") gives message "expected ')' at column 13 of '(8,64):(64,1'"
// and caret() "  (8,64):(64,1\n              ^".
struct Error {
  std::string message;       // one line, no trailing newline
  std::size_t column = 0;
  std::string input;
  std::string caret_text;    // the input line and a caret under the column ("" when not located)
  const std::string& caret() const { return caret_text; }
  std::string to_string() const { return caret_text.empty() ? message : message + "\n" + caret_text; }
};

// A value or a located Error. value() on an error throws std::logic_error carrying the message.
template <class T>
class Result {
 public:
  Result(T v) : v_(std::move(v)) {}      // NOLINT: implicit, as std::expected
  Result(Error e) : v_(std::move(e)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const {
    if (!ok()) throw std::logic_error("layoutproof: value() of an error: " + error().message);
    return std::get<0>(v_);
  }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }  // @pre !ok()

 private:
  std::variant<T, Error> v_;
};

// Named constants of C++ input: NAME (may be qualified, DispatchPolicy::Stages) -> C++ expression,
// as `-D NAME=EXPR` on the command line: {{"bM", "Int<128>{}"}, {"Stages", "4"}}.
using Constants = std::map<std::string, std::string>;

namespace detail {
struct LayoutImpl;
struct TraceImpl;
struct Access;
}  // namespace detail

// A parsed layout: a plain or swizzled CuTe layout, or a bare swizzle Sw<B,M,S>. Cheap to copy.
class Layout {
 public:
  std::string text() const;          // CuTe notation: "Sw<3,3,3> o _0 o (8,64):(64,1)"
  long long size() const;            // number of indices (a bare swizzle: the offsets it touches)
  bool is_bare_swizzle() const;
  // L(index): the offset of the index-th element (colexicographic). Throws std::out_of_range
  // when index is not in [0, size()), std::logic_error on a bare swizzle and std::runtime_error
  // when the layout cannot be evaluated (a 64-bit overflow).
  long long offset(long long index) const;

 private:
  Layout() = default;  // only parse_layout makes one, so a Layout always holds a layout
  friend struct detail::Access;
  std::shared_ptr<const detail::LayoutImpl> impl_;
};

// CuTe notation ("(8,64):(64,1)", "Sw<3,3,3> o (8,64):(64,1)", "Sw<3,4,3>") or the C++ a kernel
// writes ("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})",
// "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, bK, Int<Stages>{}))" with
// constants), through the one input path the CLI uses (docs/cpp_input.md).
Result<Layout> parse_layout(std::string_view text, const Constants& constants = {});

enum class Outcome { proved, refuted, unknown, error };
const char* to_string(Outcome o);  // "PROVED", "REFUTED", "UNKNOWN", "ERROR"

// One element of a layout claim's counterexample.
struct WitnessPoint {
  std::string role;        // "x", "y", "missing", ...
  long long index = -1;    // logical index (-1: an offset only)
  std::string coord;       // CuTe coordinate ("" when none)
  long long offset = 0;    // what the layout maps it to (or the missing offset), in `unit`s
  std::string unit;        // "element", "byte" (a shared-memory address), "offset" (a bare swizzle's), or ""
};

// A counterexample that was replayed on the model before it was returned (REFUTED only).
// Layout claims fill `points`; claims over a trace fill instruction/warp/phase/bank/lanes.
struct Witness {
  std::string why;                     // one sentence
  std::vector<WitnessPoint> points;
  long long instruction = -1, warp = -1;
  int phase = -1, bank = -1, ways = 0, wavefronts = 0, ideal = 0;
  std::vector<int> lanes;
  std::string text() const;            // "x: index 1 (1,0) -> 72 (why)", or `why`
};

struct [[nodiscard]] Verdict {
  Outcome outcome = Outcome::error;
  std::string claim;        // as written
  std::string subject;      // the layout or trace, in CuTe notation / its provenance
  std::string method;       // "exhaustive check of 512 indices", "z3", ...
  std::string detail;       // PROVED: what was proved; UNKNOWN: reason; ERROR: message
  Witness witness;          // REFUTED only
  std::vector<std::string> queries;  // SMT queries behind the verdict (--dump-smt names)
  double time_ms = 0;
  long long largest_v = 0;  // contiguous:V: the largest V that holds (0: not computed)
  bool bad_input = false;   // ERROR because the claim (or its layout argument) did not parse

  bool proved() const { return outcome == Outcome::proved; }
  bool refuted() const { return outcome == Outcome::refuted; }
  // One line as `layoutproof prove` prints it: "REFUTED  contiguous:16  [method]  witness: ...".
  std::string to_string() const;
};
std::ostream& operator<<(std::ostream& os, const Verdict& v);  // to_string(); gtest prints this

enum class Engine { automatic, z3, exhaustive };

struct Options {
  Engine engine = Engine::automatic;  // automatic: enumerate small domains, Z3 above
  unsigned timeout_ms = 10000;        // per Z3 query
  std::string dump_smt_dir;           // non-empty: write every Z3 query there as SMT-LIB2
  Constants constants;                // for C++ layouts inside claims (equivalent:L2, inverse:R)
};

// Proves one claim about a layout: injective | bijective | surjective:N | contiguous:V[@MODE] |
// equivalent:L2 | involution | inverse:R (L2, R: layouts, C++ included), as `layoutproof prove`.
// Example: prove(Sw<3,3,3> o (8,64):(64,1), "bijective") is PROVED ("injective, image = [0,512)").
Verdict prove(const Layout& layout, std::string_view claim, const Options& options = {});
// The same from text; a layout that does not parse gives ERROR with bad_input and the located message.
Verdict prove(std::string_view layout, std::string_view claim, const Options& options = {});

// One warp-wide shared-memory instruction of a trace: each lane's byte address (-1: inactive).
struct Instruction {
  long long warp = 0;
  long long index = 0;                      // within its warp
  std::vector<long long> copy_coord;        // coordinate in the copy's rest modes
  std::array<long long, 32> addr{};
  std::string where;                        // "warp 0, copy index (0,0,0,0)"
};

// The shared-memory instructions a CuTe TiledCopy issues on a staged smem tensor (model/trace/tv.hpp).
class Trace {
 public:
  std::string provenance() const;
  std::string op() const;                   // "ldsm4", "ld", "st", ...
  int width_bytes() const;                  // bytes per lane
  long long threads() const;
  std::vector<Instruction> instructions() const;
  std::string to_json() const;              // as `layoutproof trace --json`

 private:
  Trace() = default;  // only trace() makes one
  friend struct detail::Access;
  std::shared_ptr<const detail::TraceImpl> impl_;
};

enum class Side { S, D };  // the smem tensor is the copy's source (S: s2r, ldmatrix) or destination (D)

// `layoutproof trace --smem SMEM --copy COPY --mma MMA --side SIDE --element ELEMENT`: mma may be
// empty (no TiledMMA); `mma` in COPY names it. base_address: byte address of the tensor.
// Example: trace("tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}),
//   make_shape(Int<128>{},Int<64>{},Int<3>{}))", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)",
//   "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})",
//   "half_t", Side::S) has 192 ldsm4 instructions over 4 warps.
Result<Trace> trace(std::string_view smem, std::string_view copy, std::string_view mma, std::string_view element,
                    Side side, const Constants& constants = {}, long long base_address = 0);

// A claim over every instruction of a trace: conflict-free | max-ways:K | vector-legal | covers.
Verdict prove(const Trace& trace, std::string_view claim, const Options& options = {});

}  // namespace api

using api::version;  // layoutproof::version()

}  // namespace layoutproof
