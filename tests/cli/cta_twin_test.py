#!/usr/bin/env python3
"""Claims over every CTA and every parameter value against their exhaustive twin.

Random PTX kernels (fixed seed) whose shared accesses are guarded by conditions over %ctaid and a
free parameter k (an early exit, an if without else, a guarded store, a condition on the CTA
alone, an if/else storing on both sides, one nested in another with divergence on %tid inside,
a branch on the CTA whose sides meet before the join),
with addresses affine in %tid, %ctaid and k. For each kernel and claim (conflict-free,
in-bounds, aligned), the symbolic verdict over every CTA of --grid G and every k of
--param-range LO..HI (and, for some, an --assume) must equal the brute force: the kernel run
concretely with every --cta c of the grid and every k (--param 1=k) where the assumption holds:
  PROVED   every concrete run where the instruction runs proves it, and one runs it;
  REFUTED  the witness CTA and k are in the domain and that concrete run refutes it;
  UNKNOWN  NOT RUN only where no concrete run runs it; anything else undecided is a failure.
A PROVED that a concrete run contradicts is the worst bug this can find. The last part checks
that an assumption no launch meets is ERROR (vacuous), and that without --grid the claims are
about every grid and say so.
Usage: cta_twin_test.py LAYOUTPROOF [KERNELS [SEED]]   (the soak: many kernels, other seeds)
"""
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symbolic_twin import Twin  # noqa: E402

LP = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 24
CLAIMS = ["conflict-free", "in-bounds", "aligned"]
CTA = re.compile(r"%ctaid\.x \(blockIdx\.x\) = (\d+)")
K = re.compile(r"parameter 1 \([^)]*\) = (-?\d+)")
T = Twin(LP, block=None)
check = T.check


def run(path, args):
    return T.run(path, "k", args, CLAIMS)


HEAD = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.reqntid {threads}, 1, 1
{{
.reg .b32 %r<24>;
.reg .pred %p<4>;
.shared .align {align} .b8 s[{size}];
mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %tid.x;
ld.param.u32 %r3, [k_param_1];
"""


def kernel(r):
    """A random kernel: a guard over (ctaid, k, tid) and an access at tid*b + ctaid*c + k*d + e words."""
    threads = r.choice([32, 64])
    width = r.choice([4, 4, 8])
    size = r.choice([512, 1024, 2048])
    a, b, c, d, e = r.choice([1, 32, 64]), r.choice([1, 2, 3, 4, 32]), r.choice([0, 1, 8, 32]), r.choice([0, 0, 1, 4]), r.choice([0, 1, 2])
    cmp = r.choice(["lt", "ge", "ne", "le"])
    form = r.choice(["exit", "if", "guard", "cta", "ifelse", "ifelse", "nested", "shared"])
    body = HEAD.format(threads=threads, align=width, size=size)
    body += f"mad.lo.s32 %r4, %r1, {a}, %r2;\n"  # i = ctaid * a + tid
    if form in ("cta", "shared"):
        body += f"setp.{cmp}.s32 %p1, %r1, %r3;\n"  # a condition on the CTA and k alone
    else:
        body += f"setp.{cmp}.s32 %p1, %r4, %r3;\n"
    body += f"mul.lo.s32 %r5, %r2, {b * width // 4};\n"
    body += f"mad.lo.s32 %r6, %r1, {c * width // 4}, %r5;\n"
    body += f"mad.lo.s32 %r7, %r3, {d}, %r6;\n"
    body += f"add.s32 %r8, %r7, {e};\n"
    body += "shl.b32 %r9, %r8, 2;\nmov.u32 %r10, s;\nadd.s32 %r11, %r10, %r9;\n"
    st = "st.shared.v2.u32 [%r11], {%r2, %r2};" if width == 8 else "st.shared.u32 [%r11], %r2;"
    ld = "ld.shared.u32 %r12, [%r10];"
    if form in ("exit", "cta"):
        body += f"@%p1 bra $EXIT;\n{st}\n{ld}\n$EXIT:\nret;\n}}\n"
    elif form == "if":
        body += f"@%p1 bra $JOIN;\n{st}\n$JOIN:\n{ld}\nret;\n}}\n"
    elif form == "shared":
        # A branch on the CTA and k whose sides meet before its join (the taken side jumps into
        # the code the other side runs next, as ptxas enters an unrolled loop's middle), the
        # other side diverging on tid first: the warp goes one way whole, each side run alone.
        st2 = st.replace("%r11", "%r14")
        body += (f"mov.u32 %r14, %r10;\n@%p1 bra $T;\n{st}\nsetp.lt.u32 %p2, %r2, 8;\n@%p2 bra $J;\n$M:\n{st2}\nbra.uni $J;\n"
                 f"$T:\nadd.s32 %r14, %r11, 4;\nbra.uni $M;\n$J:\n{ld}\nret;\n}}\n")
    elif form == "guard":
        body += f"@!%p1 {st}\n{ld}\nret;\n}}\n"
    else:
        # if/else, both sides storing: the other side's address tid*b2 + e2 words; each side
        # computes %r15 = tid*4 alike (the load after the join reads through it, known there).
        # Nested: the taken side splits again on the CTA and k, and diverges on tid concretely.
        b2, e2 = r.choice([1, 2, 4, 32]), r.choice([0, 1])
        st2 = st.replace("%r11", "%r14")
        other = (f"mul.lo.s32 %r13, %r2, {b2 * width // 4};\nadd.s32 %r13, %r13, {e2};\nshl.b32 %r13, %r13, 2;\n"
                 f"add.s32 %r14, %r10, %r13;\n{st2}\nshl.b32 %r15, %r2, 2;\n")
        taken = f"{st}\nshl.b32 %r15, %r2, 2;\n"
        if form == "nested":
            t = r.choice([0, 1, 2])
            taken = (f"setp.gt.s32 %p2, %r1, {t};\n@%p2 bra $IN;\n{st}\nbra.uni $INJ;\n$IN:\n"
                     f"setp.lt.u32 %p3, %r2, 16;\n@%p3 bra $INJ;\n{st2.replace('%r14', '%r11')}\n$INJ:\nshl.b32 %r15, %r2, 2;\n")
            b2, e2 = b2, e2
        body += f"@%p1 bra $ELSE;\n{other}bra.uni $JOIN;\n$ELSE:\n{taken}$JOIN:\nadd.s32 %r16, %r10, %r15;\nld.shared.u32 %r12, [%r16];\nret;\n}}\n"
        return body, (f"threads {threads} width {width} size {size} i=ctaid*{a}+tid, {form} {cmp}, addr tid*{b}+ctaid*{c}+k*{d}+{e}"
                      f" / tid*{b2}+{e2}")
    return body, f"threads {threads} width {width} size {size} i=ctaid*{a}+tid, {form} {cmp}, addr tid*{b}+ctaid*{c}+k*{d}+{e}"


ASSUME = [None, None, "p1 % 4 == 0", "p1 >= 2", "blockIdx.x < 2 || p1 > 5"]


def holds(assume, cta, k):
    if assume is None:
        return True
    expr = assume.replace("p1", str(k)).replace("blockIdx.x", str(cta)).replace("||", " or ").replace("&&", " and ")
    return bool(eval(expr))  # the test's own expressions: C's and Python's agree on these


def twin(path, label, grid, lo, hi, assume):
    extra = ["--assume", assume] if assume else []
    rc, sym, text = run(path, ["--grid", f"{grid},1,1", "--param-range", f"1={lo}..{hi}"] + extra)
    check(rc in (0, 1, 3) and sym, f"{label}: the symbolic run: exit {rc}: {text[-400:]}")
    launches = [(c, k) for c in range(grid) for k in range(lo, hi + 1) if holds(assume, c, k)]
    conc = {(c, k): run(path, ["--grid", f"{grid},1,1", "--cta", f"{c},0,0", "--param", f"1={k}"])[1] for c, k in launches}
    n = 0
    for (line, claim), (v, detail) in sym.items():
        runs = {x: not conc[x].get((line, claim), ("MISSING", "NOT RUN"))[1].startswith("NOT RUN") for x in conc}
        per = {x: conc[x].get((line, claim), ("MISSING", ""))[0] for x in conc if runs[x]}
        what = f"{label} line {line} {claim}: symbolic {v} ({detail[:200]}); concrete {sorted(set(per.values()))}"
        n += 1
        if not per:
            check(v == "UNKNOWN" and detail.startswith("NOT RUN"), what + " (no launch runs it)")
            continue
        valid = {x: c for x, c in per.items() if not (claim == "conflict-free" and c == "ERROR")}
        if not valid and v == "UNKNOWN" and detail.startswith("vacuous: at no value"):
            continue  # no launch makes it a valid access: the bank claim is vacuous either way (aligned decides)
        if v == "PROVED":
            check(all(c == "PROVED" for c in valid.values()), what)
        elif v == "REFUTED":
            mc, mk = CTA.search(detail), K.search(detail)
            cta = int(mc.group(1)) if mc else None
            k = int(mk.group(1)) if mk else None
            hits = [x for x in per if (cta is None or x[0] == cta) and (k is None or x[1] == k)]
            check(hits and any(per[x] in ("REFUTED", "ERROR") for x in hits), what + f" (witness CTA {cta}, k {k})")
        else:
            check(False, what + " (undecided)")
    return n


rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20261202)
checked = 0
with tempfile.TemporaryDirectory() as d:
    for i in range(N):
        text, label = kernel(rng)
        path = os.path.join(d, f"k{i}.ptx")
        with open(path, "w") as f:
            f.write(text)
        grid = rng.choice([2, 3, 4])
        lo = rng.choice([-2, 0, 30, 60])
        assume = ASSUME[i % len(ASSUME)]
        checked += twin(path, f"kernel {i} ({label}, grid {grid}, k {lo}..{lo + 5}, assume {assume})", grid, lo, lo + 5, assume)

    # An assumption no launch meets: every claim ERROR (vacuous), never PROVED.
    text, _ = kernel(random.Random(7))
    path = os.path.join(d, "v.ptx")
    with open(path, "w") as f:
        f.write(text)
    rc, v, out = run(path, ["--assume", "p1 > 8", "--assume", "p1 < 4"])
    check(rc == 3 and v and all(x[0] == "ERROR" and "vacuous" in x[1] for x in v.values()), f"contradictory assumptions: ERROR (vacuous): {out[-600:]}")
    rc, v, out = run(path, ["--param", "1=5", "--assume", "p1 % 2 == 0"])
    check(rc == 3 and v and all(x[0] == "ERROR" for x in v.values()), f"an assumption the fixed parameter breaks: ERROR: {out[-600:]}")
    # Without --grid: every CTA of every grid, said in the launch line and the verdicts' domains.
    rc, v, out = run(path, [])
    check("claims: every CTA of every grid" in out, f"no --grid: the claims are about every grid: {out[:400]}")
    # A syntax error points at its column.
    p = subprocess.run([LP, "ptx", path, "--kernel", "k", "--assume", "p1 % k == 0"], capture_output=True, text=True)
    check(p.returncode == 2 and "column 6" in p.stderr and "\n       ^" in p.stderr, f"--assume syntax error with a caret: {p.stderr}")
print(f"{checked} verdicts over every CTA and k checked against the brute force")
if T.failures:
    print(f"{len(T.failures)} failure(s)")
    sys.exit(1)
