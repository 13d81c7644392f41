// The host of the every-launch fixtures (tests/ptx/launches.cu, loops.cu, sgemm_tiled.cu,
// branches.cu): runs one kernel at one launch, so Nsight Compute measures the launches the
// symbolic verdicts are about (gpu_check/every_launch/measure.sh, docs/compiled.md "Every launch").
//   host KERNEL GX GY BX BY [INT...]     e.g. host tail_guard 4 1 256 1 1000
// Every pointer parameter is a zeroed 64 MiB buffer (more than any index the launches list reach).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../../tests/ptx/branches.cu"
#include "../../tests/ptx/launches.cu"
#include "../../tests/ptx/loops.cu"
#include "../../tests/ptx/sgemm_tiled.cu"

int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: host KERNEL GX GY BX BY [INT...]\n");
    return 2;
  }
  const char* k = argv[1];
  const dim3 g(atoi(argv[2]), atoi(argv[3])), b(atoi(argv[4]), atoi(argv[5]));
  int p[3] = {0, 0, 0};
  for (int i = 0; i < 3 && 6 + i < argc; ++i) p[i] = atoi(argv[6 + i]);
  const size_t bytes = size_t{64} << 20;
  float *x, *y, *z;
  cudaMalloc(&x, bytes), cudaMalloc(&y, bytes), cudaMalloc(&z, bytes);
  cudaMemset(x, 0, bytes), cudaMemset(y, 0, bytes), cudaMemset(z, 0, bytes);
  if (!strcmp(k, "full_or_partial")) full_or_partial<<<g, b>>>(x, y, p[0]);
  else if (!strcmp(k, "row_or_column")) row_or_column<<<g, b>>>(x, y);
  else if (!strcmp(k, "row_or_column_unpadded")) row_or_column_unpadded<<<g, b>>>(x, y);
  else if (!strcmp(k, "tail_guard")) tail_guard<<<g, b>>>(x, y, p[0]);
  else if (!strcmp(k, "edge_transpose")) edge_transpose<<<g, b>>>(x, y, p[0], p[1]);
  else if (!strcmp(k, "edge_transpose_unpadded")) edge_transpose_unpadded<<<g, b>>>(x, y, p[0], p[1]);
  else if (!strcmp(k, "last_block")) last_block<<<g, b>>>(x, y, p[0]);
  else if (!strcmp(k, "k_loop")) k_loop<<<g, b>>>(x, y, p[0]);
  else if (!strcmp(k, "grid_stride")) grid_stride<<<g, b>>>(x, y, p[0]);
  else if (!strcmp(k, "walk")) walk<<<g, b>>>(x, p[0]);
  else if (!strcmp(k, "walk_bounded")) walk_bounded<<<g, b>>>(x, p[0]);
  else if (!strcmp(k, "strided")) strided<<<g, b>>>(x, p[0]);
  else if (!strcmp(k, "two_stages")) two_stages<<<g, b>>>(x, y, p[0]);
  else if (!strcmp(k, "sgemm_tiled")) sgemm_tiled<<<g, b>>>(p[0], p[1], p[2], x, y, z);
  else {
    fprintf(stderr, "no kernel %s\n", k);
    return 2;
  }
  const cudaError_t e = cudaDeviceSynchronize();
  printf("%s grid %u,%u block %u,%u params %d %d %d: %s\n", k, g.x, g.y, b.x, b.y, p[0], p[1], p[2], cudaGetErrorString(e));
  return e != cudaSuccess;
}
