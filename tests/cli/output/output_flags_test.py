#!/usr/bin/env python3
"""ctest cli.output_flags: every subcommand that decides claims takes the five output flags.

    output_flags_test.py LAYOUTPROOF ROOT

Runs prove (layout and bank claims), check, catalog, trace, ptx, sass, raster prove (a
rasterization and a scheduler), synth and synth --kernel, each once per flag: --json FILE, --junit
FILE, --sarif FILE, --markdown FILE, --report DIR. Each run must exit as the plain run does and
write its file: JSON that is the one results document with the same verdicts as stdout's --json,
JUnit XML with one test case per claim (a compiled claim: per kernel), SARIF 2.1.0 with a result per
claim not PROVED, Markdown under 60,000 characters naming the counts, an HTML summary page.
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CP = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})"
FMA = "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}"
COMMANDS = {
    "prove": ["prove", "(2,2):(1,1)", "--claim", "injective", "--claim", "contiguous:1"],
    "prove bank": ["prove", "(8,64):(64,1)", "--claim", "conflict-free", "--elem-bytes", "2", "--pattern", "ldmatrix", "--op", "ldsm4"],
    "check": ["check", os.path.join(ROOT, "examples/compiled_sm90.yaml"), "--no-cache"],
    "trace": ["trace", "--side", "D", "--element", "float", "--smem", "(128,8):(1,64)", "--copy", CP, "--claim", "conflict-free"],
    "ptx": ["ptx", os.path.join(ROOT, "tests/ptx/basic.ptx"), "--kernel", "column_read", "--block", "32", "--claim", "conflict-free",
            "--claim", "in-bounds"],
    "sass": ["sass", os.path.join(ROOT, "tests/compiled/measured/hand.sass"), "--kernel", "column_read", "--block", "32",
             "--claim", "conflict-free"],
    "raster prove": ["raster", "prove", "cutlass", "--log-tile", "2"],
    "raster prove scheduler": ["raster", "prove", "sm90-persistent", "--tiles", "3,5", "--max-swizzle", "2", "--sms", "4",
                               "--claim", "exactly-once", "--claim", "in-range"],
    "synth": ["synth", "--tile", "(8,64):(64,1)", "--elem-bytes", "2", "--pattern", "ldmatrix", "--op", "ldsm4"],
    "synth --kernel": ["synth", "--kernel", "--shape", "(128,8,3)", "--element", "float", "--mma", FMA, "--copy",
                       "S:make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)", "--copy",
                       "D:" + CP[:-1] + ", Layout<Shape<_1,_1>>{})", "--no-progress"],
}
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def run(args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)


def verdicts(doc):
    return sorted(r["verdict"] for r in doc["results"])


def check_file(name, flag, path, want):
    if flag == "--report":
        page = os.path.join(path, "index.html")
        if not os.path.isfile(page) or "<html" not in open(page, encoding="utf-8").read():
            fail(f"{name} {flag}: no HTML summary page")
        return
    if not os.path.isfile(path):
        fail(f"{name} {flag}: no file written")
        return
    text = open(path, encoding="utf-8").read()
    if flag == "--json":
        doc = json.loads(text)
        if doc.get("tool") != "layoutproof" or verdicts(doc) != verdicts(want):
            fail(f"{name} --json FILE: not the results of stdout's --json ({verdicts(doc)} vs {verdicts(want)})")
    elif flag == "--junit":
        cases = ET.fromstring(text).findall(".//testcase")
        compiled = {(r["subject"], r.get("instruction", {}).get("kernel"), r["claim"]) for r in want["results"] if "instruction" in r}
        expected = len([r for r in want["results"] if "instruction" not in r]) + len(compiled)
        if len(cases) != expected:
            fail(f"{name} --junit: {len(cases)} test cases, expected {expected}")
    elif flag == "--sarif":
        doc = json.loads(text)
        not_proved = [r for r in want["results"] if r["verdict"] not in ("PROVED", "REPORT")]
        if doc.get("version") != "2.1.0" or len(doc["runs"][0]["results"]) != len(not_proved):
            fail(f"{name} --sarif: {len(doc['runs'][0]['results'])} results, expected {len(not_proved)}")
    elif flag == "--markdown":
        s = want["summary"]
        if not text.startswith("### layoutproof") or f"{s['proved']} proved" not in text or len(text) >= 60000:
            fail(f"{name} --markdown: no heading or counts, or {len(text)} characters")


with tempfile.TemporaryDirectory() as tmp:
    for name, args in COMMANDS.items():
        plain = run(args)
        j = run(args + ["--json"])
        if j.returncode != plain.returncode:
            fail(f"{name}: --json exits {j.returncode}, the plain run {plain.returncode}")
            continue
        want = json.loads(j.stdout)
        for flag, target in (("--json", "out.json"), ("--junit", "out.xml"), ("--sarif", "out.sarif"),
                             ("--markdown", "out.md"), ("--report", "report")):
            path = os.path.join(tmp, name.replace(" ", "_") + "_" + target)
            p = run(args + [flag, path])
            if p.returncode != plain.returncode:
                fail(f"{name} {flag}: exit {p.returncode}, the plain run {plain.returncode}: {p.stderr.strip()[:200]}")
                continue
            check_file(name, flag, path, want)
    # The catalog takes them all at once (one run: it decides hundreds of claims).
    out = {f: os.path.join(tmp, "catalog" + ext) for f, ext in (("--json", ".json"), ("--junit", ".xml"), ("--sarif", ".sarif"),
                                                                 ("--markdown", ".md"), ("--report", "_report"))}
    args = ["catalog", "--no-cache", "-j", "2"]
    for f, path in out.items():
        args += [f, path]
    p = run(args)
    if p.returncode != 0:
        fail(f"catalog with every output flag: exit {p.returncode}")
    else:
        want = json.load(open(out["--json"]))
        for f, path in out.items():
            check_file("catalog", f, path, want)

if failures:
    print(f"{failures} failure(s)")
    sys.exit(1)
print(f"output flags: {len(COMMANDS)} claim-deciding commands x 5 flags, and the catalog with all five, write their files")
