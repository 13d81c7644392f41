#!/usr/bin/env python3
"""ctest package.setup: README's set-up claims hold on this machine.

Usage: setup_test.py SOURCE_DIR

- README names the system (Debian 12) and scripts/setup.sh says the same; the machine running the
  tests is that system (the claim is tested where CI runs it).
- Every package scripts/setup.sh names exists in this system's package lists and is installed
  (setup.sh ran before the tests: scripts/test.sh runs it).
- Every tool a test may need (tests/lib/requires.sh's table) comes from a package setup.sh names.
- libFuzzer's runtime package matches the installed clang's major version, and ccache is installed
  (scripts/build.sh's comment relies on it).
"""
import os
import re
import shutil
import subprocess
import sys

source = os.path.abspath(sys.argv[1])
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


readme = open(os.path.join(source, "README.md")).read()
setup = open(os.path.join(source, "scripts/setup.sh")).read()
check("Debian 12" in readme.split("##")[0], "README's set-up paragraph names Debian 12")
check("Debian 12" in setup, "scripts/setup.sh names Debian 12")
osr = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$', open("/etc/os-release").read(), re.M)) if os.path.exists("/etc/os-release") else {}
if osr.get("ID") != "debian":
    print(f"SKIPPED: this machine is {osr.get('PRETTY_NAME', 'not Debian')}: README's Debian 12 claim is tested on Debian")
    sys.exit(77)
check(osr.get("VERSION_ID") == "12", f"this machine is Debian 12 ({osr.get('PRETTY_NAME')})")

body = re.search(r"PACKAGES=\((.*?)\n\)", setup, re.S).group(1)
packages = [w for line in body.splitlines() for w in line.split("#")[0].split()]
check(len(packages) >= 15, f"setup.sh names {len(packages)} packages")
# One query each for all packages (apt-cache policy: known to this system's lists; dpkg-query: installed).
policy = subprocess.run(["apt-cache", "policy"] + packages, capture_output=True, text=True).stdout
known = set(re.findall(r"^(\S+?)(?::\w+)?:\n\s+Installed: .*\n\s+Candidate: (?!\(none\))", policy, re.M))
status = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Status}\n"] + packages, capture_output=True, text=True).stdout
installed = {line.split()[0] for line in status.splitlines() if line.endswith("install ok installed")}
for p in packages:
    check(p in known, f"{p}: a Debian 12 package")
    check(p in installed, f"{p}: installed")

table = open(os.path.join(source, "tests/lib/requires.sh")).read()
for need, pkg in re.findall(r"^\s+([\w:+|]+)\) echo ([\w.-]+) ;;", table, re.M):
    check(pkg in packages, f"the tool {need} comes from {pkg}, which setup.sh installs")

if shutil.which("clang++"):
    major = subprocess.run(["clang++", "-dumpversion"], capture_output=True, text=True).stdout.split(".")[0]
    check(f"libclang-rt-{major}-dev" in packages, f"setup.sh installs libFuzzer's runtime for clang {major}")
check(shutil.which("ccache") is not None and "ccache" in packages, "ccache is installed by setup.sh")
print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failures")
sys.exit(1 if failures else 0)
