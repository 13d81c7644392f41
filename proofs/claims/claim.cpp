#include "proofs/claims/claim.hpp"

#include <limits>

#include "model/support/checked.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::proofs {

std::string Subject::text() const {
  return bare_swizzle ? to_string(*layout.swizzle) : to_string(layout);
}

Subject parse_subject(const std::string& text) {
  Subject s;
  const bool has_o = text.find(" o ") != std::string::npos || text.find(")o") != std::string::npos ||
                     text.find(">o") != std::string::npos;
  const auto first = text.find_first_not_of(" \t");
  if (!has_o && first != std::string::npos && text.compare(first, 2, "Sw") == 0) {
    s.layout.swizzle = parse_swizzle(text);
    s.bare_swizzle = true;
    return s;
  }
  s.layout = parse_any_layout(text);
  return s;
}

// The claim's number, as the user wrote it (model/support/checked.hpp's one integer reader: no library words).
static i64 parse_positive(const std::string& s, const std::string& what) {
  return parse_int_in(s, what, 1, std::numeric_limits<i64>::max());
}

Claim parse_claim(const std::string& text) { return parse_claim(text, CppConstants{}); }

Claim parse_claim(const std::string& text, const CppConstants& constants) {
  Claim c;
  c.text = text;
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : text.substr(colon + 1);
  auto no_arg = [&](Claim::Kind k) {
    if (colon != std::string::npos) throw LayoutError("claim '" + name + "' takes no argument");
    c.kind = k;
  };
  if (name == "injective") no_arg(Claim::Kind::injective);
  else if (name == "bijective") no_arg(Claim::Kind::bijective);
  else if (name == "swizzle-permutes") no_arg(Claim::Kind::swizzle_permutes);
  else if (name == "involution") no_arg(Claim::Kind::involution);
  else if (name == "surjective") {
    c.kind = Claim::Kind::surjective;
    c.n = parse_positive(arg, "surjective:N");
  } else if (name == "contiguous") {
    c.kind = Claim::Kind::contiguous;
    const auto at = arg.find('@');
    c.n = parse_positive(arg.substr(0, at), "contiguous:V");
    if (at != std::string::npos) {
      const std::string m = arg.substr(at + 1);
      c.mode = static_cast<std::size_t>(parse_int_in(m, "contiguous:V@MODE", 0, 999));
      c.mode_given = true;
    }
  } else if (name == "equivalent" || name == "inverse") {
    c.kind = name == "equivalent" ? Claim::Kind::equivalent : Claim::Kind::inverse;
    if (arg.empty()) throw LayoutError("claim '" + name + "' needs a layout: " + name + ":L");
    c.other = parse_layout_any_syntax(arg, constants);
  } else {
    throw LayoutError("unknown claim '" + text +
                      "' (injective, bijective, swizzle-permutes, surjective:N, contiguous:V[@MODE], equivalent:L2, involution, inverse:R; conflict-free and max-ways:K take an access: --elem-bytes, --vec, --pattern)");
  }
  return c;
}

i64 domain_size(const Subject& s) {
  if (s.bare_swizzle) {
    const int span = s.layout.swizzle->span_bits();
    return span >= 62 ? INT64_MAX : (i64{1} << span);
  }
  return size(s.layout.layout);
}

std::size_t default_contiguous_mode(const Layout& l) {
  for (std::size_t i = 0; i < l.rank(); ++i)
    if (leaves(l.stride[i]).front() == 1 && product(l.shape[i]) > 1) return i;
  return 0;
}

i64 mode_stride_product(const Layout& l, std::size_t mode) {
  i64 p = 1;
  for (std::size_t i = 0; i < mode; ++i) p = checked_mul(p, product(l.shape[i]));
  return p;
}

}  // namespace layoutproof::proofs
