#!/usr/bin/env python3
"""CuTe's own verdict on random SM80-style kernel copies: the corpus of tests/kernels/cute_refusals/.

Each configuration is a smem layout (a swizzle atom tile_to_shape'd to a staged shape), a TiledCopy
(make_tiled_copy of UniversalCopy / DefaultCopy / AutoVectorizingCopy / cp.async, or
make_tiled_copy_A/B of LDSM or a register copy over an SM80 TiledMMA with an atom layout and a
Tile<> permutation), a side and an element type. Every configuration is compiled against CUTLASS's
headers as the program kernel_copy_reference.hpp describes (partition_S/D of a thread, the stage
slice, the lane addresses): one CASE line each, many per translation unit; a line the compiler
refuses is recorded with the static_assert that fired (the failing-line trick of
build_algebra_corpus.py) and removed, until the unit compiles. The program then prints CuTe's lane
addresses of every other case; the corpus keeps their count and a SHA-256 of the rows (the
golden format of tests/kernels/golden, `warp index a0 .. a31` per line), so that
tests/kernels/check_cute_refusals.py can compare layoutproof's trace with CuTe's without storing
the traces.

Usage: kernel_copy_cases.py --cutlass /work/cutlass [--count 400] [--seed 1] [--per-tu 40]
                            [--work /tmp/kcc] [--jobs 1] [--out tests/kernels/cute_refusals/cases.jsonl]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from build_algebra_corpus import compile_cmd as corpus_compile_cmd, failing_lines  # noqa: E402


def compile_cmd(cxx, cutlass, src, exe):
    """build_algebra_corpus.py's command at -O0: the units are large and run for a second."""
    return ["-O0" if x == "-O1" else x for x in corpus_compile_cmd(cxx, cutlass, src, exe)]

ELEMS = {"uint8_t": 1, "half_t": 2, "float": 4, "double": 8}
UINTS = {1: "uint8_t", 2: "uint16_t", 4: "uint32_t", 8: "uint64_t", 16: "uint128_t"}
# SM80 MMA atoms: element, (M, N, K), the copy ops a kernel pairs with them.
MMAS = [
    ("half_t", "SM80_16x8x16_F32F16F16F32_TN", (16, 8, 16),
     ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x1_LDSM_N", "SM75_U16x8_LDSM_T", "SM75_U16x4_LDSM_T",
      "SM75_U16x2_LDSM_T", "UniversalCopy<uint32_t>", "DefaultCopy", "AutoVectorizingCopy"]),
    ("tfloat32_t", "SM80_16x8x8_F32TF32TF32F32_TN", (16, 8, 8),
     ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "UniversalCopy<tfloat32_t>", "DefaultCopy"]),
    ("double", "SM80_8x8x4_F64F64F64F64_TN", (8, 8, 4), ["UniversalCopy<double>", "DefaultCopy", "AutoVectorizingCopy"]),
    ("int8_t", "SM80_16x8x32_S32S8S8S32_TN", (16, 8, 32),
     ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "UniversalCopy<uint32_t>", "DefaultCopy"]),
]
BYTES = dict(ELEMS, tfloat32_t=4, int8_t=1)
ATOMS = [(8, 1), (1, 8), (8, 8), (4, 8), (8, 4), (8, 16), (16, 8), (8, 32), (32, 8), (8, 64), (64, 8), (4, 16),
         (16, 4), (2, 32), (32, 2), (16, 2), (2, 16), (8, 2), (2, 8), (4, 4), (16, 16), (4, 32), (32, 4)]


def layout(shape, stride=None):
    s = "Shape<%s>" % ",".join("_%d" % x for x in shape)
    if stride is None:
        return "Layout<%s>{}" % s
    return "Layout<%s,Stride<%s>>{}" % (s, ",".join("_%d" % x for x in stride))


def swizzle_atom(r, rows, cols):
    """A swizzle atom over a (rows, cols) atom, K-major or MN-major; sometimes no swizzle."""
    major = r.choice(["row", "col"])
    atom = layout((rows, cols), (cols, 1) if major == "row" else (1, rows))
    if r.random() < 0.1:
        return atom
    b = r.randint(0, 3)
    m = r.randint(0, 4)
    s = r.randint(max(b, 1), 5)
    return "composition(Swizzle<%d,%d,%d>{}, %s)" % (b, m, s, atom)


def staged(r, atom_text, shape):
    stages = r.choice([None, 2, 3, 4, 3])
    dims = list(shape) + ([stages] if stages else [])
    return "tile_to_shape(%s, make_shape(%s))" % (atom_text, ",".join("Int<%d>{}" % d for d in dims))


def lcm(a, b):
    from math import gcd
    return a * b // gcd(a, b)


def g2s_case(r):
    elem = r.choice(list(ELEMS))
    eb = ELEMS[elem]
    kind = r.choice(["universal", "universal", "default", "autovec", "cpasync", "cpasync"])
    if kind == "cpasync":
        ub = r.choice([b for b in (4, 8, 16) if b >= eb])
        op, vals, side = "SM80_CP_ASYNC_CACHEALWAYS<%s>" % UINTS[ub], ub // eb, "D"
    elif kind == "universal":
        ub = r.choice([b for b in (1, 2, 4, 8, 16) if b >= eb])
        op, vals, side = "UniversalCopy<%s>" % UINTS[ub], ub // eb, r.choice("SD")
    else:
        op, vals, side = ("DefaultCopy" if kind == "default" else "AutoVectorizingCopy"), 1, r.choice("SD")
    threads = r.choice([32, 64, 128])
    tm = r.choice([d for d in (1, 2, 4, 8, 16, 32) if threads % d == 0 and threads // d <= 64])
    tn = threads // tm
    row = r.random() < 0.6
    thr = layout((tm, tn), (tn, 1) if row else (1, tm))
    mult = r.choice([1, 1, 2])
    vm, vn = (1, vals * mult) if row else (vals * mult, 1)
    val = layout((vm, vn))
    tile = (tm * vm, tn * vn)
    rows, cols = r.choice(ATOMS)
    shape = [lcm(rows, tile[0]) * r.choice([1, 1, 2, 3]), lcm(cols, tile[1]) * r.choice([1, 1, 2, 3])]
    if shape[0] * shape[1] * eb > 48 * 1024:
        return None
    smem = staged(r, swizzle_atom(r, rows, cols), shape)
    copy = "make_tiled_copy(Copy_Atom<%s, %s>{}, %s, %s)" % (op, elem, thr, val)
    return dict(element=elem, side=side, smem=smem, copy=copy, mma="")


def perm_mode(r, size, atom_extent):
    """A Tile<> mode: Underscore, the tile size, or a permutation layout (rarely not a bijection)."""
    c = r.random()
    if c < 0.3:
        return "Underscore", None
    if c < 0.7 or size % 2:
        return "_%d" % size, size
    if c < 0.93:  # (size/2, 2):(2, 1): pairs of rows interleaved (CUTLASS's f64 permutation)
        return "Layout<Shape<_%d,_2>,Stride<_2,_1>>" % (size // 2), size
    return "Layout<Shape<_%d,_2>,Stride<_1,_%d>>" % (size // 2, size), size  # not a bijection


def s2r_case(r):
    elem, atom, (m, n, k), ops = r.choice(MMAS)
    am, an = r.choice([(1, 1), (2, 1), (1, 2), (2, 2), (4, 1), (1, 4), (2, 4), (4, 2)])
    alay = layout((am, an, 1)) if r.random() < 0.7 else layout((am, an, 1), (an, 1, 1))
    f = [r.choice([1, 1, 2]) for _ in range(3)]
    pm, sm = perm_mode(r, m * am * f[0], m)
    pn, sn = perm_mode(r, n * an * f[1], n)
    pk, sk = perm_mode(r, k * f[2], k)
    tiles = [sm or m * am, sn or n * an, sk or k]
    mma = "make_tiled_mma(%s{}, %s, Tile<%s,%s,%s>{})" % (atom, alay, pm, pn, pk)
    ab = r.choice("AB")
    op = r.choice(ops)
    copy = "make_tiled_copy_%s(Copy_Atom<%s, %s>{}, mma)" % (ab, op, elem)
    mn = tiles[0] if ab == "A" else tiles[1]
    rows, cols = r.choice(ATOMS)
    shape = [lcm(rows, mn) * r.choice([1, 1, 2]), lcm(cols, tiles[2]) * r.choice([1, 1, 2])]
    if shape[0] * shape[1] * BYTES[elem] > 48 * 1024:
        return None
    smem = staged(r, swizzle_atom(r, rows, cols), shape)
    return dict(element=elem, side="S", smem=smem, copy=copy, mma=mma)


def generate(count, seed):
    r = random.Random(seed)
    cases, seen = [], set()
    while len(cases) < count:
        c = g2s_case(r) if r.random() < 0.5 else s2r_case(r)
        if not c:
            continue
        key = (c["element"], c["side"], c["smem"], c["copy"], c["mma"])
        if key in seen:
            continue
        seen.add(key)
        c["name"] = "k%04d" % len(cases)
        cases.append(c)
    return cases


# Fixed cases beside the random ones (--extra): the hostile campaign's reported copy and the Tile<>
# permutations that are not bijections, which CuTe compiles.
F16_MMA = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<%s,_32,_16>{})"
F16_SMEM = "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<64>{},Int<64>{},Int<2>{}))"
LDSM_A = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)"
EXTRA = [
    dict(name="x_double_sw213_default", element="double", side="S",
         smem="tile_to_shape(composition(Swizzle<2,1,3>{}, Layout<Shape<_8,_1>>{}), make_shape(Int<8>{},Int<4>{},Int<3>{}))",
         copy="make_tiled_copy(Copy_Atom<DefaultCopy, double>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_1,_1>>{})", mma=""),
    dict(name="x_double_sw213_universal", element="double", side="D",
         smem="tile_to_shape(composition(Swizzle<2,1,3>{}, Layout<Shape<_8,_1>>{}), make_shape(Int<8>{},Int<4>{},Int<3>{}))",
         copy="make_tiled_copy(Copy_Atom<UniversalCopy<double>, double>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_1,_1>>{})", mma=""),
    dict(name="x_double_sw213_default_4_stages", element="double", side="S",
         smem="tile_to_shape(composition(Swizzle<2,1,3>{}, Layout<Shape<_8,_1>>{}), make_shape(Int<8>{},Int<4>{},Int<4>{}))",
         copy="make_tiled_copy(Copy_Atom<DefaultCopy, double>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_1,_1>>{})", mma=""),
    dict(name="x_tile_perm_n_16x2_1_32_copy_a", element="half_t", side="S", smem=F16_SMEM, copy=LDSM_A,
         mma="make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,Layout<Shape<_16,_2>,Stride<_1,_32>>,_16>{})"),
    dict(name="x_tile_perm_16x2_1_32", element="half_t", side="S", smem=F16_SMEM, copy=LDSM_A,
         mma=F16_MMA % "Layout<Shape<_16,_2>,Stride<_1,_32>>"),
    dict(name="x_tile_perm_16x2_1_0", element="half_t", side="S", smem=F16_SMEM, copy=LDSM_A,
         mma=F16_MMA % "Layout<Shape<_16,_2>,Stride<_1,_0>>"),
    dict(name="x_tile_perm_16x2_2_1", element="half_t", side="S", smem=F16_SMEM, copy=LDSM_A,
         mma=F16_MMA % "Layout<Shape<_16,_2>,Stride<_2,_1>>"),
    dict(name="x_tile_perm_2x4x4", element="half_t", side="S", smem=F16_SMEM, copy=LDSM_A,
         mma=F16_MMA % "Layout<Shape<_2,_4,_4>,Stride<_1,_8,_2>>"),
]


def case_line(c):
    mma = ("auto mma = %s; " % c["mma"]) if c["mma"] else ""
    return 'CASE({ %skcr::run_case<\'%s\', %s>("%s", %s, %s); });' % (
        mma, c["side"], c["element"], c["name"], c["smem"], c["copy"])


def build_tu(cxx, cutlass, path, cases, rounds=12):
    """Writes and compiles one unit; returns ({name: static_assert message}, exe). Cached: a unit
    built before (its .refused.json beside it) is not compiled again; one whose build stopped after
    its executable was linked only has its refused cases compiled again, alone, for their messages."""
    exe, record = path[:-3], path + ".refused.json"
    if os.path.exists(record) and os.path.exists(exe):
        return json.load(open(record)), exe
    if os.path.exists(exe) and os.path.exists(path) and os.path.getmtime(exe) >= os.path.getmtime(path):
        names = set(re.findall(r'^// refused: CASE\(.*?kcr::run_case<[^>]*>\("(\w+)"', open(path).read(), re.M))
        again = [c for c in cases if c["name"] in names]
        refused = build_tu(cxx, cutlass, path[:-3] + "_refused.cu", again, rounds)[0] if again else {}
        json.dump(refused, open(record, "w"))
        return refused, exe
    refused = compile_unit(cxx, cutlass, path, cases, rounds)
    json.dump(refused, open(record, "w"))
    return refused, exe


def compile_unit(cxx, cutlass, path, cases, rounds):
    lines = ['#include "kernel_copy_reference.hpp"', "using namespace cute;", "#define CASE(...) __VA_ARGS__",
             "int main() {"]
    first = len(lines) + 1
    lines += [case_line(c) for c in cases]
    lines += ["return 0;", "}", ""]
    by_line = {first + i: c["name"] for i, c in enumerate(cases)}
    refused = {}
    exe = path[:-3]
    for _ in range(rounds):
        open(path, "w").write("\n".join(lines))
        p = subprocess.run(compile_cmd(cxx, cutlass, path, exe), capture_output=True, text=True)
        if p.returncode == 0:
            return refused
        bad = {n: msg for n, msg in failing_lines(p.stdout + p.stderr, path).items() if n in by_line}
        if not bad:
            sys.stderr.write((p.stdout + p.stderr)[-6000:])
            raise SystemExit("%s: compile error outside any case" % path)
        for n, msg in bad.items():
            refused[by_line[n]] = msg
            lines[n - 1] = "// refused: " + lines[n - 1]
    raise SystemExit("%s: still failing after %d rounds" % (path, rounds))


def digest_rows(rows):
    return hashlib.sha256("".join(r + "\n" for r in rows).encode()).hexdigest()


def run_exe(exe):
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split("\n")
    traces, name, rows = {}, None, []
    for line in out:
        if line.startswith("case "):
            name, rows = line[5:], []
        elif line.startswith("end "):
            traces[name] = rows
            name = None
        elif name and line.strip():
            rows.append(" ".join(line.split()))
    return traces


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", required=True)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-tu", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--work", default="/tmp/kernel_copy_cases")
    ap.add_argument("--extra", action="store_true", help="the fixed cases (EXTRA) instead of random ones")
    ap.add_argument("--out", default=os.path.join(HERE, "../../tests/kernels/cute_refusals/cases.jsonl"))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cases = [dict(c) for c in EXTRA] if a.extra else generate(a.count, a.seed)
    chunks = [cases[i:i + a.per_tu] for i in range(0, len(cases), a.per_tu)]
    paths = [os.path.join(a.work, "kcc_%03d.cu" % i) for i in range(len(chunks))]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        built = list(pool.map(lambda pc: build_tu(a.cxx, a.cutlass, pc[0], pc[1]), zip(paths, chunks)))
    for (refused, exe), chunk in zip(built, chunks):
        traces = run_exe(exe)
        for c in chunk:
            if c["name"] in refused:
                c["cute"] = "static_assert: " + refused[c["name"]]
            elif c["name"] in traces:
                c["cute"] = "compiles"
                c["rows"] = len(traces[c["name"]])
                c["sha256"] = digest_rows(traces[c["name"]])
            else:
                raise SystemExit("case %s: neither refused nor printed" % c["name"])
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        for c in cases:
            f.write(json.dumps({k: c[k] for k in ("name", "element", "side", "smem", "copy", "mma", "cute", "rows", "sha256")
                                if k in c}) + "\n")
    refusals = sum(1 for c in cases if c["cute"] != "compiles")
    print("%d cases, %d refused by CuTe, written to %s" % (len(cases), refusals, a.out))


if __name__ == "__main__":
    main()
