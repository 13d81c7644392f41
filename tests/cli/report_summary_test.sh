#!/usr/bin/env bash
# check --report DIR: DIR/index.html lists the spec's claims per subject, failures first, each with
# its verdict and a link to its detail (a refuted bank claim: its bank map, which exists; any
# other: its entry); a subject's PROVED claims are one row unless --verbose lists each.
# Usage: report_summary_test.sh <layoutproof> <repo root>
set -u
BIN=${1:?usage: report_summary_test.sh <layoutproof> <repo root>}
ROOT=${2:?usage: report_summary_test.sh <layoutproof> <repo root>}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# By default the page is per subject, failures first, each subject's PROVED claims one row.
"$BIN" check "$ROOT/examples/gemm_sm80_f16.yaml" --no-cache --report "$tmp/c" >"$tmp/cout" 2>&1
[ $? -eq 1 ] || fail "check exit $? (want 1: sA_naive is refuted on purpose)"
grep -q '^<tr><td>1</td><td>sA_naive</td><td>conflict-free \[ldmatrix ldsm4 16 B\]</td><td class="REFUTED">' "$tmp/c/index.html" ||
  fail "the refuted claim is not the first row"
grep -q '<td>sA</td><td>[0-9]* claims</td><td class="PROVED">' "$tmp/c/index.html" || fail "sA's proved claims are not one row"
[ "$(grep -c '^<tr><td>[0-9]' "$tmp/c/index.html")" -lt "$(grep -o '^[0-9]* claims' "$tmp/cout" | grep -o '[0-9]*')" ] ||
  fail "the proved claims are not collapsed"
# --verbose: every claim its own row.
"$BIN" check "$ROOT/examples/gemm_sm80_f16.yaml" --no-cache --verbose --report "$tmp/r" >"$tmp/out" 2>&1
[ $? -eq 1 ] || fail "check --verbose exit $? (want 1)"
index=$tmp/r/index.html
rows=$(grep -c '^<tr><td>[0-9]' "$index")
claims=$(grep -o '^[0-9]* claims' "$tmp/out" | grep -o '[0-9]*')
[ "$rows" -eq "$claims" ] || fail "$rows summary rows for $claims claims"
# sB repeats sA's layout: "15 claims (14 distinct; 1 repeats an earlier claim of this run): ...", as the table says.
head=$(grep -o '^[0-9]* claims[^:]*' "$tmp/out")
grep -qF "$head: $((claims - 1)) proved, 1 refuted, 0 unknown, 0 error" "$index" || fail "no counts line ($head)"
grep -q '<td>sA_naive</td><td>conflict-free \[ldmatrix ldsm4 16 B\]</td><td class="REFUTED">' "$index" || fail "refuted row missing"
grep -q '<td>sA</td><td>bijective</td><td class="PROVED">' "$index" || fail "proved row missing"
grep -q 'href="claim1/index.html"' "$index" || fail "no link to the refuted claim's bank map"
grep -q 'lanes' "$tmp/r/claim1/index.html" || fail "the bank map has no lanes"
[ "$(grep -c 'href="#claim[0-9]*"' "$index")" -eq $((claims - 1)) ] || fail "proved claims do not link to their entries"
[ "$(grep -c '<h3 id="claim[0-9]*"' "$index")" -eq "$claims" ] || fail "not one entry per claim"
# A refuted kernel-copy claim gets the same figure `trace --report` draws, and its page's command
# cell is a trace command that, pasted as is, decides the claim alone with the same witness.
"$BIN" check "$ROOT/examples/kernels_sm80.yaml" --no-cache --report "$tmp/k" >"$tmp/kout" 2>&1
[ $? -eq 1 ] || fail "kernels check exit (want 1: CUTLASS's TF32 NT default conflicts)"
grep -q 'href="claim1/index.html"' "$tmp/k/index.html" || fail "no link to the kernel claim's figure"
page=$tmp/k/claim1/index.html
[ -f "$tmp/k/claim1/report.svg" ] || fail "no figure for the refuted kernel claim"
xmllint --noout "$tmp/k/claim1/report.svg" || fail "the kernel claim's figure is not well-formed"
grep -q 'lane 17' "$page" || fail "the figure page does not name the witness lanes"
cmd=$(sed -n 's|.*<tr><th>command</th><td><code>\(.*\)</code></td></tr>.*|\1|p' "$page" | python3 -c 'import html,sys; print(html.unescape(sys.stdin.read()).strip())')
case "$cmd" in "layoutproof trace "*) ;; *) fail "the command cell is not a trace command: $cmd";; esac
rerun=$(cd "$ROOT" && eval "\"$BIN\" ${cmd#layoutproof }" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "the command cell's command exits $rc (want 1): $rerun"
grep -q "^REFUTED  conflict-free .*lane 0 (thread 0, (0,0,0)) at byte 0 word 0, lane 17 (thread 17, (4,1,0)) at byte 128 word 32" <<<"$rerun" ||
  fail "the command cell's command does not give the same witness: $rerun"
echo "check --report: $claims claims listed with verdicts and details; the kernel claim's figure re-runs from its command cell"
