#!/usr/bin/env bash
# The real CuTe copies on the device (docs/gpu_check.md): OUT=dir CUTLASS_DIR=/path bash gpu_check/cute_copies/run_device.sh
# Builds cute_copies with CUTLASS's headers, prints layoutproof's predictions, measures every copy
# with Nsight Compute and compares (compare.py). Writes $OUT/{build.log,predicted.txt,ncu.csv,sass.txt,table.md}.
set -u
OUT=${OUT:-/tmp/cute_copies_out}; mkdir -p "$OUT"
B=${BUILD:-/tmp/build-cute-copies}
{ cmake -S . -B "$B" -DLAYOUTPROOF_GPU_ONLY=ON -DCMAKE_BUILD_TYPE=Release -DCUTLASS_DIR="$CUTLASS_DIR" && cmake --build "$B" -j16 --target cute_copies; } \
  > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
X="$B/gpu_check/cute_copies"
"$X" --predict > "$OUT/predicted.txt" || exit 1
cuobjdump -sass "$X" | grep -E "Function|LDS|STS|LDSM|STSM|LDGSTS" > "$OUT/sass.txt"
M=""
for k in ld st ldsm stsm ldgsts; do M="$M${M:+,}smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_$k.sum"; done
M="$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldsm.sum"
M="$M,smsp__sass_inst_executed_op_shared_stsm.sum,smsp__sass_inst_executed_op_ldgsts.sum"
ncu --clock-control none --metrics "$M" --csv --page raw "$X" > "$OUT/ncu.csv" 2> "$OUT/ncu.log"
python3 gpu_check/cute_copies/compare.py "$OUT/predicted.txt" "$OUT/ncu.csv" "$OUT/sass.txt" | tee "$OUT/table.md"
