#!/usr/bin/env python3
"""layoutproof ptx with a free parameter k: claims decided for every k (Z3 over affine terms) must
equal the kernel run concretely with every k of a range (--param 1=k), the exhaustive twin
(tests/cli/symbolic_twin.py).

1. tests/ptx/symbolic.ptx and basic.ptx's broadcast/stages: the verdicts the kernels' formulas
   give (broadcast PROVED conflict-free for every k, in-bounds REFUTED unless --param-range
   1=0..63; s[t*k] REFUTED with a replayed witness; a branch or loop bound on k UNKNOWN).
2. ldmatrix .x1/.x2 and stmatrix .x2 whose lanes past the row addresses (8N and up) hold a
   misaligned address outside the tile: no claim reads them, symbolic or concrete.
3. Witnesses where other warps fault: s[t*k] with two warps over a range where warp 1's lanes pass
   the 227 KiB for most k: the witness is one where the launch runs, or says that it faults.
4. Twin: for each kernel and claim, the symbolic verdict over --param-range LO..HI equals the brute
   force over every k of LO..HI, and a witness's k is one where the concrete run refutes.
5. Property: random kernels s[a*tid + b*k + c] (widths 1..16 bytes, various strides, 32- and
   16-bit parameters, mul/mad/shl/sub forms) generated as PTX, symbolic vs brute force; and with 2
   and 4 warps over k's whole range, every witness run again as printed.
Usage: ptx_symbolic_test.py LAYOUTPROOF REPO_ROOT
"""
import os
import random
import re
import subprocess
import sys
import tempfile

from symbolic_twin import CLAIMS, FAULTS, Twin

LP, ROOT = sys.argv[1], sys.argv[2]
SYM = os.path.join(ROOT, "tests/ptx/symbolic.ptx")
BASIC = os.path.join(ROOT, "tests/ptx/basic.ptx")
T = Twin(LP)
check, run, witness_k, twin = T.check, T.run, T.witness_k, T.twin


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
check(re.search(r"\n  \d+ +symbolic.cu:\d+ +1 +32 +1 ", out32) is not None, "s[t*k] with k = 32: 32 wavefronts for an ideal of 1")

# A ring stage counter (0, 1, 2, 0, ...) in a loop over a free k is neither invariant nor a
# constant step: UNKNOWN, naming why.
rc, v, out = run(BASIC, "stages", [], ["conflict-free"])
dep = [x for x in v.values() if x[0] != "PROVED"]
check(rc == 3 and dep and all(x[0] == "UNKNOWN" and "not known" in x[1] for x in dep), f"stages: UNKNOWN naming why: {v}")
# k >> 1 is a derived symbol (exact in the encoding): decided for every k, as every k decides it.
twin(SYM, "shift_right", -3, 9, "shift_right")

# A guard on k (`if (k > 3) s[t] = t;`) is a condition: the store's claims hold where it runs, for
# every k; it runs for some k.
rc, v, _ = run(SYM, "branch_on_k", [], ["conflict-free", "in-bounds"])
check(v and all(x[0] == "PROVED" for x in v.values()) and any("parameter 1" in x[1] for x in v.values()),
      f"branch_on_k: every claim PROVED for every k: {v}")
rc, v, _ = run(SYM, "branch_on_k", ["--param-range", "1=-5..3"], ["conflict-free"])
check(any(x[0] == "UNKNOWN" and x[1].startswith("NOT RUN") for x in v.values()), f"branch_on_k over -5..3: the guarded store is NOT RUN: {v}")
twin(SYM, "branch_on_k", -2, 8, "branch_on_k")

# ---- 2. ldmatrix/stmatrix: only lanes 0..8N-1 give addresses ----
for kernel in ["ldsm_x1_k", "ldsm_x2_k", "stsm_x2_k"]:
    _, v, _ = run(SYM, kernel, [])
    site = [x for x in v if x[1] == "aligned" and "16 bytes" in v[x][1]]
    check(len(site) == 1, f"{kernel}: one 16-byte matrix site")
    line = site[0][0] if site else 0
    check(v.get((line, "aligned"), ("",))[0] == "PROVED", f"{kernel}: aligned PROVED for every k (lanes past 8N are no addresses)")
    k = witness_k(v.get((line, "in-bounds"), ("", ""))[1])
    check(v.get((line, "in-bounds"), ("",))[0] == "REFUTED" and k not in (None, 0, 1), f"{kernel}: in-bounds REFUTED at a k outside 0..1 ({k})")
    _, v, _ = run(SYM, kernel, ["--param-range", "1=0..1"], ["aligned", "in-bounds"])
    check(all(v.get((line, c), ("",))[0] == "PROVED" for c in ("aligned", "in-bounds")), f"{kernel} --param-range 1=0..1: aligned, in-bounds PROVED")
    for (ln, c), (verdict, detail) in run(SYM, kernel, [])[1].items():  # every witness replays as printed
        k = witness_k(detail)
        if verdict == "REFUTED" and k is not None:
            again = run(SYM, kernel, ["--param", f"1={k}"], [c])[1].get((ln, c), ("MISSING",))[0]
            check(again == "REFUTED", f"{kernel} line {ln} {c}: witness k={k} gives {again} when run with --param 1={k}")

# ---- 3. witnesses where other warps fault: s[t*k], 64 threads (warp 1's lanes t*k*4 pass 227 KiB from k = 923) ----
T64 = Twin(LP, block="64")
_, v, _ = T64.run(SYM, "tid_times_k", ["--param-range", "1=900..1900"], ["conflict-free"])
ld = max(l for (l, _) in v)
k = witness_k(v[(ld, "conflict-free")][1])
again = T64.run(SYM, "tid_times_k", ["--param", f"1={k}"], ["conflict-free"])[1][(ld, "conflict-free")][0] if k is not None else None
check(v[(ld, "conflict-free")][0] == "REFUTED" and k is not None and k <= 922 and again == "REFUTED",
      f"s[t*k], 64 threads, k in 900..1900: the witness k={k} is one where the launch runs (concrete {again})")
_, v, _ = T64.run(SYM, "tid_times_k", ["--param-range", "1=923..1900"], ["conflict-free"])
detail = v[(ld, "conflict-free")][1]
k = witness_k(detail)
again = T64.run(SYM, "tid_times_k", ["--param", f"1={k}"], ["conflict-free"])[1][(ld, "conflict-free")] if k is not None else ("", "")
check(v[(ld, "conflict-free")][0] == "REFUTED" and FAULTS in detail and "warp 1" in detail and again[0] == "ERROR" and "warp 1" in again[1],
      f"s[t*k], 64 threads, k in 923..1900 (warp 1 always faults): the witness says so and the concrete run is ERROR there: {detail[:300]}")

# ---- 4. the exhaustive twin on the corpus ----
n = 0
# (mangled names where one kernel's name is inside another's: row_k, or_row_k, xor_row_k)
for kernel in ["tid_times_k", "shifted_stride", "_Z5row_kPfj", "byte_offset", "_Z9xor_row_kPfi", "_Z8or_row_kPfj", "and_row_k"]:
    n += twin(SYM, kernel, -3, 40, kernel, unsigned=kernel.endswith("Pfj"))  # (float*, unsigned k)
for kernel in ["ldsm_x1_k", "ldsm_x2_k", "stsm_x2_k"]:
    n += twin(SYM, kernel, -3, 20, kernel)
n += T64.twin(SYM, "tid_times_k", 910, 935, "tid_times_k, 64 threads")
n += twin(BASIC, "broadcast", 55, 70, "broadcast")

# ---- 5. property: random affine kernels ----
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

# Every witness replays as printed: random kernels of 2 and 4 warps over k's whole range (where a
# witness at which another warp's lanes pass the 227 KiB was common), each REFUTED run again with
# its --param: REFUTED, or ERROR where the witness says other issues fault there.
rng = random.Random(20261202)
witnesses = 0
with tempfile.TemporaryDirectory() as d:
    for i in range(16):
        text, _ = kernel_text(rng, i)
        path = os.path.join(d, f"w{i}.ptx")
        with open(path, "w") as f:
            f.write(text)
        tw = Twin(LP, block=str(rng.choice([64, 128])))
        for (line, claim), (v, detail) in tw.run(path, f"k{i}", [])[1].items():
            k = witness_k(detail)
            if v != "REFUTED" or k is None:
                continue
            witnesses += 1
            again = tw.run(path, f"k{i}", ["--param", f"1={k}"], [claim])[1].get((line, claim), ("MISSING",))[0]
            want = "ERROR" if FAULTS in detail else "REFUTED"
            check(again == want, f"random w{i} ({tw.block} threads) line {line} {claim}: witness k={k} gives {again}, want {want}: {detail[:200]}")
check(witnesses >= 20, f"enough witnesses replayed ({witnesses})")

print(f"{n} symbolic verdicts checked against the brute force")
check(n > 100, "the twin compared enough verdicts")
if T.failures:
    print(f"{len(T.failures)} failure(s)")
    sys.exit(1)
print("ok")
