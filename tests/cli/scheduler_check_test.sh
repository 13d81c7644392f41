#!/usr/bin/env bash
# `layoutproof check` on a spec's schedulers: section (examples/schedulers_sm90.yaml): an
# sm90-persistent entry PROVED, CUTLASS's grouped scheduler REFUTED (it drops a tile), a stream-K
# entry PROVED, balance shown as REPORT. Checks:
#   - exit codes (1 refuted; 0 proved; balance alone 0 whatever it measures; a past deadline_s 3);
#   - the table and its summary;
#   - JUnit valid, one case per claim, the failure naming the dropped tile, found here independently
#     from `raster trace --json` (the one tile no CTA visits), and the configuration; a report's
#     case passes with its measurement in <system-out>;
#   - SARIF valid, one result, located at the refuted claim's line and column in the spec;
#   - JSON valid against docs/json_output.schema.json; each result's `command` run alone gives the
#     same verdict (and balance) as check;
#   - a witness names the CTA and iteration (in-range), and a domain's smallest failing configuration;
#   - the verdict cache: PROVED reused, REPORT and REFUTED decided again, another query not reused;
#   - -j 2 gives the same results; the HTML report and the Markdown comment show REPORT.
# Usage: scheduler_check_test.sh <layoutproof> <repo root>
set -uo pipefail
BIN=${1:?usage}; ROOT=${2:?usage}
cd "$ROOT" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
SPEC=examples/schedulers_sm90.yaml

"$BIN" check $SPEC --no-cache --no-progress --junit "$tmp/j.xml" --sarif "$tmp/s.sarif" --json "$tmp/r.json" \
  --markdown "$tmp/c.md" --report "$tmp/rep" > "$tmp/out.txt" 2> "$tmp/err.txt"; rc=$?
[ $rc -eq 1 ] || fail "exit $rc, expected 1 (grouped_gemm refuted): $(cat "$tmp/err.txt")"
grep -q "^gemm_128x128_cluster2x1 *exactly-once \[sm90-persistent\] *PROVED" "$tmp/out.txt" || fail "persistent exactly-once not PROVED: $(cat "$tmp/out.txt")"
grep -q "^gemm_128x128_cluster2x1 *balance \[sm90-persistent\] *REPORT" "$tmp/out.txt" || fail "balance is not shown as REPORT"
grep -q "^gemm_128x128_cluster2x1 *balance .*PROVED" "$tmp/out.txt" && fail "balance shown as PROVED"
grep -q "^grouped_gemm *exactly-once \[sm90-group\] *REFUTED" "$tmp/out.txt" || fail "grouped_gemm not REFUTED"
grep -q "^stream_k_5_tiles *k-exactly-once \[sm90-stream-k\] *PROVED" "$tmp/out.txt" || fail "stream-K k-exactly-once not PROVED"
grep -q "^7 claims: 4 proved, 1 refuted, 0 unknown, 0 error, 2 reported" "$tmp/out.txt" || fail "summary: $(tail -1 "$tmp/out.txt")"

# The dropped tile, found independently: the tile of the 2x3 group no CTA's loop visits.
"$BIN" raster trace sm90-group --groups 2x3 --cluster 1,1 --max-swizzle 4 --raster along-m --sms 132 --json > "$tmp/trace.json"
DROPPED=$(python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))
seen = {(w['m'], w['n']) for c in t['ctas'] for w in c['work'] if w['group'] == 0}
missing = [(m, n) for m in range(2) for n in range(3) if (m, n) not in seen]
assert len(missing) == 1, missing
print('tile (m %d, n %d, l 0) is computed by no CTA' % missing[0])
" "$tmp/trace.json") || fail "trace: no single dropped tile"
GLINE=$(awk '/name: grouped_gemm/ {on = 1} on && /claims:/ {print NR; exit}' $SPEC)  # the grouped entry's claims line
GCOL=$(awk -v l="$GLINE" 'NR == l {print index($0, "exactly-once")}' $SPEC)

# JUnit: one case per claim; the failure is the witness (tile, configuration), at the claim's line.
xmllint --noout --schema tests/cli/schemas/junit-10.xsd "$tmp/j.xml" 2>/dev/null || fail "JUnit invalid"
[ "$(grep -c '<testcase' "$tmp/j.xml")" = 7 ] || fail "JUnit: $(grep -c '<testcase' "$tmp/j.xml") cases, expected 7"
[ "$(grep -c '<failure' "$tmp/j.xml")" = 1 ] && [ "$(grep -c '<error' "$tmp/j.xml")" = 0 ] || fail "JUnit: expected one failure, no error"
grep -q "<failure message=\"REFUTED: exactly-once \[sm90-group\]\" type=\"REFUTED\">$SPEC:$GLINE: $DROPPED \[groups 2x3, cluster 1x1, max swizzle 4, raster along-m, 132 SMs\]" "$tmp/j.xml" ||
  fail "JUnit failure is not '$DROPPED' at $SPEC:$GLINE: $(grep '<failure' "$tmp/j.xml")"
[ "$(grep -c '<system-out>REPORT: ' "$tmp/j.xml")" = 2 ] || fail "JUnit: the two balance reports lack their measurement"

# SARIF: the one refuted claim, located at its line and column in the spec.
python3 - "$tmp/s.sarif" "$SPEC" "$GLINE" "$GCOL" "$DROPPED" <<'PY' || fail "SARIF"
import json, sys
import jsonschema
sarif, spec, line, col, dropped = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
doc = json.load(open(sarif))
jsonschema.Draft7Validator(json.load(open("tests/cli/schemas/sarif-2.1.0-core.schema.json"))).validate(doc)
res = doc["runs"][0]["results"]
assert [r["ruleId"] for r in res] == ["LP001"], res
p = res[0]["locations"][0]["physicalLocation"]
assert (p["artifactLocation"]["uri"], p["region"]["startLine"], p["region"]["startColumn"]) == (spec, line, col), p
assert "grouped_gemm: exactly-once [sm90-group]" in res[0]["message"]["text"] and dropped in res[0]["message"]["text"], res[0]
PY

# JSON: valid; each result's command, run alone, gives the same verdict (and the same balance).
python3 - "$BIN" "$tmp/r.json" <<'PY' || fail "JSON"
import json, shlex, subprocess, sys
import jsonschema
bin, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
jsonschema.Draft202012Validator(json.load(open("docs/json_output.schema.json"))).validate(doc)
assert doc["summary"]["proved"] == 4 and doc["summary"]["reported"] == 2 and doc["summary"]["refuted"] == 1, doc["summary"]
assert [r["verdict"] for r in doc["results"]] == ["PROVED", "PROVED", "REPORT", "REFUTED", "PROVED", "PROVED", "REPORT"], doc["results"]
for r in doc["results"]:
    argv = shlex.split(r["command"])
    assert argv[:3] == ["layoutproof", "raster", "prove"] and argv[-2:] == ["--claim", r["claim"]], r["command"]
    alone = json.loads(subprocess.run([bin] + argv[1:] + ["--json"], capture_output=True, text=True).stdout)["results"][0]
    assert alone["verdict"] == r["verdict"], (alone, r)
    assert ("balance" in r) == (r["claim"] == "balance"), r
    if "balance" in r:
        assert abs(alone["balance"] - r["balance"]) < 1e-9, (alone, r)
    if r["verdict"] == "REFUTED":
        assert r["witness"]["points"] and r["witness"]["why"] == alone["witness"]["why"], (r["witness"], alone["witness"])
print("JSON: 7 results, each equal to its command's")
PY

# More entries, each in its own spec: name, body, expected exit.
entry() {  # name, body lines -> $tmp/NAME.yaml
  printf 'schedulers:\n  - name: %s\n%s' "$1" "$2" > "$tmp/$1.yaml"
}
expect() {  # exit, name, what
  "$BIN" check "$tmp/$2.yaml" --no-cache --no-progress --json > "$tmp/$2.json" 2> "$tmp/$2.err"; local rc=$?
  [ $rc -eq "$1" ] || fail "$3: exit $rc, expected $1: $(cat "$tmp/$2.json" "$tmp/$2.err")"
}
witness() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['results'][0]['witness_text'])" "$tmp/$1.json"; }
fixed='    kind: sm90-persistent
    tiles: 3x5
    cluster: "1x1"
    max_swizzle: 2
    raster: along-n
    sms: 4
'
entry persistent "$fixed    claims: [exactly-once]
";                                                                    expect 0 persistent "a fixed sm90-persistent configuration"
entry balance_only "$fixed    claims: [balance]
";                                                                    expect 0 balance_only "balance alone (a report never fails)"
# in-range: the swizzle of 2 rounds 3x5 up to 4x6; the witness names the CTA and its iteration.
entry rounding "$fixed    claims: [in-range]
";                                                                    expect 1 rounding "in-range over a rounded-up problem"
W=$(witness rounding)
echo "$W" | grep -Eq "^CTA [0-9]+ at iteration [0-9]+ computes tile \(m [0-9]+, n [0-9]+, l 0\), outside the 3x5x1 problem .*\[tiles 3x5x1, cluster 1x1, max swizzle 2, raster along-n, 4 SMs\]" ||
  fail "in-range witness: $W"
# A domain: the free parameters' smallest failing configuration, the one `raster prove` names.
entry domain '    kind: sm90-persistent
    tiles: [32, 16]
    claims: [exactly-once]
';                                                                    expect 1 domain "free cluster, swizzle, raster, SMs"
W=$(witness domain)
"$BIN" raster prove sm90-persistent --tiles 32,16,1 --claim exactly-once > "$tmp/domain.cli"
grep -qF "witness: ${W%%; missing*}" "$tmp/domain.cli" || fail "domain witness differs from raster prove's: $W / $(cat "$tmp/domain.cli")"
echo "$W" | grep -q "1 SMs\]" || fail "domain witness is not the smallest (1 SM) configuration: $W"
entry stream_k '    kind: sm90-stream-k
    tiles: [5, 1, 1]
    k_tiles: 20
    splits: 2
    decomposition: split-k
    cluster: [1, 1]
    max_swizzle: 1
    raster: along-n
    sms: 4
    claims: [k-exactly-once, exactly-once, in-range]
';                                                                    expect 0 stream_k "stream-K split-K 2"
entry late '    kind: sm90-persistent
    claims: [exactly-once]
    deadline_s: 0.000001
';                                                                    expect 3 late "a deadline_s already past"
grep -q '"verdict":"UNKNOWN"' "$tmp/late.json" && grep -q "deadline of 1e-06 s reached" "$tmp/late.json" || fail "deadline_s: $(cat "$tmp/late.json")"

# The cache: PROVED reused; REPORT and REFUTED decided again; another query is another key.
"$BIN" check $SPEC --cache "$tmp/cache" --no-progress --json > "$tmp/c1.json"
"$BIN" check $SPEC --cache "$tmp/cache" --no-progress --json > "$tmp/c2.json"
sed 's/sms: 132/sms: 131/' $SPEC > "$tmp/other.yaml"
"$BIN" check "$tmp/other.yaml" --cache "$tmp/cache" --no-progress --json > "$tmp/c3.json"
python3 - "$tmp" <<'PY' || fail "cache"
import json, sys
tmp = sys.argv[1]
runs = [json.load(open(f"{tmp}/c{k}.json"))["results"] for k in (1, 2, 3)]
cached = [[r["method"].startswith("cached: ") for r in rs] for rs in runs]
assert not any(cached[0]), cached[0]
assert cached[1] == [r["verdict"] == "PROVED" for r in runs[1]], cached[1]  # REPORT and REFUTED not cached
assert [r["verdict"] for r in runs[0]] == [r["verdict"] for r in runs[1]]
# 131 SMs: the persistent and grouped entries are other queries; the stream-K entry (4 SMs) is the same.
assert cached[2] == [False, False, False, False, True, True, False], cached[2]
PY

# -j 2: the same results in the same order.
"$BIN" check $SPEC --no-cache --no-progress -j 2 --json > "$tmp/j2.json"
python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert [(r['id'], r['verdict']) for r in a['results']] == [(r['id'], r['verdict']) for r in b['results']]
" "$tmp/r.json" "$tmp/j2.json" || fail "-j 2 differs"

# The HTML report and the Markdown comment.
grep -q '<b class="REPORT">REPORT</b>' "$tmp/rep/index.html" || fail "report: no REPORT"
grep -qF "command: <code>layoutproof raster prove sm90-group --groups 2x3 --cluster 1,1 --max-swizzle 4 --raster along-m --sms 132 --claim exactly-once</code>" "$tmp/rep/index.html" ||
  fail "report: no command for the grouped claim"
grep -q "7 claims: 4 proved, 1 refuted, 0 unknown, 0 error, 2 reported" "$tmp/rep/index.html" || fail "report: counts"
# Per subject, failures first: the subject's line, then its failures' rows.
grep -q "^\*\*\`grouped_gemm\`\*\*: 0 proved, 1 refuted" "$tmp/c.md" || fail "Markdown: no subject line"
grep -q "| \`exactly-once \[sm90-group\]\` | REFUTED | $DROPPED" "$tmp/c.md" || fail "Markdown: no refuted row"
grep -q "| \`gemm_128x128_cluster2x1\` | \`balance \[sm90-persistent\]\` | work units per CTA: max 64, mean 64.00, max/mean 1.000" "$tmp/c.md" ||
  fail "Markdown: no balance report"

# A spec's max_tiles is the domain it asks for (the stream-K kinds once stopped at M, N <= 8, the
# group kinds at 3): the verdict names [1, 16] and [1, 4]; and its command, run alone, asks the same.
cat > "$tmp/bound.yaml" <<'EOF'
schedulers:
  - name: stream_k_16
    kind: sm90-stream-k
    cluster: [2, 1]
    sms: 132
    max_swizzle: 1
    raster: along-m
    k_tiles: 9
    decomposition: stream-k
    max_tiles: 16
    claims: [exactly-once]
  - name: groups_4
    kind: sm90-group
    cluster: [1, 1]
    max_swizzle: 4
    sms: 132
    corrected: true
    max_tiles: 4
    max_groups: 2
    claims: [exactly-once]
EOF
"$BIN" check "$tmp/bound.yaml" --no-cache --no-progress --json > "$tmp/bound.json"; rc=$?
[ $rc -eq 0 ] || fail "max_tiles spec: exit $rc"
python3 -c "
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
m = {r['subject']: r for r in d['results']}
assert 'tiles M, N in [1, 16], L in {1, 2}' in m['stream_k_16']['method'], m['stream_k_16']['method']
assert 'every list of 1 to 2 groups of M, N in [1, 4]' in m['groups_4']['method'], m['groups_4']['method']
for r in d['results']:
    out = subprocess.run([sys.argv[2]] + r['command'].split()[1:], capture_output=True, text=True).stdout
    assert r['method'] in out, (r['command'], out)
" "$tmp/bound.json" "$BIN" || fail "max_tiles spec: the domain asked for"

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "scheduler check: all assertions passed"
