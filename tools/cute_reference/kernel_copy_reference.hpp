// CuTe's verdict on a kernel copy, for the random corpus of tools/cute_reference/kernel_copy_cases.py:
// either CuTe does not compile it (the case's CASE line fails; the generator records the
// static_assert), or this program prints the lane byte addresses CuTe computes for it.
//
// The program is what a mainloop does with the copy (the golden reference trace_reference.cu, plus
// the stage slice a pipelined kernel takes):
//   tensor = make_tensor(make_smem_ptr(p), smem)      (p aligned to 64 KiB)
//   part   = tiled_copy.get_slice(t).partition_S(tensor)  (partition_D for side D)
//   stage  = part(_, _, _, s) for a rank-3 (staged) smem tensor, else part
//   lane address of instruction (rv, rest) = &stage((0, rv), rest...) - p
// Instructions are ordered (rv, RestM, RestN, stage) colexicographically, warps inner, 32 lanes
// each, -1 past the last thread: the rows of tests/kernels/golden/*.trace. An
// AutoVectorizingCopyWithAssumedAlignment<B> atom (DefaultCopy, AutoVectorizingCopy) has no
// instruction of its own: its rows are the vectors cute::copy issues on the stage slice against a
// compact register fragment (trace_reference.cu's emit_autovec, repeated here).
//
// Output, per case: `case NAME` then the rows `warp index a0 .. a31`, then `end NAME`.
#include <cstdio>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>

namespace kcr {

using namespace cute;

alignas(1 << 16) inline unsigned char g_smem[1 << 22];

template <class P>
long byte_offset(P const* p) { return long(reinterpret_cast<unsigned char const*>(p) - g_smem); }

template <int B>
constexpr int autovec_bits(Copy_Traits<AutoVectorizingCopyWithAssumedAlignment<B>> const*) { return B; }
constexpr int autovec_bits(...) { return 0; }

inline void write_rows(int threads, int per_thread, const std::vector<std::vector<long>>& addr) {
  int warps = (threads + 31) / 32;
  for (int i = 0; i < per_thread; ++i)
    for (int w = 0; w < warps; ++w) {
      std::printf("%d %d", w, i);
      for (int l = 0; l < 32; ++l) {
        int t = 32 * w + l;
        std::printf(" %ld", t < threads ? addr[t][i] : -1L);
      }
      std::printf("\n");
    }
}

template <char Side, class Copy, class Tensor>
auto partition(Copy const& copy, int t, Tensor& tensor) {
  if constexpr (Side == 'S') return copy.get_slice(t).partition_S(tensor);
  else return copy.get_slice(t).partition_D(tensor);
}

template <int SmemRank, class Part>
auto stage_slice(Part& part, int s) {
  static_assert(SmemRank == 2 || SmemRank == 3, "rank-2 or rank-3 smem tensors");
  if constexpr (SmemRank == 2) return part;
  else return part(_, _, _, s);
}

// The number of stages of a smem tensor: its mode 2 when it has one.
template <class Tensor>
int stage_count(Tensor const& tensor) {
  if constexpr (decltype(rank(tensor))::value == 3) return int(size<2>(tensor));
  else return 1;
}

template <char Side, class T, class Smem, class Copy>
void emit_atom(Smem smem, Copy copy) {
  auto tensor = make_tensor(make_smem_ptr(reinterpret_cast<T*>(g_smem)), smem);
  constexpr int R = decltype(rank(tensor))::value;
  auto tv = [&] {  // (thr, (xv, rv), rest)
    if constexpr (Side == 'S') return Copy::tidfrg_S(tensor.layout());
    else return Copy::tidfrg_D(tensor.layout());
  }();
  int threads = size<0>(tv);
  int rest_vals = size<1, 1>(tv);
  int stages = stage_count(tensor);
  int rest = size<2>(tv) / stages;
  std::vector<std::vector<long>> addr(threads, std::vector<long>(rest_vals * rest * stages));
  for (int t = 0; t < threads; ++t) {
    auto part = partition<Side>(copy, t, tensor);
    for (int s = 0; s < stages; ++s) {
      auto st = group_modes<1, 3>(stage_slice<R>(part, s));  // (CPY, Rest)
      for (int r = 0; r < rest; ++r)
        for (int rv = 0; rv < rest_vals; ++rv)
          addr[t][rv + rest_vals * (r + rest * s)] = byte_offset(&st(make_coord(0, rv), r));
    }
  }
  write_rows(threads, rest_vals * rest * stages, addr);
}

template <char Side, class T, int MaxVecBits, class Smem, class Copy>
void emit_autovec(Smem smem, Copy copy) {
  auto tensor = make_tensor(make_smem_ptr(reinterpret_cast<T*>(g_smem)), smem);
  constexpr int R = decltype(rank(tensor))::value;
  int threads = size(copy);
  int stages = stage_count(tensor);
  auto part0 = partition<Side>(copy, 0, tensor);
  auto src0 = stage_slice<R>(part0, 0);
  auto dst0 = make_tensor<T>(make_layout(shape(src0)));
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int common = decltype(max_common_vector(src0, dst0))::value;
  constexpr int align = decltype(gcd(max_alignment(src0), max_alignment(dst0), Int<MaxVecBits>{}))::value;
  constexpr int vec_bits = common > 1 ? int(cute::gcd(common * bits, align)) : bits;
  constexpr bool vectorize = common > 1 && vec_bits % 8 == 0 && bits < vec_bits;
  constexpr int used_bits = vectorize ? vec_bits : bits;
  using Vec = std::conditional_t<vectorize, uint_bit_t<used_bits>, T>;
  int groups = int(size(src0)) / (used_bits / bits);
  std::vector<std::vector<long>> addr(threads, std::vector<long>(groups * stages));
  for (int t = 0; t < threads; ++t) {
    auto part = partition<Side>(copy, t, tensor);
    for (int s = 0; s < stages; ++s) {
      auto src_v = recast<Vec>(stage_slice<R>(part, s));
      for (int k = 0; k < groups; ++k) addr[t][k + groups * s] = byte_offset(&src_v(k));
    }
  }
  write_rows(threads, groups * stages, addr);
}

template <char Side, class T, class Smem, class Copy>
void run_case(const char* name, Smem smem, Copy copy) {
  std::printf("case %s\n", name);
  constexpr int B = autovec_bits(static_cast<Copy*>(nullptr));
  if constexpr (B > 0) emit_autovec<Side, T, B>(smem, copy);
  else emit_atom<Side, T>(smem, copy);
  std::printf("end %s\n", name);
  std::fflush(stdout);
}

}  // namespace kcr
