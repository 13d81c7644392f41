#!/usr/bin/env bash
# `layoutproof check` on a spec's compiled: section (tests/cli/specs/good_compiled.yaml, gating the
# kernels of tests/ptx/basic.ptx): row_copy PROVED, column_read REFUTED, broadcast PROVED for every
# value of its free parameter k (a symbol: docs/compiled.md "Free parameters"). Checks:
#   - exit codes (1 refuted; 0 all proved; 3 unknown; a tiny deadline_s: 3), the table;
#   - JUnit valid, one test case per (entry, kernel, claim), the failure listing the instruction;
#   - SARIF valid, the REFUTED result located on basic.cu's line of the instruction
#     (found here by grepping basic.cu, never taken from the tool), the PTX line and the spec's
#     claim related; without .loc, the PTX line is the location;
#   - JSON valid against docs/json_output.schema.json; every compiled verdict equals `layoutproof
#     ptx`'s for the same kernel, instruction and claim (one path decides both);
#   - format from the extension (.txt is sass: PTX text in it is refused, located), `format: ptx` wins;
#   - SASS (nvdisasm -g text): SARIF on the CUDA line, verdicts equal `layoutproof sass`'s.
# Usage: compiled_check_test.sh <layoutproof> <repo root>
set -uo pipefail
BIN=${1:?usage}; ROOT=${2:?usage}
cd "$ROOT" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
SPEC=tests/cli/specs/good_compiled.yaml
P=tests/ptx/basic.ptx

"$BIN" check $SPEC --no-cache --no-progress --junit "$tmp/j.xml" --sarif "$tmp/s.sarif" --json "$tmp/r.json" \
  --markdown "$tmp/c.md" > "$tmp/out.txt" 2> "$tmp/err.txt"; rc=$?
[ $rc -eq 1 ] || fail "exit $rc, expected 1 (column_read refuted): $(cat "$tmp/err.txt")"
grep -q "^row_copy .*conflict-free \[row_copy(float const\*, float\*), basic.ptx:[0-9]* ld.shared.f32, basic.cu:14\] *PROVED" "$tmp/out.txt" ||
  fail "row_copy's load is not PROVED in the table: $(cat "$tmp/out.txt")"
grep -q "^column_read .*ld.shared.f32, basic.cu:34\] *REFUTED" "$tmp/out.txt" || fail "column_read's load is not REFUTED"
grep -q "32 wavefronts for an ideal of 1" "$tmp/out.txt" || fail "no witness for column_read"
grep -q "^broadcast .*ld.shared.f32, basic.cu:43\] *PROVED" "$tmp/out.txt" || fail "broadcast's load is not PROVED for every k"
grep -q "for every 32-bit value of parameter 1 (_Z9broadcastPfi_param_1)" "$tmp/out.txt" || fail "broadcast: no domain"
grep -q "^8 claims: 7 proved, 1 refuted, 0 unknown, 0 error" "$tmp/out.txt" || fail "summary: $(tail -1 "$tmp/out.txt")"
grep -q "REFUTED" "$tmp/c.md" || fail "Markdown lacks the refuted claim"

# JUnit: one case per (entry, kernel, claim); the column read's failure names its PTX and CUDA lines.
xmllint --noout --schema tests/cli/schemas/junit-10.xsd "$tmp/j.xml" 2>/dev/null || fail "JUnit invalid"
[ "$(grep -c '<testcase' "$tmp/j.xml")" = 4 ] || fail "JUnit: $(grep -c '<testcase' "$tmp/j.xml") cases, expected 4 (row_copy x2 claims, column_read, broadcast)"
[ "$(grep -c '<failure' "$tmp/j.xml")" = 1 ] && [ "$(grep -c '<error' "$tmp/j.xml")" = 0 ] || fail "JUnit: expected one failure, no error"
LD=$(awk '/^\.visible \.entry _Z11column_readPf/ {on = 1} on && /ld\.shared/ {print NR; exit}' $P)  # the column read's PTX line
CU=$(grep -n 'out\[t\] = s\[t \* 32\];' tests/ptx/basic.cu | cut -d: -f1)                         # and its CUDA line
BU=$(grep -n 'out\[t\] = s\[k\];' tests/ptx/basic.cu | cut -d: -f1)                                # broadcast's read
[ -n "$LD" ] && [ -n "$CU" ] && [ -n "$BU" ] || fail "fixture lines not found"
grep -q "<failure message=\"REFUTED: conflict-free \[column_read(float\*)\]\" type=\"REFUTED\">$SPEC:[0-9]*: $P:$LD (tests/ptx/basic.cu:$CU) ld.shared.f32" "$tmp/j.xml" ||
  fail "JUnit failure does not list the instruction $P:$LD (basic.cu:$CU): $(grep -A1 '<failure' "$tmp/j.xml")"

# SARIF: located on the CUDA line, the PTX line and the spec's claim related.
python3 - "$tmp/s.sarif" "$SPEC" "$P" "$LD" "$CU" "$BU" <<'PY' || fail "SARIF"
import json, sys
import jsonschema
sarif, spec, ptx, ld, cu, bu = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
doc = json.load(open(sarif))
jsonschema.Draft7Validator(json.load(open("tests/cli/schemas/sarif-2.1.0-core.schema.json"))).validate(doc)
res = doc["runs"][0]["results"]
assert [r["ruleId"] for r in res] == ["LP001"], [r["ruleId"] for r in res]
def loc(l):
    p = l["physicalLocation"]
    return p["artifactLocation"]["uri"], p["region"]["startLine"]
assert loc(res[0]["locations"][0]) == ("tests/ptx/basic.cu", cu), res[0]["locations"]
assert loc(res[0]["relatedLocations"][0]) == (ptx, ld), res[0]["relatedLocations"]
claim_lines = [i + 1 for i, l in enumerate(open(spec)) if "claims:" in l]
assert loc(res[0]["relatedLocations"][1])[0] == spec and loc(res[0]["relatedLocations"][1])[1] == claim_lines[1], res[0]
assert "column_read" in res[0]["message"]["text"] and "32 wavefronts" in res[0]["message"]["text"]
# The related PTX line really is a shared load, under a .loc of the CUDA line.
lines = open(ptx).read().split("\n")
assert "ld.shared" in lines[ld - 1], lines[ld - 1]
assert [l for l in lines[:ld] if l.strip().startswith(".loc")][-1].split()[2] == str(cu)
PY

# JSON: valid; each compiled verdict is the one `layoutproof ptx` gives for that instruction.
for k in row_copy column_read broadcast; do
  "$BIN" ptx $P --kernel $k --block 32 --claim conflict-free --claim in-bounds --json > "$tmp/ptx_$k.json"
done
python3 - "$tmp" <<'PY' || fail "JSON"
import json, sys
import jsonschema
tmp = sys.argv[1]
doc = json.load(open(tmp + "/r.json"))
jsonschema.Draft202012Validator(json.load(open("docs/json_output.schema.json"))).validate(doc)
assert len(doc["results"]) == 8, len(doc["results"])
for r in doc["results"]:
    ins = r["instruction"]
    assert r["code"]["file"] == "tests/ptx/basic.cu" and ins["ptx"]["file"] == "tests/ptx/basic.ptx", r
    ptx = json.load(open(f"{tmp}/ptx_{r['subject']}.json"))["kernels"]
    assert len(ptx) == 1 and ptx[0]["demangled"] == ins["kernel"], (ptx[0]["demangled"], ins)
    site = [i for i in ptx[0]["instructions"] if i["line"] == ins["ptx"]["line"]]
    assert len(site) == 1 and site[0]["text"] == ins["text"] and site[0]["source"] == f"{r['code']['file']}:{r['code']['line']}", (site, r)
    v = [v for v in site[0]["verdicts"] if v["claim"] == r["claim"]]
    assert len(v) == 1 and v[0]["verdict"] == r["verdict"], (v, r)
    if r["verdict"] == "REFUTED":
        assert r["witness"]["wavefronts"] == 32 and r["witness"]["banks"] == [0] * 32, r["witness"]
print("JSON: 8 results, each equal to ptx's verdict")
PY

# Exit codes: all proved 0, an unknown alone 3; a parameter by index or by name decides broadcast.
spec() {  # name, kernel, extra lines -> $tmp/NAME.yaml, the PTX copied beside it
  cp $P "$tmp/basic.ptx"
  printf 'compiled:\n  - name: %s\n    file: basic.ptx\n    kernel: %s\n    block: 32\n    claims: [conflict-free]\n%s' "$1" "$2" "$3" > "$tmp/$1.yaml"
}
expect() {  # exit, spec, what
  "$BIN" check "$tmp/$2.yaml" --no-cache --no-progress > "$tmp/$2.out" 2>&1; local rc=$?
  [ $rc -eq "$1" ] || fail "$3: exit $rc, expected $1: $(cat "$tmp/$2.out")"
}
spec proved row_copy "";                                              expect 0 proved "row_copy alone"
spec free broadcast "";                                               expect 0 free "broadcast without params (PROVED for every k)"
spec unknown stages "";                                               expect 3 unknown "stages without params (its loop bound k_tiles free)"
spec by_index broadcast '    params: {1: 5}
';                                                                    expect 0 by_index "broadcast with params: {1: 5}"
spec by_name broadcast '    params: {_Z9broadcastPfi_param_1: 0x3f}
';                                                                    expect 0 by_name "broadcast with its parameter by name"
spec late column_read '    deadline_s: 0.000001
';                                                                    expect 3 late "a deadline_s already past"
grep -q "deadline" "$tmp/late.out" || fail "deadline_s: no reason: $(cat "$tmp/late.out")"
grep -q "REFUTED" "$tmp/late.out" && fail "deadline_s: a verdict after the deadline"

# Without .loc, the PTX line is the location (the .loc lines blanked: the line numbers stay).
spec noloc column_read ""
sed -i 's/^[[:space:]]*\.loc.*$//' "$tmp/basic.ptx"
"$BIN" check "$tmp/noloc.yaml" --no-cache --no-progress --sarif "$tmp/noloc.sarif" > /dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || fail "without .loc: exit $rc"
python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]['results'][0]
p = r['locations'][0]['physicalLocation']
assert p['artifactLocation']['uri'] == sys.argv[2] and p['region']['startLine'] == int(sys.argv[3]), p
assert r['relatedLocations'][0]['physicalLocation']['artifactLocation']['uri'].endswith('noloc.yaml'), r['relatedLocations']
" "$tmp/noloc.sarif" "$tmp/basic.ptx" "$LD" || fail "without .loc: SARIF is not on the PTX line $LD"

# nvcc writes the path it was given: an absolute .file under the folder check runs in is written
# relative to it (code scanning needs repository-relative paths).
spec abs column_read ""
sed -i "s|^\(\s*\.file\s*1\s*\)\"tests/ptx/basic.cu\"|\1\"$ROOT/tests/ptx/basic.cu\"|" "$tmp/basic.ptx"
grep -q "\"$ROOT/tests/ptx/basic.cu\"" "$tmp/basic.ptx" || fail "absolute .file: the fixture was not rewritten"
"$BIN" check "$tmp/abs.yaml" --no-cache --no-progress --sarif "$tmp/abs.sarif" > /dev/null 2>&1
python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['runs'][0]['results'][0]['locations'][0]['physicalLocation']
assert p['artifactLocation']['uri'] == 'tests/ptx/basic.cu' and p['region']['startLine'] == int(sys.argv[2]), p
" "$tmp/abs.sarif" "$CU" || fail "absolute .file: SARIF is not on tests/ptx/basic.cu:$CU"

# The format: .txt is SASS (PTX text in it: exit 2, located at the file); format: ptx wins.
cp $P "$tmp/basic.txt"
printf 'compiled:\n  - name: r\n    file: basic.txt\n    kernel: row_copy\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/txt.yaml"
"$BIN" check "$tmp/txt.yaml" --no-cache > /dev/null 2> "$tmp/txt.err"; rc=$?
[ $rc -eq 2 ] && grep -q "^error: $tmp/txt.yaml:3:11: $tmp/basic.txt:[0-9]*:[0-9]*: not SASS as cuobjdump -sass or nvdisasm print it" "$tmp/txt.err" ||
  fail ".txt: exit $rc: $(cat "$tmp/txt.err")"
printf 'compiled:\n  - name: r\n    file: basic.txt\n    format: ptx\n    kernel: row_copy\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/txt.yaml"
"$BIN" check "$tmp/txt.yaml" --no-cache > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || fail "format: ptx on a .txt file: exit $rc"
# SASS gated like PTX: the measured corpus's column read is REFUTED at its /*offset*/, the row copy PROVED.
cp "$ROOT/tests/compiled/measured/hand.sass" "$tmp/hand.sass"
printf 'compiled:\n  - name: col\n    file: hand.sass\n    kernel: column_read\n    block: 32\n    claims: [conflict-free]\n  - name: row\n    file: hand.sass\n    kernel: row_copy\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/sass.yaml"
"$BIN" check "$tmp/sass.yaml" --no-cache > "$tmp/sass.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "REFUTED" "$tmp/sass.out" && grep -q "PROVED" "$tmp/sass.out" || fail "SASS entries: exit $rc: $(cat "$tmp/sass.out")"
# Each SASS entry's reproduce command is a `layoutproof sass` command that runs and gives its verdict.
(cd "$tmp" && "$BIN" check sass.yaml --no-cache --json "$tmp/sass.json" > /dev/null 2>&1)
python3 - "$tmp/sass.json" "$BIN" "$tmp" <<'PY' || fail "SASS entries' commands"
import json, shlex, subprocess, sys
doc, binary, cwd = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
cmds = {r["command"] for r in doc["results"] if r.get("command")}
assert cmds, "no command in the results"
for c in cmds:
    argv = shlex.split(c)
    assert argv[:2] == ["layoutproof", "sass"], c
    r = subprocess.run([binary] + argv[1:], cwd=cwd, capture_output=True, text=True)
    assert r.returncode in (0, 1), (c, r.returncode, r.stderr[-300:])
PY
printf 'compiled:\n  - name: r\n    file: basic.o\n    kernel: row_copy\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/o.yaml"
"$BIN" check "$tmp/o.yaml" --no-cache > /dev/null 2> "$tmp/o.err"; rc=$?
[ $rc -eq 2 ] && grep -q "names no format" "$tmp/o.err" || fail ".o: exit $rc: $(cat "$tmp/o.err")"

# SASS (tests/cli/specs/good_compiled_sass.yaml): nvdisasm -g's line info puts SARIF on the CUDA
# line, the nvdisasm line related; each verdict equals `layoutproof sass`'s for the same instruction.
SS=tests/cli/specs/good_compiled_sass.yaml
"$BIN" check $SS --no-cache --no-progress --sarif "$tmp/ss.sarif" --json "$tmp/ss.json" > "$tmp/ss.out" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "SASS spec: exit $rc: $(cat "$tmp/ss.out")"
"$BIN" sass tests/compiled/measured/hand.nvdisasm --kernel column_read --block 32 --claim conflict-free --json > "$tmp/sass_column_read.json"
"$BIN" sass tests/compiled/measured/hand.sass --kernel broadcast --block 32 --param 1=5 --claim conflict-free --json > "$tmp/sass_broadcast.json"
SLD=$(awk '/^_Z11column_readPf:/ {on = 1} on && /LDS/ {print NR; exit}' tests/compiled/measured/hand.nvdisasm)
python3 - "$tmp" "$SLD" "$CU" <<'PY' || fail "SASS: SARIF/JSON"
import json, sys
tmp, sld, cu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
doc = json.load(open(tmp + "/ss.json"))
assert [r["verdict"] for r in doc["results"]] == ["PROVED", "REFUTED", "PROVED", "PROVED"], [r["verdict"] for r in doc["results"]]
for r in doc["results"]:
    k = json.load(open(f"{tmp}/sass_{r['subject']}.json"))["kernels"][0]
    site = [i for i in k["instructions"] if i["line"] == r["instruction"]["ptx"]["line"]]
    assert len(site) == 1 and [v["verdict"] for v in site[0]["verdicts"]] == [r["verdict"]], (site, r)
res = json.load(open(tmp + "/ss.sarif"))["runs"][0]["results"]
assert len(res) == 1, res
p = res[0]["locations"][0]["physicalLocation"]
assert (p["artifactLocation"]["uri"], p["region"]["startLine"]) == ("tests/ptx/basic.cu", cu), p
q = res[0]["relatedLocations"][0]["physicalLocation"]
assert (q["artifactLocation"]["uri"], q["region"]["startLine"]) == ("tests/compiled/measured/hand.nvdisasm", sld), q
PY
# SASS text given as PTX is refused by name, located at its file: (not a puzzling PTX syntax error).
cp tests/compiled/measured/hand.sass "$tmp/hand.ptx"
printf 'compiled:\n  - name: r\n    file: hand.ptx\n    kernel: row_copy\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/sp.yaml"
"$BIN" check "$tmp/sp.yaml" --no-cache > /dev/null 2> "$tmp/sp.err"; rc=$?
[ $rc -eq 2 ] && grep -q "^error: $tmp/sp.yaml:3:11: $tmp/hand.ptx is SASS (cuobjdump -sass / nvdisasm), not PTX" "$tmp/sp.err" ||
  fail "SASS in a .ptx: exit $rc: $(cat "$tmp/sp.err")"

# A gate over nothing must not pass: a kernel without a shared-memory instruction is UNKNOWN.
printf '.version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry nothing()\n{\n\tret;\n}\n' > "$tmp/nothing.ptx"
printf 'compiled:\n  - name: n\n    file: nothing.ptx\n    kernel: nothing\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/nothing.yaml"
"$BIN" check "$tmp/nothing.yaml" --no-cache > "$tmp/nothing.out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q "UNKNOWN" "$tmp/nothing.out" && grep -q "has no lane-addressed shared-memory instruction" "$tmp/nothing.out" ||
  fail "a kernel without shared memory: exit $rc: $(cat "$tmp/nothing.out")"
# A device is not a build's output (/dev/zero would be read to the size limit).
printf 'compiled:\n  - name: z\n    file: /dev/zero\n    format: ptx\n    kernel: k\n    block: 32\n    claims: [conflict-free]\n' > "$tmp/dev.yaml"
"$BIN" check "$tmp/dev.yaml" --no-cache > /dev/null 2> "$tmp/dev.err"; rc=$?
[ $rc -eq 2 ] && grep -q "^error: $tmp/dev.yaml:3:11: '/dev/zero' is not a regular file" "$tmp/dev.err" || fail "/dev/zero: exit $rc: $(cat "$tmp/dev.err")"

# -j 2 gives the same results, in the same order.
"$BIN" check $SPEC --no-cache --no-progress -j 2 --json > "$tmp/j2.json"
python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert [(r['id'], r['verdict']) for r in a['results']] == [(r['id'], r['verdict']) for r in b['results']]
" "$tmp/r.json" "$tmp/j2.json" || fail "-j 2 differs"

# --help names the section.
"$BIN" check --help > "$tmp/help.txt"
grep -q "A \`compiled:\` section gates" "$tmp/help.txt" || fail "check --help does not mention compiled:"

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "compiled check: all assertions passed"
