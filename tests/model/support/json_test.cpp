// model/support/json.hpp: Utf8Mender, valid_utf8 over a text cut into pieces.
#include "model/support/json.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace layoutproof {
namespace {

std::string mended_in_pieces(const std::string& s, const std::vector<std::size_t>& cuts) {
  Utf8Mender m;
  std::string out;
  std::size_t from = 0;
  for (const std::size_t c : cuts) {
    m.feed(std::string_view(s).substr(from, c - from), out);
    from = c;
  }
  m.feed(std::string_view(s).substr(from), out);
  m.finish(out);
  return out;
}

TEST(Utf8Mender, TheHeadersExample) {
  Utf8Mender m;
  std::string a, b, c;
  m.feed("a\xe2\x82", a);
  m.feed("\xac\xff", b);
  m.finish(c);
  EXPECT_EQ(a, "");
  EXPECT_EQ(b, "a\xe2\x82\xac");
  EXPECT_EQ(c, "\xef\xbf\xbd");
}

TEST(Utf8Mender, AnyCutsGiveValidUtf8OfTheWhole) {
  // Texts of well-formed sequences of every length, their prefixes (a sequence cut short), stray
  // continuation bytes, overlong forms and surrogates; cut at random places, one byte apart too.
  const std::vector<std::string> parts = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xe2\x82", "\xf0\x9f",
                                          "\x80", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\n"};
  std::mt19937 rng(12345);
  for (int round = 0; round < 2000; ++round) {
    std::string s;
    for (int k = static_cast<int>(rng() % 12); k >= 0; --k) s += parts[rng() % parts.size()];
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < s.size(); ++i)
      if (rng() % 3 == 0) cuts.push_back(i);
    EXPECT_EQ(mended_in_pieces(s, cuts), valid_utf8(s)) << "round " << round;
    std::vector<std::size_t> every;  // every byte its own piece
    for (std::size_t i = 1; i < s.size(); ++i) every.push_back(i);
    EXPECT_EQ(mended_in_pieces(s, every), valid_utf8(s)) << "round " << round;
  }
}

}  // namespace
}  // namespace layoutproof
