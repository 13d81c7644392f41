#pragma once
// The PTX reader: the text nvcc 12/13 emits (`nvcc -ptx`, `-keep`, `cuobjdump -ptx`) into a small
// IR of kernels, their shared symbols and their instructions, each with its PTX line and the CUDA
// source line of the `.loc` before it. It reads; ptx_exec (model/compiled/ptx_exec.hpp) runs it.
//
// What is read: .version/.target/.address_size; module-scope declarations (skipped); `.visible`/
// `.weak` `.entry NAME(.param ...)` with `.reqntid`/`.maxntid`; `.func` bodies (skipped: a `call`
// is an instruction the executor does not model); inside an entry: `.reg` (registers are created
// on first write), `.shared [.align A] .b8 NAME[BYTES];` (static) and `.extern .shared ... NAME[];`
// (dynamic), `.local`, `.loc F L C`, `.file`, labels `NAME:`, `{ }` scopes (inline asm), and
// instructions `[@[!]%p] opcode.mods operand, ...;`. Every instruction is kept as written (opcode
// with its modifiers, operands as text); what an opcode means is ptx_exec's business.
//
// Bad input: ParseError naming "FILE:LINE:COL" with the line and a caret (exit 2). Bounded: a file
// is read once, kept as its instructions; a file above kMaxPtxBytes is refused.
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/support/checked.hpp"

namespace layoutproof {

inline constexpr std::size_t kMaxPtxBytes = std::size_t{256} << 20;  // 256 MiB

struct PtxInstruction {
  std::string guard;        // "%p1" when guarded ("" none)
  bool guard_negated = false;  // @!%p1
  std::string opcode;       // "ld.shared.v4.u32", "mad.lo.s32", "bra.uni"
  std::vector<std::string> operands;  // as written, brackets kept: "%r4", "[%r4+132]", "{%f1, %f2}"
  int line = 0;             // 1-based PTX line
  int source_file = 0, source_line = 0;  // from the last .loc (0: none)
  std::string text;         // the statement as written, trimmed
};

struct PtxShared {
  std::string name;
  i64 align = 1;
  i64 bytes = 0;            // 0 for a dynamic (extern) symbol
  bool dynamic = false;
};

struct PtxEntry {
  std::string name;                       // mangled, as written
  std::vector<std::string> params;        // parameter names, in order
  std::array<i64, 3> reqntid{0, 0, 0};    // .reqntid or .maxntid (0: not given)
  std::vector<PtxShared> shared;          // in declaration order
  std::vector<PtxInstruction> code;
  std::map<std::string, std::size_t> labels;  // label -> index into code
};

struct PtxModule {
  std::string file;
  std::vector<PtxEntry> entries;
  std::map<int, std::string> files;       // .file N "path"
};

// Throws ParseError (FILE:LINE:COL, a caret) on malformed PTX, LayoutError above kMaxPtxBytes.
PtxModule parse_ptx(std::string_view text, const std::string& file);

// _Z8row_copyPf -> row_copy(float*)-like readable names are not needed: a name "contains" TEXT
// when the mangled name does or its identifier part (the <length><name> after _Z) does.
bool ptx_name_matches(const std::string& mangled, const std::string& text);

}  // namespace layoutproof
