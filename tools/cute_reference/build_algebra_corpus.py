#!/usr/bin/env python3
"""Builds tests/algebra_corpus/cute_corpus.txt: CuTe's own results for CUTLASS's layout-algebra unit
tests, the pycute tests and fixed-seed random cases, computed by compiling and running
algebra_reference.hpp against CUTLASS's headers (never vendored).

  build_algebra_corpus.py --cutlass DIR [--cxx nvcc|g++] [--count 3000] [--seed 13] [--jobs 2]
                          [--mix default|wide|dynamic] [--work /tmp/algebra_corpus] --out tests/algebra_corpus/cute_corpus.txt

--mix picks gen_random_cases.py's kinds: default (cute_corpus.txt, seed 13), wide (cute_corpus_wide.txt,
seed 14), dynamic (cute_corpus_dynamic.txt, seed 15: run-time ints throughout, and the pycute tests
also with run-time ints).

DIR is a CUTLASS checkout (include/ and test/). With --cxx nvcc (the default) the sources compile as
CUDA host code (nvcc -std=c++17 -x cu); g++ needs CUDA's include directories (CUDA_HOME) and is faster.
Cases CuTe refuses to compile (a static_assert) are found from the compiler's errors, by source line,
removed and recorded as `!compile-error: MESSAGE`; a case that crashes CuTe at run time (a division by
zero) is recorded as `!runtime-error`. Lines: `QUERY => RESULT` (see algebra_reference.hpp).
"""
import argparse
import concurrent.futures
import json
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_cmd(cxx, cutlass, src, exe):
    inc = ["-I" + os.path.join(cutlass, "include"), "-I" + os.path.dirname(os.path.abspath(src)), "-I" + HERE]
    if cxx == "nvcc":
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        return [nvcc, "-std=c++17", "-O1", "-x", "cu", "-w"] + inc + [src, "-o", exe]
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    inc += ["-I" + os.path.join(cuda, "include")] + ["-I" + d for d in glob.glob(os.path.join(cuda, "targets/*/include/cccl"))]
    return [cxx, "-std=c++17", "-O1", "-w", "-fmax-errors=0", "-x", "c++"] + inc + [src, "-o", exe]


def failing_lines(output, src):
    """The source lines of `src` named in the compiler's error contexts, each with its first error message.
    g++ prints a case's context (`src:N:   required from here`) before the error; nvcc prints the error
    first, then `detected during ... at line N of src`."""
    base = re.escape(os.path.basename(src))
    found, pending, last = {}, [], None
    for line in output.splitlines():
        m = re.search(r"static assertion failed(?: with)?:?\s*\"?([^\"\n]*)\"?", line)
        if not m and re.search(r"\berror\b", line):
            m = re.search(r"error:?\s*(.*)", line)
        if m:
            last = m.group(1).strip() or line.strip()
            for n in pending:
                found.setdefault(n, last)
            pending = []
        for m in re.finditer(base + r"[:(](\d+)", line):
            if "required from" in line or "In instantiation" in line or "note:" in line:
                pending.append(int(m.group(1)))
            else:
                found.setdefault(int(m.group(1)), last or "compile error")
        for m in re.finditer(r"at line (\d+) of [^\s]*" + base, line):
            found.setdefault(int(m.group(1)), last or "compile error")
    for n in pending:
        found.setdefault(n, last or "compile error")
    return found


def build_one(cxx, cutlass, src, rounds=6):
    """Compiles src, dropping the CASE lines CuTe refuses; returns (exe, [(cpp, message)]).
    Cached: a source built before (its .refused.json next to it) is not compiled again."""
    exe = src[:-3]
    record = src + ".refused.json"
    if os.path.exists(record) and os.path.exists(exe):
        return exe, [tuple(x) for x in json.load(open(record))]
    refused = []
    for _ in range(rounds):
        p = subprocess.run(compile_cmd(cxx, cutlass, src, exe), capture_output=True, text=True)
        if p.returncode == 0:
            json.dump(refused, open(record, "w"))
            return exe, refused
        lines = open(src).read().split("\n")
        bad = {n: msg for n, msg in failing_lines(p.stdout + p.stderr, src).items()
               if 0 < n <= len(lines) and lines[n - 1].startswith("CASE(")}
        if not bad:
            sys.stderr.write(p.stdout[-4000:] + p.stderr[-4000:])
            raise SystemExit("%s: compile error outside any case" % src)
        for n, msg in sorted(bad.items()):
            refused.append((lines[n - 1], msg))
            lines[n - 1] = "// refused: " + lines[n - 1]
        open(src, "w").write("\n".join(lines))
    raise SystemExit("%s: still failing after %d rounds" % (src, rounds))


def run_one(exe):
    """Runs exe, restarting after a case that crashes; returns its lines (cached in EXE.out)."""
    cache = exe + ".out"
    if os.path.exists(cache):
        return open(cache).read().split("\n")[:-1]
    count = int(subprocess.run([exe, "--count"], capture_output=True, text=True, check=True).stdout)
    out, start = [], 0
    while start < count:
        p = subprocess.run([exe, str(start)], capture_output=True, text=True)
        lines = p.stdout.split("\n")
        complete = [l for l in lines[:-1]]
        out += complete
        start += len(complete)
        if p.returncode == 0:
            break
        partial = lines[-1]
        out.append((partial.split(" => ")[0] if " => " in partial else partial) + " => !runtime-error")
        start += 1
    open(cache, "w").write("".join(l + "\n" for l in out))
    return out


def refused_source(path, refused):
    """A source printing the query of every refused case (its arguments compile; its operation does not)."""
    lines = ["// Generated by build_algebra_corpus.py: the cases CuTe refuses to compile, printed as queries.",
             '#include "algebra_reference.hpp"', ""]
    for cpp, msg in refused:
        m = re.match(r"CASE\((\w+)_case\((.*)\)\);$", cpp)
        if not m:
            continue
        op = m.group(1).replace("composition_swizzle", "composition")
        text = msg.replace("\\", "").replace('"', "'")[:120]
        lines.append('CASE(refused_case("%s", "%s", %s));' % (op, text, m.group(2)))
    lines += ["", "int main(int argc, char** argv) { return ref::run_main(argc, argv); }", ""]
    open(path, "w").write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", required=True)
    ap.add_argument("--cxx", default="nvcc")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--mix", default="default", choices=["default", "wide", "dynamic"], help="gen_random_cases.py's mix of kinds")
    ap.add_argument("--chunk", type=int, default=150)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", default="/tmp/algebra_corpus")
    ap.add_argument("--out")
    ap.add_argument("--cutlass-rev", default=None, help="the CUTLASS commit DIR holds (default: git -C DIR rev-parse)")
    ap.add_argument("--prepare-only", action="store_true", help="write the sources into --work and stop")
    ap.add_argument("--prepared", action="store_true", help="use the sources already in --work (from --prepare-only)")
    a = ap.parse_args()

    if not a.prepared:
        shutil.rmtree(a.work, ignore_errors=True)
        os.makedirs(a.work)
        subprocess.run([sys.executable, os.path.join(HERE, "extract_unit_cases.py"), a.cutlass,
                        os.path.join(a.work, "unit_cases.cu")] + (["--pycute-dynamic"] if a.mix == "dynamic" else []), check=True)
        shutil.copy(os.path.join(HERE, "algebra_extra_cases.cu"), os.path.join(a.work, "extra_cases.cu"))
        shutil.copy(os.path.join(HERE, "algebra_reference.hpp"), os.path.join(a.work, "algebra_reference.hpp"))
        subprocess.run([sys.executable, os.path.join(HERE, "gen_random_cases.py"), "--seed", str(a.seed), "--count", str(a.count),
                        "--chunk", str(a.chunk), "--mix", a.mix, a.work], check=True)
    if a.prepare_only:
        return
    sources = [os.path.join(a.work, "unit_cases.cu"), os.path.join(a.work, "extra_cases.cu")] + sorted(
        glob.glob(os.path.join(a.work, "random_*.cu")))

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        built = list(pool.map(lambda s: build_one(a.cxx, a.cutlass, s), sources))
    sections = []
    all_refused = []
    for src, (exe, refused) in zip(sources, built):
        lines = run_one(exe)
        sections.append((os.path.basename(src), lines, []))
        all_refused += refused
    refused_srcs = []
    for k in range(0, max(1, len(all_refused)), a.chunk):
        path = os.path.join(a.work, "refused_%03d.cu" % (k // a.chunk))
        if not os.path.exists(path + ".refused.json"):
            refused_source(path, all_refused[k:k + a.chunk])
        refused_srcs.append(path)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        refused_built = list(pool.map(lambda s: build_one(a.cxx, a.cutlass, s), refused_srcs))
    lines, unprintable = [], []
    for exe, bad in refused_built:
        lines += run_one(exe)
        unprintable += bad
    sections.append(("refused cases (CuTe does not compile these)", lines, unprintable))

    with open(a.out, "w") as f:
        f.write("# CuTe's own layout-algebra results (CUTLASS %s), written by tools/cute_reference/build_algebra_corpus.py\n"
                % (a.cutlass_rev or cutlass_version(a.cutlass)))
        f.write("# (--cxx %s --seed %d --count %d --mix %s). Format: QUERY => RESULT, read and printed as CuTe's text\n"
                % (a.cxx, a.seed, a.count, a.mix))
        f.write("# (layoutproof algebra --cute-text). RESULT `!violates: COND`: CuTe's result breaks the definition COND;\n")
        f.write("# `!runtime-error`: CuTe crashes; `!compile-error: MESSAGE`: CuTe refuses to compile the operation (its\n")
        f.write("# arguments printed by CuTe all the same). `#! compile-error` comments: cases whose arguments do not compile.\n")
        f.write("# Regenerate: python3 tools/cute_reference/build_algebra_corpus.py --cutlass CUTLASS_DIR --cxx %s --seed %d"
                " --count %d --mix %s --out tests/algebra_corpus/%s\n" % (a.cxx, a.seed, a.count, a.mix, os.path.basename(a.out)))
        for name, lines, refused in sections:
            f.write("\n## %s\n" % name)
            for l in lines:
                f.write(l + "\n")
            for cpp, msg in refused:
                f.write("#! compile-error (%s): %s\n" % (msg.replace("\n", " ")[:160], cpp))
    total = sum(len(l) for _, l, _ in sections)
    print("%s: %d cases (%d refused at compile time, %d unprintable)" % (a.out, total, len(all_refused), len(unprintable)))


def cutlass_version(cutlass):
    try:
        return subprocess.run(["git", "-C", cutlass, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "?"
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
