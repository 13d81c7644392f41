// tests/model/compiled/exec/float_arith_test.cpp: the model's floating-point arithmetic
// (model/compiled/exec/float_arith.hpp) equals the H200's on every case of
// tests/compiled/float_ops (57,544 cases: f32 add/sub/mul/fma in four roundings with .ftz and
// .sat, min/max, the 14 setp comparisons, f64 add/mul/fma/min/max in four roundings), bit for bit;
// the one thing it may say instead is "not modelled" for an f64 NaN result.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "model/compiled/exec/float_arith.hpp"

namespace layoutproof::compiled::alu {
namespace {

struct Form {
  bool compare = false;
  FloatForm f;
  Cmp cmp = Cmp::none;
};

// "add.rn.ftz.f32" -> its form; nullopt for a name the table does not hold.
std::optional<Form> form_of(const std::string& name) {
  Form r;
  std::stringstream in(name);
  std::string part;
  std::vector<std::string> parts;
  while (std::getline(in, part, '.')) parts.push_back(part);
  static const std::map<std::string, FloatOp> ops = {{"add", FloatOp::add}, {"sub", FloatOp::sub}, {"mul", FloatOp::mul},
                                                     {"fma", FloatOp::fma}, {"min", FloatOp::min}, {"max", FloatOp::max}};
  static const std::map<std::string, Cmp> cmps = {{"eq", Cmp::eq},   {"ne", Cmp::ne},   {"lt", Cmp::lt},   {"le", Cmp::le},
                                                  {"gt", Cmp::gt},   {"ge", Cmp::ge},   {"equ", Cmp::equ}, {"neu", Cmp::neu},
                                                  {"ltu", Cmp::ltu}, {"leu", Cmp::leu}, {"gtu", Cmp::gtu}, {"geu", Cmp::geu},
                                                  {"num", Cmp::num}, {"nan", Cmp::nan}};
  if (parts.empty()) return std::nullopt;
  if (parts[0] == "setp") {
    if (parts.size() != 3 || !cmps.count(parts[1])) return std::nullopt;
    r.compare = true, r.cmp = cmps.at(parts[1]), r.f.bits = 32;
    return r;
  }
  if (!ops.count(parts[0])) return std::nullopt;
  r.f.op = ops.at(parts[0]);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& m = parts[i];
    if (m == "rn") r.f.rnd = Round::rn;
    else if (m == "rz") r.f.rnd = Round::rz;
    else if (m == "rm") r.f.rnd = Round::rm;
    else if (m == "rp") r.f.rnd = Round::rp;
    else if (m == "ftz") r.f.ftz = true;
    else if (m == "sat") r.f.sat = true;
    else if (m == "f32") r.f.bits = 32;
    else if (m == "f64") r.f.bits = 64;
    else return std::nullopt;
  }
  return r;
}

TEST(FloatArith, EqualsTheH200OnEveryMeasuredCase) {
  const std::string path = std::string(LAYOUTPROOF_FIXTURES_DIR) + "/float_ops/float_ops.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path << " (unpacked from tests/compiled/float_ops when the build is configured)";
  std::string name, a, b, c, want;
  std::size_t cases = 0, not_modelled = 0;
  std::map<std::string, int> wrong;
  while (in >> name >> a >> b >> c >> want) {
    const std::optional<Form> f = form_of(name);
    ASSERT_TRUE(f.has_value()) << name;
    const u64 x = std::stoull(a, nullptr, 16), y = std::stoull(b, nullptr, 16), z = std::stoull(c, nullptr, 16);
    const u64 w = std::stoull(want, nullptr, 16);
    ++cases;
    if (f->compare) {
      const std::optional<bool> got = float_compare(f->cmp, 32, false, x, y);
      ASSERT_TRUE(got.has_value()) << name;
      if (static_cast<u64>(*got) != w && wrong[name]++ < 3) ADD_FAILURE() << name << " " << a << " " << b << ": model " << *got << ", H200 " << want;
      continue;
    }
    const std::optional<u64> got = float_arith(f->f, x, y, z);
    if (!got) {
      ++not_modelled;
      // Only an f64 NaN may be left unmodelled.
      const bool nan64 = f->f.bits == 64 && (w & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (w & 0x000fffffffffffffull) != 0;
      if (!nan64 && wrong[name]++ < 3) ADD_FAILURE() << name << " " << a << " " << b << " " << c << ": not modelled, H200 " << want;
      continue;
    }
    if (*got != w && wrong[name]++ < 3)
      ADD_FAILURE() << name << " " << a << " " << b << " " << c << ": model " << std::hex << *got << ", H200 " << want;
  }
  EXPECT_EQ(cases, 57544u);
  EXPECT_LT(not_modelled, cases / 50);  // the f64 NaN results alone
  for (const auto& [form, n] : wrong) ADD_FAILURE() << form << ": " << n << " cases differ from the H200";
}

// The header's example, and what the fixture cannot show: neg/abs act on the sign bit alone.
TEST(FloatArith, SignOperationsAndTheHeadersExample) {
  EXPECT_EQ(float_arith({FloatOp::add, 32, Round::rz, false, false}, 0x3f800000, 0x33800000), 0x3f800000u);
  EXPECT_EQ(float_arith({FloatOp::add, 32, Round::rp, false, false}, 0x3f800000, 0x33800000), 0x3f800001u);
  EXPECT_EQ(float_arith({FloatOp::neg, 32}, 0x3f800000), 0xbf800000u);
  EXPECT_EQ(float_arith({FloatOp::neg, 32}, 0x7fc00000), std::nullopt);  // a NaN's sign: not modelled
  EXPECT_EQ(float_arith({FloatOp::abs, 32}, 0xbf800000), 0x3f800000u);
  EXPECT_EQ(float_arith({FloatOp::neg, 64}, 0), u64{1} << 63);
  EXPECT_EQ(float_arith({FloatOp::add, 16}, 0, 0), std::nullopt);
  EXPECT_EQ(float_compare(Cmp::lo, 32, false, 0, 0), std::nullopt);
  // .ftz on a compare: a subnormal is zero.
  EXPECT_EQ(float_compare(Cmp::eq, 32, true, 0x00000001, 0x80000000), true);
  EXPECT_EQ(float_compare(Cmp::eq, 32, false, 0x00000001, 0x80000000), false);
}

}  // namespace
}  // namespace layoutproof::compiled::alu
