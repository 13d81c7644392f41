#!/usr/bin/env python3
"""ctest cli.spec_schema: the published spec schema (docs/spec.schema.json) and the loader agree.

  python3 spec_schema_test.py LAYOUTPROOF ROOT

1. The schema is a valid JSON Schema and lists exactly the keys the loader accepts at each level
   (`layoutproof check --spec-keys`), so the two cannot drift.
2. Every example spec and every good test spec (tests/cli/specs/good_*.yaml) validates and runs
   with the exit code its header states ('# expect-exit: N'; examples: one wrong claim each).
3. Every bad test spec (tests/cli/specs/bad_*.yaml; header: expect-line, expect-column, expect,
   schema: reject|accept) exits 2 with 'error: FILE:LINE:COL: ...' and a caret under the spot,
   still writes the requested --json/--junit/--sarif/--markdown files carrying the error (SARIF
   and JUnit valid against their schemas), and the schema rejects it when the header says so
   (some errors, such as an unaligned base, need the layout: the loader alone decides them).
4. Accesses that print alike get distinct, stable names; SARIF points at `source: FILE:LINE`;
   --allow-empty; write failures exit 2.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema
import yaml

BIN, ROOT = sys.argv[1], sys.argv[2]
SPECS = os.path.join(ROOT, "tests/cli/specs")
schema = json.load(open(os.path.join(ROOT, "docs/spec.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
sarif_schema = json.load(open(os.path.join(ROOT, "tests/cli/schemas/sarif-2.1.0-core.schema.json")))
junit_xsd = os.path.join(ROOT, "tests/cli/schemas/junit-10.xsd")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def header(path):
    h = {}
    for line in open(path):
        m = re.match(r"#\s*(expect-line|expect-column|expect|schema|expect-exit):\s?(.*)$", line.rstrip("\n"))
        if m:
            h[m.group(1)] = m.group(2)
    return h


# 1. Key sets: the schema's properties per level == the loader's.
rc, out, _ = run("check", "--spec-keys")
assert rc == 0, rc
loader = {line.split(":")[0]: set(line.split(":")[1].split()) for line in out.splitlines() if line.strip()}
published = {"top": set(schema["properties"])}
for level in ("layout", "access", "kernel", "smem", "copy", "compiled", "scheduler"):
    published[level] = set(schema["$defs"][level]["properties"])
if loader != published:
    fail(f"schema keys differ from the loader's: loader {loader}, schema {published}")

# 2. Good specs: valid and run as their header says.
good = [(p, 1) for p in sorted(glob.glob(os.path.join(ROOT, "examples/*.yaml")))]
good += [(p, int(header(p)["expect-exit"])) for p in sorted(glob.glob(os.path.join(SPECS, "good_*.yaml")))]
for path, want in good:
    errors = [e.message for e in validator.iter_errors(yaml.safe_load(open(path)))]
    if errors:
        fail(f"{path}: schema rejects a good spec: {errors[:3]}")
    rc, out, err = run("check", path, "--no-cache", "--no-progress")
    if rc != want:
        fail(f"{path}: exit {rc}, expected {want}: {err.strip()[:300]}")

# 3. Bad specs: exit 2, located, caret, every output written with the error.
bad = sorted(glob.glob(os.path.join(SPECS, "bad_*.yaml")))
assert len(bad) >= 20, bad
with tempfile.TemporaryDirectory() as tmp:
    for path in bad:
        h = header(path)
        name = os.path.basename(path)
        try:
            doc = yaml.safe_load(open(path))
            rejected = not validator.is_valid(doc)
        except yaml.YAMLError:
            rejected = True
        if rejected != (h["schema"] == "reject"):
            fail(f"{name}: the schema {'rejects' if rejected else 'accepts'} it, header says {h['schema']}")
        outs = {k: os.path.join(tmp, name + "." + k) for k in ("sarif", "xml", "md", "json")}
        rc, out, err = run("check", path, "--no-cache", "--no-progress", "--sarif", outs["sarif"], "--junit", outs["xml"],
                           "--markdown", outs["md"], "--json", outs["json"])
        lines = err.splitlines()
        line = int(h["expect-line"])
        if rc != 2:
            fail(f"{name}: exit {rc}, expected 2")
            continue
        loc = f"{path}:{line}:" if line else f"{path}: "
        if not lines or not lines[0].startswith("error: " + loc):
            fail(f"{name}: first stderr line {lines[:1]} does not start with 'error: {loc}'")
        if h["expect"] and h["expect"] not in err:
            fail(f"{name}: stderr lacks '{h['expect']}': {err.strip()}")
        if line:
            col = int(lines[0][len("error: " + loc):].split(":")[0])
            if "expect-column" in h and col != int(h["expect-column"]):
                fail(f"{name}: column {col}, expected {h['expect-column']}")
            src = open(path).read().split("\n")[line - 1]
            if len(lines) < 3 or lines[1] != "  " + src or lines[2] != "  " + " " * (col - 1) + "^":
                fail(f"{name}: no caret under {line}:{col}: {lines[1:3]}")
        # The outputs carry the error.
        for k, f in outs.items():
            if not os.path.exists(f):
                fail(f"{name}: --{k} file not written")
        if failures and not all(os.path.exists(f) for f in outs.values()):
            continue
        sarif = json.load(open(outs["sarif"]))
        jsonschema.Draft7Validator(sarif_schema).validate(sarif)
        inv = sarif["runs"][0]["invocations"][0]
        note = inv["toolExecutionNotifications"][0]
        if inv["executionSuccessful"] is not False or note["level"] != "error":
            fail(f"{name}: SARIF invocation {inv}")
        region = note["locations"][0]["physicalLocation"].get("region", {})
        if region.get("startLine", 0) != line:
            fail(f"{name}: SARIF notification line {region}, expected {line}")
        xml = subprocess.run(["xmllint", "--noout", "--schema", junit_xsd, outs["xml"]], capture_output=True, text=True)
        if xml.returncode != 0:
            fail(f"{name}: JUnit invalid: {xml.stderr}")
        junit = open(outs["xml"]).read()
        if junit.count("<failure") != 1 or (h["expect"] and h["expect"].replace("'", "&#39;") not in junit
                                             and h["expect"] not in junit.replace("&quot;", '"')):
            fail(f"{name}: JUnit lacks the failed case with the message")
        j = json.load(open(outs["json"]))
        if j["results"] != [] or j["error"]["location"]["line"] != line or not j["error"]["message"]:
            fail(f"{name}: JSON error object {j.get('error')}")
        if "Bad input" not in open(outs["md"]).read():
            fail(f"{name}: Markdown lacks the error")

    # 4a. Unique, stable names for accesses that print alike.
    spec = os.path.join(SPECS, "good_two_accesses.yaml")
    ids = []
    for _ in range(2):
        rc, out, _ = run("check", spec, "--no-cache", "--json", "--junit", os.path.join(tmp, "two.xml"))
        ids.append([r["id"] for r in json.loads(out)["results"]])
        cases = re.findall(r'<testcase classname="([^"]*)" name="([^"]*)"', open(os.path.join(tmp, "two.xml")).read())
        if len(set(cases)) != len(cases) or len(cases) != 3:
            fail(f"JUnit test cases are not unique: {cases}")
    if len(set(ids[0])) != len(ids[0]) or ids[0] != ids[1]:
        fail(f"check ids not unique and stable: {ids}")
    rc, out, _ = run("check", spec, "--no-cache")
    rows = [l for l in out.splitlines() if "conflict-free [" in l]
    if len({l.split("PROVED")[0] for l in rows}) != 3:
        fail(f"table rows not distinct: {rows}")

    # 4b. SARIF points at the kernel source the spec names, with the spec's line related.
    spec = os.path.join(SPECS, "good_refuted_source.yaml")
    sarif_path = os.path.join(tmp, "src.sarif")
    rc, _, _ = run("check", spec, "--no-cache", "--sarif", sarif_path)
    sarif = json.load(open(sarif_path))
    jsonschema.Draft7Validator(sarif_schema).validate(sarif)
    res = sarif["runs"][0]["results"][0]
    loc = res["locations"][0]["physicalLocation"]
    if rc != 1 or loc["artifactLocation"]["uri"] != "kernels/gemm_sm80.cu" or loc["region"]["startLine"] != 77:
        fail(f"SARIF does not point at kernels/gemm_sm80.cu:77: {loc}")
    claim_line = [i + 1 for i, l in enumerate(open(spec)) if "claims: [conflict-free]" in l][0]
    rel = res["relatedLocations"][0]["physicalLocation"]
    if not rel["artifactLocation"]["uri"].endswith("good_refuted_source.yaml") or rel["region"]["startLine"] != claim_line:
        fail(f"SARIF related location is not the claim's line {claim_line}: {rel}")

    # 4c. --allow-empty lets a spec that proves nothing pass; without it, exit 2 (tested above).
    rc, out, err = run("check", os.path.join(SPECS, "bad_proves_nothing.yaml"), "--allow-empty", "--no-cache")
    if rc != 0 or "0 claims" not in out:
        fail(f"--allow-empty: exit {rc}: {out} {err}")

    # 4d. A requested output that cannot be written is an error: exit 2, one line.
    example = os.path.join(ROOT, "examples/gemm_sm80_f16.yaml")
    for flag, target in (("--sarif", "/dev/full"), ("--junit", os.path.join(tmp, "no/such/folder/x.xml")),
                         ("--markdown", tmp)):
        rc, out, err = run("check", example, "--no-cache", flag, target)
        if rc != 2 or len(err.strip().splitlines()) != 1 or not err.startswith("error: cannot write"):
            fail(f"{flag} {target}: exit {rc}, stderr {err!r}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"spec schema: keys agree with the loader; {len(good)} good specs valid; {len(bad)} bad specs located, "
      "with every output written")
