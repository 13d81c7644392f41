// Fuzz target: the C++ front end (model/source/cpp_source.hpp, model/source/cpp_expr.hpp): the lexer and parser,
// then the evaluator with its built-ins (CuTe algebra, CUTLASS atoms and selectors), with a -D constant.
// Invariant: a layout the C++ evaluates to prints (CuTe's text) to notation that parses back to the
// same text; a bare swizzle prints and parses back too.
#include "fuzz/fuzz_common.hpp"
#include "model/source/cpp_expr.hpp"
#include "model/source/cpp_source.hpp"
#include "model/layout/notation.hpp"

using namespace layoutproof;
using layoutproof::fuzz::accepted;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text = fuzz::text_of(data, size);
  accepted([&] { (void)parse_cpp_program(text); });
  const CppConstants constants = {{"bM", "Int<64>{}"}, {"Stages", "3"}};
  LayoutOrSwizzle v;
  if (!accepted([&] { v = parse_layout_or_swizzle(text, constants); })) return 0;
  if (v.bare_swizzle) {
    const std::string printed = to_string(*v.layout.swizzle);
    std::string again;
    FUZZ_REQUIRE(accepted([&] { again = to_string(parse_swizzle(printed)); }), "swizzle prints and parses back", printed, "(refused)");
    FUZZ_REQUIRE(again == printed, "swizzle prints and parses back", printed, again);
    return 0;
  }
  const std::string printed = to_cute_string(v.layout);
  std::string again;
  FUZZ_REQUIRE(accepted([&] { again = to_cute_string(parse_any_layout(printed, Reading::exact, true)); }),
               "C++ layout prints as notation that parses", printed, "(refused)");
  FUZZ_REQUIRE(again == printed, "C++ layout prints as notation that parses back the same", printed, again);
  return 0;
}
