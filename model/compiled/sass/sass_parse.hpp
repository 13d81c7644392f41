#pragma once
// Reading the SASS ptxas emitted (`cuobjdump -sass`, `nvdisasm [-g]` text of sm_80..sm_90) into the
// one compiled-kernel IR (model/compiled/ptx_ir.hpp), so the one executor (ptx_exec.hpp) runs it,
// counts it and the one set of claims decides it, exactly as for PTX. SASS is what the hardware
// runs: where ptxas fused, reordered or rematerialised the PTX's accesses, this is the exact answer.
//
// Definitions.
//   A SASS instruction `/*0230*/ [@[!]P] OPCODE.MODS operands ;` is lowered into one or more IR
//   instructions with the same text, line and `sass_offset` (0x0230); the shared-memory one among
//   them is the site. Registers: R0..R255 and UR0..UR63 are 32-bit registers; `R2.64` is the pair
//   {R2, R3} (low word first); P0..P6/UP0..UP6 are predicates; RZ/URZ read 0 and a write to them is
//   dropped; PT is true. `c[0x0][o]` is the constant bank: the launch's %ntid/%nctaid at o = 0x0..0x14,
//   the kernel parameters from o = 0x210 (sm_90) or 0x160 (sm_80..sm_89), anything else not known.
//   SR_CgaCtaId reads 0 (a cluster of one CTA: a CTA's rank in its cluster shifts its shared window
//   by a multiple of 2^24, which changes no bank, wavefront or alignment verdict).
//   Shared addresses are the CTA's window offsets as the hardware sees them: user data begins after
//   the 1 KiB the driver reserves (0x400), which `in-bounds` uses with `--smem-bytes` (the CTA's
//   shared memory, static and dynamic together: SASS text names no symbols).
// The modelled opcodes (the address arithmetic ptxas emits): MOV, IMAD (.MOV .SHL .IADD .WIDE
// .WIDE.U32 .HI .HI.U32), IADD3, VIADD, IABS, IMNMX/VIMNMX, LEA (.HI .SX32), LOP3.LUT (the immediate
// is the truth table), PLOP3.LUT, SHF (.L/.R, .U32/.S32/.U64/.S64, .HI), SGXT, PRMT, SEL, ISETP
// (.AND/.OR/.XOR, .U32), P2R/R2P, S2R/S2UR/CS2R, LDC/ULDC, the uniform U* forms of these; LDS/STS
// (.U8 .S8 .U16 .S16 32 .64 .128), LDSM/STSM (.16.M88/.MT88: one matrix without a count, .2, .4),
// LDGSTS (.64 .128, 32 bits by default), ATOMS; BRA (to an instruction of the function: any other
// target is malformed, refused at the branch), EXIT and the barriers, fences and reconvergence
// markers (no effect on addresses). Anything else (carry chains .X, floating point, loads' data,
// CALL) makes what it writes not known, naming the opcode, so an address computed from it is
// UNKNOWN, never guessed. Shared-memory opcodes outside the model (other LDS/LDSM forms, TMA,
// HGMMA, mbarrier SYNCS/ARRIVES, st.async's STAS, generic LD/ST/ATOM/RED) are listed as not
// counted (ptx_exec.hpp NotCounted), never silently left out.
//
// Example: `/*0200*/ STS [R7], R8 ;` -> st.shared.b32 [R7+0], R8 with sass_offset 0x200.
#include <string>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

// Reads every function of a SASS listing; each is an entry, decoded. Throws ParseError (with the
// line, column and a caret) for text that is not SASS as cuobjdump or nvdisasm print it,
// DeadlineReached past `deadline`.
//
// nvdisasm without -c prints the whole ELF: `.headerflags`, then one `.section` after another. Only
// the `.text.NAME` sections hold code; the others (`.debug_frame`, `.nv.info`, `.nv.constant0.NAME`,
// ...) hold data written as directives (`/*0000*/ .byte 0xff, ...`, `.dword`, `.word`, `.zero`),
// which are skipped whole, so that listing reads as its `-c` form does.
Program parse_sass(std::string text, const std::string& file, const ReadDeadline& deadline = std::nullopt);

// True when `text` looks like SASS (a `Function :` header of cuobjdump, or nvdisasm's `.text.`
// sections with `/*0000*/` offsets) rather than PTX.
bool looks_like_sass(const std::string& text);

}  // namespace layoutproof::compiled
