#pragma once
// What a branch the kernel's data decides tells about the data: internal to model/compiled/ (the
// warp runner asks it where a lane follows one side of a data atom).
//
// Definition. A guard g of branch b (a branch, exit or return) is an equality test when the
// instruction that last wrote g, at k < b, is `setp.eq|ne.T g, x, y` (with no combining predicate,
// or one that is true) in straight-line code: no instruction in (k, b) is a branch target, a branch
// or a call, and none writes g, x or y. Then on the side of b where g says x == y, a lane whose x
// is data (not known, no term) holds y's value there, and the reverse; x's register takes it.
//
// Why it is sound: the test is of the registers' values as they are at b (nothing wrote them
// between), so on that side they are equal; the other side learns nothing (x != y says no value).
//
// Example: the last CTA of a grid reduction, `if (threadIdx.x == 0) s = atomicInc(&n, gridDim.x);
// __syncthreads(); if (s != gridDim.x - 1) return;` as ptxas writes it (LDS R10, [R19]; ISETP.NE.AND
// P1, PT, R10, R5, PT; @P1 EXIT): past the exit R10 is gridDim.x - 1, and the loop ptxas bounds by
// R10 (its trip count) runs as often as the hardware's.
#include <optional>

#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {

struct DataEquality {
  u32 setp = 0;     // the instruction that tests it
  bool when = true;  // the guard's value on the side where x == y
  Operand x, y;     // the two registers (or an immediate y)
  Operand combine;  // the combining predicate (kind none where there is none)
};

// The equality test guard `in.guard` of instruction pc of f is, or nullopt (definitions above).
// `targets` marks f's branch targets.
std::optional<DataEquality> equality_test(const Function& f, const std::vector<char>& targets, u32 pc);

// Every instruction of f that some branch of f targets.
std::vector<char> branch_targets(const Function& f);

}  // namespace layoutproof::compiled
