#!/usr/bin/env bash
# layoutproof ptx on PTX compiled from tests/ptx/basic.cu: per kernel, the executed warp
# instructions, wavefronts and ideal wavefronts of its shared-memory loads and stores equal a brute
# force written here from each kernel's CUDA formula (addresses per lane, then the bank rule:
# per phase, the most distinct 4-byte words in one bank; phases of 32 lanes for <= 4-byte accesses,
# 8 lanes for 16-byte stores, cp.async and each ldmatrix matrix), never from the tool; claims,
# witnesses (PTX line, CUDA line, warp, lanes), UNKNOWN reasons, JSON, and bad input (exit 2).
# Usage: ptx_test.sh <layoutproof> <repo root>
set -u
BIN=${1:?usage: ptx_test.sh <layoutproof> <repo root>}
ROOT=${2:?usage: ptx_test.sh <layoutproof> <repo root>}
cd "$ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
P=tests/ptx/basic.ptx

python3 - "$BIN" "$P" <<'PY' || failures=$((failures + 1))
import json, subprocess, sys
BIN, P = sys.argv[1], sys.argv[2]
bad = 0

def wavefronts(addrs, width):
    """Sum over phases of the most distinct words one bank holds (addrs: per lane, None inactive)."""
    lanes_per_phase = 32 if width <= 4 else 32 // (width // 4) if width == 8 else 8
    total = ideal = 0
    for p0 in range(0, 32, lanes_per_phase):
        banks = {}
        for l in range(p0, p0 + lanes_per_phase):
            a = addrs[l]
            if a is None: continue
            for w in range(a // 4, (a + width - 1) // 4 + 1):
                banks.setdefault(w % 32, set()).add(w)
        if banks:
            total += max(len(v) for v in banks.values()); ideal += 1
    return total, ideal

def ldsm(addrs, n):
    total = ideal = 0
    for m in range(n):
        t, i = wavefronts([addrs[l] if 8 * m <= l < 8 * m + 8 else None for l in range(32)], 16)
        total += t; ideal += i
    return total, ideal

def expect(issues):
    """issues: list of (op, addrs, width[, ldsm]) -> {op: (executed, wavefronts, ideal)}."""
    out = {}
    for op, addrs, width in issues:
        w, i = ldsm(addrs, 4) if op == "ldsm4" else wavefronts(addrs, width)
        e = out.setdefault(op, [0, 0, 0]); e[0] += 1; e[1] += w; e[2] += i
    return {k: tuple(v) for k, v in out.items()}

T = range(32)
def lanes(f): return [f(t) for t in T]
K = 7
kernels = {
  "row_copy": ([], [("st", lanes(lambda t: 4 * t), 4), ("ld", lanes(lambda t: 4 * ((t + 1) % 256)), 4)]),
  "padded": ([], [("st", lanes(lambda t: 4 * (i * 33 + t)), 4) for i in range(32)] +
                 [("ld", lanes(lambda t: 4 * (t * 33 + i)), 4) for i in range(32)]),
  "column_read": ([], [("st", lanes(lambda t: 4 * t), 4), ("ld", lanes(lambda t: 4 * 32 * t), 4)]),
  "broadcast": (["--param", "1=5"], [("st", lanes(lambda t: 4 * (t % 64)), 4), ("ld", lanes(lambda t: 20), 4)]),
  "stride_two": ([], [("st", lanes(lambda t: 8 * t), 4), ("ld", lanes(lambda t: 8 * t + 4), 4)]),
  "ldmatrix_x4": ([], [("st", lanes(lambda t: 2 * (t + 32 * j)), 2) for j in range(8)] +
                      [("ldsm4", lanes(lambda t: (t % 8) * 64 + (t // 8) * 16), 16)]),
  "cp_async16": ([], [("ldgsts", lanes(lambda t: 16 * t), 16), ("ld", lanes(lambda t: 16 * ((t + 5) % 128)), 16)]),
  "stages": (["--param", "1=%d" % K], [x for k in range(K) for x in
             (("st", lanes(lambda t: 4 * ((k % 3) * 128 + t)), 4), ("ld", lanes(lambda t: 4 * ((k % 3) * 128 + (t ^ 1))), 4))]),
  "swizzled": ([], [("st", lanes(lambda t: 4 * ((r * 32 + t) ^ (((r * 32 + t) >> 5) & 31))), 4) for r in range(32)] +
                   [("ld", lanes(lambda t: 4 * ((t * 32 + r) ^ (((t * 32 + r) >> 5) & 31))), 4) for r in range(32)]),
}
for name, (extra, issues) in kernels.items():
    cmd = [BIN, "ptx", P, "--kernel", name, "--block", "32", "--json", "--claim", "conflict-free", "--claim", "aligned",
           "--claim", "in-bounds", "--claim", "no-overlap"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print("FAIL %s: exit %d %s" % (name, p.returncode, p.stderr[:300])); bad += 1; continue
    doc = json.loads(p.stdout)
    k = doc["kernels"][0]
    got = {}
    for ins in k["instructions"]:
        assert ins["sass_offset"] is None
        e = got.setdefault(ins["op"], [0, 0, 0])
        e[0] += ins["executed"]; e[1] += ins["wavefronts"]; e[2] += ins["ideal"]
    want = expect(issues)
    got = {o: tuple(v) for o, v in got.items()}
    if got != want:
        print("FAIL %s: counts %s, brute force %s" % (name, got, want)); bad += 1
    tot = k["totals"]
    if (tot["executed"], tot["wavefronts"], tot["ideal"]) != tuple(map(sum, zip(*want.values()))):
        print("FAIL %s: totals %s" % (name, tot)); bad += 1
    # conflict-free per instruction agrees with its counts; aligned, in-bounds, no-overlap hold here.
    for ins in k["instructions"]:
        for v in ins["verdicts"]:
            exp = ("PROVED" if ins["wavefronts"] == ins["ideal"] else "REFUTED") if v["claim"] == "conflict-free" else "PROVED"
            if not ins["issues"] and ins["executed"] == 0:  # no lane runs it: NOT RUN, never PROVED
                exp = "UNKNOWN" if v["detail"].startswith("NOT RUN") else "NOT RUN"
            if v["verdict"] != exp:
                print("FAIL %s line %d %s: %s (%s)" % (name, ins["line"], v["claim"], v["verdict"], v["detail"])); bad += 1
            if v["verdict"] == "REFUTED":
                w = v["witness"]
                if "basic.cu:" not in w["why"] or "line %d" % ins["line"] not in w["why"] or not w["lanes"] or len(w["addresses"]) != len(w["lanes"]):
                    print("FAIL %s: witness lacks line/source/lanes: %s" % (name, w)); bad += 1
    # Addresses: the distinct issues of each op are exactly the brute force's (the wrap-around stage
    # counter of `stages` included: stage k % 3 at word stage * 128 + t).
    for op in want:
        mine = {tuple(i["addrs"]) for ins in k["instructions"] if ins["op"] == op for i in ins["issues"]}
        theirs = {tuple(-1 if a is None else a for a in addrs) for o, addrs, w in issues if o == op}
        if mine != theirs:
            print("FAIL %s %s: issue addresses differ (%d vs %d distinct)" % (name, op, len(mine), len(theirs))); bad += 1
print("ptx brute force: %d kernels, %d failures" % (len(kernels), bad))
sys.exit(1 if bad else 0)
PY

# A free parameter is a symbol: broadcast's s[k] is conflict-free for every k (PROVED, naming the
# domain; tests/cli/ptx_symbolic_test.py checks such verdicts against every k of a range).
out=$("$BIN" ptx $P --kernel broadcast --block 32 --claim conflict-free 2>&1); rc=$?
[ $rc -eq 0 ] || fail "broadcast without --param: exit $rc"
echo "$out" | grep -q "PROVED  conflict-free  \[.*\]  line .*for every 32-bit value of parameter 1 (_Z9broadcastPfi_param_1)" ||
  fail "broadcast without --param: no domain: $out"
echo "$out" | grep -q "PROVED  conflict-free" || fail "broadcast: the store (independent of k) is not PROVED"
# A loop whose bound is free is summarized over its iterations; a ring stage counter (0, 1, 2, 0, ...)
# is neither invariant nor a constant step: UNKNOWN, naming the loop's line.
out=$("$BIN" ptx $P --kernel stages --block 32 --claim conflict-free 2>&1); rc=$?
[ $rc -eq 3 ] || fail "stages without --param: exit $rc"
echo "$out" | grep -q "changes other than by a constant step per iteration" || fail "stages without --param: no reason: $out"
# A 32-way conflict: REFUTED, exit 1, the witness names the PTX line, CUDA line, warp and bank.
L=$(grep -n 'out\[t\] = s\[t \* 32\];' tests/ptx/basic.cu | cut -d: -f1)  # the column read's CUDA line
out=$("$BIN" ptx $P --kernel column_read --block 32 --claim conflict-free --claim max-ways:31 2>&1); rc=$?
[ $rc -eq 1 ] || fail "column_read: exit $rc"
echo "$out" | grep -q "REFUTED  max-ways:31.*tests/ptx/basic.cu:$L), warp 0, execution 0.*bank 0 holds 32 distinct words" ||
  fail "column_read: witness: $out"
# More threads than the kernel's tile: in-bounds REFUTED on the second warp.
out=$("$BIN" ptx $P --kernel column_read --block 64 --claim in-bounds 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "warp 1, execution 0: lane 0 (thread 32) at byte 4096 (bank 0): bytes 4096..4099 are outside" ||
  fail "column_read --block 64 in-bounds: $rc $out"
# Regression (a wrong PROVED): a store guarded by %ctaid > 0 never runs in CTA (0,0,0); the claims
# are about every CTA, so the 32-way conflict of the other CTAs is REFUTED, with a witness CTA
# that replays (never PROVED from CTA (0,0,0)'s empty issue).
out=$("$BIN" ptx tests/ptx/cta_guard.ptx --grid 4 --claim conflict-free 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "REFUTED  conflict-free.*every CTA of grid 4,1,1.*%ctaid.x (blockIdx.x) = [123] (replayed with --grid 4,1,1 --cta [123],0,0).*32 wavefronts" ||
  fail "ctaid-guarded store, grid 4: $rc $out"
out=$("$BIN" ptx tests/ptx/cta_guard.ptx --claim conflict-free 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "REFUTED  conflict-free.*every CTA of every grid" || fail "ctaid-guarded store, every grid: $rc $out"
# --cta 0,0,0: that CTA alone, which runs no store, as a one-CTA grid does: the gate is over nothing
# (an ERROR, exit 3) unless it may be empty.
out=$("$BIN" ptx tests/ptx/cta_guard.ptx --grid 1 --claim conflict-free 2>&1); rc=$?
[ $rc -eq 3 ] && echo "$out" | grep -q "a gate over nothing" || fail "ctaid-guarded store, grid 1: $rc $out"
out=$("$BIN" ptx tests/ptx/cta_guard.ptx --grid 4 --cta 0,0,0 --claim conflict-free 2>&1); rc=$?
[ $rc -eq 3 ] && echo "$out" | grep -q "a gate over nothing" || fail "ctaid-guarded store, --cta 0,0,0: $rc $out"
"$BIN" ptx tests/ptx/cta_guard.ptx --grid 1 --claim conflict-free --allow-empty >/dev/null || fail "ctaid-guarded store, grid 1, --allow-empty: not 0"
# no-overlap compares the data where lanes write common bytes (tests/ptx/control.cu): equal data is
# no conflict (PROVED), different known data is (REFUTED: lanes, address and both values), data
# not known decides nothing (UNKNOWN, with why).
C=tests/ptx/control.ptx
out=$("$BIN" ptx $C --kernel equal_pairs --block 32 --claim no-overlap 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "PROVED  no-overlap" || fail "equal_pairs no-overlap: $rc $out"
L=$(grep -n 's\[t / 2\] = t;' tests/ptx/control.cu | cut -d: -f1)
out=$("$BIN" ptx $C --kernel racy_pairs --block 32 --claim no-overlap 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "REFUTED  no-overlap.*control.cu:$L), warp 0, execution 0: lane 0 (thread 0) at byte 0 (bank 0) and lane 1 (thread 1) at byte 0 (bank 0) write common bytes (4 bytes each) with different data, 0x00000000 and 0x00000001" ||
  fail "racy_pairs no-overlap: $rc $out"
out=$("$BIN" ptx $C --kernel loaded_pairs --block 32 --claim no-overlap 2>&1); rc=$?
[ $rc -eq 3 ] && echo "$out" | grep -q "UNKNOWN  no-overlap.*lanes 0 and 1 write byte 0 and whether their data is equal is not known.*loaded from global memory" ||
  fail "loaded_pairs no-overlap: $rc $out"
# A divergent if/else reconverges at its join (tests/ptx/control.cu, if_else): each path's store is
# one issue of its 16 lanes, the load after the join one issue of all 32, with the addresses and
# counts of the kernel's formulas (brute force here), and the grouping claims decided on each.
python3 - "$BIN" <<'PY' || failures=$((failures + 1))
import json, subprocess, sys
doc = json.loads(subprocess.run([sys.argv[1], "ptx", "tests/ptx/control.ptx", "--kernel", "if_else", "--block", "32", "--json",
                                 "--claim", "conflict-free", "--claim", "no-overlap"], capture_output=True, text=True).stdout)
ins = doc["kernels"][0]["instructions"]
def wavefronts(addrs):  # 4-byte accesses: one phase, the most distinct words in one bank
    banks = {}
    for a in addrs:
        if a >= 0: banks.setdefault(a // 4 % 32, set()).add(a // 4)
    return max(len(v) for v in banks.values())
want = [("st", [4 * (2 * t) if t < 16 else -1 for t in range(32)]),
        ("st", [4 * (3 * t % 128) if t >= 16 else -1 for t in range(32)]),
        ("ld", [4 * (4 * t % 128) for t in range(32)])]
bad = 0
if [(i["op"], i["executed"], [x["addrs"] for x in i["issues"]]) for i in ins] != [(op, 1, [a]) for op, a in want]:
    print("FAIL if_else: issues %s" % [(i["op"], i["executed"], [x["addrs"] for x in i["issues"]]) for i in ins]); bad = 1
elif [(i["wavefronts"], i["ideal"]) for i in ins] != [(wavefronts(a), 1) for op, a in want]:
    print("FAIL if_else: counts %s" % [(i["wavefronts"], i["ideal"]) for i in ins]); bad = 1
verdicts = [[v["verdict"] for v in i["verdicts"]] for i in ins]
if verdicts != [["PROVED", "PROVED"], ["PROVED", "PROVED"], ["REFUTED"]]:
    print("FAIL if_else: verdicts %s" % verdicts); bad = 1
sys.exit(bad)
PY
# Bad input: exit 2, located, a caret; options not implemented say so.
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  mov.u32 %%r1, %%tid.x;\n}\n' >"$tmp/bad.ptx"
out=$("$BIN" ptx "$tmp/bad.ptx" --block 32 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "bad.ptx:6:11: register '%r1' is not declared" && echo "$out" | grep -q '^  *\^' ||
  fail "undeclared register: $rc $out"
printf '.version 8.0\n.target sm_90\n.entry k()\n{\n  .reg .b32 %%r<3>;\n  add.u32 %%r1, %%r2, 1\n}\n' >"$tmp/bad2.ptx"
out=$("$BIN" ptx "$tmp/bad2.ptx" --block 32 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "bad2.ptx:7:1: expected ';' to end the instruction" || fail "missing ';': $rc $out"
for args in "--claim covers" "--block 0" "--block 2000" "--param 9=1" "--param x=1" "--param 0=zz" \
            "--smem-bytes 999999" "--frobnicate"; do
  "$BIN" ptx $P --kernel column_read $args >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "ptx $args: exit $rc (expected 2)"
done
# --report: the refuted column read's figure (its phase as 32 bank columns) and its 32 lanes; a
# folder that is not a layoutproof report is never overwritten.
"$BIN" ptx $P --kernel column_read --block 32 --claim conflict-free --report "$tmp/r" > /dev/null; rc=$?
[ $rc -eq 1 ] && grep -q "REFUTED" "$tmp/r/index.html" && grep -q "<svg" "$tmp/r/report.svg" && grep -q "32 wavefronts" "$tmp/r/index.html" ||
  fail "ptx --report: exit $rc, $(ls "$tmp/r" 2>&1)"
mkdir -p "$tmp/mine" && echo keep > "$tmp/mine/notes.txt"
"$BIN" ptx $P --kernel column_read --block 32 --report "$tmp/mine" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ -f "$tmp/mine/notes.txt" ] || fail "ptx --report over a user's folder: exit $rc"
"$BIN" ptx $P --kernel column_read >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "give the block size" "$tmp/err" || fail "no --block and no .reqntid: $rc $(cat "$tmp/err")"
"$BIN" ptx $P --kernel nosuchkernel --block 32 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no kernel of" "$tmp/err" || fail "--kernel matching nothing: $rc"
# --kernel matches demangled names too; without it every kernel runs.
n=$("$BIN" ptx $P --block 32 --param _Z9broadcastPfi_param_1=3 --param _Z6stagesPfi_param_1=4 --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["kernels"]))')
[ "$n" = 9 ] || fail "all kernels: $n"
"$BIN" ptx $P --kernel 'cp_async16(int4 const*' --block 32 >/dev/null || fail "--kernel by demangled name"

# A compiled CuTe copy (tests/ptx/cute_copy.cu; ldmatrix: nothing fuses): `ptx` issues exactly the
# lane addresses `trace` computes for the same copy, instruction for instruction (as multisets of
# 32-lane address vectors), with the same wavefronts, and both prove conflict-free.
python3 - "$BIN" <<'PY' || failures=$((failures + 1))
import collections, json, subprocess, sys
BIN = sys.argv[1]
ptx = json.loads(subprocess.run([BIN, "ptx", "tests/ptx/cute_copy.ptx", "--block", "128", "--json", "--claim", "conflict-free"],
                                capture_output=True, text=True, check=True).stdout)["kernels"][0]
tr = json.loads(subprocess.run([BIN, "trace", "--side", "S", "--element", "half_t", "--smem",
    "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{}))",
    "--mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})",
    "--copy", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", "--json"], capture_output=True, text=True, check=True).stdout)
mine = collections.Counter()
for ins in ptx["instructions"]:
    assert ins["op"] == tr["op"] == "ldsm4", ins["op"]
    for i in ins["issues"]:
        mine[tuple(i["addrs"])] += i["count"]
theirs = collections.Counter(tuple(i["addrs"]) for i in tr["instructions"])
bad = 0
if mine != theirs:
    print("FAIL cute copy: ptx issues %d (%d distinct), trace %d (%d distinct)" % (sum(mine.values()), len(mine), sum(theirs.values()), len(theirs)))
    bad = 1
if ptx["totals"]["executed"] != len(tr["instructions"]) or ptx["block"] != [128, 1, 1]:
    print("FAIL cute copy: %s executed, block %s; trace %d instructions" % (ptx["totals"]["executed"], ptx["block"], len(tr["instructions"])))
    bad = 1
if any(v["verdict"] != "PROVED" for ins in ptx["instructions"] for v in ins["verdicts"]):
    print("FAIL cute copy: conflict-free is not PROVED on every ldmatrix"); bad = 1
print("ptx = trace on the compiled CuTe copy: %d ldmatrix issues" % sum(mine.values()))
sys.exit(bad)
PY

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "ptx: brute-force counts, claims, witnesses, UNKNOWN reasons and bad input all as expected"
