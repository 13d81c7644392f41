#!/usr/bin/env python3
"""Claims over every iteration of a loop whose trip count is a free parameter, against their twin.

Random PTX kernels (fixed seed) with one loop over k whose trip count depends on the free
parameter K (--param 1): bottom-tested (`do { ... } while (k < K)` behind a guard), top-tested with
an early exit, with a lane-dependent bound (K + tid % 2), with a shared access after the loop, with
a pointer bumped every iteration, with a step that is K itself, with an if/else on k and K in the
body storing on both sides, and with a stage that flips (stage ^= 1, 1 - stage: periodic) or rings
through 3 (not summarized: UNKNOWN). The loop's shared access is at
tid*b + k*d + e words. The symbolic verdict over every K of --param-range LO..HI (the loop run once
for every iteration: model/compiled/exec/loop_summary.hpp) must equal the brute force, the kernel
run with every --param 1=K:
  PROVED   every concrete run where the instruction runs proves it, and one runs it;
  REFUTED  the witness K is in the range and that concrete run refutes it;
  UNKNOWN  only where the summary says why (never silently); each one is counted and printed.
A PROVED that a concrete run contradicts is the worst bug this can find.
Usage: loop_twin_test.py LAYOUTPROOF [KERNELS]
"""
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symbolic_twin import VERDICT, Twin  # noqa: E402

LP = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 24
CLAIMS = ["conflict-free", "in-bounds", "aligned"]
KV = re.compile(r"parameter 1 \([^)]*\) = (-?\d+)")
T = Twin(LP, block=None, extra=["--grid", "1,1,1"])
check = T.check


def run(path, args):
    return T.run(path, "k", args, CLAIMS)


HEAD = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.reqntid 32, 1, 1
{{
.reg .b32 %r<32>;
.reg .pred %p<4>;
.shared .align 8 .b8 s[{size}];
mov.u32 %r2, %tid.x;
ld.param.u32 %r3, [k_param_1];
mov.u32 %r10, s;
mov.u32 %r20, 0;
"""


def kernel(r):
    size = r.choice([256, 1024])
    b, d, e = r.choice([1, 2, 32]), r.choice([0, 1, 4, 32]), r.choice([0, 1])
    step = r.choice([1, 2, 4])
    form = r.choice(["bottom", "top", "lane", "after", "bump", "kstep", "ifelse", "flip", "flip", "ring3"])
    body = HEAD.format(size=size)
    # The access: s + 4 * (tid * b + k * d + e); "bump" keeps it in a register stepped by 4 * d * step.
    body += f"mul.lo.s32 %r5, %r2, {b};\nadd.s32 %r5, %r5, {e};\nshl.b32 %r5, %r5, 2;\nadd.s32 %r24, %r10, %r5;\n"
    access = "mad.lo.s32 %r6, %r20, {}, %r5;\nadd.s32 %r7, %r10, %r6;\nst.shared.u32 [%r7], %r2;\n".format(4 * d)
    incr = f"add.s32 %r20, %r20, {step};\n"
    bound = "%r3"
    if form == "bump":
        access = "st.shared.u32 [%r24], %r2;\n"
        incr += f"add.s32 %r24, %r24, {4 * d * step};\n"
    if form == "kstep":
        incr = "add.s32 %r20, %r20, %r3;\nadd.s32 %r20, %r20, 1;\n"  # k += K + 1
    if form == "lane":
        body += "and.b32 %r21, %r2, 1;\nadd.s32 %r22, %r3, %r21;\n"
        bound = "%r22"
    if form == "ifelse":  # the body an if/else on k + c < K, the other side's store at tid*b2 words
        c, b2 = r.choice([0, 1, 3]), r.choice([1, 2, 32])
        access = (f"add.s32 %r25, %r20, {c};\nsetp.lt.s32 %p3, %r25, %r3;\n@%p3 bra $ELSE;\nmul.lo.s32 %r26, %r2, {4 * b2};\n"
                  f"add.s32 %r27, %r10, %r26;\nst.shared.u32 [%r27], %r2;\nbra.uni $JOIN;\n$ELSE:\n{access}$JOIN:\n")
    if form in ("flip", "ring3"):  # a stage: s + 4 * (stage * 64 + tid * b + e), flipped (stage ^= 1, or 1 - stage) or 0,1,2,0,...
        flip = r.choice(["xor.b32 %r26, %r26, 1;\n", "sub.s32 %r26, 1, %r26;\n"]) if form == "flip" else "add.s32 %r26, %r26, 1;\nrem.u32 %r26, %r26, 3;\n"
        body += "mov.u32 %r26, 0;\n"
        access = "mad.lo.s32 %r6, %r26, 256, %r5;\nadd.s32 %r7, %r10, %r6;\nst.shared.u32 [%r7], %r2;\n"
        incr += flip
    tail = "ld.shared.u32 %r12, [%r10];\n" if form == "after" else ""
    if form == "top":
        body += f"$LOOP:\nsetp.ge.s32 %p2, %r20, {bound};\n@%p2 bra $EXIT;\n{access}{incr}bra $LOOP;\n$EXIT:\nret;\n}}\n"
    else:
        body += f"setp.lt.s32 %p1, %r20, {bound};\n@!%p1 bra $DONE;\n$LOOP:\n{access}{incr}setp.lt.s32 %p2, %r20, {bound};\n@%p2 bra $LOOP;\n$DONE:\n{tail}ret;\n}}\n"
    return body, f"{form}, size {size}, addr tid*{b}+k*{d}+{e}, step {step}"


def twin(path, label, lo, hi):
    rc, sym, text = run(path, ["--param-range", f"1={lo}..{hi}"])
    check(rc in (0, 1, 3) and sym, f"{label}: the symbolic run: exit {rc}: {text[-400:]}")
    conc = {k: run(path, ["--param", f"1={k}"])[1] for k in range(lo, hi + 1)}
    n = unknown = 0
    for (line, claim), (v, detail) in sym.items():
        per = {k: c[(line, claim)][0] for k, c in conc.items() if (line, claim) in c and not c[(line, claim)][1].startswith("NOT RUN")}
        what = f"{label} line {line} {claim}: symbolic {v} ({detail[:240]}); concrete {sorted(set(per.values()))}"
        n += 1
        valid = {k: c for k, c in per.items() if not (claim == "conflict-free" and c == "ERROR")}
        if v == "PROVED":
            check(per and all(c == "PROVED" for c in valid.values()), what)
        elif v == "REFUTED":
            mk = KV.search(detail)
            k = int(mk.group(1)) if mk else None
            check(k is not None and lo <= k <= hi and per.get(k) in ("REFUTED", "ERROR"), what + f" (witness K {k})")
        elif v == "UNKNOWN":
            check(bool(detail.strip()), what + " (UNKNOWN without a reason)")
            unknown += 1
        else:
            check(False, what + " (ERROR)")
    return n, unknown


rng = random.Random(20261203)
checked = undecided = 0
with tempfile.TemporaryDirectory() as d:
    for i in range(N):
        text, label = kernel(rng)
        path = os.path.join(d, f"k{i}.ptx")
        with open(path, "w") as f:
            f.write(text)
        lo = rng.choice([0, 1, 3])
        n, u = twin(path, f"kernel {i} ({label}, K {lo}..{lo + 9})", lo, lo + 9)
        checked += n
        undecided += u
# Kernels nvcc compiled (tests/ptx/loops.cu): a k-loop over a free K (unrolled by 4, its trip count
# (K - 1) >> 3 + 1 a derived symbol), a grid-stride loop (its step blockDim.x * gridDim.x) and a
# double-buffered loop (stage ^= 1: periodic) are proved for every K, CTA, grid and iteration; the unbounded walk s[k] is refuted, replayed at a K past 64.
fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ptx", "loops.ptx")
for name in ("_Z6k_loopPKfPfi", "_Z11grid_stridePKfPfi", "_Z10two_stagesPKfPfi"):
    p = subprocess.run([LP, "ptx", fixture, "--kernel", name, "--block", "256"] + sum((["--claim", c] for c in CLAIMS), []), capture_output=True, text=True)
    verdicts = [VERDICT.match(x) for x in p.stdout.splitlines() if VERDICT.match(x)]
    check(p.returncode == 0 and verdicts and all(v.group(1) == "PROVED" for v in verdicts), f"{name}: every claim PROVED: {p.stdout[-800:]}")
    check("claims: every CTA of every grid" in p.stdout and (name != "_Z6k_loopPKfPfi" or any("every iteration of the loop at line" in v.group(3) for v in verdicts)),
          f"{name}: the domain names every CTA, grid and iteration: {p.stdout[:600]}")
p = subprocess.run([LP, "ptx", fixture, "--kernel", "_Z4walkPfi", "--block", "256", "--claim", "in-bounds"], capture_output=True, text=True)
refuted = [VERDICT.match(x) for x in p.stdout.splitlines() if x.startswith("REFUTED")]
check(p.returncode == 1 and refuted, f"walk: in-bounds REFUTED: {p.stdout[-800:]}")
for v in refuted:
    m = re.search(r"_param_1\) = (\d+)", v.group(5))
    check(m and int(m.group(1)) > 64 and "replayed with --param 1=" in v.group(5), f"walk: the witness K is past 64 and replayed: {v.group(5)[:300]}")
print(f"{checked} verdicts over every iteration and K checked against the brute force ({undecided} UNKNOWN, each with its reason)")
if T.failures:
    print(f"{len(T.failures)} failure(s)")
    sys.exit(1)
