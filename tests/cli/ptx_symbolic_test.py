#!/usr/bin/env python3
"""layoutproof ptx with a free parameter k: claims decided for every k (Z3 over affine terms) must
equal the kernel run concretely with every k of a range (--param 1=k), the exhaustive twin.

1. tests/ptx/symbolic.ptx and basic.ptx's broadcast/stages: the verdicts the kernels' formulas
   give (broadcast PROVED conflict-free for every k, in-bounds REFUTED unless --param-range
   1=0..63; s[t*k] REFUTED with a replayed witness; a branch or loop bound on k UNKNOWN).
2. Twin: for each kernel and claim, the symbolic verdict over --param-range LO..HI equals the brute
   force over every k of LO..HI, and a witness's k is one where the concrete run refutes.
3. Property: random kernels s[a*tid + b*k + c] (widths 1..16 bytes, various strides, 32- and
   16-bit parameters, mul/mad/shl/sub forms) generated as PTX, symbolic vs brute force.
Usage: ptx_symbolic_test.py LAYOUTPROOF REPO_ROOT
"""
import os
import random
import re
import subprocess
import sys
import tempfile

LP, ROOT = sys.argv[1], sys.argv[2]
SYM = os.path.join(ROOT, "tests/ptx/symbolic.ptx")
BASIC = os.path.join(ROOT, "tests/ptx/basic.ptx")
CLAIMS = ["conflict-free", "max-ways:2", "aligned", "in-bounds"]
VERDICT = re.compile(r"^  (PROVED|REFUTED|UNKNOWN|ERROR)  (\S+)  line (\d+): (.*)$")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(path, kernel, extra, claims=CLAIMS):
    args = [LP, "ptx", path, "--kernel", kernel, "--block", "32"] + extra
    for c in claims:
        args += ["--claim", c]
    p = subprocess.run(args, capture_output=True, text=True)
    out = {}
    for line in p.stdout.splitlines():
        m = VERDICT.match(line)
        if m:
            out[(int(m.group(3)), m.group(2))] = (m.group(1), m.group(4))
    return p.returncode, out, p.stdout


def witness_k(text):
    m = re.search(r"replayed with --param 1=(-?\d+)", text)
    return int(m.group(1)) if m else None


def twin(path, kernel, lo, hi, label):
    """The symbolic verdicts over LO..HI against the concrete ones for each k."""
    _, sym, text = run(path, kernel, ["--param-range", f"1={lo}..{hi}"])
    conc = {k: run(path, kernel, ["--param", f"1={k}"])[1] for k in range(lo, hi + 1)}
    checked = 0
    for (line, claim), (v, detail) in sym.items():
        per_k = {k: conc[k].get((line, claim), ("MISSING", ""))[0] for k in conc}
        bank = claim in ("conflict-free", "max-ways:2")
        # A bank claim says nothing about values where the access faults (the bank model's
        # precondition: the concrete run is ERROR there); aligned and in-bounds cover every value.
        valid = {k: c for k, c in per_k.items() if not (bank and c == "ERROR")}
        what = f"{label} line {line} {claim} over {lo}..{hi}: symbolic {v}, concrete {sorted(set(per_k.values()))}"
        check(all(c in ("PROVED", "REFUTED", "ERROR") for c in per_k.values()), what + " (a concrete run undecided)")
        if v == "PROVED":
            check(valid and all(c == "PROVED" for c in valid.values()), what)
        elif v == "REFUTED":
            k = witness_k(detail)
            if k is None:  # refuted by an issue that does not depend on k: every k refutes
                check(all(c == "REFUTED" for c in valid.values()), what)
            else:
                check(lo <= k <= hi and per_k.get(k) == "REFUTED", what + f" (witness k={k})")
        else:  # every kernel here is affine in k: the brute force decides, so must the symbols
            check(False, what + " (undecided though the brute force decides): " + detail)
        checked += 1
    return checked


# ---- 1. the kernels' formulas ----
rc, v, out = run(BASIC, "broadcast", [])
ld = max(l for (l, _) in v)
check(v[(ld, "conflict-free")][0] == "PROVED" and "every 32-bit value of parameter 1" in v[(ld, "conflict-free")][1],
      "broadcast: conflict-free PROVED for every k")
check(v[(ld, "aligned")][0] == "PROVED", "broadcast: aligned PROVED for every k")
k = witness_k(v[(ld, "in-bounds")][1])
check(v[(ld, "in-bounds")][0] == "REFUTED" and k is not None and (k >= 64 or k < 0), f"broadcast: in-bounds REFUTED with k outside 0..63 ({k})")
if k is not None:
    _, again, _ = run(BASIC, "broadcast", ["--param", f"1={k}"], ["in-bounds"])
    check(again[(ld, "in-bounds")][0] == "REFUTED", "broadcast: the witness k refutes when run concretely")
check(rc == 1, "broadcast: exit 1 (refuted)")
rc, v, _ = run(BASIC, "broadcast", ["--param-range", "1=0..63"])
check(all(x[0] == "PROVED" for x in v.values()) and rc == 0 and "every value 0..63 (--param-range)" in v[(ld, "in-bounds")][1],
      "broadcast --param-range 1=0..63: every claim PROVED, naming the domain")

rc, v, _ = run(SYM, "tid_times_k", [], ["conflict-free"])
ld = max(l for (l, _) in v)
k = witness_k(v[(ld, "conflict-free")][1])
check(v[(ld, "conflict-free")][0] == "REFUTED" and k is not None, "s[t*k]: conflict-free REFUTED with a witness k")
if k is not None:
    _, again, _ = run(SYM, "tid_times_k", ["--param", f"1={k}"], ["conflict-free"])
    check(again[(ld, "conflict-free")][0] == "REFUTED", f"s[t*k]: witness k={k} refutes concretely")
_, text32 = subprocess.run([LP, "ptx", SYM, "--kernel", "tid_times_k", "--block", "32", "--param", "1=32"], capture_output=True, text=True).returncode, ""
out32 = subprocess.run([LP, "ptx", SYM, "--kernel", "tid_times_k", "--block", "32", "--param", "1=32"], capture_output=True, text=True).stdout
check(re.search(r"\n  \d+ +symbolic.cu:14 +1 +32 +1 ", out32) is not None, "s[t*k] with k = 32: 32 wavefronts for an ideal of 1")

for kernel, path, why in [("stages", BASIC, "setp.lt.s32 of a value computed from a free parameter: not affine"),
                          ("branch_on_k", SYM, "setp.gt.s32 of a value computed from a free parameter: not affine"),
                          ("shift_right", SYM, "of a value computed from a free parameter: not affine")]:
    rc, v, out = run(path, kernel, [], ["conflict-free"])
    dep = [x for x in v.values() if x[0] != "PROVED"]
    check(rc == 3 and dep and all(x[0] == "UNKNOWN" and why in x[1] for x in dep), f"{kernel}: UNKNOWN naming why ({why})")

# ---- 2. the exhaustive twin on the corpus ----
n = 0
for kernel in ["tid_times_k", "shifted_stride", "row_k", "byte_offset"]:
    n += twin(SYM, kernel, -3, 40, kernel)
n += twin(BASIC, "broadcast", 55, 70, "broadcast")

# ---- 3. property: random affine kernels ----
TYPES = [(1, "u8", "%rs1", ".reg .b16 %rs<3>;"), (2, "u16", "%rs1", ".reg .b16 %rs<3>;"), (4, "f32", "%f1", ""),
         (8, "v2.f32", "{%f1, %f2}", ""), (16, "v4.f32", "{%f1, %f2, %f3, %f4}", "")]


def kernel_text(rng, i):
    width, ty, dst, regs = rng.choice(TYPES)
    a, b, c = rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 33, -1]), rng.choice([1, 2, 3, 4, 8, 32, -2]), rng.randrange(-8, 64)
    sub = rng.random() < 0.3
    pbits = rng.choice([32, 32, 16])
    size = rng.choice([256, 1024, 4096])
    align = 16
    load_k = f"ld.param.u{pbits} %r1, [k_param_1];" if pbits == 32 else "ld.param.u16 %rs2, [k_param_1];\n  cvt.u32.u16 %r1, %rs2;"
    if pbits == 16:
        regs = ".reg .b16 %rs<3>;"
    logw = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[width]
    # Words of `width` bytes: index = a*tid + b*k + c, byte = index << log2(width) (mad or shl forms).
    scale = f"shl.b32 %r6, %r5, {logw};" if rng.random() < 0.5 else f"mul.lo.s32 %r6, %r5, {width};"
    kterm = f"mad.lo.s32 %r4, %r1, {b}, %r3;" if not sub else f"mul.lo.s32 %r9, %r1, {-b};\n  sub.s32 %r4, %r3, %r9;"
    text = f""".version 8.0
.target sm_90
.address_size 64
.visible .entry k{i}(.param .u64 k_param_0, .param .u{pbits} k_param_1)
{{
  .reg .b32 %r<12>;
  .reg .f32 %f<6>;
  {regs}
  .shared .align {align} .b8 s[{size}];
  {load_k}
  mov.u32 %r2, %tid.x;
  mul.lo.s32 %r3, %r2, {a};
  {kterm}
  add.s32 %r5, %r4, {c};
  {scale}
  mov.u32 %r7, s;
  add.s32 %r8, %r7, %r6;
  ld.shared.{ty} {dst}, [%r8];
  ret;
}}
"""
    return text, pbits


# A term truncated to 16 bits (and 0xffff) whose coefficient was 65537 is P itself for a 16-bit P:
# widened again it must be 4 * P, not 4 * 65537 * P (the reduced term, not the stored one).
TRUNC = """.version 8.0
.target sm_90
.address_size 64
.visible .entry trunc(.param .u64 k_param_0, .param .u16 k_param_1)
{
  .reg .b32 %r<12>;
  .reg .b16 %rs<3>;
  .reg .f32 %f<2>;
  .shared .align 4 .b8 s[256];
  ld.param.u16 %rs2, [k_param_1];
  cvt.u32.u16 %r1, %rs2;
  mul.lo.s32 %r2, %r1, 65537;
  and.b32 %r3, %r2, 65535;
  mov.u32 %r4, %tid.x;
  add.s32 %r5, %r3, %r4;
  shl.b32 %r6, %r5, 2;
  mov.u32 %r7, s;
  add.s32 %r8, %r7, %r6;
  ld.shared.f32 %f1, [%r8];
  ret;
}
"""
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "trunc.ptx")
    with open(path, "w") as f:
        f.write(TRUNC)
    n += twin(path, "trunc", 20, 40, "trunc (a truncated term widened)")

rng = random.Random(20261201)
with tempfile.TemporaryDirectory() as d:
    for i in range(24):
        text, pbits = kernel_text(rng, i)
        path = os.path.join(d, f"k{i}.ptx")
        with open(path, "w") as f:
            f.write(text)
        lo = rng.randrange(-6, 3) if pbits == 32 else 0
        n += twin(path, f"k{i}", lo, lo + rng.randrange(8, 24), f"random k{i} ({text.splitlines()[-4].strip()})")

print(f"{n} symbolic verdicts checked against the brute force")
check(n > 100, "the twin compared enough verdicts")
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
