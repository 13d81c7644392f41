#!/usr/bin/env python3
"""layoutproof sass with a free parameter k: the SASS reader keeps a shared address computed from k
through LEA/ULEA, IMAD with a constant, IMAD.SHL/SHF.L, IADD3 (also with a carry out), LOP3 (AND
clearing known low bits, OR/XOR onto them), IMAD.WIDE's low word as an affine term in k, as the PTX
path does (docs/compiled.md "Free parameters"); the claims are then decided for every k.

1. Twin (tests/cli/symbolic_twin.py): the symbolic verdict over --param-range 1=LO..HI equals the
   concrete run with every k of LO..HI, on the SASS ptxas wrote for tests/ptx/symbolic.cu
   (tests/ptx/symbolic.sass) and on hand-written kernels computing 0x400 + 4 * (a * k + t) with each
   opcode family above.
2. What stays UNKNOWN says why: the high word of a 64-bit sum (LEA.HI.X). (k >> 1 is a derived symbol: decided.)
3. The figure: of the verdicts that depend on a free parameter over a SASS corpus (symbolic.sass,
   the hand-written kernels, the measured corpus of tests/compiled/measured with every parameter
   left free), how many are decided (PROVED or REFUTED); at least FLOOR must be.
Usage: sass_symbolic_test.py LAYOUTPROOF REPO_ROOT
"""
import os
import sys
import tempfile

from symbolic_twin import CLAIMS, Twin

LP, ROOT = sys.argv[1], sys.argv[2]
SYM = os.path.join(ROOT, "tests/ptx/symbolic.sass")
MEASURED = os.path.join(ROOT, "tests/compiled/measured")

HEAD = '\tcode for sm_90\n\t\tFunction : _Z1kPfi\n\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"\n'


def sass(body):
    lines = [l.strip() for l in body.strip().split("\n")]
    return HEAD + "".join(f"        /*{16 * i:04x}*/                   {l} ;\n" for i, l in enumerate(lines))


# The shared window's base 0x400 as ptxas writes it, k = parameter 1 (bytes 8..11 of the buffer).
BASE = "S2R R0, SR_TID.X\nS2UR UR5, SR_CgaCtaId\nUMOV UR4, 0x400\nULEA UR4, UR5, UR4, 0x18\nLDC R1, c[0x0][0x218]\n"
# (name, body after BASE: R0 = t, R1 = k, UR4 = 0x400; its access; the shared bytes it needs)
KERNELS = [
    ("LEA (k << 5) + t, LEA to bytes", "LEA R2, R1, R0, 0x5\nLEA R3, R2, UR4, 0x2", "LDS R4, [R3]", 512),
    ("ULEA of a uniform k", "ULDC UR6, c[0x0][0x218]\nULEA UR6, UR6, UR4, 0x7\nIMAD.SHL.U32 R2, R0, 0x4, RZ", "LDS R4, [R2+UR6]", 512),
    ("IMAD k * 33 + t (a padded row)", "IMAD R2, R1, 0x21, R0\nIMAD.SHL.U32 R2, R2, 0x4, RZ", "STS [R2+UR4], R0", 33 * 4 * 4),
    ("SHF.L + LOP3 xor (32 k) ^ t", "SHF.L.U32 R2, R1, 0x5, RZ\nLOP3.LUT R3, R2, R0, RZ, 0x3c, !PT\nLEA R4, R3, UR4, 0x2", "LDS R5, [R4]", 512),
    ("LOP3 or (32 k) | t", "IMAD.SHL.U32 R2, R1, 0x20, RZ\nLOP3.LUT R3, R2, R0, RZ, 0xfc, !PT\nLEA R4, R3, UR4, 0x2", "STS [R4], R0", 512),
    ("LOP3 and: (128 k + 4 t) & ~31", "IMAD.SHL.U32 R2, R0, 0x4, RZ\nLEA R3, R1, R2, 0x7\nLOP3.LUT R4, R3, 0xffffffe0, RZ, 0xc0, !PT",
     "LDS R5, [R4+UR4]", 512),
    ("LEA with a carry out, LEA.HI.X (a 64-bit pair)", "IMAD.SHL.U32 R5, R0, 0x4, RZ\nLEA R2, P0, R1, R5, 0x7\nLEA.HI.X R3, R1, RZ, RZ, 0x7, P0",
     "LDS R6, [R2+UR4]", 512),
    ("IADD3 with a carry out, IADD3.X", "IMAD.SHL.U32 R5, R0, 0x4, RZ\nIMAD.SHL.U32 R6, R1, 0x80, RZ\nIADD3 R2, P0, R5, R6, RZ\nIADD3.X R3, RZ, RZ, RZ, P0, !PT",
     "STS [R2+UR4], R0", 512),
    ("IMAD.WIDE's low word", "IMAD.SHL.U32 R4, R0, 0x4, RZ\nMOV R5, RZ\nIMAD.WIDE R2, R1, 0x80, R4", "LDS R6, [R2+UR4]", 512),
    ("an EXIT guarded on k (a condition: the access runs where k <= 3)", "ISETP.GT.AND P0, PT, R1, 0x3, PT\n@P0 EXIT\nLEA R4, R0, UR4, 0x2",
     "LDS R5, [R4]", 512),
    ("SHF.R: k >> 1 (a derived symbol)", "SHF.R.U32.HI R2, RZ, 0x1, R1\nLEA R3, R2, R0, 0x5\nLEA R4, R3, UR4, 0x2", "LDS R5, [R4]", 512),
    ("IADD3 with a negated k", "IMAD.SHL.U32 R5, R0, 0x4, RZ\nIMAD.SHL.U32 R6, R1, 0x80, RZ\nIADD3 R2, R5, -R6, 0x180", "LDS R6, [R2+UR4]", 512),
]
# What is not affine in k stays UNKNOWN and says why.
UNDECIDED = [
    ("the high word of a 64-bit sum", "IMAD.SHL.U32 R5, R0, 0x4, RZ\nLEA R2, P0, R1, R5, 0x7\nLEA.HI.X R3, R1, RZ, RZ, 0x7, P0\nIADD3 R4, R2, R3, RZ",
     "LDS R6, [R4+UR4]", "not affine"),
]
# symbolic.sass's kernels (mangled: row_k is inside or_row_k and xor_row_k) and their shared bytes.
REAL = [("_Z11tid_times_kPfi", 4096), ("_Z14shifted_stridePfi", 512), ("_Z5row_kPfj", 512), ("_Z11byte_offsetPfi", 256),
        ("_Z9xor_row_kPfi", 512), ("_Z8or_row_kPfj", 512), ("_Z9and_row_kPfi", 512), ("_Z9ldsm_x1_kPji", 256),
        ("_Z9ldsm_x2_kPji", 512), ("_Z9stsm_x2_kPji", 512)]
FLOOR = 80  # decided symbolic verdicts of the corpus (16 before LEA/LOP3/IADD3 kept terms; docs/compiled.md)

failures = []


def twin_real():
    n = 0
    for kernel, smem in REAL:
        t = Twin(LP, "sass", extra=["--smem-bytes", str(smem)])
        n += t.twin(SYM, kernel, -3, 20, f"symbolic.sass {kernel}", unsigned=kernel.endswith("Pfj"))  # (float*, unsigned k)
        failures.extend(t.failures)
    return n


def twin_hand(d):
    n = 0
    for i, (name, body, access, smem) in enumerate(KERNELS):
        path = os.path.join(d, f"k{i}.sass")
        with open(path, "w") as f:
            f.write(sass(BASE + body + "\n" + access + "\nEXIT"))
        t = Twin(LP, "sass", extra=["--smem-bytes", str(smem)])
        _, v, out = t.run(path, "k", [])
        dep = {x: y for x, y in v.items() if "free parameter" in y[1]}
        t.check(len(dep) == len(CLAIMS) and all(y[0] in ("PROVED", "REFUTED") for y in dep.values()),
                f"{name}: every claim decided for every k: {[(x, y[0], y[1][:160]) for x, y in v.items()]}")
        n += t.twin(path, "k", -3, 12, name)
        failures.extend(t.failures)
    for i, (name, body, access, why) in enumerate(UNDECIDED):
        path = os.path.join(d, f"u{i}.sass")
        with open(path, "w") as f:
            f.write(sass(BASE + body + "\n" + access + "\nEXIT"))
        t = Twin(LP, "sass", extra=["--smem-bytes", "512"])
        rc, v, _ = t.run(path, "k", [], ["conflict-free"])
        t.check(rc == 3 and v and all(y[0] == "UNKNOWN" and why in y[1] for y in v.values()), f"{name}: UNKNOWN naming {why!r}: {v}")
        failures.extend(t.failures)
    return n


def corpus(d):
    """(file, kernel, block) of the SASS corpus, every parameter free."""
    out = [(SYM, k, "32") for k, _ in REAL] + [(SYM, "branch_on_k", "32"), (SYM, "shift_right", "32")]
    out += [(os.path.join(d, f"k{i}.sass"), "k", "32") for i in range(len(KERNELS))]
    out += [(os.path.join(d, f"u{i}.sass"), "k", "32") for i in range(len(UNDECIDED))]
    for line in open(os.path.join(MEASURED, "launches.txt")):
        f = line.split()
        if f and not line.startswith("#"):
            out.append((os.path.join(MEASURED, f[0] + ".sass"), f[1], f[2]))
    return out


def figure(d):
    """(decided, symbolic, after a branch): the verdicts that depend on a free parameter, how many
    are decided, and how many are on instructions after a branch on one (a loop bound: not decided
    symbolically, docs/compiled.md)."""
    decided = total = branch = 0
    t = Twin(LP, "sass", extra=["--smem-bytes", "65536"])
    for path, kernel, block in corpus(d):
        t.block = block
        _, v, _ = t.run(path, kernel, [])
        for verdict, rest in v.values():
            if "free parameter" in rest:
                total += 1
                decided += verdict in ("PROVED", "REFUTED")
                branch += verdict == "UNKNOWN" and "a lane stopped early" in rest
    return decided, total, branch


with tempfile.TemporaryDirectory() as d:
    n = twin_real() + twin_hand(d)
    decided, total, branch = figure(d)
print(f"{n} symbolic SASS verdicts checked against the brute force")
print(f"figure: {decided} of {total} verdicts that depend on a free parameter are decided (PROVED or REFUTED); "
      f"{branch} are after a branch on one; of the other {total - branch}, {decided} are decided")
if decided < FLOOR:
    failures.append(f"only {decided} of {total} symbolic verdicts decided (at least {FLOOR} were)")
if n < 100:
    failures.append("the twin compared too few verdicts")
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
