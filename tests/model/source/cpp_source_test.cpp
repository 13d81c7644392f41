// model/source/cpp_source.hpp: layouts pasted from C++ source mean what CuTe builds from them.
#include "model/source/cpp_source.hpp"

#include <gtest/gtest.h>

#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

std::string cpp(const char* s) { return to_string(parse_cpp_layout(s)); }

TEST(CppSource, CompositionAndMakeLayout) {
  EXPECT_EQ(cpp("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"), "Sw<3,3,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(cpp("make_layout(make_shape(8,64), make_stride(64,1))"), "(8,64):(64,1)");
}

TEST(CppSource, IntegerSpellingsNamespacesAndTags) {
  EXPECT_EQ(cpp("cute::make_layout(cute::make_shape(Int<8>{}, _64{}), cute::make_stride(C<64>{}, _1{}))"), "(8,64):(64,1)");
  EXPECT_EQ(cpp("make_layout(make_shape(_8,_64), LayoutRight{})"), "(8,64):(64,1)");
  EXPECT_EQ(cpp("make_layout(make_shape(8,64))"), "(8,64):(1,8)");
  EXPECT_EQ(cpp("Layout<Shape<_8,Shape<_2,_4>>>{}"), "(8,(2,4)):(1,(8,16))");
  // A run-time size-1 mode keeps the running stride (CuTe prints (2,1,3):(3,3,_1)); a static one gets 0.
  EXPECT_EQ(cpp("make_layout(make_shape(2,1,3), GenRowMajor{})"), "(2,1,3):(3,3,1)");
  EXPECT_EQ(cpp("make_layout(make_shape(_2{},_1{},_3{}), GenRowMajor{})"), "(2,1,3):(3,0,1)");
  EXPECT_EQ(cpp("composition(Swizzle<3,4,3>{}, Int<0>{}, make_layout(make_shape(8,64), make_stride(64,1)))"),
            "Sw<3,4,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(cpp("make_layout(make_shape(8,make_shape(8,8)), make_stride(8,make_stride(1,64)))"), "(8,(8,8)):(8,(1,64))");
}

TEST(CppSource, BothSyntaxesThroughOneEntryPoint) {
  EXPECT_EQ(to_string(parse_layout_any_syntax("Sw<3,3,3> o (8,64):(64,1)")), "Sw<3,3,3> o 0 o (8,64):(64,1)");
  EXPECT_TRUE(looks_like_cpp_source("make_layout(make_shape(8,64))"));
  EXPECT_FALSE(looks_like_cpp_source("Sw<3,3,3> o (8,64):(64,1)"));
}

// The one input path: notation stays notation, anything naming C++ is C++, with constants.
TEST(CppSource, OneInputPathForBothSyntaxes) {
  const CppConstants c = {{"bM", "Int<16>{}"}, {"Sw", "Int<1>{}"}};
  EXPECT_EQ(to_string(parse_layout_any_syntax("(_8,_64):(_64,_1)", c)), "(8,64):(64,1)");
  EXPECT_EQ(to_string(parse_layout_any_syntax("make_layout(make_shape(bM, _8{}))", c)), "(16,8):(1,16)");
  EXPECT_EQ(to_string(parse_layout_any_syntax("8 * 64")), "512:1");  // not notation, but C++
  EXPECT_TRUE(looks_like_cpp_source("bM"));
  EXPECT_TRUE(looks_like_cpp_source("Int<8>{}"));
  EXPECT_FALSE(looks_like_cpp_source("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"));
  EXPECT_FALSE(looks_like_cpp_source("((_2,_3),4):((1,2),6)"));
  const LayoutOrSwizzle sw = parse_layout_or_swizzle("Swizzle<3,4,3>{}");
  EXPECT_TRUE(sw.bare_swizzle);
  EXPECT_EQ(to_string(*sw.layout.swizzle), "Sw<3,4,3>");
  EXPECT_TRUE(parse_layout_or_swizzle("Sw<2,0,4>").bare_swizzle);
  EXPECT_FALSE(parse_layout_or_swizzle("Sw<2,0,4> o (4,16):(1,4)").bare_swizzle);
  // A layout is required here: a bare swizzle says how to make one.
  try {
    (void)parse_layout_any_syntax("Swizzle<3,4,3>{}");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a layout, got swizzle Sw<3,4,3>"), std::string::npos);
  }
  // Errors come in the syntax the text is written in.
  try {
    (void)parse_layout_any_syntax("(4,2):(2");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, 9u);
    EXPECT_EQ(std::string(e.what()).find("unknown"), std::string::npos);
  }
  EXPECT_THROW(parse_layout_any_syntax("make_layout(make_shape(bM))"), ParseError);  // no constant bM
}

TEST(CppSource, MalformedInputSaysWhereWithAColumn) {
  try {
    (void)parse_cpp_layout("make_layout(make_shape(8,64), make_stride(64,1)");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, 48u);
  }
  EXPECT_THROW(parse_cpp_layout("composition(Swizzle<3,4,2>{}, make_layout(make_shape(8,64)))"), LayoutError);
}

}  // namespace
}  // namespace layoutproof
