#pragma once
// Address traces: the one description of shared-memory traffic that every bank claim, report and
// GPU check consumes. A trace is a list of warp-wide instructions; each has its op, its width in
// bytes per lane, the 32 lane byte addresses (-1: lane inactive) and where it comes from.
//
// Producers: CuTe TiledCopies partitioning a staged smem tensor (model/trace/tv.hpp: one instruction per
// (warp, copy-mode index, stage)) and the canned access patterns of model/trace/access.hpp.
//
// Example (make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma) on
// Sw<3,3,3> o (8,64):(64,1) tiled to (128,64,3), partition_S): instruction {op ldsm4, width 16,
// warp 0, copy index (0,0,0,0)} has lane 0 at byte 0, lane 1 at byte 128, ..., the first element of
// each thread's 8-element CPY slice, as the LDSM instruction receives it.
#include <array>
#include <string>
#include <vector>

#include "model/bank/bank.hpp"
#include "model/support/checked.hpp"

namespace layoutproof {

// One warp-wide shared-memory instruction of a trace.
struct TraceInstruction {
  SmemOp op = SmemOp::ld;
  int width_bytes = 4;                       // bytes per lane (16 for ldsm/stsm rows)
  std::array<i64, kWarpLanes> addr{};        // byte address per lane, -1: inactive
  i64 warp = 0;
  i64 index = 0;                             // instruction index within its warp (colex of copy_coord)
  std::vector<i64> copy_coord;               // coordinate in the copy's rest modes, e.g. (rest_val, CPY_M, CPY_K, PIPE)
  std::array<i64, kWarpLanes> thread{};      // thread index of each lane, -1: inactive
  // The CuTe coordinate in the smem tensor of each lane's first element, coord_rank values per
  // lane (lane l's are coords[l*coord_rank ...]); empty when the producer has none.
  int coord_rank = 0;
  std::vector<i64> coords;
  std::string where;                         // human-readable provenance of this instruction
  // Each lane's whole CPY slice (slice_len elements per lane, lane-major; empty for inactive lanes
  // is not allowed: inactive lanes repeat -1): the byte address and the logical index (colex in the
  // smem tensor's domain, stage included) of every element the lane's instruction moves.
  int slice_len = 0;
  std::vector<i64> slice_addrs;
  std::vector<i64> slice_elems;

  SmemAccess access() const { return SmemAccess{op, width_bytes, addr}; }
  bool operator==(const TraceInstruction&) const = default;
};

struct AddressTrace {
  std::string provenance;                    // e.g. "make_tiled_copy_A(...) partition_S of sA": the full text
  // A one-line name for summaries: the copy op and the partition, never the pasted expression
  // (which may span lines and hold comments): "SM75_U32x4_LDSM_N partition_S of Sw<3,3,3> o ...".
  // Empty: the producer has none, and summaries use `provenance`.
  std::string name;
  SmemOp op = SmemOp::ld;                    // the op of every instruction
  int width_bytes = 4;
  i64 threads = 0;                           // threads of the copy
  int element_bytes = 0;                     // bytes of one element (0: sub-byte or unknown)
  i64 domain_size = 0;                       // elements of the smem tensor (all stages); 0: unknown
  // The extents of the smem tensor's top-level modes ((128,64,3) for a 3-stage 128x64 tile): a
  // slice element's logical index is colexicographic over them. Empty when the producer has none.
  std::vector<i64> domain_shape;
  bool smem_is_destination = false;          // st/stsm/ldgsts: the copy writes the smem tensor
  std::vector<TraceInstruction> instructions;
  // Every field equal (a check runner decides a claim once per distinct trace).
  bool operator==(const AddressTrace&) const = default;
};

// A lane the instruction really issues: an address (>= 0) and, for ldsmN/stsmN, one of the 8N
// lanes that give a row (the bank model ignores lanes >= 8N). Every claim and report uses this one
// notion, so a CuTe partition that repeats rows there is neither counted nor drawn.
bool is_active_lane(const TraceInstruction& in, int lane);

// The name a summary line shows: t.name, else t.provenance.
inline const std::string& summary_name(const AddressTrace& t) { return t.name.empty() ? t.provenance : t.name; }

// {"op":..., "width_bytes":n, "threads":n, "instructions":[{"warp":w, "index":i, "copy_coord":[..],
//  "addrs":[32 ints], "threads":[32 ints], "coords":[[..]|null x32]}, ...]}
std::string trace_to_json(const AddressTrace& t);

// The trace nvcc's fusion would issue (DefaultCopy of f64 and f32 pairs becomes
// LDS.64/LDS.128): the compiler emits one instruction stream for every warp and merges f accesses
// of a thread into one vector access when, for every lane of every warp, their addresses are
// a, a + w, ..., a + (f-1)w (w the CuTe-level width) with a a multiple of f*w, and the vector is
// at most 16 bytes. fuse_trace takes the largest such f (a power of two) that groups EVERY
// instruction of the trace the same way in every warp (positions within a warp: instruction q
// joins p's group as its j-th access when its lanes sit j*w bytes after p's, in warp 0 and in
// every other warp at the same positions). Each fused instruction keeps its first access's
// warp, index and copy coordinate, has width f*w and the concatenated CPY slices (slice_len
// times f). Only ld/st traces with slices fuse (cp.async, ldmatrix and stmatrix are explicit
// instructions); f = 1 returns the trace unchanged.
//   Example: f64 reads where lane l's two instructions sit at 16l and 16l + 8: fused, one
//   ld.128 per lane at 16l (ld.64 x 2 -> ld.128 x 1).
// fused_factor(t) is that f.
int fused_factor(const AddressTrace& t);
AddressTrace fuse_trace(const AddressTrace& t);
// Partial fusion: where no f groups every instruction (fused_factor 1), nvcc still fuses the
// positions it can, position by position (the same test as above, for one group of f positions
// at a time: f from 16 bytes down to 2 accesses, greedily in trace order); the rest stays at the
// CuTe-level width. The result is one trace per width, widest first ({fuse_trace(t)} when the
// fusion is uniform or nothing fuses). Measured on the H100 (docs/gpu_check.md): CUTLASS's f64 TN
// DefaultCopy on Sw<2,0,4> o (4,16):(1,4) compiles to 24 LDS.128 + 48 LDS.64 per thread, exactly
// the two parts this predicts (24 of 48 pairs fuse).
std::vector<AddressTrace> fuse_trace_parts(const AddressTrace& t);

}  // namespace layoutproof
