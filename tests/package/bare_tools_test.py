#!/usr/bin/env python3
"""ctest package.bare_tools: on a machine without one of the tools a test needs, that test is
skipped with a line naming the tool and its Debian package, never failed.

Usage: bare_tools_test.py SOURCE_DIR BUILD_DIR

1. Every test whose script (or the script's inline Python) runs xmllint, chromium, python3, or imports
   jsonschema/yaml declares that need (lp_add_test in tests/lib/requires.cmake): read from
   `ctest --show-only=json-v1`, the scripts scanned here.
2. For every declared need of every test, the test's own command is run with that need hidden (a PATH
   holding every other command; a module that cannot be imported) and must exit 77 with a
   "SKIPPED: ..." line naming it. The command stops at tests/lib/requires.sh, so this is quick.
3. nvcc: compiled_property_tests with LAYOUTPROOF_NVCC=/nonexistent skips every CompiledCopy
   property with "SKIPPED: nvcc not found" (exit 0, gtest's skips).
4. clang: scripts/fuzz.sh (fuzz.smoke) without clang++ on PATH exits 77 with its SKIPPED line.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

source, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []
TOOL_PATTERNS = {
    "xmllint": r"\bxmllint\b",
    "chromium": r"\bchromium\b",
    "py:jsonschema": r"^\s*import jsonschema|^\s*from jsonschema",
    "py:yaml": r"^\s*import yaml|^\s*from yaml",
    "python3": r"\bpython3\b",
}


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def hidden_path(tmp, hide):
    """A folder of links to every command on PATH but `hide` (and its spellings), to use as PATH."""
    d = os.path.join(tmp, "bin-without-" + hide.replace("+", "p"))
    os.makedirs(d, exist_ok=True)
    names = {hide} | ({"clang", "clang++"} if hide.startswith("clang") else set()) | \
        ({"chromium", "chromium-browser"} if hide == "chromium" else set())
    for p in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(p):
            continue
        for n in os.listdir(p):
            q = os.path.join(p, n)
            if n in names or re.match(r"^(python3(\.\d+)?|clang(\+\+)?-\d+)$", n) and any(n.startswith(h) for h in names):
                continue
            if os.access(q, os.X_OK) and not os.path.exists(os.path.join(d, n)):
                os.symlink(q, os.path.join(d, n))
    return d


def env_without(tmp, need):
    env = dict(os.environ)
    if need.startswith("py:"):
        mods = os.path.join(tmp, "no-" + need[3:])
        os.makedirs(mods, exist_ok=True)
        with open(os.path.join(mods, need[3:] + ".py"), "w") as f:
            f.write("raise ImportError('hidden by bare_tools_test')\n")
        env["PYTHONPATH"] = mods
    elif need == "nvcc":
        env["LAYOUTPROOF_NVCC"] = "/nonexistent/nvcc"
        env["PATH"] = hidden_path(tmp, "nvcc")
    else:
        env["PATH"] = hidden_path(tmp, need)
    return env


tests = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                                  text=True, check=True).stdout)["tests"]
requires_sh = os.path.join(source, "tests/lib/requires.sh")
wrapped = 0
with tempfile.TemporaryDirectory() as tmp:
    for t in tests:
        cmd = t.get("command") or []
        needs = set()
        if requires_sh in cmd:
            i = cmd.index(requires_sh)
            needs = set(cmd[i + 1].split(","))
        # 1. what the test's scripts run is declared
        used = set()
        for arg in cmd:
            if arg.startswith(os.path.join(source, "tests")) and os.path.isfile(arg) and arg not in (requires_sh, os.path.abspath(__file__)):
                text = open(arg, errors="replace").read()
                used |= {n for n, rx in TOOL_PATTERNS.items() if re.search(rx, text, re.M)}
        if cmd and os.path.basename(cmd[0]).startswith("python3"):
            used.add("python3")
        if requires_sh in cmd and cmd[cmd.index(requires_sh) + 3].startswith("python3"):
            used.add("python3")
        undeclared = used - needs
        check(not undeclared, f"{t['name']}: declares every tool it runs" +
              (f" (undeclared: {', '.join(sorted(undeclared))})" if undeclared else ""))
        # 2. each declared need, hidden, skips the test with its reason
        for need in sorted(needs):
            wrapped += 1
            r = subprocess.run(cmd, cwd=build, env=env_without(tmp, need), capture_output=True, text=True,
                               timeout=60)
            word = need[3:] if need.startswith("py:") else need
            # the tool's name as a word of its own (g++ and clang++ end in non-word characters)
            ok = r.returncode == 77 and re.search(r"^SKIPPED: .*(?<![\w+])" + re.escape(word) + r"(?![\w+]).*Debian package", r.stdout, re.M)
            check(bool(ok), f"{t['name']} without {need}: exit 77 with its SKIPPED line" +
                  ("" if ok else f" (exit {r.returncode}: {(r.stdout + r.stderr)[-300:]!r})"))
        if t["name"] == "fuzz.smoke":
            r = subprocess.run(cmd, cwd=build, env=env_without(tmp, "clang++"), capture_output=True, text=True, timeout=60)
            check(r.returncode == 77 and re.search(r"^SKIPPED: clang\+\+ not found.*Debian package: clang", r.stdout, re.M),
                  f"fuzz.smoke without clang++: exit 77 with its SKIPPED line (exit {r.returncode})")
    # 3. the nvcc properties
    binary = next((t["command"][0] for t in tests if t["name"].startswith("CompiledCopy.")), None)
    check(binary is not None, "compiled_property_tests are registered")
    if binary:
        env = dict(os.environ, LAYOUTPROOF_NVCC="/nonexistent/nvcc")
        r = subprocess.run([binary, "--gtest_filter=CompiledCopy.*"], env=env, capture_output=True, text=True, timeout=120)
        n = len(re.findall(r"^SKIPPED: nvcc not found at /nonexistent/nvcc", r.stdout, re.M))
        check(r.returncode == 0 and n >= 2 and "[  FAILED  ]" not in r.stdout,
              f"compiled_property_tests without nvcc: exit 0, {n} properties skipped with their line (exit {r.returncode})")
check(wrapped >= 40, f"{wrapped} (test, need) pairs checked")
print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failures")
sys.exit(1 if failures else 0)
