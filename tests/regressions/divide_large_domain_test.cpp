// Performance finding from bench/gen_algebra_queries.py 10000 1 (seed 1), query line 9870: this
// logical_divide took 0.4-1.5 s, and the 10,000 queries 2.5 s instead of 0.155 s. Its composition step
// has a domain of 3,145,728 elements and a B with several long modes, which CuTe's exact divisions
// prove mode by mode but not summed, so check_composition evaluated R(c) == A(B(c)) at every c.
// Fixed: check_composition first shows the definition on A's digits (model/algebra/composition_digits.hpp),
// at a cost of A's leaves times R's, and enumerates only what that does not show.
// The expected layouts are the results layoutproof printed before the fix, when each was checked by
// enumerating its whole domain; the other four are the next slowest divides of the same run.
#include <gtest/gtest.h>

#include <string>

#include "model/algebra/tiling.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

std::string divide(Layout (*op)(const Layout&, const Tiler&), const std::string& l, const std::string& t) {
  return to_string(op(parse_layout(l), parse_tiler(t)));
}

TEST(Regression, LogicalDivideLargeDomain_seed1_line9870) {
  EXPECT_EQ(divide(logical_divide,
                   "((8,(4,2,3),(4,1,1)),((8),4),((4,4,4),(2,1,1))):((393216,(16,1,4096),(24576,25165824,0)),"
                   "((3145728),1024),((64,2,256),(196608,4096,0)))",
                   "(2,2):(1,4)"),
            "((2,2),(2,(4,2,3,4,8,4,4,4,4,2))):((393216,1572864),(786432,(16,1,4096,24576,3145728,1024,64,2,256,196608)))");
}

TEST(Regression, NextSlowestDivides_seed1) {
  EXPECT_EQ(divide(tiled_divide,  // line 3426
                   "(((1,4,8),2,4),((4,4),4,(2,3)),((1,3),(2,4))):(((2304,36864,0),2,2304),((9216,147456),192,(4,768)),"
                   "((192,8),(1,24)))",
                   "4:1"),
            "(4,8,2,16,4,4,2,3,3,2,4):(36864,0,2,2304,147456,192,4,768,8,1,24)");
  EXPECT_EQ(divide(logical_divide,  // line 7970
                   "(((4,3,2),(4,3,8),(2,3,2)),4,((4,4))):(((73728,128,36864),(9216,768,1),(4608,0,384)),8,((32,294912)))",
                   "2:1"),
            "(2,(2,3,2,4,3,8,2,3,2,16,4)):(73728,(147456,128,36864,9216,768,1,4608,0,384,8,294912))");
  EXPECT_EQ(divide(tiled_divide, "(((4,3,2),8),((8,8,8),8),2):(((1,0,4),512),((8,4096,32768),64),0)", "4:1"),  // line 3730
            "(4,3,2,8,8,64,8,2):(1,0,4,512,8,4096,64,0)");
  EXPECT_EQ(divide(zipped_divide,  // line 3682
                   "((1),((8,3,4),(2),(1,4)),(2,(3,4,1),(4,4,2))):((32),((1,0,192),(768),(1,1536)),(6144,(64,8,98304),"
                   "(0,12288,98304)))",
                   "(2,2):(1,4)"),
            "((2,2),(2,(3,64,3,4,4,4,2))):((1,4),(2,(0,192,64,8,0,12288,98304)))");
}

}  // namespace
}  // namespace layoutproof
