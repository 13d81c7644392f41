// A kernel project's use of the layoutproof API: parse its layouts (notation and C++), prove
// claims, trace a TiledCopy. Prints one line per result; exits 1 when a result is not the one
// this file expects, so the package test fails loudly.
#include <layoutproof/layoutproof.hpp>

#include <iostream>
#include <string>

namespace lp = layoutproof::api;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cout << "UNEXPECTED: " << what << "\n";
    ++failures;
  }
}

int main() {
  std::cout << "version " << layoutproof::version() << " (package " << PACKAGE_VERSION << ")\n";
  expect(layoutproof::version() == PACKAGE_VERSION, "version() differs from find_package's layoutproof_VERSION");

  // The same swizzled atom, pasted as the kernel's C++.
  const lp::Result<lp::Layout> atom = lp::parse_layout(
      "using SmemLayoutAtom = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,Int<BK>>, Stride<Int<BK>,_1>>{}));",
      {{"BK", "64"}});
  expect(atom.ok(), "C++ layout parses");
  if (!atom) return 1;
  std::cout << "layout " << atom->text() << " size " << atom->size() << " offset(1) " << atom->offset(1) << "\n";

  const lp::Verdict bijective = lp::prove(*atom, "bijective");
  std::cout << bijective << "\n";
  expect(bijective.proved(), "bijective is PROVED");

  const lp::Verdict wide = lp::prove(*atom, "contiguous:16");
  std::cout << wide << "\n";
  expect(wide.refuted() && !wide.witness.points.empty(), "contiguous:16 is REFUTED with a witness");

  lp::Options z3;
  z3.engine = lp::Engine::z3;
  const lp::Verdict by_z3 = lp::prove("Sw<3,3,3> o (8,64):(64,1)", "injective", z3);
  std::cout << by_z3 << "\n";
  expect(by_z3.proved() && by_z3.method.find("z3") != std::string::npos, "injective is PROVED by z3");

  const lp::Result<lp::Layout> bad = lp::parse_layout("(8,64):(64,1");
  expect(!bad.ok() && bad.error().column > 0, "a malformed layout is a located error");
  if (!bad) std::cout << "error: " << bad.error().to_string() << "\n";

  const lp::Verdict bad_claim = lp::prove(*atom, "bijektive");
  std::cout << bad_claim << "\n";
  expect(bad_claim.outcome == lp::Outcome::error && bad_claim.bad_input, "a misspelled claim is bad input");

  // CUTLASS's SM80 f16 A-operand ldmatrix copy on its staged, swizzled tile.
  const lp::Result<lp::Trace> t = lp::trace(
      "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))",
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)",
      "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})", "half_t",
      lp::Side::S);
  expect(t.ok(), "the trace builds");
  if (!t) return 1;
  std::cout << "trace " << t->instructions().size() << " instructions, " << t->op() << ", " << t->width_bytes()
            << " B per lane, " << t->threads() << " threads\n";
  for (const char* c : {"conflict-free", "vector-legal", "covers"}) {
    const lp::Verdict v = lp::prove(*t, c);
    std::cout << v << "\n";
    expect(v.proved(), std::string(c) + " is PROVED on the trace");
  }

  // The same copy on an unswizzled tile conflicts: 8 rows of 128 bytes share banks.
  const lp::Result<lp::Trace> plain = lp::trace(
      "(128,64,3):(64,1,8192)", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)",
      "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})", "half_t",
      lp::Side::S);
  expect(plain.ok(), "the unswizzled trace builds");
  if (!plain) return 1;
  const lp::Verdict conflicts = lp::prove(*plain, "conflict-free");
  std::cout << conflicts << "\n";
  expect(conflicts.refuted() && conflicts.witness.lanes.size() >= 2, "conflict-free is REFUTED with lanes");

  std::cout << (failures ? "consumer: FAILED" : "consumer: all as expected") << "\n";
  return failures ? 1 : 0;
}
