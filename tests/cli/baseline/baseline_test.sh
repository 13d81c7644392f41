#!/usr/bin/env bash
# check --baseline OLD.json marks every result new, fixed or unchanged, and --fail-on new fails only
# on failures the baseline did not have; check --shard K/N splits a spec into parts whose union is
# the whole run. Usage: baseline_test.sh <layoutproof> <repo root>
set -u
BIN=${1:?usage: baseline_test.sh <layoutproof> <repo root>}
ROOT=$(cd "${2:?}" && pwd)
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
cd "$tmp"
cp "$ROOT/examples/gemm_sm80_f16.yaml" old.yaml
# The changed spec: sA_naive gets its swizzle (its conflict-free claim is fixed) and sA claims a
# contiguity it does not have (a new refutation).
python3 - <<'PY'
s = open('old.yaml').read()
a = s.index('  - name: sA_naive')
s = s[:a] + s[a:].replace('layout: (8,64):(64,1)', 'layout: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})', 1)
s = s.replace('claims: [bijective, contiguous:8]', 'claims: [bijective, contiguous:8, contiguous:128]', 1)
open('new.yaml', 'w').write(s)
PY
"$BIN" check old.yaml --no-cache --json old.json >/dev/null; rc=$?
[ "$rc" = 1 ] || fail "the old spec exits 1 (its one refuted claim), not $rc"
"$BIN" check old.yaml --no-cache --baseline old.json --fail-on new >out.txt; rc=$?
[ "$rc" = 0 ] || fail "the same spec against its own baseline with --fail-on new exits 0, not $rc"
grep -q "against the baseline: 0 new, 0 fixed, 15 unchanged, 0 gone" out.txt || fail "same spec: $(tail -1 out.txt)"
"$BIN" check new.yaml --no-cache --baseline old.json --json new.json >/dev/null; rc=$?
[ "$rc" = 1 ] || fail "the changed spec exits 1 (refuted claims, --fail-on any), not $rc"
python3 - <<'PY' || fail "the changed spec's marks"
import json, sys
d = json.load(open('new.json'))
b = d['summary']['baseline']
marks = {r['id']: r['change'] for r in d['results']}
ok = b['new'] == 1 and b['new_refuted'] == 1 and b['fixed'] == 1 and b['gone'] == 0 and b['unchanged'] == len(marks) - 2
ok = ok and marks['sA: contiguous:128'] == 'new' and marks['sA_naive: conflict-free [ldmatrix ldsm4 16 B]'] == 'fixed'
sys.exit(0 if ok else 1)
PY
"$BIN" check new.yaml --no-cache --baseline old.json --fail-on new >/dev/null; rc=$?
[ "$rc" = 1 ] || fail "a new refutation with --fail-on new exits 1, not $rc"
"$BIN" check old.yaml --no-cache --baseline new.json --fail-on new >out.txt; rc=$?
[ "$rc" = 1 ] || fail "back to the old spec: sA_naive's conflict was fixed in new.json, so it is new again: exit 1, not $rc"
grep -q "against the baseline: 1 new, 0 fixed, 14 unchanged, 1 gone" out.txt || fail "back to the old spec (contiguous:128 gone): $(tail -1 out.txt)"
"$BIN" check old.yaml --no-cache --fail-on new >/dev/null 2>err.txt; rc=$?
[ "$rc" = 2 ] || fail "--fail-on new without --baseline is bad input (exit 2), not $rc"
echo '{"results": [{"id": 1}]}' >bad.json
"$BIN" check old.yaml --no-cache --baseline bad.json >/dev/null 2>err.txt; rc=$?
[ "$rc" = 2 ] && grep -q "bad.json" err.txt || fail "a malformed baseline is bad input naming the file (exit $rc): $(cat err.txt)"
"$BIN" check old.yaml --no-cache --baseline missing.json >/dev/null 2>err.txt; rc=$?
[ "$rc" = 2 ] || fail "a missing baseline exits 2, not $rc"

# --shard: the parts' results are the whole run's, each exactly once, with the same verdicts.
"$BIN" check new.yaml --no-cache --json whole.json >/dev/null
for k in 1 2 3; do "$BIN" check new.yaml --no-cache --shard $k/3 --json s$k.json >/dev/null; done
python3 - <<'PY' || fail "three shards are the whole run"
import json, sys
whole = {r['id']: r['verdict'] for r in json.load(open('whole.json'))['results']}
parts = [r for k in (1, 2, 3) for r in json.load(open(f's{k}.json'))['results']]
got = {r['id']: r['verdict'] for r in parts}
sys.exit(0 if len(parts) == len(whole) and got == whole and all(len(json.load(open(f's{k}.json'))['results']) for k in (1, 2, 3)) else 1)
PY
for bad in 0/3 4/3 1/0 x 1/2000; do
  "$BIN" check new.yaml --no-cache --shard "$bad" >/dev/null 2>&1; rc=$?
  [ "$rc" = 2 ] || fail "--shard $bad is bad input (exit 2), not $rc"
done
[ "$failures" = 0 ] && echo "baseline and shard: all passed"
exit $((failures > 0))
