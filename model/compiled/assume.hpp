#pragma once
// Assumptions about the launches a compiled kernel's claims are about (--assume EXPR, a spec
// entry's `assume: [...]`): C-like integer expressions over the launch. The claims' domain is every
// launch (CTA, grid, free parameter) at which every assumption is non-zero; the claims decide
// them with Z3 (proofs/claims/ptx_claims.hpp, "Free parameters"), and an assumption no launch
// satisfies makes every claim ERROR (vacuous), never PROVED.
//
// Definition. Every value is a 64-bit two's-complement integer (products wrap there; the
// values a launch has, 32 bits each, never do in a sum or comparison):
//   expr    := lor
//   lor     := land ('||' land)*          land := bor ('&&' bor)*
//   bor     := bxor ('|' bxor)*           bxor := band ('^' band)*       band := eq ('&' eq)*
//   eq      := rel (('==' | '!=') rel)*   rel  := shift (('<' | '<=' | '>' | '>=') shift)*
//   shift   := add (('<<' | '>>') INT)*   add  := mul (('+' | '-') mul)*
//   mul     := unary ('*' unary | '/' INT | '%' INT)*
//   unary   := ('!' | '-' | '~') unary | primary
//   primary := INT | NAME | '(' expr ')'
// C's precedence and meaning: comparisons and !, &&, || give 0 or 1; / and % truncate toward
// zero and take a positive integer literal (a division by a value that may be 0 is no
// assumption); << and >> (arithmetic) take a literal 0..63. INT: decimal or 0x hex.
// NAME:
//   pI, or a parameter's name (PTX: _Z..._param_I; SASS: I by the signature)   its bits, signed
//   blockDim.x|y|z (ntid.*)     the block: a constant of the launch
//   gridDim.x|y|z (nctaid.*)    the grid: a symbol unless --grid fixes it
//   blockIdx.x|y|z (ctaid.*)    the CTA: a symbol unless --cta fixes it
//   smem_bytes                  the dynamic shared memory's size (--smem-bytes)
// Example: --assume 'p2 % 8 == 0' --assume 'p2 >= 8' --assume 'gridDim.x <= 4096'.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/support/error.hpp"
#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

struct AssumeExpr {
  enum class Kind : u8 { num, name, param, grid, cta, unary, binary };
  Kind kind = Kind::num;
  i64 value = 0;            // num
  std::string name;         // name: as written (until bound); param, grid, cta: for messages
  std::size_t param = 0;    // param: Function::params slot (SASS: 0, the buffer)
  i64 offset = 0;           // param: its first byte there
  int bits = 32;            // param: its width
  int dim = 0;              // grid, cta: 0 x, 1 y, 2 z
  std::string op;           // unary: ! - ~; binary: || && | ^ & == != < <= > >= << >> + - * / %
  std::vector<AssumeExpr> args;
};

struct Assumption {
  std::string text;  // as given
  std::string what;  // how messages name it: "--assume 'p2 % 8 == 0'", "assume: ..."
  AssumeExpr expr;
};

// Parses `text` (the grammar above); names stay unbound (Kind::name). LayoutError naming `what`,
// with the text and a caret under the column where it fails.
AssumeExpr parse_assumption(const std::string& text, const std::string& what);

// The value of `e` where `value_of(e)` gives each leaf that is not a number (param, grid, cta;
// nullopt: not known, and then neither is the result). Throws LayoutError on an unbound name.
std::optional<i64> evaluate(const AssumeExpr& e, const std::function<std::optional<i64>(const AssumeExpr&)>& value_of);

}  // namespace layoutproof::compiled
