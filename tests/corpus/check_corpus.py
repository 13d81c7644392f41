#!/usr/bin/env python3
"""The corpus test: every CuTe shared-memory layout of CUTLASS's SM80/SM90/SM100 GEMM and epilogue
builders, default configurations and CuTe tutorials (tests/corpus/snippets/*.cpp, pasted as
written) goes through `layoutproof eval`, `print`, `prove` and `check`, with the constants CuTe was
compiled with given as -D NAME=EXPR (eval, print, prove) and as a spec's constants: block (check),
and must give CuTe's own results (tests/corpus/golden/*.golden, written by
tools/cute_reference/smem_corpus_reference.cu from CUTLASS's headers):

  eval    every offset L(0) .. L(size-1): the FNV-1a hash of the line, the count, the first 64
  print   the printed layout equals CuTe's (position-independent form, '_' dropped) and every table
          cell, read back in index order, equals CuTe's offset
  prove   injective and bijective give the verdicts CuTe's offsets imply
  check   a spec with constants: and the snippet as its layout proves injective (or refutes it)

Snippets listed in known_gaps.txt (NAME reason) are expected to fail (XFAIL, with the reason); one
that passes is reported so that it is taken off the list.

Usage: check_corpus.py LAYOUTPROOF CORPUS_DIR. Exit 0 when every snippet not in known_gaps.txt passes
every command."""
import json
import os
import re
import subprocess
import sys
import tempfile


def load_golden(path):
    meta, defines = {}, []
    for line in open(path):
        if not line.startswith("# "):
            continue
        key, _, value = line[2:].rstrip("\n").partition(": ")
        if key == "define":
            defines.append(value)
        else:
            meta[key] = value
    return meta, defines


def fnv1a64(text):
    h = 1469598103934665603
    for b in text.encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def d_flags(defines):
    out = []
    for d in defines:
        out += ["-D", d]
    return out


def check_eval(binary, text, defines, meta):
    r = run([binary, "eval", text] + d_flags(defines))
    if r.returncode != 0:
        return "eval exit %d: %s" % (r.returncode, r.stderr.strip())
    line = r.stdout.rstrip("\n")
    offsets = line.split(" ")
    if len(offsets) != int(meta["size"]):
        return "eval gives %d offsets, CuTe %s" % (len(offsets), meta["size"])
    first = meta["first"].split()
    if offsets[: len(first)] != first:
        return "eval's first offsets %s differ from CuTe's %s" % (" ".join(offsets[: len(first)]), " ".join(first))
    if fnv1a64(line) != meta["fnv1a64"]:
        return "eval's offsets differ from CuTe's (hash %s, CuTe %s)" % (fnv1a64(line), meta["fnv1a64"])
    return None


def table_offsets(text):
    """The offsets of print's tables in index order (column-major within a slice, slices in order)."""
    slices, current = [], None
    for line in text.splitlines():
        cells = re.findall(r"\|\s*(-?\d+)\s", line)
        if not cells:
            if line.startswith("slice ") or (current is not None and "shared-memory bank" in line):
                current = None
            continue
        if current is None:
            current = []
            slices.append(current)
        current.append([int(c) for c in cells])
    out = []
    for rows in slices:
        for n in range(len(rows[0])):
            out.extend(row[n] for row in rows)
    return out


def check_print(binary, text, defines, meta):
    r = run([binary, "print", text] + d_flags(defines))
    if r.returncode != 0:
        return "print exit %d: %s" % (r.returncode, r.stderr.strip())
    # CuTe prints an smem_ptr_flag layout as `Sw<3,4,3> o smem_ptr[16b](unset) o L` and print_layout
    # shows its element form `Sw<3,3,3> o _0 o L`: either is CuTe's; '_' (static) is dropped.
    first_line = r.stdout.split("\n", 1)[0].replace("_", "")
    cute = [meta["cute"].replace("_", ""), meta["cute_position_independent"].replace("_", "")]
    if first_line not in cute:
        return "print shows %s, CuTe %s" % (first_line, cute[1])
    cells = table_offsets(r.stdout)
    line = " ".join(str(v) for v in cells)
    if len(cells) != int(meta["size"]) or fnv1a64(line) != meta["fnv1a64"]:
        return "print's tables (%d cells) differ from CuTe's offsets" % len(cells)
    return None


def check_prove(binary, text, defines, meta):
    r = run([binary, "prove", text, "--claim", "injective", "--claim", "bijective", "--json"] + d_flags(defines))
    if r.returncode not in (0, 1):
        return "prove exit %d: %s" % (r.returncode, r.stderr.strip())
    verdicts = {x["claim"]: x["verdict"] for x in json.loads(r.stdout)["results"]}
    for claim in ("injective", "bijective"):
        want = "PROVED" if meta[claim] == "1" else "REFUTED"
        if verdicts.get(claim) != want:
            return "prove %s: %s, CuTe's offsets say %s" % (claim, verdicts.get(claim), want)
    return None


def yaml_quote(s):
    return "'" + s.replace("'", "''") + "'"


def check_spec(binary, text, defines, meta, tmp):
    spec = ["constants:"]
    for d in defines:
        name, _, expr = d.partition("=")
        spec.append("  %s: %s" % (yaml_quote(name), yaml_quote(expr)))
    if not defines:
        spec = []
    spec += ["layouts:", "  - name: %s" % meta["name"], "    layout: |"]
    spec += ["      " + l for l in text.splitlines()]
    spec += ["    claims: [injective]", ""]
    path = os.path.join(tmp, meta["name"] + ".yaml")
    with open(path, "w") as f:
        f.write("\n".join(spec))
    r = run([binary, "check", path, "--no-cache", "--no-progress"])
    want = 0 if meta["injective"] == "1" else 1
    if r.returncode != want:
        return "check exit %d (want %d): %s%s" % (r.returncode, want, r.stdout.strip()[-300:], r.stderr.strip())
    return None


def load_gaps(path):
    gaps = {}
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                name, _, reason = line.strip().partition(" ")
                gaps[name] = reason.strip()
    return gaps


def main():
    binary, corpus = sys.argv[1], sys.argv[2]
    gaps = load_gaps(os.path.join(corpus, "known_gaps.txt"))
    golden_dir = os.path.join(corpus, "golden")
    names = sorted(f[: -len(".golden")] for f in os.listdir(golden_dir) if f.endswith(".golden"))
    snippets = sorted(f[: -len(".cpp")] for f in os.listdir(os.path.join(corpus, "snippets")) if f.endswith(".cpp"))
    failures = []
    if names != snippets:
        failures.append("snippets without golden data or golden data without a snippet: %s" % sorted(set(names) ^ set(snippets)))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            meta, defines = load_golden(os.path.join(golden_dir, name + ".golden"))
            text = open(os.path.join(corpus, "snippets", name + ".cpp")).read()
            for what, f in (("eval", check_eval), ("print", check_print), ("prove", check_prove)):
                err = f(binary, text, defines, meta)
                if err:
                    failures.append("%s: %s" % (name, err))
            err = check_spec(binary, text, defines, meta, tmp)
            if err:
                failures.append("%s: check: %s" % (name, err))
    failed_names = {f.split(":")[0] for f in failures}
    for f in failures:
        name = f.split(":")[0]
        print(("XFAIL (%s) " % gaps[name] if name in gaps else "FAIL ") + f)
    for name in sorted(set(gaps) - failed_names):
        print("NOTE %s passes now: take it off tests/corpus/known_gaps.txt" % name)
    unexpected = failed_names - set(gaps)
    passed = len(names) - len(failed_names)
    print("corpus: %d snippets, %d pass eval/print/prove/check with CuTe's offsets, %d known gaps failing, %d unexpected failures"
          % (len(names), passed, len(failed_names & set(gaps)), len(unexpected)))
    return 1 if unexpected or not names else 0


if __name__ == "__main__":
    sys.exit(main())
