// model/source/cpp_expr.hpp: the C++ kernels write, parsed and evaluated as CuTe C++ (CUTLASS 4.x) does.
#include "model/source/cpp_expr.hpp"

#include <gtest/gtest.h>

#include "model/source/cpp_source.hpp"
#include "model/atoms/cutlass_atoms.hpp"
#include "tests/model/nesting.hpp"

namespace layoutproof {
namespace {

CppValue value(const std::string& text, std::map<std::string, std::string> constants = {}) {
  CppEvaluator ev(parse_cpp_program(text), std::move(constants));
  return ev.eval_result();
}

// The layout (or other value) the text evaluates to, printed.
std::string eval(const std::string& text, std::map<std::string, std::string> constants = {}) {
  const CppValue v = value(text, std::move(constants));
  return v.kind == CppValue::Kind::layout ? to_string(v.layout) : v.describe();
}

// What the ParseError the text raises says (what() is virtual: a copy of the ParseError would lose it).
struct Error {
  std::string message;
  std::size_t column = 0;
  std::string input, caret_text;
  const char* what() const { return message.c_str(); }
  std::string caret() const { return caret_text; }
};
Error error_of(const std::string& text, std::map<std::string, std::string> constants = {}) {
  try {
    (void)value(text, std::move(constants));
  } catch (const ParseError& e) {
    return {e.what(), e.column, e.input, e.caret()};
  }
  ADD_FAILURE() << "no ParseError for: " << text;
  return {};
}

std::size_t column_of(const std::string& text, const std::string& needle) { return text.find(needle) + 1; }

// ---- what users paste ------------------------------------------------------------------------

TEST(CppExpr, TheSm80HgemmSmemLayoutAsCutlassWritesIt) {
  const std::string src =
      "using SmemLayoutAtomA = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,Int<64>>, Stride<Int<64>,_1>>{}));\n"
      "using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{})));\n"
      "SmemLayoutA{}\n";
  // CuTe prints Sw<3,3,3> o _0 o ((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_0),(_0,_8192)).
  EXPECT_EQ(eval(src), "Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))");
  EXPECT_EQ(eval("tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), "
                 "make_shape(Int<128>{},Int<64>{},Int<3>{}))"),
            "Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))");
  // Without the trailing expression the last binding is the value.
  EXPECT_EQ(eval(src.substr(0, src.rfind("SmemLayoutA{}"))), "Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))");
}

TEST(CppExpr, ConstantsArithmeticAndTags) {
  EXPECT_EQ(eval("make_layout(make_shape(bM, bK), LayoutRight{})", {{"bM", "Int<128>{}"}, {"bK", "Int<64>{}"}}), "(128,64):(64,1)");
  EXPECT_EQ(eval("Layout<Shape<_128,_8>, Stride<_1, Int<128 + 1>>>{}"), "(128,8):(1,129)");
  EXPECT_EQ(eval("make_layout(make_shape(Int<128>{}, Int<8>{}), make_stride(Int<1>{}, bM + Int<1>{}))", {{"bM", "Int<128>{}"}}),
            "(128,8):(1,129)");
  EXPECT_EQ(eval("make_layout(make_shape(2, make_shape(3, 4)), GenRowMajor{})"), "(2,(3,4)):(12,(4,1))");
  EXPECT_EQ(eval("make_layout(make_shape(2, 3), GenColMajor{})"), "(2,3):(1,2)");
  // C++ integer division and remainder truncate toward zero.
  EXPECT_EQ(eval("Int<7/2>{} + Int<-7/2>{} * 10 + (-7 % 3) * 100 + (2 + 3) * 1000"), "integer 4873");
  EXPECT_EQ(eval("0x10 + 010 + 0b11 + 1'000u + 2ull"), "integer 1029");
  // Constants may use each other.
  EXPECT_EQ(eval("Int<bK>{}", {{"bK", "bM / 2"}, {"bM", "128"}}), "integer 64");
}

TEST(CppExpr, TileToShapeOrdersAndGets) {
  const std::string atom = "auto atom = composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{});\n";
  // Step<_2,_1,_3>: the atom repeats along mode 1 first (CuTe's comment on tile_to_shape).
  EXPECT_EQ(eval(atom + "tile_to_shape(atom, make_shape(_128{}, _128{}, _3{}), Step<_2,_1,_3>{})"),
            "Sw<3,3,3> o 0 o ((8,16),(64,2),(1,3)):((64,1024),(1,512),(0,16384))");
  EXPECT_EQ(eval(atom + "tile_to_shape(atom, make_shape(_128{}, _128{}, _3{}))"),
            "Sw<3,3,3> o 0 o ((8,16),(64,2),(1,3)):((64,512),(1,8192),(0,16384))");
  EXPECT_EQ(eval(atom + "tile_to_shape(atom, make_shape(_128{}, _128{}, _3{}), LayoutRight{})"),
            "Sw<3,3,3> o 0 o ((8,16),(64,2),(1,3)):((64,3072),(1,1536),(0,512))");
  EXPECT_EQ(eval("auto shape = make_shape(Int<128>{}, Int<64>{});\nget<0>(shape)"), "integer 128");
  EXPECT_EQ(eval("get<1,0>(Layout<Shape<_8,Shape<_2,_4>>>{})"), "2:8");
  EXPECT_EQ(eval(atom + "get<1>(tile_to_shape(atom, Shape<_128,_128>{}))"), "Sw<3,3,3> o 0 o (64,2):(1,8192)");
  // A 1-mode target: product_each wraps it, as in CuTe.
  EXPECT_EQ(eval("tile_to_shape(Layout<_8,_1>{}, Int<16>{})"), "((8,(2))):((1,(8)))");
}

TEST(CppExpr, TileToShapeOnlyDividesStaticTargetsEvenly) {
  const std::string block = "Layout<Shape<_8,_64>,Stride<_64,_1>>{}";
  // A static target must be divided evenly (CuTe's static assertion) ...
  const Error e = error_of("tile_to_shape(" + block + ", make_shape(_100{}, _64{}))");
  EXPECT_NE(std::string(e.what()).find("block shape does not divide the target shape"), std::string::npos);
  // ... a run-time one is rounded up (ceil_div), as CuTe does.
  EXPECT_EQ(eval("tile_to_shape(" + block + ", make_shape(100, 64))"), "((8,13),(64,1)):((64,512),(1,0))");
  EXPECT_THROW(value("tile_to_shape(Layout<_8,_1>{}, Shape<_0>{})"), ParseError);
  EXPECT_THROW(value("tile_to_shape(make_layout(make_shape(8,2,2)), Shape<_8,_8>{})"), ParseError);  // rank 3 > 2
  EXPECT_THROW(value("tile_to_shape(Shape<_8>{}, Shape<_64>{})"), ParseError);                       // not a layout
}

TEST(CppExpr, MakeOrderedLayoutAsCuteDocumentsIt) {
  EXPECT_EQ(eval("make_ordered_layout(Shape<_2,_2,_2,_2>{}, Step<_0,_2,_3,_1>{})"), "(2,2,2,2):(1,4,8,2)");
  // Run-time order values count as larger than the static ones, left to right.
  EXPECT_EQ(eval("make_ordered_layout(make_shape(2,3,4,5), make_step(Int<2>{}, 67, 42, Int<50>{}))"), "(2,3,4,5):(1,10,30,2)");
  EXPECT_EQ(eval("make_ordered_layout(Shape<Shape<_2,_2>,_4>{}, Step<Step<_1,_0>,_2>{})"), "((2,2),4):((2,1),4)");
  EXPECT_EQ(eval("make_ordered_layout(Shape<Shape<_2,_2>,_4>{}, Step<_1,_0>{})"), "((2,2),4):((4,8),1)");
  EXPECT_EQ(eval("make_ordered_layout(Shape<_2,_3>{}, Step<_1,_1>{})"), "(2,3):(1,1)");  // ties overlap, as in CuTe
  EXPECT_EQ(eval("compact_order(Shape<_2,_3>{}, Step<_1,_0>{})"), "tuple (3,1)");
  EXPECT_THROW(value("make_ordered_layout(Shape<_2,_3>{}, Step<_1,_0,_2>{})"), ParseError);
}

// The atoms print as CuTe prints them (the byte swizzle over smem_ptr[Nb]) and evaluate to the
// element offsets of model/atoms/cutlass_atoms.hpp's element-unit forms.
TEST(CppExpr, GmmaAtomsByElementType) {
  EXPECT_EQ(eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})"),
            "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1)):((64,512),(1,0))");
  EXPECT_EQ(eval("using Element = cutlass::half_t;\ncute::SM90::GMMA::Layout_MN_SW64_Atom<Element>{}"),
            "Sw<2,4,3> o smem_ptr[16b](unset) o (32,8):(1,32)");
  EXPECT_EQ(eval("UMMA::Layout_K_INTER_Atom<float>{}"), "Sw<0,4,3> o smem_ptr[32b](unset) o (8,4):(4,1)");
  for (const CutlassAtom& a : cutlass_atoms()) {
    if (a.name.rfind("GMMA::", 0) != 0) continue;
    const std::string type = a.element_bits == 4 ? "uint4b_t" : a.element_bits == 8 ? "int8_t" : a.element_bits == 16 ? "half_t"
                             : a.element_bits == 32 ? "float" : "double";
    const CppValue v = value(a.name + "<" + type + ">{}");
    ASSERT_EQ(v.kind, CppValue::Kind::layout) << a.display_name();
    EXPECT_EQ(v.layout.smem_ptr_bits, a.element_bits) << a.display_name();
    EXPECT_EQ(to_string(v.layout.byte_swizzle), a.byte_swizzle) << a.display_name();
    EXPECT_EQ(offsets(v.layout), offsets(a.layout())) << a.display_name();
  }
  EXPECT_THROW(value("GMMA::Layout_K_SW128_Atom{}"), ParseError);
  EXPECT_THROW(value("GMMA::Layout_K_SW128_Atom<float_e2m3_t>{}"), ParseError);  // 6 bits: not in the table
  EXPECT_EQ(eval("sizeof_bits_v<cutlass::float_e4m3_t>"), "integer 8");
}

// CUTLASS defines its atoms as a byte swizzle over smem_ptr_flag_bits<B> and a layout in bits, upcast
// to the element (mma_traits_sm90_gmma.hpp); the element form is CuTe's print_layout /
// as_position_independent_swizzle_layout (tests/corpus checks the offsets against CuTe itself).
TEST(CppExpr, SmemPtrFlagLayoutsAsCuTeDefinesThem) {
  const auto element_form = [](const std::string& text) {
    const AnyLayout l = value(text).layout;
    return to_string(AnyLayout(*l.swizzle, l.offset, l.layout));
  };
  EXPECT_EQ(eval("ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>{}"),
            "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
  EXPECT_EQ(element_form("ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>{}"),
            "Sw<3,3,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(element_form("composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<4>{}, Layout<Shape<_8,_256>,Stride<_256,_1>>{})"),
            "Sw<3,5,3> o 0 o (8,256):(256,1)");
  // A Swizzle<0,...> over a flag keeps the flag (CuTe prints it), and evaluates as the plain layout.
  EXPECT_EQ(eval("GMMA::Layout_K_INTER_Atom<half_t>{}"), "Sw<0,4,3> o smem_ptr[16b](unset) o (8,8):(8,1)");
  EXPECT_EQ(offsets(value("GMMA::Layout_K_INTER_Atom<half_t>{}").layout), offsets(AnyLayout(parse_layout("(8,8):(8,1)"))));
  // The _Bits atoms, and upcast/downcast/recast_layout keeping the flag (pointer_flagged.hpp).
  EXPECT_EQ(eval("upcast<16>(GMMA::Layout_K_SW128_Atom_Bits{})"), eval("GMMA::Layout_K_SW128_Atom<half_t>{}"));
  EXPECT_EQ(eval("recast_layout<half_t, float>(GMMA::Layout_K_SW128_Atom<half_t>{})"), eval("GMMA::Layout_K_SW128_Atom<float>{}"));
  EXPECT_EQ(eval("downcast<2>(GMMA::Layout_MN_SW128_Atom<float>{})"), eval("GMMA::Layout_MN_SW128_Atom<half_t>{}"));
  EXPECT_EQ(eval("recast_layout<uint8_t, half_t>(upcast<8>(GMMA::Layout_MN_SW64_Atom_Bits{}))"),
            "Sw<2,4,3> o smem_ptr[16b](unset) o (32,8):(1,32)");
  EXPECT_EQ(element_form("UMMA::Layout_MN_SW128_32B_Atom<float>{}"), "Sw<2,3,2> o 0 o (32,4):(1,32)");
  EXPECT_EQ(eval("cute::SM90::GMMA::Layout_K_SW32_Atom<int8_t>{}"), "Sw<1,4,3> o smem_ptr[8b](unset) o (8,32):(32,1)");
  EXPECT_EQ(eval("upcast<2>(Swizzle<3,4,3>{})"), "swizzle Sw<3,3,3>");
  // A 6-bit element has no uint_bit_t: CuTe does not compile these.
  EXPECT_NE(std::string(error_of("GMMA::Layout_K_SW128_Atom<float_e3m2_t>{}").what()).find("Divisibility condition"), std::string::npos);
  EXPECT_NE(std::string(error_of("composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<6>{}, Layout<_8,_1>{})").what()).find("no uint_bit_t"),
            std::string::npos);
}

TEST(CppExpr, TheBuildersSmemSelectors) {
  const auto ss = [](const std::string& major, const std::string& t, int mn, int k) {
    return eval("detail::ss_smem_selector<GMMA::Major::" + major + ", " + t + ", Int<" + std::to_string(mn) + ">, Int<" +
                std::to_string(k) + ">>()");
  };
  // K-major: the widest swizzle whose row fits BLK_K (sm90_common.inl).
  EXPECT_EQ(ss("K", "half_t", 128, 64), eval("GMMA::Layout_K_SW128_Atom<half_t>{}"));
  EXPECT_EQ(ss("K", "half_t", 128, 32), eval("GMMA::Layout_K_SW64_Atom<half_t>{}"));
  EXPECT_EQ(ss("K", "half_t", 128, 16), eval("GMMA::Layout_K_SW32_Atom<half_t>{}"));
  EXPECT_EQ(ss("K", "half_t", 128, 8), eval("GMMA::Layout_K_INTER_Atom<half_t>{}"));
  EXPECT_EQ(ss("MN", "float", 32, 8), eval("GMMA::Layout_MN_SW128_Atom<float>{}"));
  EXPECT_EQ(ss("MN", "float", 16, 8), eval("GMMA::Layout_MN_SW64_Atom<float>{}"));
  // rs: whole-word MN-major operands take SW32; sm100: MN-major 32-bit ones SW128_32B.
  EXPECT_EQ(eval("detail::rs_smem_selector<GMMA::Major::MN, tfloat32_t, _64, _32>()"), eval("GMMA::Layout_MN_SW32_Atom<float>{}"));
  EXPECT_EQ(eval("cutlass::gemm::collective::detail::sm100_smem_selector<UMMA::Major::MN, float, _128, _32>()"),
            "Sw<2,5,2> o smem_ptr[32b](unset) o (32,4):(1,32)");
  EXPECT_EQ(eval("detail::sm90_get_epilogue_smem_swizzle_layout_atom<Stride<_1,int64_t,int64_t>, float, Shape<_128,_32>>()"),
            eval("GMMA::Layout_MN_SW128_Atom<float>{}"));
  EXPECT_EQ(eval("detail::sm100_get_epilogue_smem_swizzle_layout_atom<Stride<int64_t,_1,int64_t>, half_t, Shape<_128,_64>>()"),
            eval("UMMA::Layout_K_SW128_Atom<half_t>{}"));
  // As CuTe prints it (blackwell/01_mma_sm100.cu: ((_128,_16),_1,_4):((_64,_1),_0,_16)).
  EXPECT_EQ(eval("UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, Shape<Shape<_128,_16>,_1,_4>{})"),
            "Sw<3,4,3> o smem_ptr[16b](unset) o ((128,16),1,4):((64,1),0,16)");
  const Error e = error_of("detail::ss_smem_selector<GMMA::Major::K, half_t, _128, _12>()");
  EXPECT_NE(std::string(e.what()).find("static_assert failed: BLK_K0 must be a multiple of 8"), std::string::npos);
  EXPECT_NE(std::string(error_of("detail::ss_smem_selector<GMMA::Major::X, half_t, _128, _64>()").what()).find("GMMA::Major::K or"),
            std::string::npos);
  EXPECT_NE(std::string(error_of("detail::sm90_get_epilogue_smem_swizzle_layout_atom<Stride<int64_t,int64_t,_1>, half_t, Shape<_64,_32>>()").what())
                .find("Unsupported gmem layout"),
            std::string::npos);
}

TEST(CppExpr, ConditionalsComparisonsAndTraits) {
  EXPECT_EQ(eval("conditional_t<(Int<8>{} > 4), Layout<_8,_1>, Layout<_4,_1>>{}"), "8:1");
  EXPECT_EQ(eval("cute::conditional_t<false, Layout<_8,_1>, Layout<_4,_1>>{}"), "4:1");
  EXPECT_EQ(eval("typename std::conditional<true, Shape<_2>, Shape<_3>>::type{}"), "tuple (2)");
  // Only the chosen branch is evaluated.
  EXPECT_EQ(eval("conditional_t<true, Layout<_8,_1>, NotDefinedAnywhere>{}"), "8:1");
  EXPECT_EQ(eval("(GMMA::Major::K == UMMA::Major::K) + 10 * (GMMA::Major::K != GMMA::Major::MN)"), "integer 11");
  EXPECT_EQ(eval("(1 < 2 && 3 >= 3 || 0) + 10 * !true + 100 * (2 <= 1) + 1000 * (true ? 3 : 4)"), "integer 3001");
  EXPECT_EQ(eval("Int<(8 > 4)>{} + sizeof(half_t) + sizeof(uint4b_t) + sizeof_bits<float>::value"), "integer 36");
  EXPECT_EQ(eval("cutlass::gemm::detail::is_mn_major<Stride<_1,int64_t,int64_t>>() + 10 * is_k_major<Stride<_1,int64_t,int64_t>>()"),
            "integer 1");
  EXPECT_EQ(eval("cutlass::detail::is_major<0>(Layout<Shape<_8,_4>>{})"), "integer 1");  // a layout's stride
  EXPECT_EQ(eval("min(Int<3>{}, 5) + 10 * max(2, 7) + 100 * ceil_div(7, 2) + 1000 * shape_div(8, 2)"), "integer 4473");
}

TEST(CppExpr, ModesAndQueries) {
  const std::string l = "Layout<Shape<_8,_4,_2>, Stride<_1,_8,_32>>{}";
  EXPECT_EQ(eval("append(" + l + ", Layout<_3,_64>{})"), "(8,4,2,3):(1,8,32,64)");
  EXPECT_EQ(eval("append<4>(Layout<Shape<_8,_4>>{}, Layout<_1,_0>{})"), "(8,4,1,1):(1,8,0,0)");
  EXPECT_EQ(eval("prepend(make_shape(_4{}), _2{})"), "tuple (2,4)");
  EXPECT_EQ(eval("group<0,2>(" + l + ")"), "((8,4),2):((1,8),32)");
  EXPECT_EQ(eval("take<1,3>(" + l + ")"), "(4,2):(8,32)");
  EXPECT_EQ(eval("select<2,0>(" + l + ")"), "(2,8):(32,1)");
  EXPECT_EQ(eval("product_each(Shape<Shape<_2,_4>,_3>{})"), "tuple (8,3)");
  EXPECT_EQ(eval("layout<1>(" + l + ")"), "4:8");
  EXPECT_EQ(eval("cosize_v<decltype(" + l + ")> + 1000 * size_v<decltype(" + l + ")>"), "integer 64064");
  // A stride that does not fit the shape is reported at the stride.
  const Error e = error_of("make_layout(make_shape(8,64), make_stride(64))");
  EXPECT_EQ(e.column, 31u);
  EXPECT_NE(std::string(e.what()).find("(shape (8,64), stride (64))"), std::string::npos);
  EXPECT_EQ(error_of("Layout<Shape<_8,_4>, Stride<_1>>{}").column, 22u);
  EXPECT_THROW(value("group<2,1>(" + l + ")"), ParseError);
  EXPECT_THROW(value("append<1>(" + l + ", Layout<_1,_0>{})"), ParseError);
}

// C++ that is not evaluated is a ParseError naming the construct and what is supported.
TEST(CppExpr, UnsupportedConstructsSayWhatIsSupported) {
  const auto says = [](const std::string& text, const std::string& needle, std::size_t column) {
    const Error e = error_of(text);
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_EQ(e.column, column) << text;
  };
  says("if (x) {}", "unsupported construct: 'if' statements; layoutproof evaluates declarations", 1);
  says("struct A { int x; };", "unsupported construct: 'struct' definitions", 1);
  says("template <class T> using X = T;", "unsupported construct: template definitions", 1);
  says("auto l = make_layout(_8{}); l.shape()", "unsupported construct: member access ('.')", 30);
  says("x->y", "unsupported construct: member access ('->')", 2);
  says("make_shape(8)[0]", "unsupported construct: subscripts and lambdas ('[')", 14);
  says("[](){ return 1; }", "unsupported construct: lambdas and attributes ('[')", 1);
  says("\"text\"", "unsupported construct: string literals", 1);
  says("8 | 4", "unsupported construct: the operator '|'", 3);
  says("conditional<true, A, B>::nested{}", "only ::type and ::value are understood", 26);
  says("local_tile(Layout<_8,_1>{}, Shape<_4>{})", "'local_tile' is a CuTe function outside the layout algebra", 1);
  // What is accepted around them: attributes, typedef, return, static_assert, #include lines.
  EXPECT_EQ(eval("#include <cute/tensor.hpp>\n[[maybe_unused]] auto a = Layout<_8,_1>{};\ntypedef decltype(a) A;\n"
                 "static_assert(size(A{}) == 8, \"eight\");\nreturn A{};"),
            "8:1");
  const Error e = error_of("static_assert(size(Layout<_8,_1>{}) == 9, \"nine\"); Layout<_8,_1>{}");
  EXPECT_NE(std::string(e.what()).find("static_assert failed: \"nine\" (size(Layout<_8,_1>{})==9)"), std::string::npos) << e.what();
  EXPECT_EQ(e.column, 1u);
}

// ---- the grammar -----------------------------------------------------------------------------

// Literals are run-time ints, Int<N>/_N/C<N> and arithmetic on them compile-time ones (CuTe's
// static vs dynamic); the algebra sees which (model/layout/int_tuple.hpp), e.g. coalesce never merges
// run-time modes.
TEST(CppExpr, RunTimeAndCompileTimeIntegers) {
  const auto tuple = [](const std::string& text, std::map<std::string, std::string> constants = {}) {
    CppEvaluator ev(parse_cpp_program(text), std::move(constants));
    return ev.eval_tuple(*ev.program().result);
  };
  const IntTuple t = tuple("make_shape(8, _8{}, Int<8>{}, C<8>{}, Int<4>{} + _4{}, Int<4>{} + 4, bM, kM)",
                           {{"bM", "Int<8>{}"}, {"kM", "8"}});
  ASSERT_EQ(t.rank(), 8u);
  const bool want[] = {false, true, true, true, true, false, true, false};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(t[i].is_static(), want[i]) << i;
  EXPECT_EQ(t, tuple("Shape<_8,_8,_8,_8,_8,_8,_8,_8>{}"));  // the same values
  EXPECT_TRUE(tuple("Shape<_8, Int<64>>{}").is_static());
  // Stride<int64_t, _1, int64_t>{}: value-initialized run-time ints around a static 1.
  const IntTuple s = tuple("Stride<int64_t, _1, int64_t>{}");
  EXPECT_TRUE(identical(s, IntTuple::tuple({IntTuple::dynamic(0), IntTuple(1), IntTuple::dynamic(0)})));
  EXPECT_TRUE(identical(tuple("make_shape(size(Layout<Shape<_8,_4>>{}), size(make_shape(8, 4)))"),
                        IntTuple::tuple({IntTuple(32), IntTuple::dynamic(32)})));
  // A run-time target shape is rounded up by tile_to_shape; a static one must be divided evenly.
  EXPECT_EQ(eval("size(tile_to_shape(Layout<_8,_1>{}, make_shape(12)))"), "integer 16");
  EXPECT_THROW(value("tile_to_shape(Layout<_8,_1>{}, make_shape(_12{}))"), ParseError);
  // is_major looks for a static 1 (cutlass/detail/layout.hpp).
  EXPECT_EQ(eval("is_major<1, Stride<int64_t, _1, int64_t>>() + 10 * is_major<0>(Stride<int64_t, _1, int64_t>{})"), "integer 1");
  EXPECT_EQ(eval("is_major<1>(make_stride(0, 1, 0))"), "integer 0");  // a run-time 1 is not known to be 1
}

TEST(CppExpr, StatementsCommentsAndPrefixes) {
  EXPECT_EQ(eval("using namespace cute;\n"
                 "/* the atom */ constexpr int kBlockM = 128; // rows\n"
                 "static constexpr auto kK = Int<64>{};\n"
                 "Layout<Shape<Int<kBlockM>, decltype(kK)>> const & sA = make_layout(make_shape(Int<kBlockM>{}, kK));\n"
                 "decltype(sA){};;"),
            "(128,64):(1,128)");
  EXPECT_EQ(eval("::cute::make_layout(cute::make_shape(_8{}, _4{}))"), "(8,4):(1,8)");
  const CppProgram p = parse_cpp_program("using A = Int<1>; auto b = A{} + 1; b");
  ASSERT_EQ(p.bindings.size(), 2u);
  EXPECT_EQ(p.bindings[1].name, "b");
  EXPECT_EQ(p.bindings[1].pos, 23u);
  ASSERT_TRUE(p.result.has_value());
  EXPECT_EQ(p.result->kind, CppExpr::Kind::name);
}

TEST(CppExpr, ExpressionTree) {
  const CppProgram p = parse_cpp_program("f<Int<2>, 3>{x, -y * 2}");
  const CppExpr& e = *p.result;
  EXPECT_EQ(e.kind, CppExpr::Kind::call);
  EXPECT_TRUE(e.brace);
  EXPECT_TRUE(e.has_targs);
  ASSERT_EQ(e.targs.size(), 2u);
  EXPECT_EQ(e.targs[0].name, "Int");
  EXPECT_EQ(e.targs[1].value, 3);
  ASSERT_EQ(e.args.size(), 2u);
  EXPECT_EQ(e.args[1].kind, CppExpr::Kind::binary);
  EXPECT_EQ(e.args[1].op, "*");
  EXPECT_EQ(e.args[1].args[0].kind, CppExpr::Kind::negate);
  EXPECT_EQ(e.args[1].pos, 19u);  // the operator
}

TEST(CppExpr, BindingsSeeOnlyEarlierBindingsAndChainsStayShallow) {
  // B is not yet defined where A uses it.
  const Error e = error_of("using A = decltype(B{}); using B = Int<1>; A");
  EXPECT_NE(std::string(e.what()).find("'B' is used before its definition"), std::string::npos);
  EXPECT_EQ(e.column, 20u);
  std::string chain = "using X0 = Int<3>;\n";
  for (int i = 1; i < 3000; ++i) chain += "using X" + std::to_string(i) + " = decltype(X" + std::to_string(i - 1) + "{});\n";
  EXPECT_EQ(eval(chain + "X2999{}"), "integer 3");
  EXPECT_THROW(value("using X = Int<1>; using X = Int<2>; X"), ParseError);  // redefinition
}

TEST(CppExpr, TypeNamesForTheKernelLayer) {
  EXPECT_EQ(eval("SM75_U32x4_LDSM_N"), "type SM75_U32x4_LDSM_N");
  EXPECT_EQ(eval("SM80_CP_ASYNC_CACHEALWAYS<cute::uint128_t>"), "type SM80_CP_ASYNC_CACHEALWAYS<uint128_t>");
  EXPECT_EQ(eval("using T = cutlass::half_t; UniversalCopy<T>{}"), "type UniversalCopy<half_t>");
  EXPECT_EQ(eval("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>"), "type SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>");
  EXPECT_EQ(eval("Op<Shape<_8>, _4>"), "type Op<Shape<_8>,4>");
  EXPECT_EQ(eval("float"), "type float");
  EXPECT_EQ(eval("LayoutRight{}"), "type LayoutRight");
  EXPECT_EQ(eval("_"), "_");
  // A near miss of a known name is an error, not a type; element types never are.
  EXPECT_NE(std::string(error_of("using ElementA = half_t; ElemnetA").what()).find("did you mean ElementA?"), std::string::npos);
  EXPECT_EQ(eval("using ElementA = half_t; bfloat16_t"), "type bfloat16_t");
}

TEST(CppExpr, QueriesAndTheAlgebra) {
  const std::string sw = "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})";
  EXPECT_EQ(eval("size(" + sw + ") + 1000000 * rank(" + sw + ") + 10000 * depth(Shape<_8,Shape<_2,_4>>{})"), "integer 2020512");
  EXPECT_EQ(eval("cosize(" + sw + ")"), "integer 512");
  EXPECT_EQ(eval("shape<1>(Layout<Shape<_8,Shape<_2,_4>>>{})"), "tuple (2,4)");
  EXPECT_EQ(eval("stride(Layout<Shape<_8,Shape<_2,_4>>>{})"), "tuple (1,(8,16))");
  EXPECT_EQ(eval("size<1>(make_shape(8, make_shape(2, 4)))"), "integer 8");
  EXPECT_EQ(eval("coalesce(composition(Swizzle<1,0,1>{}, make_layout(make_shape(_2{}, _4{}))))"), "Sw<1,0,1> o 0 o 8:1");
  EXPECT_EQ(eval("upcast<2>(composition(Swizzle<3,5,3>{}, Layout<Shape<_8,_256>,Stride<_256,_1>>{}))"), "Sw<3,4,3> o 0 o (8,128):(128,1)");
  EXPECT_EQ(eval("logical_divide(make_layout(make_shape(_4{},_2{},_3{}), make_stride(_2{},_1{},_8{})), Layout<_4,_2>{})"),
            "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(eval("blocked_product(make_layout(make_shape(_2{},_2{})), make_layout(make_shape(_3{},_4{})))"), "((2,3),(2,4)):((1,4),(2,12))");
  EXPECT_EQ(eval("composition(make_layout(make_shape(8,32), make_stride(32,1)), make_tile(Layout<_4,_1>{}, _))"), "(4,32):(32,1)");
  EXPECT_EQ(eval("make_tile(Layout<_8,_1>{}, _)"), "Tile [8:1,_]");
  EXPECT_EQ(eval("make_tile(_8{}, _4{})"), "tuple (8,4)");
  EXPECT_EQ(eval("complement(Layout<_4,_2>{}, 24)"), "(2,3):(1,8)");
  EXPECT_EQ(eval("make_layout(Layout<_8,_1>{}, Layout<_4,_8>{})"), "(8,4):(1,8)");
  EXPECT_EQ(eval("make_layout(Layout<_8,_1>{})"), "(8):(1)");
  // Swizzle<0,M,S> composed with offset 0 is the identity: CuTe returns the plain layout.
  EXPECT_EQ(eval("composition(Swizzle<0,4,3>{}, Layout<_8,_1>{})"), "8:1");
  EXPECT_EQ(eval("make_composed_layout(Swizzle<0,4,3>{}, Int<0>{}, Layout<_8,_1>{})"), "Sw<0,4,3> o 0 o 8:1");
}

// ---- extensions --------------------------------------------------------------------------------

TEST(CppExpr, ExtensionsSeeEveryCallAndNameFirst) {
  CppEvaluator ev(parse_cpp_program("using Mma = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}));\nMma{}"));
  std::vector<std::string> seen;
  ev.add_extension([&](const CppExpr& e, CppEvaluator& self) -> std::optional<CppValue> {
    seen.push_back(e.name);
    if (e.name != "make_tiled_mma") return std::nullopt;
    const std::string atom = self.eval(e.args.at(0)).type_name;
    return CppValue::of_object("TiledMMA", atom + " " + to_string(self.eval_layout(e.args.at(1))));
  });
  const CppValue v = ev.eval_result();
  ASSERT_EQ(v.kind, CppValue::Kind::object);
  EXPECT_EQ(v.object_kind, "TiledMMA");
  EXPECT_EQ(std::any_cast<std::string>(v.object), "SM80_16x8x16_F32F16F16F32_TN (2,2,1):(1,2,0)");
  for (const char* n : {"decltype", "make_tiled_mma", "SM80_16x8x16_F32F16F16F32_TN", "Layout", "Shape", "_2", "Mma"})
    EXPECT_NE(std::find(seen.begin(), seen.end(), n), seen.end()) << n;

  // An extension may even replace a built-in; its errors point at the node.
  CppEvaluator ev2(parse_cpp_program("make_shape(Int<3>{}, Copy_Atom<Op, half_t>{})"));
  ev2.add_extension([](const CppExpr& e, CppEvaluator&) -> std::optional<CppValue> {
    if (e.name == "Int") return CppValue::of_int(7);
    if (e.name == "Copy_Atom") throw LayoutError("Copy_Atom: Op is not a copy operation");
    return std::nullopt;
  });
  try {
    (void)ev2.eval_result();
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, 22u);
    EXPECT_NE(std::string(e.what()).find("Op is not a copy operation"), std::string::npos);
  }
  CppEvaluator ev3(parse_cpp_program("make_shape(Int<3>{})"));
  ev3.add_extension([](const CppExpr& e, CppEvaluator&) -> std::optional<CppValue> {
    return e.name == "Int" ? std::optional<CppValue>(CppValue::of_int(7)) : std::nullopt;
  });
  EXPECT_EQ(ev3.eval_result().describe(), "tuple (7)");
}

TEST(CppExpr, EvaluatorEntryPoints) {
  CppEvaluator ev(parse_cpp_program("auto s = make_shape(8, 4);"));
  EXPECT_EQ(to_string(ev.eval_layout(ev.program().bindings[0].value)), "(8,4):(1,8)");
  EXPECT_EQ(to_string(ev.eval_tuple(ev.program().bindings[0].value)), "(8,4)");
  EXPECT_THROW(ev.eval_int(ev.program().bindings[0].value), ParseError);
  EXPECT_EQ(ev.eval_result().describe(), "tuple (8,4)");
  EXPECT_THROW(value(""), ParseError);
  EXPECT_THROW(value("// only a comment\n"), ParseError);
  EXPECT_EQ(CppValue::of_swizzle(Swizzle{3, 4, 3}).describe(), "swizzle Sw<3,4,3>");
  EXPECT_EQ(CppValue::of_object("TiledCopy", 1).describe(), "TiledCopy");
}

// ---- errors --------------------------------------------------------------------------------------

TEST(CppExpr, UnknownFunctionsAreErrorsAtTheirColumn) {
  const std::string src = "make_layout(make_shape(8,64), make_tiled_copyA(1))";
  const Error e = error_of(src);
  EXPECT_EQ(e.column, column_of(src, "make_tiled_copyA"));
  EXPECT_NE(std::string(e.what()).find("unknown function 'make_tiled_copyA' (did you mean make_tiled_copy_A?)"), std::string::npos);
  EXPECT_NE(std::string(error_of("make_layuot(make_shape(1))").what()).find("did you mean make_layout?"), std::string::npos);
  EXPECT_NE(std::string(error_of("Layuot<Shape<_8>>{}").what()).find("unknown name 'Layuot' (did you mean Layout?)"), std::string::npos);
  EXPECT_NE(std::string(error_of("foo(1)").what()).find("unknown function 'foo'"), std::string::npos);
  EXPECT_NE(std::string(error_of("local_tile(1)").what()).find("outside the layout algebra"), std::string::npos);
  EXPECT_THROW(value("make_shape"), ParseError);                      // a function without a call
  EXPECT_THROW(value("using X = Int<1>; X(2)"), ParseError);         // a value called
}

TEST(CppExpr, IntegersAreRangeChecked) {
  const std::string sw = "Swizzle<4294967299,3,3>{}";
  EXPECT_EQ(error_of(sw).column, 9u);
  EXPECT_THROW(value("Swizzle<3,3,2>{}"), LayoutError);  // |S| < B: Swizzle::validate()
  EXPECT_THROW(value("Int<2147483648>{}"), ParseError);   // Int<v> takes an int
  EXPECT_EQ(eval("Int<-2147483648>{}"), "integer -2147483648");
  EXPECT_THROW(value("_2147483648{}"), ParseError);
  EXPECT_EQ(error_of("C<99999999999999999999>{}").column, 3u);  // the literal does not fit in 64 bits
  EXPECT_EQ(eval("C<9223372036854775807>{}"), "integer 9223372036854775807");
  EXPECT_THROW(value("C<9223372036854775807 + 1>{}"), OverflowError);
  EXPECT_THROW(value("C<(-9223372036854775807 - 1) / -1>{}"), OverflowError);
  EXPECT_THROW(value("make_layout(make_shape(C<4294967296>{}, C<4294967296>{}))"), OverflowError);
  EXPECT_EQ(error_of("Int<1>{} / 0").column, 10u);
  EXPECT_THROW(value("Int<8 % 0>{}"), ParseError);
  EXPECT_THROW(value("1.5"), ParseError);
  EXPECT_THROW(value("09"), ParseError);  // not an octal digit
}

TEST(CppExpr, DeepNestingIsAnErrorNotACrash) {
  using testing::nested;
  EXPECT_EQ(eval(nested("(", "1", ")", 150)), "integer 1");
  for (const std::string& s : {nested("(", "1", ")", 100000), nested("make_shape(", "1", ")", 100000), nested("Int<", "1", ">{}", 100000),
                               nested("-", "1", "", 100000), nested("1+", "1", "", 100000), nested("1*", "1", "", 100000)}) {
    const Error e = error_of(s);
    EXPECT_NE(std::string(e.what()).find("nesting deeper than 200"), std::string::npos) << s.substr(0, 30);
  }
}

TEST(CppExpr, ConstantsAreExpressionsAndTheirErrorsNameThem) {
  EXPECT_NE(std::string(error_of("a", {{"a", "b"}, {"b", "a"}}).what()).find("defined through itself"), std::string::npos);
  const Error e = error_of("a", {{"a", "make_shape(1,"}});
  EXPECT_NE(std::string(e.what()).find("-D a:"), std::string::npos);
  EXPECT_EQ(e.input, "make_shape(1,");
  EXPECT_THROW(value("a", {{"a", "using X = Int<1>;"}}), ParseError);
  // Program bindings come first.
  EXPECT_EQ(eval("using bM = Int<64>; bM{}", {{"bM", "Int<128>{}"}}), "integer 64");
}

TEST(CppExpr, MultiLineErrorsShowTheirLine) {
  const std::string src = "using X = make_shape(8, 64);\n\tmake_layout(X, foo(1))\n";
  const Error e = error_of(src);
  EXPECT_EQ(e.column, column_of(src, "foo"));  // byte offset + 1 in the whole text
  EXPECT_NE(std::string(e.what()).find("at line 2, column 17"), std::string::npos);
  EXPECT_EQ(e.caret(), "  \tmake_layout(X, foo(1))\n  \t" + std::string(15, ' ') + "^");
  // An error at the end of the text: the caret follows its last character.
  const Error end = error_of("using X = Int<8>;\nmake_layout(X\n\n");
  EXPECT_EQ(end.caret(), "  make_layout(X\n               ^");
  // One line: the caret format is unchanged.
  EXPECT_EQ(error_of("make_shape(1,)").caret(), "  make_shape(1,)\n               ^");
}

// ---- cpp_source.hpp on top of the evaluator ------------------------------------------------

TEST(CppExpr, CppSourceEntryPoints) {
  EXPECT_EQ(to_string(parse_cpp_layout("using A = decltype(make_layout(make_shape(_8{}, _64{}), LayoutRight{}));\n"
                                       "composition(Swizzle<3,3,3>{}, A{});")),
            "Sw<3,3,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(to_string(parse_cpp_layout("make_layout(make_shape(bM, _8{}))", {{"bM", "Int<16>{}"}})), "(16,8):(1,16)");
  EXPECT_EQ(to_string(parse_cpp_layout("make_shape(8, 64)")), "(8,64):(1,8)");  // a shape means its compact layout
  EXPECT_THROW(parse_cpp_layout("half_t"), ParseError);
  for (const char* s : {"tile_to_shape(a, b)", "make_ordered_layout(s, o)", "using X = Int<8>;", "auto x = 8;", "decltype(x){}"})
    EXPECT_TRUE(looks_like_cpp_source(s)) << s;
  EXPECT_FALSE(looks_like_cpp_source("(8,64):(64,1)"));
  EXPECT_EQ(to_string(parse_layout_any_syntax("tile_to_shape(Layout<_8,_1>{}, Shape<_16>{})")), "((8,(2))):((1,(8)))");
}

// Hostile-input campaign H4 (a C++ "billion laughs"): each binding doubles a tuple, so 40 lines asked
// for 2^40 integers and the evaluator ran until it was killed. Every value now stays within
// kMaxCppLeaves integers and kMaxCppDepth levels: the 13th doubling is an error located at its line,
// as is a chain of bindings that nests one level per line.
TEST(CppExpr, ExponentialBindingsAreRefusedNotExpanded) {
  std::string doubling = "auto a0 = make_shape(_1{},_1{});\n";
  for (int i = 1; i <= 39; ++i)
    doubling += "auto a" + std::to_string(i) + " = make_shape(a" + std::to_string(i - 1) + ",a" + std::to_string(i - 1) + ");\n";
  for (const std::string& tail : {"make_layout(a39)", "decltype(make_layout(a39)){}"}) {
    const Error e = error_of(doubling + tail);
    EXPECT_NE(std::string(e.what()).find("value too large: more than 4096 integers"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at line 13,"), std::string::npos) << e.what();  // a12 has 2^13 integers
  }
  // The static_asserts evaluate the bindings in order, so no single evaluation recurses deeply.
  std::string chain = "auto a0 = make_shape(_1{});\n";
  for (int i = 1; i <= 400; ++i)
    chain += "auto a" + std::to_string(i) + " = make_shape(a" + std::to_string(i - 1) + "); static_assert(rank(a" + std::to_string(i) + ") == 1);\n";
  const Error deep = error_of(chain + "make_layout(a400)");
  EXPECT_NE(std::string(deep.what()).find("deeper than 200"), std::string::npos) << deep.what();
  // Allowed sizes still evaluate: 2^12 integers.
  std::string ok = "auto a0 = make_shape(_1{},_1{});\n";
  for (int i = 1; i <= 11; ++i) ok += "auto a" + std::to_string(i) + " = make_shape(a" + std::to_string(i - 1) + ",a" + std::to_string(i - 1) + ");\n";
  EXPECT_EQ(eval(ok + "size(make_layout(a11))"), "integer 1");
}

}  // namespace
}  // namespace layoutproof
