#!/usr/bin/env bash
# `layoutproof check` on the example spec (one claim wrong on purpose): exit 1, the claim named,
# JUnit XML valid against the JUnit schema, SARIF valid against the SARIF 2.1.0 schema with the
# failing claim located on its line of the spec, Markdown and JSON written (witness structured); a
# bad spec still writes every output with the error; a write failure exits 2.
set -euo pipefail
bin="$1"; root="$2"
spec="$root/examples/gemm_sm80_f16.yaml"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

set +e
"$bin" check "$spec" --no-cache --no-progress --junit "$out/junit.xml" --sarif "$out/out.sarif" \
  --markdown "$out/comment.md" --json "$out/results.json" > "$out/stdout.txt" 2> "$out/stderr.txt"
rc=$?
set -e
[ "$rc" = 1 ] || fail "exit code $rc, expected 1 (one refuted claim)"
grep -q "sA_naive .*conflict-free .*REFUTED" "$out/stdout.txt" || fail "the refuted claim is not named"
grep -q "lanes 0 (0,0) at byte 0" "$out/stdout.txt" || fail "no witness lanes"

xmllint --noout --schema "$root/tests/cli/schemas/junit-10.xsd" "$out/junit.xml" || fail "JUnit XML invalid"
[ "$(grep -c '<testcase' "$out/junit.xml")" = "$(grep -c 'PROVED\|REFUTED' "$out/stdout.txt")" ] || fail "one test case per claim"
[ "$(grep -c '<failure' "$out/junit.xml")" = 1 ] || fail "exactly one failure expected"

/usr/bin/python3 - "$root/tests/cli/schemas/sarif-2.1.0-core.schema.json" "$out/out.sarif" "$spec" <<'PY'
import json, sys
import jsonschema
schema, sarif, spec = (json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3])
jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(sarif)
results = sarif["runs"][0]["results"]
assert len(results) == 1, results
loc = results[0]["locations"][0]["physicalLocation"]
line = loc["region"]["startLine"]
wrong = [i + 1 for i, l in enumerate(open(spec)) if "WRONG" in l]
assert loc["artifactLocation"]["uri"].endswith("gemm_sm80_f16.yaml"), loc
assert line in wrong, (line, wrong)
assert "sA_naive" in results[0]["message"]["text"]
print("SARIF valid; failing claim at line", line)
PY

grep -q "REFUTED" "$out/comment.md" || fail "Markdown lacks the refuted claim"
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['summary']['refuted']==1" "$out/results.json" || fail "JSON"

# JSON witnesses are structured: the refuted ldmatrix claim gives lanes, addresses and the bank.
/usr/bin/python3 - "$out/results.json" <<'PY' || fail "JSON witness not structured"
import json, sys
r = [r for r in json.load(open(sys.argv[1]))["results"] if r["verdict"] == "REFUTED"][0]
w = r["witness"]
assert isinstance(w, dict) and w["bank"] == 0 and len(w["lanes"]) == 8, w
assert [l["byte_address"] for l in w["lanes"]] == [128 * k for k in range(8)], w["lanes"]
assert "lanes 0 (0,0) at byte 0" in r["witness_text"]
PY

# A spec that cannot be read is bad input: exit 2 with a located message and a caret, and every
# requested output is still written, carrying the error (the workflow's upload and comment steps
# must find them).
printf 'layouts:\n  - name: x\n    layout: (8,64:(64,1)\n    claims: [bijective]\n' > "$out/bad.yaml"
rm -f "$out/junit.xml" "$out/out.sarif" "$out/comment.md" "$out/results.json"
set +e; "$bin" check "$out/bad.yaml" --no-cache --junit "$out/junit.xml" --sarif "$out/out.sarif" \
  --markdown "$out/comment.md" --json "$out/results.json" 2> "$out/bad.err"; rc=$?; set -e
[ "$rc" = 2 ] || fail "bad spec: exit $rc, expected 2"
grep -q "^error: $out/bad.yaml:3:18: expected ')'" "$out/bad.err" || fail "bad spec: no file:line:col in $(cat "$out/bad.err")"
[ "$(sed -n 3p "$out/bad.err")" = "                   ^" ] || fail "bad spec: no caret: $(cat "$out/bad.err")"
xmllint --noout --schema "$root/tests/cli/schemas/junit-10.xsd" "$out/junit.xml" || fail "bad spec: JUnit XML invalid"
grep -q '<failure message="bad input' "$out/junit.xml" || fail "bad spec: no failed JUnit case"
grep -q "Bad input" "$out/comment.md" || fail "bad spec: Markdown lacks the error"
/usr/bin/python3 - "$root/tests/cli/schemas/sarif-2.1.0-core.schema.json" "$out/out.sarif" "$out/results.json" <<'PY' || fail "bad spec: SARIF/JSON"
import json, sys
import jsonschema
sarif = json.load(open(sys.argv[2]))
jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).validate(sarif)
inv = sarif["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is False, inv
region = inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]["region"]
assert (region["startLine"], region["startColumn"]) == (3, 18), region
err = json.load(open(sys.argv[3]))["error"]
assert err["location"]["line"] == 3 and "expected" in err["message"], err
PY

# A requested output that cannot be written is an error (exit 2, one line), never a silent 0.
for target in /dev/full "$out/no/such/folder/x.sarif"; do
  set +e; "$bin" check "$spec" --no-cache --sarif "$target" > /dev/null 2> "$out/w.err"; rc=$?; set -e
  [ "$rc" = 2 ] || fail "--sarif $target: exit $rc, expected 2"
  [ "$(wc -l < "$out/w.err")" = 1 ] && grep -q "^error: cannot write SARIF to $target" "$out/w.err" || fail "--sarif $target: $(cat "$out/w.err")"
done
echo "check outputs: all assertions passed"
