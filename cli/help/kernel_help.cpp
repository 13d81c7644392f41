// The prose of the kernel commands: synth, synth --kernel, trace, ptx, sass.
// Each text's "@OPTIONS@" line is where cli/help.cpp puts the Options block its flag table generates.
#include "cli/help/help_texts.hpp"

namespace layoutproof::cli::help_prose {

extern const char* const k_synth = R"HELP(layoutproof synth: search every Swizzle<B,M,S> for a conflict-free, vector-contiguous bijection of a
plain tile; else prove none exists and search XOR-linear maps over GF(2) (docs/synth.md).
For the layout a kernel's own copies need, see layoutproof synth --kernel --help.

Usage:
  layoutproof synth --tile L --elem-bytes E [--vec V] --pattern P [--pattern P ...] [--op OP ...]
                    [--all] [--json] [--no-gf2] [--deadline-s S] [-D NAME=EXPR ...]

@OPTIONS@

Examples:
  layoutproof synth --tile '(32,40):(40,1)' --elem-bytes 4 --vec 4 --pattern row-per-lane
  layoutproof synth --tile '(8,64):(64,1)' --elem-bytes 2 --pattern row-per-lane --pattern ldmatrix

Exit codes: 0 found and proved, 1 none exists (proved) or a proof refuted, 2 bad input, 3 unknown or error.
)HELP";

extern const char* const k_synth_kernel = R"HELP(layoutproof synth --kernel: the shared-memory layout a CuTe kernel should use, found on the
instructions its own copies issue, and proved.

Usage:
  layoutproof synth --kernel --shape '(MN,K,STAGES)' --element T [--mma EXPR] --copy 'S:EXPR' [--copy 'D:EXPR' ...]
                    [-D NAME=EXPR ...] [--name A] [--base ADDR | --align N] [--witnesses N] [--all] [--json]
                    [--deadline-s S] [--progress | --no-progress]

@OPTIONS@

The family searched (fixed order; docs/synth_kernel.md):
  Swizzle<B,M,S> (1 <= B <= S, bits inside the atom) composed with K-major (r,W):(W,1) or MN-major
  (W,r):(1,W) atoms of every width W (W*sizeof(T) from 16 bytes to the tile) and height r, tiled by
  tile_to_shape in the default order and in Step<_2,_1,_3>; the unswizzled atoms; padded strides
  like the tutorial's (128,8):(1,129). When --mma is an SM90 GMMA or SM100 UMMA atom that reads the
  operand through a descriptor (_SS; _RS/_TS: B only), only CUTLASS's GMMA/UMMA atoms, and the
  winner's TMA swizzle is proved (tma:Sw<B,4,3>; UMMA::Layout_MN_SW128_32B_Atom: Sw<2,5,2>).
Each copy is traced exactly as `layoutproof trace` traces it; a member is rejected when a copy's
vectors break (vector-legal), else scored by each copy's worst instruction, wavefronts/ideal.
Ranking: worst ratio over the copies, smem bytes, total wavefronts, fewer swizzle bits B, no padding,
the major the copies' vectors run along, fewer swizzled bits M+B+S.

What it proves:
  FOUND   the winner, as C++ to paste back and in CuTe notation: every copy conflict-free,
          vector-legal and covering the tile, the layout bijective (injective when padded), by the
          engines of `layoutproof trace --claim` on the layout the printed C++ evaluates to
  PROVED  none in the family is conflict-free: the best ratio reached, REFUTED witnesses (lanes,
          banks) for the best members, and how many members each reason removed

Examples:
  # A GMMA operand in a 128-byte aligned buffer: no GMMA atom keeps TMA's swizzle (REFUTED at base 128)
  layoutproof synth --kernel --shape '(128,64,4)' --element half_t --align 128 \
    --mma 'make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})'
  # SM80 f16 TN 128x64x3: finds Swizzle<3,3,3> o (8,64):(64,1), CUTLASS's own choice
  layoutproof synth --kernel --shape '(128,64,3)' --element half_t \
    --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' \
    --copy 'S:make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                              Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})'
  # SM80 tf32 NT (MN-major A): CUTLASS's Swizzle<3,2,3> o (32,8):(1,32) takes 2 wavefronts on the s2r loads
  layoutproof synth --kernel --shape '(128,32,3)' --element tfloat32_t \
    --mma 'TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}' \
    --copy 'S:make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{},
                              Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})'
  # the tutorial's SIMT sgemm_sm80 TN: its (128,8):(1,129) padding takes 4 wavefronts on the cp.async stores
  layoutproof synth --kernel --shape '(128,8,3)' --element float \
    --mma 'TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}' \
    --copy 'S:make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{},
                              Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})'

Then check the printed layout as any other: layoutproof trace --smem '<the printed C++>' ... --claim conflict-free

Exit codes: 0 found and every claim PROVED; 1 none in the family is conflict-free (PROVED), or a claim
about the winner REFUTED; 2 bad input; 3 a claim UNKNOWN or ERROR.
)HELP";

extern const char* const k_trace = R"HELP(layoutproof trace: the shared-memory instructions a CuTe kernel's copy issues, and claims over them.

Usage:
  layoutproof trace --smem EXPR --copy EXPR [--mma EXPR] --side S|D --element T [--base ADDR]
                    [-D NAME=EXPR ...] [--json] [--claim C ...] [--engine auto|z3|exhaustive] [--report DIR]

@OPTIONS@

One instruction per (warp, copy-mode index, stage); a lane's address is the first element of its
CPY slice, as the instruction receives it. Instructions are listed per copy index (rest value,
CPY_M, CPY_N, ..., stage; colexicographic), then warp.

Examples:
  layoutproof trace --side S --element half_t \
    --smem 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))' \
    --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' \
    --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --claim conflict-free --claim vector-legal
  layoutproof trace --side D --element float --smem '(128,8,3):(1,129,1032)' --claim conflict-free \
    --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})'

Exit codes: 0 traced, or all claims proved; 1 any refuted; 2 bad input; 3 unknown or error.
)HELP";

extern const char* const k_ptx = R"HELP(layoutproof ptx: every shared-memory instruction of a compiled kernel (its PTX), run for
every thread of one CTA, counted as Nsight Compute counts it and proved.

Usage:
  layoutproof ptx FILE [--kernel TEXT] [--block X[,Y[,Z]]] [--grid X[,Y[,Z]]] [--cta X[,Y[,Z]]] [--param I=V|NAME=V ...]
                  [--param-range I=LO..HI ...] [--assume EXPR ...] [--max-paths N] [--smem-bytes N] [--claim C ...] [--json]
                  [--report DIR] [--deadline-s S]

FILE is the PTX nvcc writes: `nvcc -arch=sm_90 -ptx -lineinfo k.cu` (or -keep, or cuobjdump -ptx).
-lineinfo adds .loc lines, so every instruction and witness names its CUDA source line. A binary
(.cubin, fatbin, executable, .so) is read through `cuobjdump -ptx` when cuobjdump is found (--arch).

@OPTIONS@

How it runs: each warp's 32 lanes execute in lock step; the lanes at the same instruction form one
warp-level issue (lanes whose @p guard is false are inactive). Values are concrete (%tid, %ntid,
the --param values, shared symbols laid out in declaration order) or symbols: a free parameter, and
%ctaid / %nctaid unless --cta / --grid fix them, with values affine in them kept as terms and the
guards and branches comparing them kept as conditions (an if/else on one runs both sides, each
thread on the side its condition picks; loops over one run once for every iteration), so each
claim is decided with Z3 for every CTA of every grid and every parameter value (--param-range,
--assume limit them); a value loaded
from memory or an opcode outside the model is unknown with its reason. Counts are for one concrete
CTA (--cta's, else (0,0,0) of --grid, default 1,1,1): executed = warp instructions, wavefronts and
ideal = the bank model's (docs/compiled.md, "Every launch").
Nothing is left out silently: an instruction that touches shared memory and is not counted (a
.shared::cluster access, st.async, cp.async.bulk/TMA, mbarrier, wgmma, ldmatrix outside .m8n8 .b16,
a generic ld/st/atom whose address came from cvta.shared or is not known, a call into code the file
does not hold) is listed with why, and every claim is UNKNOWN on it; a lane the model cannot follow
(a branch on an unknown value, calls nested deeper than 64, the step limit) stops, and every claim
is then UNKNOWN. An ill-typed operand (a .f32 register as an address, a predicate as an integer) is
refused like malformed text.

Examples:
  layoutproof ptx tests/ptx/basic.ptx --kernel column_read --block 32
  layoutproof ptx tests/ptx/basic.ptx --kernel padded --block 32 --claim conflict-free --claim in-bounds
  layoutproof ptx tests/ptx/basic.ptx --kernel broadcast --block 32 --param 1=5 --claim conflict-free --json
  layoutproof ptx tests/ptx/basic.ptx --kernel broadcast --block 32 --claim conflict-free --claim in-bounds
  layoutproof ptx tests/ptx/basic.ptx --kernel broadcast --block 32 --param-range 1=0..63 --claim in-bounds

Exit codes: 0 every claim proved (or counts alone, complete); 1 a claim refuted; 2 bad input (a
malformed file: FILE:LINE:COL and a caret); 3 a claim unknown or an error (counts alone: a lane
stopped or an access is not counted).
)HELP";

extern const char* const k_sass = R"HELP(layoutproof sass: every shared-memory instruction of the SASS ptxas emitted, run for every
thread of one CTA, counted as Nsight Compute counts it (per SASS instruction) and proved.

Usage:
  layoutproof sass FILE [--kernel TEXT] --block X[,Y[,Z]] [--grid X[,Y[,Z]]] [--param I=V|I+OFF=V|@OFF=V ...]
                   [--param-range I=LO..HI|@OFF=LO..HI ...] [--assume EXPR ...] [--max-paths N] [--smem-bytes N] [--claim C ...]
                   [--json] [--report DIR] [--deadline-s S]

FILE is `cuobjdump -sass k.cubin` (or of the executable) or `nvdisasm -g k.cubin` (which adds the
CUDA source line of every instruction, so witnesses name it; with or without -c: the ELF's data
sections nvdisasm prints without it are skipped), for sm_80..sm_90. cuobjdump is part of
the CUDA toolkit on the GPU machine: `nvcc -arch=sm_90 -cubin -lineinfo -o k.cubin k.cu` builds what
it reads. This is the exact answer where ptxas fused, reordered or rematerialised the PTX's accesses.

@OPTIONS@

Modelled: the address arithmetic ptxas emits (IMAD and its forms, IADD3, LEA, LOP3.LUT, SHF, SGXT,
PRMT, SEL, ISETP, PLOP3, P2R/R2P, S2R/S2UR, LDC/ULDC (c[0x0][RZ] included), the uniform U* forms,
IMAD.HI.U32 with a register-pair addend, and ptxas's integer division: I2F, F2I, and the MUFU.RCP of
an I2F.RP, whose refined quotient is exact), LDS/STS of every width,
LDSM/STSM (.16.M88/.MT88; no count is one matrix), LDGSTS, ATOMS, BRA/EXIT (a branch to an offset
that is not an instruction of the function is refused, exit 2). An opcode outside the model makes
what it writes not known, naming it: an address computed from it is UNKNOWN, never guessed. Shared-
memory opcodes outside the model (other LDS/LDSM forms, TMA, HGMMA, SYNCS/ARRIVES, STAS, generic
LD/ST/ATOM/RED) are listed as not counted, every claim UNKNOWN on them. An instruction no lane of the
launch executes is UNKNOWN (NOT RUN), and a launch that executes none is an ERROR unless
--allow-empty. A binary (.cubin, fatbin, executable, .so) is read through `cuobjdump -sass` when
cuobjdump is found (--arch picks the architecture); otherwise exit 2 names the command to run. `@!PT` instructions (never
executed by any lane) count as executed with 0 wavefronts, as Nsight Compute counts them.

Examples:
  layoutproof sass tests/compiled/measured/hand.sass --kernel column_read --block 32 --claim conflict-free
  layoutproof sass tests/compiled/measured/hand.nvdisasm --kernel stages --block 32 --param 1=5 --claim conflict-free --json

Exit codes: 0 every claim proved (or counts alone, complete); 1 a claim refuted; 2 bad input (a
malformed file: FILE:LINE:COL and a caret); 3 a claim unknown or an error (counts alone: a lane
stopped or an access is not counted).
)HELP";

extern const char* const k_tensor_map = R"HELP(layoutproof tensor-map: is a TMA tensor map one the driver accepts? Decides tensor-map-valid on
tensor maps as the host builds them: the arguments of cuTensorMapEncodeTiled, given as --tensor-map
SPEC text or as the JSON lines a capture writes (docs/hopper.md).

Usage:
  layoutproof tensor-map SPEC ... [--tensor-maps FILE ...] [--json]

SPEC: comma-separated KEY=VALUE, lists x-separated and innermost first (dims, box in elements,
strides in bytes for dimensions 1..):
  dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B[,elem_strides=1x1][,interleave=none][,l2=none][,oob=zero][,address=A]
dtype: u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz e4m3 e5m2 (or CUDA's names);
swizzle: none 32B 64B 128B; interleave: none 16B 32B; l2: none 64B 128B 256B; oob: zero nan.

The rules (cuTensorMapEncodeTiled's): rank 1..5 (3.. interleaved); dims 1..2^32; strides multiples
of 16 bytes (32 interleaved) below 2^40; box 1..256 per dimension; elem_strides 1..8; without
interleave box[0] x element bytes a multiple of 16 and, swizzled, at most the swizzle's span (32,
64 or 128 bytes); a nan fill for floating-point types only; the address 16-byte aligned. Each map
is PROVED (every rule holds, over exactly that map) or REFUTED with every rule it breaks and a value
that meets it. Exit 0: all valid; 1: some refuted; 2: bad input (an unknown key, a dtype or swizzle
the hardware lacks, malformed JSON: at its line).

@OPTIONS@

Examples:
  # CUTLASS's bf16 K-major 128B-swizzled tile: valid
  layoutproof tensor-map dtype=bf16,dims=4096x4096,strides=8192,box=64x128,swizzle=128B
  # a 128-element inner box of bf16 is 256 bytes, past the 128B swizzle's span: refuted (fix: box[0] = 64)
  layoutproof tensor-map dtype=bf16,dims=4096x4096,strides=8192,box=128x128,swizzle=128B --json
)HELP";

}  // namespace layoutproof::cli::help_prose
