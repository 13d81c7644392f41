#!/usr/bin/env bash
# `layoutproof bank`: outputs and errors. bash bank_cli_test.sh <layoutproof>
set -u
BIN=${1:?usage: bank_cli_test.sh <layoutproof>}
fails=0
col=$(seq -s, 0 128 3968)
out=$("$BIN" bank --op ld --width 4 --addresses "$col" --json)
case "$out" in *'"wavefronts":32,"ideal":1,"conflict_degree":32'*) ;; *) echo "FAIL json: $out"; fails=$((fails+1));; esac
out=$("$BIN" bank --op ld --width 16 --addresses "$(seq -s, 0 16 496)")
case "$out" in *"wavefronts per instruction: 4"*"ideal: 4"*"conflict degree: 1"*) ;; *) echo "FAIL text: $out"; fails=$((fails+1));; esac
# A merged half 0 does not hide half 1's collision (docs/bank_model.md): 4 wavefronts, ideal 3.
out=$("$BIN" bank --op ld --width 16 --addresses 0,0,0,0,0,0,0,-1,-1,0,-1,0,-1,-1,-1,-1,-1,-1,-1,-1,160,-1,32,-1,0,-1,-1,-1,-1,-1,-1,-1)
# The hardware's ideal packs the 12 active lanes' 192 bytes into 2 wavefronts; the degree divides by
# the collision-free 3.
case "$out" in *"wavefronts per instruction: 4"*"ideal: 2 (the active lanes' bytes fill 2; without bank collisions the phases take 3)"*"conflict degree: 1.33"*"phase 2 bank 8: 2 words, lanes 20,22"*) ;; *) echo "FAIL merged half 0: $out"; fails=$((fails+1));; esac
# STS.128 by lanes 0-3 and 16-19 on 128 distinct bytes (cuda-samples' MatrixMulNaiveLargeChunk): two
# phases, no collision, and the hardware's ideal 1 (measured: 64 wavefronts for an ideal of 32 over 32).
out=$("$BIN" bank --op st --width 16 --addresses 0,16,32,48,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,64,80,96,112,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1)
case "$out" in *"wavefronts per instruction: 2"*"ideal: 1 (the active lanes' bytes fill 1; without bank collisions the phases take 2)"*"conflict degree: 1 (conflict-free)"*) ;; *) echo "FAIL split phases: $out"; fails=$((fails+1));; esac
# The register-blocked GEMM load: lanes 0-15 on one 16-byte address, 16-31 on another. The H200
# measures 2 (complete XOR-1 pairs: no lane-31 wavefront).
gemm=$( (for i in $(seq 16); do printf '1024,'; done; for i in $(seq 15); do printf '1056,'; done; printf '1056') )
out=$("$BIN" bank --op ld --width 16 --addresses "$gemm")
case "$out" in *"wavefronts per instruction: 2"*"ideal: 2"*) ;; *) echo "FAIL gemm halves: $out"; fails=$((fails+1));; esac
# layoutproof ptx counts atomics and 4-byte cp.async by the measured rules, and says why not elsewhere.
D=$(cd "$(dirname "$0")" && pwd)
out=$("$BIN" ptx "$D/atomics.ptx" --kernel atoms --block 32)
case "$out" in *" 32       1  atom.shared.add.u32"*" 4       2  atom.shared.cas.b32"*" ?       ?  atom.shared.add.f32"*"no measured bank rule for this atomic"*) ;;
  *) echo "FAIL atomics: $out"; fails=$((fails+1));; esac
out=$("$BIN" ptx "$D/cp_async4.ptx" --kernel cpa --block 32)
# The pointer left free only rotates the L1 banks: the measured rule still counts it (8: stride 32).
case "$out" in *" 8       1  cp.async.ca"*) ;; *) echo "FAIL cp.async with a free pointer: $out"; fails=$((fails+1));; esac
out=$("$BIN" ptx "$D/cp_async4.ptx" --kernel cpa --block 32 --param 0=0)
case "$out" in *" 8       1  cp.async.ca"*) ;; *) echo "FAIL cp.async measured: $out"; fails=$((fails+1));; esac
expect2() { "$BIN" bank "$@" >/dev/null 2>/tmp/bank_err.$$; rc=$?
  if [ $rc -ne 2 ] || ! head -n1 /tmp/bank_err.$$ | grep -q '^error: '; then echo "FAIL rc=$rc: $*"; fails=$((fails+1)); fi; }
expect2 --op xx --width 4 --addresses "$col"
expect2 --op ld --width 3 --addresses "$col"
expect2 --op ld --width 4 --addresses 0,4,8
expect2 --op ld --width 8 --addresses "$(seq -s, 4 4 128)"
expect2 --op ld --width 4 --addresses "$(seq -s, 0 4 120),abc"
expect2 --op ld --width 4
expect2 --op ldsm4 --width 8 --addresses "$col"
rm -f /tmp/bank_err.$$
[ $fails -eq 0 ] && echo "bank cli: all passed"
exit $fails
