// model/compiled/assume.hpp: the assumption grammar (C's precedence and meaning) and its errors.
#include "model/compiled/assume.hpp"

#include <gtest/gtest.h>

namespace layoutproof::compiled {
namespace {

// The value with the names bound as parameters I of value values[I] (pI), the rest unbound.
std::optional<i64> value(const std::string& text, std::vector<i64> values = {}) {
  AssumeExpr e = parse_assumption(text, "--assume");
  std::function<void(AssumeExpr&)> bind = [&](AssumeExpr& x) {
    for (AssumeExpr& a : x.args) bind(a);
    if (x.kind == AssumeExpr::Kind::name && x.name.size() > 1 && x.name[0] == 'p') {
      x.kind = AssumeExpr::Kind::param;
      x.param = static_cast<std::size_t>(std::stoul(x.name.substr(1)));
    }
  };
  bind(e);
  return evaluate(e, [&](const AssumeExpr& x) -> std::optional<i64> {
    if (x.param < values.size()) return values[x.param];
    return std::nullopt;
  });
}

TEST(Assume, FollowsCsPrecedenceAndMeaning) {
  EXPECT_EQ(value("1 + 2 * 3"), 7);
  EXPECT_EQ(value("(1 + 2) * 3"), 9);
  EXPECT_EQ(value("2 * 3 << 1"), 12);                                   // * before <<
  EXPECT_EQ(value("10 - 4 - 3"), 3);                                   // left-associative
  EXPECT_EQ(value("-7 / 2"), -3);                                       // toward zero
  EXPECT_EQ(value("-7 % 2"), -1);                                       // the dividend's sign
  EXPECT_EQ(value("1 < 2 == 1"), 1);                                    // < before ==
  EXPECT_EQ(value("6 & 3 == 3"), 0);                                    // == before &: 6 & 1
  EXPECT_EQ(value("1 || 0 && 0"), 1);                                   // && before ||
  EXPECT_EQ(value("!0 + ~0"), 0);
  EXPECT_EQ(value("-8 >> 1"), -4);                                      // arithmetic
  EXPECT_EQ(value("0x10 | 1"), 17);
  EXPECT_EQ(value("p0 % 8 == 0 && p0 >= 8", {16}), 1);
  EXPECT_EQ(value("p0 % 8 == 0 && p0 >= 8", {12}), 0);
}

TEST(Assume, AnUnknownSideDecidesNothingUnlessTheOtherDoes) {
  EXPECT_EQ(value("p0 > 3"), std::nullopt);
  EXPECT_EQ(value("0 && p0 > 3"), 0);
  EXPECT_EQ(value("p0 > 3 || 1"), 1);
}

TEST(Assume, ErrorsNameTheColumnWithACaret) {
  const auto message = [](const std::string& text) {
    try {
      parse_assumption(text, "--assume '" + text + "'");
    } catch (const LayoutError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message("p2 % 8 = 0").find("column 8"), std::string::npos) << message("p2 % 8 = 0");
  EXPECT_NE(message("p2 % 8 = 0").find("\n  p2 % 8 = 0\n         ^"), std::string::npos) << message("p2 % 8 = 0");
  EXPECT_NE(message("p2 / p3 > 1").find("a positive integer literal"), std::string::npos);  // a divisor that may be 0
  EXPECT_NE(message("p2 % 0 == 0").find("a positive integer literal"), std::string::npos);
  EXPECT_NE(message("1 << 64").find("a shift count 0..63"), std::string::npos);
  EXPECT_NE(message("(p2 + 1").find("')'"), std::string::npos);
  EXPECT_NE(message("99999999999999999999").find("below 2^63"), std::string::npos);
  EXPECT_NE(message("").find("a number, a name"), std::string::npos);
}

}  // namespace
}  // namespace layoutproof::compiled
