#!/usr/bin/env python3
"""ctest package.scripts: README's two commands do what README says, at the cost it states.

Usage: scripts_test.py SOURCE_DIR BUILD_DIR

- scripts/main.sh builds the `layoutproof` target only (no tests, benchmarks or fuzzers), then
  runs the catalog; scripts/build.sh hands the targets it is given to `cmake --build`.
- fuzz.smoke runs a fixed budget of inputs per target (FUZZ_RUNS, at most 1,000) at -O0, and
  starts first (a COST above every other test's).
- README gives the measured time of each of its two commands on a fresh clone (what it measured,
  not a target: the figure is checked to be there, the time itself is the machine's).
"""
import json
import os
import re
import subprocess
import sys

source, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def commands(path):
    """The script's command lines, comments and blank lines left out."""
    return [l.split("#")[0].strip() for l in open(os.path.join(source, path)) if l.split("#")[0].strip()]


main = commands("scripts/main.sh")
builds = [l for l in main if "scripts/build.sh" in l]
check(builds == ["bash scripts/build.sh layoutproof"], f"main.sh builds the layoutproof target only ({builds})")
check(any(l.startswith("./build/layoutproof catalog") for l in main), "main.sh runs the catalog")
build_sh = open(os.path.join(source, "scripts/build.sh")).read()
check(re.search(r'for t in "\$@"; do TARGETS\+=\(--target "\$t"\)', build_sh) is not None and
      'cmake --build build -j "$(nproc)" "${TARGETS[@]}"' in build_sh, "build.sh passes its targets to cmake --build")

tests = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True, text=True,
                                  check=True).stdout)["tests"]
fuzz = next((t for t in tests if t["name"] == "fuzz.smoke"), None)
check(fuzz is not None, "fuzz.smoke is a test")
if fuzz:
    cmd = " ".join(fuzz["command"])
    runs = re.search(r"FUZZ_RUNS=(\d+)", cmd)
    check(runs is not None and 0 < int(runs.group(1)) <= 1000, f"fuzz.smoke has a fixed budget of inputs ({cmd})")
    check("-O0" in cmd, "fuzz.smoke builds at -O0")
    cost = {p["name"]: p["value"] for p in fuzz.get("properties", [])}.get("COST", 0)
    others = [float({p["name"]: p["value"] for p in t.get("properties", [])}.get("COST", 0)) for t in tests if t is not fuzz]
    check(float(cost) > max(others + [0.0]), f"fuzz.smoke starts first (COST {cost})")

readme = open(os.path.join(source, "README.md")).read().split("## Five minutes")[0]
for what in ("main job", "test suite"):
    m = re.search(r"the " + what + r"[^.]*?takes (\d+) min(?:utes)?(?: (\d+) s)?", readme.replace("\n", " "))
    check(m is not None, f"README gives the {what}'s time on a fresh clone" + (f" ({m.group(0)})" if m else ""))
print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failures")
sys.exit(1 if failures else 0)
