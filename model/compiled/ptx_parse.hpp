#pragma once
// The PTX reader: the text nvcc 12/13 emits (`nvcc -ptx`, `-keep`, `cuobjdump -ptx`, which prints
// one module after another with a banner between them) into the IR of model/compiled/ptx_ir.hpp.
//
// Two steps, so that a large file costs its text plus one function:
//   parse_ptx        the module structure: `.version`/`.target`/`.address_size`, `.file`, module
//                    variables (`.shared` symbols, static and `.extern` dynamic, with `.align`;
//                    `.global`/`.const` names), every `.entry`/`.func` header (linkage `.visible`/
//                    `.weak`/`.extern`, parameters, `.reqntid`/`.maxntid`) and where its body is;
//   decode_function  one body: `.reg` (incl. `%r<N>` ranges), `.param`/`.local`/`.shared`
//                    declarations, labels, `{ }` scopes (inline asm and call sequences, each with
//                    its own registers), `.loc`/`.pragma`, and every instruction
//                    `[@[!]p] opcode.mods operands;` decoded (ptx_ir.hpp decode_opcode) with its
//                    operands resolved to registers, symbols, labels and functions.
// Whatever the model does not know is kept (Op::unknown, an unknown name), never refused: only
// malformed text is an error. Errors are ParseError "FILE:LINE:COL: what" with the line and a caret
// (exit 2); limits (file size, registers, operands, nesting) are errors too, never a crash.
#include <string>
#include <vector>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

inline constexpr std::size_t kMaxPtxBytes = std::size_t{512} << 20;  // 512 MiB of text
inline constexpr u32 kMaxRegisters = u32{1} << 22;                    // per function, all scopes
inline constexpr u32 kMaxOperands = 4096;                             // per instruction
inline constexpr int kMaxScopeDepth = 256;

// Throws ParseError on malformed PTX, LayoutError past kMaxPtxBytes, DeadlineReached past `deadline`.
Program parse_ptx(std::string text, const std::string& file, const ReadDeadline& deadline = std::nullopt);

// Decodes program.functions[f] (once; a decoded function is left as it is). DeadlineReached past
// `deadline`: the function is then half decoded and not to be run (the run is over).
void decode_function(Program& program, std::size_t f, const ReadDeadline& deadline = std::nullopt);
// Decodes `entry` and every function it calls, transitively.
void decode_with_callees(Program& program, std::size_t entry, const ReadDeadline& deadline = std::nullopt);
// The functions a run of `entry` executes: the entry and every function it calls, transitively,
// each once, in the order decode_with_callees decodes them in a Program where nothing else was
// decoded (only decoded functions: a call to one without a body runs nothing). What a run
// depends on (its sites, where its shared symbols lie: ptx_exec.hpp) is taken from these, so it
// is the same in a Program that other kernels were decoded in (model/compiled/compiled_file.hpp
// CompiledFiles shares one between a spec's entries).
// Example: k calls f, then g (neither calls anything) -> {k, g, f}: depth first, the last call first.
std::vector<std::size_t> kernel_functions(const Program& program, std::size_t entry);

// The C++ name of a mangled one ("_Z8row_copyPf" -> "row_copy(float*)"); the name itself when it
// is not mangled.
std::string demangle(const std::string& name);
// The entries (indices into program.functions) whose mangled or demangled name contains `text`
// (every entry for an empty text), in file order.
std::vector<std::size_t> select_entries(const Program& program, const std::string& text);

}  // namespace layoutproof::compiled
