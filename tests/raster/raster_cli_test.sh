#!/usr/bin/env bash
# `layoutproof raster`: exit codes, the replayed witness, JSON, locality, parse errors (exit 2).
set -u
BIN=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$BIN" raster prove seed --max-grid 6); rc=$?
[ $rc -eq 1 ] || fail "seed: exit $rc"
grep -q "blocks (0,0) and (0,1) both land on tile (0,0)" <<<"$out" || fail "seed witness: $out"
# H5a: the default engine enumerates the 8x8 domain instead of a 20 s Z3 query.
out=$("$BIN" raster prove seed --tile-size 65536); rc=$?
[ $rc -eq 1 ] || fail "seed 65536: exit $rc"
grep -q "exhaustive (2 grids enumerated)" <<<"$out" || fail "seed 65536 not enumerated: $out"
"$BIN" raster prove row-major --max-grid 32 >/dev/null || fail "row-major not proved"
json=$("$BIN" raster prove morton --max-grid 16 --json); [ $? -eq 1 ] || fail "morton exit"
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d["results"][0]; assert r["verdict"]=="REFUTED" and r["witness"]["points"][-1]["role"]=="tile outside the grid", d' "$json" || fail "morton json"
"$BIN" raster locality --m 4096 --n 4096 --k 4096 | grep -q "cutlass (log_tile 3)" || fail "locality table"
"$BIN" raster locality --m 256 --n 512 --k 64 --sms 3 --json | python3 -c 'import json,sys; d=json.load(sys.stdin); r=d["rows"][0]; assert (r["total_a"], r["total_b"]) == (4, 8), r' || fail "locality json"
"$BIN" raster prove formula --formula 'x = 1 +* 2; y = 0' 2>/dev/null; [ $? -eq 2 ] || fail "parse error exit"
"$BIN" raster prove hilbert 2>/dev/null; [ $? -eq 2 ] || fail "bad kind exit"
# Persistent schedulers: trace JSON, claims with replayed witnesses, bad input located (exit 2).
json=$("$BIN" raster trace sm90-persistent --tiles 3,2 --cluster 2,1 --sms 4 --json) || fail "trace exit"
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["grid"]==[2,2,1] and len(d["ctas"])==4 and d["ctas"][1]["work"][1]=={"iter":1,"group":0,"m":3,"n":0,"l":0}, d' "$json" || fail "trace json: $json"
out=$("$BIN" raster prove sm90-persistent --tiles 3,5 --max-swizzle 2 --sms 4 --raster along-n --cluster 1,1 --claim exactly-once --claim in-range); rc=$?
[ $rc -eq 1 ] || fail "in-range exit $rc"
grep -q "PROVED  exactly-once" <<<"$out" && grep -q "REFUTED  in-range  \[.*\]  witness: CTA 1 at iteration 3 computes tile (m 3, n 0, l 0)" <<<"$out" || fail "claims: $out"
"$BIN" raster prove sm90-persistent --tiles 1024,1024 --sms 132 --cluster 2,1 --max-swizzle 8 --raster heuristic --claim exactly-once | grep -q "PROVED  exactly-once  \[.*\]  each of the 1048576 tiles" || fail "1024x1024"
for bad in "--tiles 0,4" "--tiles 4,4 --cluster 3,1" "--tiles 4,4 --max-swizzle 3" "--tiles 4,4 --raster diagonal" "--tiles 2097152,2097152" "--cluster 2,1"; do
  "$BIN" raster trace sm90-persistent $bad >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "raster trace $bad: exit $rc"
done
"$BIN" raster trace sm90-stream-k --tiles 4,4 2>&1 | grep -q "needs --k-tiles" || fail "stream-K without --k-tiles"

# sm90-stream-k: the worked example of model/raster/stream_k.hpp, in the issue's JSON with k ranges.
out=$("$BIN" raster trace sm90-stream-k --tiles 1,1,1 --k-tiles 4 --splits 2 --sms 4 --json)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["grid"] == [1, 4, 1], d["grid"]
w = [(c["cta"], u["m"], u["n"], u["l"], u["k_begin"], u["k_end"]) for c in d["ctas"] for u in c["work"]]
assert w == [(0, 0, 0, 0, 0, 2), (1, 0, 0, 0, 2, 4)], w
' || fail "stream-K split-K trace: $out"
# 5 tiles of 20 k blocks on 4 SMs: stream-K; CTA 1 computes tile 2's first half, then tile 1 whole
# (a unit walks its tiles backwards), CTA 2 tile 3 and tile 2's second half (its final split).
out=$("$BIN" raster trace sm90-stream-k --tiles 5,1,1 --k-tiles 20 --sms 4 --json)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
w = {c["cta"]: [(u["m"], u["k_begin"], u["k_end"]) for u in c["work"]] for c in d["ctas"]}
assert w[1] == [(2, 0, 10), (1, 0, 20)], w
assert w[2] == [(3, 0, 20), (2, 10, 20)], w
' || fail "stream-K trace: $out"
"$BIN" raster prove sm90-stream-k --tiles 5,1,1 --k-tiles 20 --sms 4 --cluster 1,1 --max-swizzle 1 --raster along-n \
  --claim k-exactly-once --claim exactly-once >/dev/null || fail "stream-K k-exactly-once not proved"
out=$("$BIN" raster prove sm90-stream-k --tiles 5,1,1 --k-tiles 20 --sms 4 --cluster 2,1 --max-swizzle 1 --raster along-n --claim in-range)
[ $? -eq 1 ] && echo "$out" | grep -q "outside the 5x1x1 problem" || fail "stream-K in-range not refuted: $out"
for bad in "--k-tiles 0" "--k-tiles 9 --splits 2 --decomposition stream-k" "--k-tiles 9 --decomposition diagonal" "--k-tiles 9 --reduction random"; do
  "$BIN" raster trace sm90-stream-k --tiles 4,4 $bad >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "raster trace sm90-stream-k $bad: exit $rc"
done
# 17 SMs with a cluster of 2 along m: get_grid_shape's grid 17x1x1 does not launch (the hardware
# refuses it: tests/raster/sm90_launches.txt); the code's visits of that grid cover every k block.
out=$("$BIN" raster prove sm90-stream-k --tiles 16,16 --k-tiles 40 --sms 17 --cluster 2,1 --max-swizzle 1 --raster along-m \
  --decomposition stream-k --claim launches)
[ $? -eq 1 ] && echo "$out" | grep -q "not a multiple of the cluster 2x1: the hardware refuses the cluster launch" || fail "stream-K unlaunchable grid not refuted: $out"
"$BIN" raster prove sm90-stream-k --tiles 16,16 --k-tiles 40 --sms 17 --cluster 2,1 --max-swizzle 1 --raster along-m \
  --decomposition stream-k --claim k-exactly-once >/dev/null || fail "stream-K k-exactly-once of the code's visits"
# 1 SM with clusters of 2: an empty grid, no tile computed.
out=$("$BIN" raster prove sm90-stream-k --tiles 2,2 --k-tiles 40 --sms 1 --cluster 2,1 --max-swizzle 1 --raster along-n --claim exactly-once)
[ $? -eq 1 ] && echo "$out" | grep -q "epilogue is computed by no CTA" || fail "stream-K empty grid: $out"
# sm100-persistent: the worked example of model/raster/persistent_sm100.hpp (block (2, 1) of a 4x4
# grid, swizzle 2, along-m, computes tile (3, 0)); every tile once over the default domain; the
# cluster rounding refutes in-range; --sms does not apply.
out=$("$BIN" raster trace sm100-persistent --tiles 4,4 --max-swizzle 2 --raster along-m --json)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["grid"] == [4, 4, 1], d["grid"]
w = {c["cta"]: (c["work"][0]["m"], c["work"][0]["n"]) for c in d["ctas"]}
assert w[2 + 4 * 1] == (3, 0), w
assert sorted(w.values()) == [(m, n) for m in range(4) for n in range(4)], w
' || fail "sm100 trace: $out"
"$BIN" raster prove sm100-persistent --max-tiles 8 --claim exactly-once >/dev/null || fail "sm100 exactly-once not proved"
out=$("$BIN" raster prove sm100-persistent --tiles 3,3 --cluster 2,1 --max-swizzle 1 --raster along-m --claim in-range)
[ $? -eq 1 ] && echo "$out" | grep -q "outside the 3x3x1 problem" || fail "sm100 in-range not refuted: $out"
"$BIN" raster trace sm100-persistent --tiles 4,4 --sms 8 >/dev/null 2>&1; [ $? -eq 2 ] || fail "sm100 --sms accepted"
# sm100-stream-k: the worked example of model/raster/stream_k_sm100.hpp: grid 4x1x2, the z = 0
# blocks the stream-K units (CTA 1 k [0, 10) of tile 2, then tile 1 whole; CTA 2 tile 3, then tile
# 2's final split), the z = 1 blocks the data-parallel tiles 5..8.
out=$("$BIN" raster trace sm100-stream-k --tiles 9,1,1 --k-tiles 20 --sms 4 --json)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["grid"] == [4, 1, 2], d["grid"]
w = {c["cta"]: [(u["iter"], u["m"], u["k_begin"], u["k_end"]) for u in c["work"]] for c in d["ctas"]}
assert w[0] == [(0, 0, 0, 20)], w
assert w[1] == [(0, 2, 0, 10), (1, 1, 0, 20)], w
assert w[2] == [(0, 3, 0, 20), (1, 2, 10, 20)], w
assert w[3] == [(0, 4, 0, 20)], w
assert [w[c] for c in range(4, 8)] == [[(0, m, 0, 20)] for m in range(5, 9)], w
assert all(u["n"] == 0 and u["l"] == 0 for c in d["ctas"] for u in c["work"]), d
' || fail "sm100-stream-k trace: $out"
"$BIN" raster prove sm100-stream-k --max-tiles 4 --claim exactly-once --claim k-exactly-once --claim launches >/dev/null || fail "sm100-stream-k claims not proved over the domain"
# The data-parallel path launches the tiles rounded up to whole clusters: in-range refuted.
out=$("$BIN" raster prove sm100-stream-k --tiles 3,3 --k-tiles 9 --cluster 2,1 --max-swizzle 1 --raster along-m --sms 8 --claim in-range)
[ $? -eq 1 ] && echo "$out" | grep -q "CTA 3 at iteration 0 computes tile (m 3, n 0, l 0), outside the 3x3x1 problem (the grid rounds the tiles up to whole clusters, 4x3)" || fail "sm100-stream-k in-range not refuted: $out"
# 65536 waves of 2 stream-K units along z: past CUDA's grid limit, no launch.
out=$("$BIN" raster prove sm100-stream-k --tiles 131073,1 --k-tiles 9 --sms 2 --decomposition stream-k --cluster 1,1 --max-swizzle 1 --raster along-m --claim launches)
[ $? -eq 1 ] && echo "$out" | grep -q "grid 2x1x65536, past CUDA's grid limits" || fail "sm100-stream-k launches not refuted: $out"
for bad in "--k-tiles 0" "--k-tiles 9 --splits 2 --decomposition data-parallel" "--k-tiles 9 --groups 2x2" "--k-tiles 9 --corrected" "--k-tiles 9 --cluster 3,1"; do
  "$BIN" raster trace sm100-stream-k --tiles 4,4 $bad >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "raster trace sm100-stream-k $bad: exit $rc"
done
"$BIN" raster trace sm100-stream-k --tiles 4,4 2>&1 | grep -q "sm100-stream-k needs --k-tiles" || fail "sm100-stream-k without --k-tiles"
# CUDA's grid limit (y at most 65535) refutes launches for every kind, by enumeration and by Z3 alike:
# along-n puts the SM count, truncated by the problem, in y.
out=$("$BIN" raster prove sm90-persistent --tiles 256,256 --sms 1048576 --raster along-n --cluster 1,1 --max-swizzle 1 --claim launches)
[ $? -eq 1 ] && echo "$out" | grep -q "grid 1x65536x1, past CUDA's grid limits" || fail "sm90 y past 65535 not refuted: $out"
out=$("$BIN" raster prove sm90-persistent --engine z3 --sms 1048576 --raster along-n --cluster 1,1 --max-swizzle 1 --max-tiles 256 --claim launches)
[ $? -eq 1 ] && echo "$out" | grep -q "past CUDA's grid limits" || fail "Z3 launches missed y past 65535: $out"
# sm100-group: the worked example of model/raster/persistent.hpp (groups 4x1, cluster 2x1, a 2-SM
# MMA, 148 SMs: the host's grid counts 2 blocks of the MMA tile, so 2 CTAs take the 4 tiles, linear
# 0, 2 and 1, 3); with atom m 1 the grid has 4 CTAs.
out=$("$BIN" raster trace sm100-group --groups 4x1 --cluster 2,1 --atom-m 2 --sms 148 --json)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["grid"] == [2, 1, 1], d["grid"]
w = {c["cta"]: [(u["group"], u["m"], u["n"]) for u in c["work"]] for c in d["ctas"]}
assert w == {0: [(0, 0, 0), (0, 2, 0)], 1: [(0, 1, 0), (0, 3, 0)]}, w
assert all("k_begin" not in u for c in d["ctas"] for u in c["work"])
' || fail "sm100-group trace: $out"
out=$("$BIN" raster trace sm100-group --groups 4x1 --cluster 2,1 --sms 148 --json)
echo "$out" | python3 -c 'import json, sys; assert json.load(sys.stdin)["grid"] == [4, 1, 1]' || fail "sm100-group atom m 1 grid: $out"
# The sm90 scheduler's dropped tiles, found over sm100-group's own domain; the corrected bound proved.
out=$("$BIN" raster prove sm100-group --max-groups 2 --max-swizzle 4 --cluster 1x1 --claim exactly-once)
[ $? -eq 1 ] && echo "$out" | grep -q "tile (m 1, n 2, l 0) is computed by no CTA \[groups 2x3, cluster 1x1, max swizzle 4" || fail "sm100-group dropped tile: $out"
"$BIN" raster prove sm100-group --max-groups 2 --sms 148 --corrected --claim exactly-once --claim launches >/dev/null || fail "sm100-group corrected not proved"
# A run-time cluster shape with fewer SMs than a cluster: the preferred-cluster grid is empty.
out=$("$BIN" raster prove sm100-group --groups 1x1 --cluster 2,2 --sms 3 --cluster-type dynamic --max-swizzle 1 --raster along-m --claim launches)
[ $? -eq 1 ] && echo "$out" | grep -q "gives grid 0x2x1, no CTA" || fail "sm100-group dynamic empty grid: $out"
for bad in "--atom-m 2" "--atom-m 3 --cluster 2,1" "--cluster-type preferred" "--tiles 2,2"; do
  "$BIN" raster trace sm100-group --groups 2x2 $bad >/dev/null 2>&1; [ $? -eq 2 ] || fail "sm100-group accepted $bad"
done
"$BIN" raster trace sm90-group --groups 2x2 --cluster 2,1 --atom-m 2 >/dev/null 2>&1; [ $? -eq 2 ] || fail "--atom-m for sm90-group accepted"
"$BIN" raster trace sm90-persistent --tiles 4,4 --cluster-type dynamic >/dev/null 2>&1; [ $? -eq 2 ] || fail "--cluster-type for sm90-persistent accepted"
"$BIN" raster trace sm90-persistent --tiles 4,4 --k-tiles 9 >/dev/null 2>&1; [ $? -eq 2 ] || fail "--k-tiles for sm90-persistent accepted"
"$BIN" raster prove sm90-persistent --tiles 4,4 --claim k-exactly-once >/dev/null 2>&1; [ $? -eq 2 ] || fail "k-exactly-once for sm90-persistent accepted"

# --max-tiles is the domain asked for: proved whole (the verdict names [1, 64]) or refused (exit 2,
# no verdict printed) naming the largest bound that fits; never a smaller domain proved in silence.
FIXED_K="--sms 132 --cluster 2,1 --max-swizzle 1 --raster along-m --k-tiles 9 --splits 1 --decomposition stream-k"
for kind in sm90-stream-k sm100-stream-k; do
  out=$("$BIN" raster prove $kind --max-tiles 64 $FIXED_K --claim launches); rc=$?  # launches: the cheap claim, the same domain
  [ $rc -eq 0 ] && grep -q "^PROVED  launches .*tiles M, N in \[1, 64\], L in {1, 2}; .* (8192 configurations" <<<"$out" || fail "$kind --max-tiles 64: exit $rc: $out"
  out=$("$BIN" raster prove $kind --max-tiles 64 --sms 132 --cluster 2,1 --claim exactly-once 2>&1); rc=$?
  [ $rc -eq 2 ] || fail "$kind --max-tiles 64 over 2^20 configurations: exit $rc: $out"
  grep -q "^error: $kind: --max-tiles 64 asks for 3145728 configurations (tiles M, N in \[1, 64\], L in {1, 2}; .*more than the 1048576 (2^20) a domain search lists; with the other parameters as given the largest that fits is --max-tiles 36 (M, N in \[1, 36\]): give --max-tiles 36 or less, --tiles M,N\[,L\], or fix parameters left free (--max-swizzle, --raster, --k-tiles, --splits, --decomposition)$" <<<"$out" ||
    fail "$kind refusal: $out"
  grep -q "PROVED\|\[1, 8\]" <<<"$out" && fail "$kind --max-tiles 64 proved a smaller domain: $out"
done
out=$("$BIN" raster prove sm90-stream-k --max-tiles 36 --sms 132 --cluster 2,1 --claim exactly-once --deadline-s 0.000001 2>&1); rc=$?
[ $rc -eq 3 ] && grep -q "^UNKNOWN .*tiles M, N in \[1, 36\]" <<<"$out" || fail "the largest that fits is listed (its search cut by the deadline: UNKNOWN): exit $rc: $out"
for kind in sm90-group sm100-group; do
  out=$("$BIN" raster prove $kind --max-tiles 64 --max-groups 1 --sms 132 --cluster 2,1 --max-swizzle 4 --raster along-m --claim exactly-once 2>&1); rc=$?
  [ $rc -le 1 ] && grep -q "^[A-Z]*  exactly-once .*one group of M, N in \[1, 64\]" <<<"$out" || fail "$kind --max-tiles 64 --max-groups 1: exit $rc: $out"
  out=$("$BIN" raster prove $kind --max-tiles 64 --claim exactly-once 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -q "^error: $kind: --max-tiles 64 asks for [0-9]* configurations (every list of 1 to 3 groups of M, N in \[1, 64\];.*the largest that fits is --max-tiles [34] (M, N in \[1, [34]\])" <<<"$out" ||
    fail "$kind --max-tiles 64: exit $rc: $out"
done
"$BIN" raster prove sm90-group --max-tiles 64 --claim exactly-once 2>&1 | grep -q "give --max-tiles 4 or less, --max-groups 1 (one group of M, N in \[1, 64\])" || fail "sm90-group: no --max-groups hint"
out=$("$BIN" raster prove sm90-group --max-tiles 4 --max-swizzle 4 --cluster 1x1 --claim exactly-once --corrected); rc=$?
[ $rc -eq 0 ] && grep -q "every list of 1 to 3 groups of M, N in \[1, 4\]" <<<"$out" || fail "sm90-group --max-tiles 4 (past the old cut at 3): exit $rc: $out"
# The default domains are the kind's (stream-K M, N up to 8; groups up to 3) and say so.
"$BIN" raster prove sm90-stream-k --sms 132 --cluster 2,1 --max-swizzle 1 --raster along-m --k-tiles 9 --claim exactly-once | grep -q "tiles M, N in \[1, 8\]" || fail "stream-K default domain"
# A bound that bounds nothing is refused, not ignored.
for bad in "sm90-persistent --tiles 4,4 --max-tiles 64" "sm90-group --groups 2x2 --max-tiles 8" "sm90-group --groups 2x2 --max-groups 2" "sm90-persistent --max-groups 2"; do
  "$BIN" raster prove $bad --claim exactly-once >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "raster prove $bad: exit $rc"
done
# A domain refused for one claim prints no verdict for the others (Z3 would take exactly-once's
# 1024 x 1024 at once; balance would list 2^21 configurations): refused before Z3 starts.
out=$("$BIN" raster prove sm90-persistent --max-tiles 1024 --cluster 2,1 --max-swizzle 4 --raster heuristic --sms 132 --claim exactly-once --claim balance 2>&1); rc=$?
[ $rc -eq 2 ] && ! grep -q "PROVED" <<<"$out" && grep -q "^error: sm90-persistent: --max-tiles 1024 asks for 2097152 configurations.*the largest that fits is --max-tiles 724 " <<<"$out" ||
  fail "balance over 2^21 configurations beside a Z3 claim: exit $rc: $out"

# --report DIR: the scheduler pictures (cli/output/scheduler_report.hpp); exit codes unchanged.
rep=$(mktemp -d); trap 'rm -rf "$rep"' EXIT
out=$("$BIN" raster trace sm90-persistent --tiles 6,5,1 --sms 4 --max-swizzle 2 --report "$rep/p"); rc=$?
[ $rc -eq 0 ] || fail "trace --report exit $rc"
grep -q "^report: $rep/p/index.html" <<<"$out" || fail "trace --report line: $out"
for f in index.html summary.svg wave_0.svg wave_8.svg; do [ -s "$rep/p/$f" ] || fail "trace --report: no $f"; done
[ ! -e "$rep/p/wave_9.svg" ] || fail "trace --report: a frame past the longest loop (9 waves)"
"$BIN" raster prove sm90-group --groups 2x3 --max-swizzle 4 --cluster 1,1 --sms 132 --claim exactly-once --report "$rep/g" >/dev/null; rc=$?
[ $rc -eq 1 ] || fail "prove --report refuted: exit $rc"
grep -q '<tr class="missing"><td>(m 1, n 2, l 0)</td>' "$rep/g/index.html" || fail "prove --report: the missing tile is not listed"
grep -q 'REFUTED' "$rep/g/index.html" && grep -q 'witness: tile (m 1, n 2, l 0) is computed by no CTA' "$rep/g/index.html" || fail "prove --report: no verdict"
python3 -c 'import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' "$rep/g/summary.svg" "$rep/g/wave_0.svg" || fail "prove --report: SVG not well-formed"
# prove over a domain draws the witness configuration; --json stays one JSON document.
"$BIN" raster prove sm90-group --max-swizzle 4 --cluster 1x1 --max-groups 2 --claim exactly-once --json --report "$rep/d" | python3 -c 'import json,sys; json.load(sys.stdin)' || fail "prove --json --report"
grep -q 'the witness configuration of exactly-once' "$rep/d/index.html" && grep -q 'groups 2x3, cluster 1x1, max swizzle 4' "$rep/d/index.html" || fail "prove --report over a domain: not the witness"
"$BIN" raster trace sm90-stream-k --tiles 5,1,1 --k-tiles 20 --sms 4 --report "$rep/k" >/dev/null || fail "stream-K --report"
grep -q '>2:1 k\[10,20)</text>' "$rep/k/summary.svg" || fail "stream-K --report: the split tile's second unit"
"$BIN" raster trace sm100-stream-k --tiles 9,1,1 --k-tiles 20 --sms 4 --report "$rep/s" >/dev/null || fail "sm100-stream-k --report"
grep -q '>2:1 k\[10,20)</text>' "$rep/s/summary.svg" && [ -s "$rep/s/wave_1.svg" ] || fail "sm100-stream-k --report: the split tile's final split"
# The same DIR again replaces the report; a DIR that cannot be written exits 2, before any proof.
"$BIN" raster trace sm90-persistent --tiles 2,2 --sms 4 --report "$rep/p" >/dev/null || fail "--report over a report"
[ ! -e "$rep/p/wave_1.svg" ] || fail "--report left the previous run's frames"
touch "$rep/file"
err=$("$BIN" raster trace sm90-persistent --tiles 2,2 --report "$rep/file" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && grep -q "is a file" <<<"$err" || fail "--report onto a file: exit $rc: $err"
"$BIN" raster prove sm90-group --groups 2x3 --max-swizzle 4 --claim exactly-once --report /dev/null/r >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--report /dev/null/r: exit $rc"
mkdir "$rep/user" && touch "$rep/user/notes.txt"
"$BIN" raster trace sm90-persistent --tiles 2,2 --report "$rep/user" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ -e "$rep/user/notes.txt" ] || fail "--report onto a user's folder: exit $rc"
# raster trace is bounded: a trace of more than 2^24 work units (or CTAs) is refused before any work
# (these once used 14.3 GB over 41 s, then ran out of memory; and grew past 9 GB), and an accepted
# trace is written unit by unit as the loops compute them, holding none: its memory stays small.
python3 - "$BIN" "$rep" <<'PY' || fail "raster trace bounds"
import os, resource, subprocess, sys, time
binary, rep = sys.argv[1], sys.argv[2]
ok = True
# The traces go to files, read after: a child's peak memory counts its parent's at the fork.
for args in (["--sms", "1"], ["--sms", "1", "--json"]):
    t0 = time.monotonic()
    with open(os.path.join(rep, "trace.out"), "wb") as out:
        rc = subprocess.run([binary, "raster", "trace", "sm90-persistent", "--tiles", "2048,1024", *args], stdout=out).returncode
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    wall = time.monotonic() - t0
    word, units, tail = (b'"iter"' if "--json" in args else b") "), 0, b""
    with open(os.path.join(rep, "trace.out"), "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            units += (tail + chunk).count(word)
            tail = chunk[-(len(word) - 1):]
    units += "--json" not in args  # each CTA's last unit ends its line
    os.unlink(os.path.join(rep, "trace.out"))
    if rc != 0 or units != 2048 * 1024 or rss > 64:
        print(f"FAIL trace --tiles 2048,1024 {' '.join(args)}: exit {rc}, {units} units, {rss} MB peak"); ok = False
    else:
        print(f"ok   trace of 2^21 units in one CTA {' '.join(args)}: {wall:.1f} s, {rss} MB peak")
for tiles, sms in (("2147483647,1", "1"), ("1048576,1048576", "132")):
    t0 = time.monotonic()
    try:
        p = subprocess.run([binary, "raster", "trace", "sm90-persistent", "--tiles", tiles, "--sms", sms], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        print(f"FAIL trace --tiles {tiles}: not refused within 20 s"); ok = False; continue
    wall = time.monotonic() - t0
    n = int(tiles.split(",")[0]) * int(tiles.split(",")[1])
    want = f"{n} work units, more than the 16777216 (2^24) a trace prints: trace a smaller problem (--tiles)"
    if p.returncode != 2 or want not in p.stderr or wall > 2 or p.stdout:
        print(f"FAIL trace --tiles {tiles} --sms {sms}: exit {p.returncode}, {wall:.1f} s: {p.stderr[:300]}"); ok = False
# A bound found by walking (stream-K units over several tiles): counted only up to the bound.
t0 = time.monotonic()
p = subprocess.run([binary, "raster", "trace", "sm90-stream-k", "--tiles", "9000,2000", "--k-tiles", "1", "--sms", "4"], capture_output=True, text=True)
if p.returncode != 2 or "more work units than the 16777216 (2^24) a trace prints (counted up to that)" not in p.stderr or time.monotonic() - t0 > 5:
    print(f"FAIL stream-K trace past the bound: exit {p.returncode}: {p.stderr[:300]}"); ok = False
sys.exit(0 if ok else 1)
PY

# trace --configs FILE: many configurations in one run, each line's trace the one its own run writes,
# in FILE's order (JSON: one object a line); the command line's flags shared, a line's after them.
dir="$rep/configs"; mkdir -p "$dir"  # removed with $rep
printf '%s\n' '# two configurations' '--tiles 3,2 --cluster 2,1 --sms 4' '' '  --tiles 5,3 --max-swizzle 2 --sms 8 --raster along-n' >"$dir/c.txt"
want=$("$BIN" raster trace sm90-persistent --tiles 3,2 --cluster 2,1 --sms 4 --json; "$BIN" raster trace sm90-persistent --tiles 5,3 --max-swizzle 2 --sms 8 --raster along-n --json)
got=$("$BIN" raster trace sm90-persistent --configs "$dir/c.txt" --json) || fail "--configs: exit $?"
[ "$got" = "$want" ] && [ "$(wc -l <<<"$got")" -eq 2 ] || fail "--configs JSON: $got"
want=$("$BIN" raster trace sm90-stream-k --k-tiles 9 --tiles 3,2 --sms 4; "$BIN" raster trace sm90-stream-k --k-tiles 9 --tiles 5,1 --sms 8 --k-tiles 17)
got=$(printf -- '--tiles 3,2 --sms 4\n--tiles 5,1 --sms 8 --k-tiles 17\n' | "$BIN" raster trace sm90-stream-k --k-tiles 9 --configs -) || fail "--configs -: exit $?"
[ "$got" = "$want" ] || fail "--configs text from standard input: $got"
# Every line read and bounded before the first trace: a bad one is exit 2 naming its line, nothing written.
for bad in "--tiles 0,4" "--tiles 2097152,2097152" "--tiles 3,3 --json" "--tiles 3,3 --report $dir/r" "--tiles 3,3 --configs x" "--tiles 3,3 sm90-group" "--tilse 3,3"; do
  printf -- '--tiles 3,2 --sms 4\n%s\n' "$bad" >"$dir/c.txt"
  "$BIN" raster trace sm90-persistent --configs "$dir/c.txt" --json >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq 2 ] && [ ! -s "$dir/out" ] && grep -q "^error: raster trace --configs: $dir/c.txt line 2: " "$dir/err" || fail "--configs line '$bad': exit $rc: $(cat "$dir/out" "$dir/err" | head -c 300)"
done
: >"$dir/empty.txt"
for bad in "--configs $dir/empty.txt" "--configs $dir/missing.txt" "--configs $dir/empty.txt --report $dir/r"; do
  "$BIN" raster trace sm90-persistent $bad >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq 2 ] && [ ! -s "$dir/out" ] && grep -q "^error: raster trace --configs: " "$dir/err" || fail "$bad: exit $rc: $(cat "$dir/err")"
done
[ ! -e "$dir/r" ] || fail "--configs --report wrote a report"
"$BIN" raster prove sm90-persistent --configs "$dir/empty.txt" --claim exactly-once >/dev/null 2>&1; [ $? -eq 2 ] || fail "prove takes --configs"
echo OK
