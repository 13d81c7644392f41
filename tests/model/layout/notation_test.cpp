// Tests for model/layout/notation.hpp: parsing, canonical printing, round trips and ParseError columns.
#include "model/layout/notation.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/model/nesting.hpp"

namespace layoutproof {
namespace {

using T = IntTuple;

TEST(Notation, IntTuples) {
  EXPECT_EQ(parse_int_tuple("8"), T(8));
  EXPECT_EQ(parse_int_tuple("_8"), T(8));
  EXPECT_EQ(parse_int_tuple("(8,32)"), T::tuple({8, 32}));
  EXPECT_EQ(parse_int_tuple("((2,3),4)"), T::tuple({T::tuple({2, 3}), 4}));
  EXPECT_EQ(parse_int_tuple("(4)"), T::tuple({4}));
  EXPECT_EQ(parse_int_tuple(" ( _2 , ( 3 ,_4 ) ) "), T::tuple({2, T::tuple({3, 4})}));
  EXPECT_EQ(parse_int_tuple("-3"), T(-3));
}

TEST(Notation, Layouts) {
  EXPECT_EQ(parse_layout("8:4"), Layout(8, 4));
  EXPECT_EQ(parse_layout("(8,32):(32,1)"), Layout(T::tuple({8, 32}), T::tuple({32, 1})));
  EXPECT_EQ(parse_layout("(4):(1)"), Layout(T::tuple({4}), T::tuple({1})));
  // A shape alone means its compact column-major layout (static 1 -> stride 0).
  EXPECT_EQ(parse_layout("(2,3)"), parse_layout("(2,3):(1,2)"));
  EXPECT_EQ(parse_layout("(2,1,3)"), parse_layout("(2,1,3):(1,0,2)"));
  EXPECT_EQ(parse_layout("(_8,_64):(_64,_1)"), parse_layout("(8,64):(64,1)"));
}

TEST(Notation, RoundTripCanonical) {
  const char* canonical[] = {"8:4", "(8,32):(32,1)", "((2,3),4):((1,2),6)", "(4):(1)", "((2),4,16):((1),2,8)",
                             "(((2,2),2),3):(((1,4),2),16)", "(2,2):(-1,4)", "1:0",
                             "Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,1,-3> o 5 o (4,(2,2)):(1,(4,8))",
                             "Sw<0,4,3> o 0 o 8:1"};
  for (const char* s : canonical) {
    EXPECT_EQ(to_string(parse_any_layout(s)), s);
    EXPECT_EQ(to_string(parse_any_layout(to_string(parse_any_layout(s)))), s);
  }
}

TEST(Notation, NonCanonicalInputsPrintCanonically) {
  const char* pairs[][2] = {{"(_8,_64):(_64,_1)", "(8,64):(64,1)"},
                            {" ( 8 , 32 ) : ( 32 , 1 ) ", "(8,32):(32,1)"},
                            {"(2,3)", "(2,3):(1,2)"},
                            {"_4:_2", "4:2"},
                            {"Sw<3,3,3> o (8,64):(64,1)", "Sw<3,3,3> o 0 o (8,64):(64,1)"},
                            {"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
                            {"Swizzle<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
                            {"Swizzle<2,0,3> o (4):(1)", "Sw<2,0,3> o 0 o (4):(1)"}};
  for (auto& p : pairs) EXPECT_EQ(to_string(parse_any_layout(p[0])), p[1]) << p[0];
}

TEST(Notation, Swizzles) {
  EXPECT_EQ(parse_swizzle("Sw<3,4,3>"), (Swizzle{3, 4, 3}));
  EXPECT_EQ(parse_swizzle("Swizzle<2,1,-3>"), (Swizzle{2, 1, -3}));
  EXPECT_EQ(to_string(Swizzle{3, 4, 3}), "Sw<3,4,3>");
  // A bare swizzle is not a layout.
  EXPECT_THROW(parse_any_layout("Sw<3,4,3>"), LayoutError);
  // |S| < B is refused when parsed.
  EXPECT_THROW(parse_swizzle("Sw<3,4,2>"), LayoutError);
  EXPECT_THROW(parse_any_layout("Sw<3,4,2> o 0 o 8:1"), LayoutError);
}

TEST(Notation, Tilers) {
  const Tiler t = parse_tiler("[8:1,(2,2):(1,4)]");
  ASSERT_TRUE(t.is_tuple());
  ASSERT_EQ(t.modes.size(), 2u);
  EXPECT_EQ(t.modes[0].kind, Tiler::Kind::layout);
  EXPECT_EQ(t.modes[1].layout, parse_layout("(2,2):(1,4)"));
  const Tiler u = parse_tiler("[4,_]");
  ASSERT_EQ(u.modes.size(), 2u);
  EXPECT_EQ(u.modes[0].kind, Tiler::Kind::integer);
  EXPECT_EQ(u.modes[0].integer, 4);
  EXPECT_EQ(u.modes[1].kind, Tiler::Kind::underscore);
  EXPECT_EQ(parse_tiler("4:2").kind, Tiler::Kind::layout);
  EXPECT_EQ(parse_tiler("_").kind, Tiler::Kind::underscore);
  const Tiler s = parse_tiler("(8,4)");  // a shape tuple: by-mode integers
  ASSERT_TRUE(s.is_tuple());
  EXPECT_EQ(s.modes.size(), 2u);
}

int column_of(const char* text) {
  try {
    parse_any_layout(text);
  } catch (const ParseError& e) {
    return static_cast<int>(e.column);
  } catch (const LayoutError&) {
    return -2;  // not a ParseError
  }
  return -1;
}

TEST(Notation, ParseErrorColumns) {
  EXPECT_EQ(column_of("(4,2):(2,1"), 11);    // ')' missing at the end (one past the last character)
  EXPECT_EQ(column_of("(4,x):(1,4)"), 4);    // 'x'
  EXPECT_EQ(column_of("8:"), 3);             // stride missing
  EXPECT_EQ(column_of("(4,2):(2,1)z"), 12);  // trailing 'z'
  EXPECT_EQ(column_of("((4,2):(2,1)"), 7);   // ':' where ',' or ')' was expected
  EXPECT_EQ(column_of("Sw<3,4> o 8:1"), 7);  // '>' where ',' was expected
  EXPECT_EQ(column_of("(4,2):(2,1,3)"), 7);  // stride not congruent, reported at the stride
  EXPECT_EQ(column_of(""), 1);
}

TEST(Notation, ParseErrorCaret) {
  try {
    parse_any_layout("(4,x):(1,4)");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.input, "(4,x):(1,4)");
    const std::string c = e.caret();
    const auto nl = c.find('\n');
    ASSERT_NE(nl, std::string::npos);
    EXPECT_NE(c.find("(4,x):(1,4)"), std::string::npos);
    // The caret sits under column 4 of the input, wherever the input starts on its line.
    const std::string first = c.substr(0, nl), second = c.substr(nl + 1);
    const auto start = first.find("(4,x)");
    EXPECT_EQ(second.find('^'), start + 3) << c;
  }
}

TEST(Notation, OverflowWhileParsing) {
  EXPECT_THROW(parse_int_tuple("99999999999999999999"), LayoutError);
  // Located like every parse error (a caret under the integer), not truncated.
  try {
    parse_layout("4:99999999999999999999");
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()), "integer does not fit in 64 bits at column 3 of '4:99999999999999999999'");
    EXPECT_EQ(e.column, 3u);
  }
}

}  // namespace
}  // namespace layoutproof

namespace layoutproof {
namespace {

// Static and dynamic integers: a text without any `_`-int is all static (the legacy
// notation); a text with one is read exactly; Reading::exact always reads exactly.
TEST(Notation, StaticDynamicReading) {
  EXPECT_TRUE(parse_layout("(8,64):(64,1)").shape.is_static());
  const Layout mixed = parse_layout("(_8,64):(_64,1)");
  EXPECT_TRUE(mixed.shape[0].is_static());
  EXPECT_FALSE(mixed.shape[1].is_static());
  EXPECT_TRUE(mixed.stride[0].is_static());
  EXPECT_FALSE(mixed.stride[1].is_static());
  const Layout exact = parse_layout("(8,64):(64,1)", Reading::exact);
  EXPECT_FALSE(exact.shape.is_static());
  EXPECT_FALSE(exact.stride.is_static());
  EXPECT_TRUE(has_static_marker("(_8,64)"));
  EXPECT_TRUE(has_static_marker("_-1"));
  EXPECT_FALSE(has_static_marker("Sw<3,4,3> o 0 o (8,64):(64,1)"));
  EXPECT_FALSE(has_static_marker("[8:1,_]"));
  // A shape alone gets CuTe's compact strides, with CuTe's staticness: (_2,4,_3) -> (_1,_2,8).
  EXPECT_EQ(to_cute_string(parse_layout("(_2,4,_3)")), "(_2,4,_3):(_1,_2,8)");
  EXPECT_EQ(to_cute_string(parse_layout("(_2,_1,_3)")), "(_2,_1,_3):(_1,_0,_2)");
}

// CuTe's printed text round-trips exactly through Reading::exact; canonical printing drops the `_`.
TEST(Notation, CuteTextRoundTrip) {
  for (const char* s : {"(_8,_64):(_64,_1)", "_1:_0", "(8,_4):(_1,8)", "(_4):(_-1)", "((_2,3),(4,_5)):((_1,2),(6,_24))",
                        "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o 0 o (8,64):(64,1)",
                        "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "(_4,_4):(_1@1,_1@0)",
                        "(_2,_4):(_1@0@1,3@0)"}) {
    SCOPED_TRACE(s);
    EXPECT_EQ(to_cute_string(parse_any_layout(s, Reading::exact)), s);
  }
  EXPECT_EQ(to_string(parse_any_layout("(_8,64):(_64,1)")), "(8,64):(64,1)");
  EXPECT_EQ(to_cute_string(parse_int_tuple("(_2,(3,_4))")), "(_2,(3,_4))");
}

// Basis strides: value@path, printed innermost mode first (CuTe's fold prints E<1,0> as _1@0@1);
// E<...> is accepted too.
TEST(Notation, BasisStrides) {
  const IntTuple e10 = parse_int_tuple("_1@0@1");
  ASSERT_TRUE(e10.is_basis());
  EXPECT_EQ(e10.basis_path(), std::vector<int>({1, 0}));
  EXPECT_TRUE(identical(parse_int_tuple("E<1,0>{}"), e10));
  EXPECT_TRUE(identical(parse_int_tuple("E<1>"), IntTuple::basis(1, true, {1})));
  const IntTuple dyn = parse_int_tuple("3@1", Reading::exact);
  EXPECT_FALSE(dyn.is_static());
  EXPECT_EQ(dyn.scale(), 3);
  EXPECT_EQ(to_cute_string(dyn), "3@1");
  EXPECT_EQ(to_string(e10), "1@0@1");
  EXPECT_THROW(parse_layout("(_1@0,_4):(_1,_1)"), ParseError);  // a basis is no shape
}

// CuTe's printed Tile<...>: a parenthesized by-mode tuple of layouts, integers and `_`.
TEST(Notation, CuteTileText) {
  const Tiler t = parse_tiler("(_2:_1,_,(_2,_2):(_1,_4))");
  ASSERT_EQ(t.kind, Tiler::Kind::tuple);
  ASSERT_EQ(t.modes.size(), 3u);
  EXPECT_EQ(t.modes[0].kind, Tiler::Kind::layout);
  EXPECT_EQ(t.modes[1].kind, Tiler::Kind::underscore);
  EXPECT_EQ(to_cute_string(t.modes[2].layout), "(_2,_2):(_1,_4)");
  const Tiler ints = parse_tiler("(_8,4)");
  ASSERT_EQ(ints.kind, Tiler::Kind::tuple);
  EXPECT_TRUE(ints.modes[0].integer_static);
  EXPECT_FALSE(ints.modes[1].integer_static);
  EXPECT_EQ(to_cute_string(ints), "(_8,4)");
  EXPECT_EQ(parse_tiler("(8,4):(1,8)").kind, Tiler::Kind::layout);
}

// Hostile-input campaign C1: 40,000 '(' overflowed the stack, and 20,000 balanced levels took 18 s
// (each level copied its subtree). Now: "nesting deeper than 200" with the column of the level
// that is one too deep, in every entry point, and deep-but-allowed nesting parses in linear time.
TEST(Notation, DeepNestingIsAnErrorNotACrash) {
  using testing::nested;
  EXPECT_EQ(to_string(parse_int_tuple(nested("(", "8", ")", kMaxNotationDepth))), nested("(", "8", ")", kMaxNotationDepth));
  EXPECT_EQ(size(parse_layout(nested("(", "8", ")", kMaxNotationDepth))), 8);
  const auto refuses = [](auto&& parse, const std::string& text, std::size_t column) {
    try {
      parse(text);
      ADD_FAILURE() << "accepted " << text.substr(0, 40);
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("nesting deeper than 200"), std::string::npos) << e.what();
      EXPECT_EQ(e.column, column);
    }
  };
  for (int n : {kMaxNotationDepth + 1, 40000}) {
    refuses([](const std::string& s) { return parse_layout(s); }, nested("(", "8", ")", n), 201);
    refuses([](const std::string& s) { return parse_any_layout(s); }, std::string(n, '('), 201);
    refuses([](const std::string& s) { return parse_int_tuple(s); }, "(1," + std::string(n, '('), 203);
    refuses([](const std::string& s) { return parse_tiler(s); }, std::string(n, '['), 201);
    refuses([](const std::string& s) { return parse_tiler(s); }, "[" + nested("(", "8", ")", n), 201);
    refuses([](const std::string& s) { return parse_any_layout(s); }, "Sw<3,3,3> o 0 o " + std::string(n, '('), 217);
  }
}

}  // namespace
}  // namespace layoutproof
