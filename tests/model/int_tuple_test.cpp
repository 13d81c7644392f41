#include "model/int_tuple.hpp"
#include <gtest/gtest.h>
TEST(IntTuple, Product) { EXPECT_EQ(layoutproof::product(layoutproof::IntTuple::tuple({2, 3})), 6); }
