#pragma once
// Operand types in PTX (the PTX ISA's "Operand Type Information" and its type-checking tables),
// checked as each instruction is read (ptx_body.cpp): ptxas refuses an ill-typed operand, and the
// executor reads a register's bits as whatever the instruction says, so a .f32 register taken as
// an address or a predicate taken as an integer would be run as if it were meant. Such PTX is
// malformed: refused at the operand (FILE:LINE:COL, a caret), never run. Internal to the reader.
//
// The rules, for a register of declared type R used where the instruction wants type T:
//   - same size: R.bits == T.bits, and the kinds agree: .bN agrees with every kind, .u/.s with
//     each other, .f with .f (a .pred only with .pred);
//   - ld/st/cvt data and atom/red values may be wider than T (a narrow value in a regular-width
//     register); a floating-point T still needs the exact size unless R is .bN;
//   - operands with a type of their own: shift amounts, bfe/bfi positions and lengths, shfl's lane
//     and mask operands (.u32); mul/mad.wide's result (2T); clz/popc/bfind's result (.u32); setp's
//     results, selp's selector, vote's source, a guard, `!x` (.pred); ldmatrix/stmatrix registers
//     (32 bits);
//   - an address `[base+off]`: base is a 32- or 64-bit integer (.u/.s/.b) register, a symbol or a
//     parameter, never a .f or .pred register.
// Example: `ld.shared.u32 %r1, [%f1];` -> "'%f1' is a .f32 register: an address needs a 32- or
// 64-bit integer register".
// Instructions the model does not execute (Op::unknown: floating point, tensor cores, ...) are
// checked for their addresses only; calls are not checked (param space has no register types).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

struct OperandTypeError {
  std::size_t pos = 0;  // the operand's byte offset in the text
  std::string what;
};

// ".b32", ".pred", ".f16" (no type: "untyped").
std::string type_name(Type t);

// The first ill-typed operand of `in` (its top-level operands `top`, nested parts in `nested` as
// the reader holds them before it stores them), or nullopt. reg_types: each register's declared
// type (kind none: not checked); f names registers in the message.
std::optional<OperandTypeError> check_operand_types(const Instr& in, std::string_view mnemonic, const std::vector<Operand>& top,
                                                    const std::vector<Operand>& nested, const std::vector<Type>& reg_types,
                                                    const Function& f);

}  // namespace layoutproof::compiled
