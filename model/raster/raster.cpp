#include "model/raster/raster.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_map>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::raster {
namespace {

using Op = FormulaNode::Op;

// Recursive descent over the C precedence ladder: | ^ & (<< >>) (+ -) (* / %) primary.
class FormulaParser {
 public:
  explicit FormulaParser(std::string_view t) : text_(t) { f_.text = std::string(t); }

  Formula run() {
    skip_space(true);
    while (pos_ < text_.size()) {
      statement();
      skip_space(false);
      if (pos_ < text_.size() && (text_[pos_] == ';' || text_[pos_] == '\n')) {
        ++pos_;
        skip_space(true);
      } else if (pos_ < text_.size()) {
        fail("';' between statements");
      }
    }
    if (f_.x < 0) fail("a statement 'x = ...' (or tile_x)");
    if (f_.y < 0) fail("a statement 'y = ...' (or tile_y)");
    return std::move(f_);
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const { throw ParseError(expected, pos_ + 1, std::string(text_)); }

  void skip_space(bool newlines) {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' ||
                                   (newlines && (text_[pos_] == '\n' || text_[pos_] == ';'))))
      ++pos_;
  }
  bool eat(std::string_view tok) {
    skip_space(false);
    if (text_.substr(pos_, tok.size()) != tok) return false;
    // '<' must not take the first character of '<<' and so on: every operator here is exact.
    pos_ += tok.size();
    return true;
  }
  std::string ident() {
    skip_space(false);
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   (text_[pos_] == '.' && pos_ > start)))
      ++pos_;
    if (pos_ == start || std::isdigit(static_cast<unsigned char>(text_[start]))) {
      pos_ = start;
      return {};
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  int node(Op op, int a, int b, u32 value = 0) {
    f_.nodes.push_back(FormulaNode{op, value, a, b});
    return static_cast<int>(f_.nodes.size()) - 1;
  }

  void statement() {
    const std::size_t start = pos_;
    const std::string name = ident();
    if (name.empty()) fail("a name (x, y or a let-binding)");
    if (!eat("=")) fail("'=' after '" + name + "'");
    if (is_builtin(name)) {
      pos_ = start;
      fail("a new name ('" + name + "' is built in)");
    }
    const int e = expr();
    const bool is_x = name == "x" || name == "tile_x", is_y = name == "y" || name == "tile_y";
    if ((is_x && f_.x >= 0) || (is_y && f_.y >= 0) || lets_.count(name)) {
      pos_ = start;
      fail("a name not bound before ('" + name + "' is)");
    }
    if (is_x) f_.x = e;
    else if (is_y) f_.y = e;
    lets_[name] = e;
  }

  static bool is_builtin(const std::string& n) {
    return n == "blockIdx.x" || n == "blockIdx.y" || n == "gridDim.x" || n == "gridDim.y" || n == "tile_size" ||
           n == "min" || n == "max";
  }

  static constexpr int kMaxNesting = 256;
  int depth_ = 0;

  // Bounded nesting: each '(' or min( / max( recurses through the 7 precedence levels, so 20000
  // open parentheses overflowed the stack (hostile-input campaign C2).
  int expr() {
    if (++depth_ > kMaxNesting) {
      skip_space(false);
      throw ParseError::located("nesting deeper than " + std::to_string(kMaxNesting) + " (nested parentheses and min/max)", pos_ + 1,
                                std::string(text_));
    }
    const int e = binary(0);
    --depth_;
    return e;
  }

  // Levels 0..5: | ^ & shift additive multiplicative.
  int binary(int level) {
    if (level == 6) return primary();
    int lhs = binary(level + 1);
    for (;;) {
      skip_space(false);
      Op op;
      std::size_t len = 1;
      const char c = pos_ < text_.size() ? text_[pos_] : '\0';
      const char d = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
      if (level == 0 && c == '|') op = Op::bor;
      else if (level == 1 && c == '^') op = Op::bxor;
      else if (level == 2 && c == '&') op = Op::band;
      else if (level == 3 && c == '<' && d == '<') op = Op::shl, len = 2;
      else if (level == 3 && c == '>' && d == '>') op = Op::shr, len = 2;
      else if (level == 4 && (c == '+' || c == '-')) op = c == '+' ? Op::add : Op::sub;
      else if (level == 5 && (c == '*' || c == '/' || c == '%')) op = c == '*' ? Op::mul : c == '/' ? Op::div : Op::rem;
      else return lhs;
      pos_ += len;
      skip_space(false);
      const std::size_t rhs_at = pos_;
      const int rhs = binary(level + 1);
      // x / 0 and x % 0 are undefined behaviour in CUDA C++: a formula that divides by a literal 0
      // has no meaning to prove (the SMT-LIB convention x % 0 = x would make it PROVED; case D1).
      const FormulaNode& r = f_.nodes[static_cast<std::size_t>(rhs)];
      if ((op == Op::div || op == Op::rem) && r.op == Op::constant && r.value == 0) {
        pos_ = rhs_at;
        fail("a divisor other than 0 (x / 0 and x % 0 are undefined in CUDA C++)");
      }
      lhs = node(op, lhs, rhs);
    }
  }

  int primary() {
    skip_space(false);
    if (pos_ >= text_.size()) fail("a number, a name or '('");
    if (eat("(")) {
      const int e = expr();
      if (!eat(")")) fail("')'");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const std::size_t start = pos_;
      unsigned long long v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        v = v * 10 + static_cast<unsigned>(text_[pos_] - '0');
        if (v > 0xFFFFFFFFull) {
          pos_ = start;
          fail("a constant below 2^32");
        }
        ++pos_;
      }
      return node(Op::constant, -1, -1, static_cast<u32>(v));
    }
    const std::size_t start = pos_;
    const std::string name = ident();
    if (name.empty()) fail("a number, a name or '('");
    if (name == "min" || name == "max") {
      if (!eat("(")) fail("'(' after " + name);
      const int a = expr();
      if (!eat(",")) fail("',' between the arguments of " + name);
      const int b = expr();
      if (!eat(")")) fail("')' closing " + name);
      return node(name == "min" ? Op::min : Op::max, a, b);
    }
    static const char* vars[] = {"blockIdx.x", "blockIdx.y", "gridDim.x", "gridDim.y", "tile_size"};
    for (u32 i = 0; i < 5; ++i)
      if (name == vars[i]) {
        if (i == 4) f_.uses_tile_size = true;
        return node(Op::var, -1, -1, i);
      }
    const auto it = lets_.find(name);
    if (it == lets_.end()) {
      pos_ = start;
      fail("blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, tile_size or a name bound before ('" + name + "' is not)");
    }
    return it->second;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  Formula f_;
  std::unordered_map<std::string, int> lets_;
};

u32 eval_node(const FormulaNode& n, u32 a, u32 b) {
  switch (n.op) {
    case Op::add: return a + b;
    case Op::sub: return a - b;
    case Op::mul: return a * b;
    case Op::div: return udiv(a, b);
    case Op::rem: return urem(a, b);
    case Op::shl: return shl(a, b);
    case Op::shr: return lshr(a, b);
    case Op::band: return a & b;
    case Op::bor: return a | b;
    case Op::bxor: return a ^ b;
    case Op::min: return std::min(a, b);
    case Op::max: return std::max(a, b);
    default: return n.value;
  }
}

}  // namespace

Formula parse_formula(std::string_view text) { return FormulaParser(text).run(); }

Tile eval_formula(const Formula& f, u32 bx, u32 by, u32 gx, u32 gy, u32 tile_size) {
  std::vector<u32> v(f.nodes.size());
  const u32 vars[5] = {bx, by, gx, gy, tile_size};
  for (std::size_t i = 0; i < f.nodes.size(); ++i) {
    const FormulaNode& n = f.nodes[i];
    if (n.op == Op::var) v[i] = vars[n.value];
    else if (n.op == Op::constant) v[i] = n.value;
    else v[i] = eval_node(n, v[static_cast<std::size_t>(n.a)], v[static_cast<std::size_t>(n.b)]);
  }
  return Tile{v[static_cast<std::size_t>(f.x)], v[static_cast<std::size_t>(f.y)]};
}

Tile apply(const Raster& r, u32 bx, u32 by, u32 gx, u32 gy) {
  if (r.kind == Kind::formula) return eval_formula(*r.formula, bx, by, gx, gy, r.param);
  return apply_builtin(r.kind, bx, by, gx, gy, r.param);
}

const char* to_string(Kind k) {
  switch (k) {
    case Kind::row_major: return "row-major";
    case Kind::seed: return "seed";
    case Kind::seed_fixed: return "seed-fixed";
    case Kind::cutlass: return "cutlass";
    case Kind::morton: return "morton";
    case Kind::formula: return "formula";
  }
  return "?";
}

Kind parse_kind(std::string_view s) {
  for (Kind k : {Kind::row_major, Kind::seed, Kind::seed_fixed, Kind::cutlass, Kind::morton, Kind::formula})
    if (s == to_string(k)) return k;
  throw LayoutError("rasterization must be row-major, seed, seed-fixed, cutlass, morton or formula, not '" +
                    std::string(s) + "'");
}

std::string describe(const Raster& r) {
  switch (r.kind) {
    case Kind::seed:
    case Kind::seed_fixed: return std::string(to_string(r.kind)) + " (tile_size " + std::to_string(r.param) + ")";
    case Kind::cutlass: return "cutlass (log_tile " + std::to_string(r.param) + ")";
    case Kind::formula: return "formula '" + r.formula->text + "'";
    default: return to_string(r.kind);
  }
}

Locality locality(const Raster& r, const GemmShape& g, const TileShape& t, int elem_bytes, int sms) {
  if (sms < 1 || elem_bytes < 1 || g.m < 1 || g.n < 1 || g.k < 1 || t.m < 1 || t.n < 1 || t.k < 1)
    throw LayoutError("locality needs positive M, N, K, tile extents, element bytes and SM count");
  Locality L;
  L.name = describe(r);
  L.m_tiles = ceil_div(g.m, t.m);  // checked: sizes up to 2^63 never wrap
  L.n_tiles = ceil_div(g.n, t.n);
  if (L.m_tiles > (1 << 20) || L.n_tiles > (1 << 20)) throw LayoutError("locality: more than 2^20 tiles along M or N");
  const bool cut = r.kind == Kind::cutlass;
  L.launch = cut ? cutlass_grid(static_cast<u32>(L.m_tiles), static_cast<u32>(L.n_tiles), r.param)
                 : Grid{static_cast<u32>(L.n_tiles), static_cast<u32>(L.m_tiles)};
  L.blocks = std::int64_t{L.launch.x} * L.launch.y;
  if (L.blocks > (std::int64_t{1} << 26)) throw LayoutError("locality: more than 2^26 blocks");
  // Byte counts in checked arithmetic: a count that would wrap is an error, never a negative figure.
  const std::int64_t a_tile_bytes = checked_mul(checked_mul(t.m, g.k), elem_bytes);
  const std::int64_t b_tile_bytes = checked_mul(checked_mul(t.n, g.k), elem_bytes);
  std::set<std::int64_t> as, bs;
  auto close_wave = [&] {
    ++L.waves;
    const auto na = static_cast<std::int64_t>(as.size()), nb = static_cast<std::int64_t>(bs.size());
    L.total_a += na, L.total_b += nb;
    L.max_a = std::max(L.max_a, na), L.max_b = std::max(L.max_b, nb);
    as.clear(), bs.clear();
  };
  for (std::int64_t id = 0; id < L.blocks; ++id) {
    const u32 bx = static_cast<u32>(id % L.launch.x), by = static_cast<u32>(id / L.launch.x);
    const Tile tile = apply(r, bx, by, L.launch.x, L.launch.y);
    const std::int64_t m = cut ? tile.x : tile.y, n = cut ? tile.y : tile.x;
    if (m < L.m_tiles && n < L.n_tiles) as.insert(m), bs.insert(n);
    else ++L.noop_blocks;
    if ((id + 1) % sms == 0 || id + 1 == L.blocks) close_wave();
  }
  L.mean_a = L.waves ? static_cast<double>(L.total_a) / static_cast<double>(L.waves) : 0;
  L.mean_b = L.waves ? static_cast<double>(L.total_b) / static_cast<double>(L.waves) : 0;
  L.bytes_a = checked_mul(L.total_a, a_tile_bytes);
  L.bytes_b = checked_mul(L.total_b, b_tile_bytes);
  return L;
}

}  // namespace layoutproof::raster
