#pragma once
// Variable and parameter declarations, shared by the module level (ptx_parse.cpp) and function
// bodies (ptx_body.cpp): after the state space (`.shared`, `.param`, `.global`, ...),
//   [.align N] [.v2|.v4] [.ptr .space [.align N]] .TYPE NAME[[N]]... [= INIT] [, NAME ...] ;
// Example: `.shared .align 16 .b8 smem[4096];` -> {smem, align 16, 4096 bytes};
// `.extern .shared .align 16 .b8 dyn[];` -> {dyn, align 16, unsized}.
#include <string>
#include <vector>

#include "model/compiled/ptx_lex.hpp"
#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

struct Declared {
  std::string name;
  Type type;
  i64 align = 0;      // 0: not given (the element's size applies)
  i64 bytes = 0;      // element bytes x vector x every dimension
  bool unsized = false;  // `name[]`
  u32 line = 0;
  std::size_t pos = 0;
};

inline constexpr i64 kMaxDeclaredBytes = i64{1} << 40;

// Reads one declaration after its state space. one: a parameter (no ',' list, no ';'), else the
// ';' is consumed. Throws ParseError.
inline std::vector<Declared> declaration(Lexer& lx, bool one) {
  using K = Token::Kind;
  i64 align = 0, vec = 1;
  Type type;
  for (;;) {
    const Token d = lx.peek();
    if (d.kind != K::name || d.text[0] != '.') break;
    lx.next();
    if (d.text == ".align") {
      const Token n = lx.next();
      std::uint64_t v = 0;
      if (n.kind != K::number || !ptx_integer(n.text, v) || v == 0 || v > (1u << 20) || (v & (v - 1)))
        lx.fail(n, "expected an alignment (a power of two)");
      if (type.kind == TypeKind::none) align = static_cast<i64>(v);  // `.ptr ... .align N` is the pointee's
    } else if (d.text == ".v2" || d.text == ".v4" || d.text == ".v8") {
      vec = d.text[2] - '0';
    } else if (d.text == ".param" || d.text == ".reg" || d.text == ".ptr" || d.text == ".global" || d.text == ".shared" ||
               d.text == ".const" || d.text == ".local" || d.text == ".attribute") {
      continue;
    } else {
      const Opcode o = decode_opcode(std::string("x") + std::string(d.text));  // ".u32" as a modifier
      if (o.type.kind == TypeKind::none) lx.fail(d, "unknown directive '" + std::string(d.text) + "' in a declaration");
      type = o.type;
    }
  }
  if (type.kind == TypeKind::none) lx.fail(lx.peek(), "expected a type (.b8, .u32, .f32, ...) in the declaration");
  std::vector<Declared> out;
  for (;;) {
    const Token n = lx.next();
    if (n.kind != K::name || n.text[0] == '.') lx.fail(n, "expected the declared name");
    Declared d;
    d.name = std::string(n.text);
    d.type = type;
    d.align = align;
    d.line = n.line;
    d.pos = n.pos;
    i64 bytes = checked_mul(std::max(type_bytes(type), 1), vec);
    while (lx.peek().is('[')) {
      const Token open = lx.next();
      if (lx.peek().is(']')) {
        d.unsized = true;
      } else {
        const Token c = lx.next();
        std::uint64_t v = 0;
        if (c.kind != K::number || !ptx_integer(c.text, v) || v > static_cast<std::uint64_t>(kMaxDeclaredBytes))
          lx.fail(c, "expected an array size");
        bytes = checked_mul(bytes, static_cast<i64>(v));
        if (bytes > kMaxDeclaredBytes) lx.fail(c, "an array of more than 2^40 bytes");
      }
      if (!lx.next().is(']')) lx.fail(open, "this '[' is never closed");
    }
    d.bytes = d.unsized ? 0 : bytes;
    out.push_back(std::move(d));
    if (lx.peek().is('=')) {  // an initializer: skipped (braces balanced)
      lx.next();
      int depth = 0;
      while (!(depth == 0 && (lx.peek().is(';') || lx.peek().is(',')))) {
        const Token t = lx.next();
        if (t.kind == K::end) lx.fail(n, "an initializer that is never ended by ';'");
        depth += t.is('{') ? 1 : t.is('}') ? -1 : 0;
      }
    }
    if (one) return out;
    const Token sep = lx.next();
    if (sep.is(';')) return out;
    if (!sep.is(',')) lx.fail(sep, "expected ';' after the declaration");
  }
}

}  // namespace layoutproof::compiled
