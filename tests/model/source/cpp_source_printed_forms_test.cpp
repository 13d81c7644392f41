// model/source/cpp_source.hpp: CuTe's printed forms are notation, never C++. looks_like_cpp_source
// took the static negative `_-1` and the basis `E<1,0>` for C++ names, so `eval '(4,8):(_-1,4)'`
// failed in the C++ parser. The texts below are CuTe's own prints (tests/algebra_corpus/cute_corpus.txt).
#include <gtest/gtest.h>

#include <string>

#include "model/source/cpp_source.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

TEST(CppSourcePrintedForms, CutesPrintsAreNotation) {
  for (const char* text : {"(_4):(_-1)", "(_2,(_2,_2),_2):(_-1,(_-2,_1),_2)", "(4,8):(_-1,4)", "_4:_-1",
                           "(_4,_4):(_1@1,_1@0)", "(_2,_4):(_1@1@1,_1@0)", "(_4,_8):(E<0>,E<1>)", "(_4,_8):(E<1,0>,_1@1)",
                           "(_4,_8):(_-1@0,_1@1)", "Sw<1,0,1> o _-1 o _4:_1"})
    EXPECT_FALSE(looks_like_cpp_source(text)) << text;
  // C++ stays C++.
  for (const char* text : {"make_layout(make_shape(_4,_8), make_stride(E<0>{}, E<1>{}))", "Int<-1>{}", "_4{} * bM", "E"})
    EXPECT_TRUE(looks_like_cpp_source(text)) << text;
}

TEST(CppSourcePrintedForms, NegativeStaticStridesEvaluate) {
  const AnyLayout l = parse_layout_any_syntax("(4,8):(_-1,4)");
  EXPECT_EQ(to_string(l), "(4,8):(-1,4)");
  EXPECT_EQ(evaluate(l, IntTuple(1)), -1);
  EXPECT_EQ(evaluate(l, IntTuple(5)), 3);
  EXPECT_EQ(to_string(parse_layout_any_syntax("(_2,(_2,_2),_2):(_-1,(_-2,_1),_2)")), "(2,(2,2),2):(-1,(-2,1),2)");
  // The basis form is read by the notation, which says why an offset needs integer strides.
  try {
    (void)offsets(parse_layout_any_syntax("(_4,_8):(E<0>,E<1>)"));
    FAIL() << "a basis-stride layout has no integer offsets";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("basis stride"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace layoutproof
