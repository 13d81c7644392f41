#!/usr/bin/env bash
# --deadline-s S bounds a whole run: what is not decided by the deadline is
# UNKNOWN "deadline of S s reached", never PROVED, and the exit code is 3. Also: the summary says how
# many verdicts came from the cache. Usage: deadline_test.sh <layoutproof>
set -u
BIN=${1:?usage: deadline_test.sh <layoutproof>}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# 400 true claims, each a Z3 proof of a few ms: far more than 0.3 s of work on one job. The 200
# layouts are distinct (a run decides a repeated claim once), every one a bijection: the swizzle
# permutes each aligned block of 128 elements, and each holds 512 * a * b.
{
  echo "layouts:"
  for i in $(seq 1 200); do
    a=$((i % 20 + 1)) b=$((i / 20 + 1))
    echo "  - {name: l$i, layout: \"Sw<3,4,3> o ($((8 * a)),$((64 * b))):($((64 * b)),1)\", claims: [bijective, injective]}"
  done
} > "$tmp/many.yaml"
"$BIN" check "$tmp/many.yaml" --no-cache --no-progress --engine z3 -j 1 --deadline-s 0.3 --json > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ "$rc" = 3 ] || fail "exit $rc, want 3 (claims left UNKNOWN by the deadline): $(head -c 300 "$tmp/err")"
python3 - "$tmp/out.json" <<'PY' || fails=$((fails + 1))
import json, sys
res = json.load(open(sys.argv[1]))["results"]
kinds = [r["verdict"] for r in res]
late = [i for i, r in enumerate(res) if r["verdict"] == "UNKNOWN" and "deadline of 0.3 s reached" in r["detail"]]
assert len(res) == 400, len(res)
assert late, "no claim was cut by the deadline"
assert all(k in ("PROVED", "UNKNOWN") for k in kinds), set(kinds)
# -j 1 decides in order: after the first claim cut by the deadline, nothing is PROVED.
after = [i for i in range(late[0], len(res)) if kinds[i] == "PROVED"]
assert not after, f"PROVED after the deadline: {after[:5]}"
print(f"ok   check --deadline-s 0.3: {kinds.count('PROVED')} proved in time, {len(late)} UNKNOWN (deadline), exit 3")
PY
# prove and trace with several claims: a passed deadline leaves every claim UNKNOWN, exit 3.
out=$("$BIN" prove 'Sw<3,4,3> o (64,64):(64,1)' --claim bijective --claim injective --engine z3 --deadline-s 0.000001 2>&1); rc=$?
[ "$rc" = 3 ] && [ "$(grep -c '^UNKNOWN .*deadline of 1e-06 s reached' <<<"$out")" = 2 ] || fail "prove --deadline-s: exit $rc: $out"
CP='make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})'
out=$("$BIN" trace --side D --element float --smem '(128,8):(1,128)' --copy "$CP" --claim conflict-free --claim covers --deadline-s 0.000001 2>&1); rc=$?
[ "$rc" = 3 ] && [ "$(grep -c '^UNKNOWN .*deadline of 1e-06 s reached' <<<"$out")" = 2 ] || fail "trace --deadline-s: exit $rc: $out"
# A deadline that is not a positive number of seconds is bad input.
"$BIN" check "$tmp/many.yaml" --no-cache --deadline-s 0 > /dev/null 2> "$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q "deadline-s" "$tmp/err" || fail "--deadline-s 0: exit $rc, want 2"
# The cache: a second run answers from it and says how many.
small="$tmp/small.yaml"
head -6 "$tmp/many.yaml" > "$small"
"$BIN" check "$small" --cache "$tmp/cache" --no-progress > "$tmp/cold.txt"; rc=$?
[ "$rc" = 0 ] || fail "cold cached run: exit $rc"
grep -q "from cache" "$tmp/cold.txt" && fail "the cold run claims cached verdicts: $(tail -1 "$tmp/cold.txt")"
"$BIN" check "$small" --cache "$tmp/cache" --no-progress > "$tmp/warm.txt"; rc=$?
[ "$rc" = 0 ] || fail "warm cached run: exit $rc"
grep -q "^10 claims: 10 proved (10 from cache), 0 refuted" "$tmp/warm.txt" || fail "warm summary: $(tail -1 "$tmp/warm.txt")"
"$BIN" check "$small" --cache "$tmp/cache" --no-progress --json | grep -q '"proved":10,"from_cache":10,' ||
  fail "JSON summary lacks from_cache 10"
[ "$fails" = 0 ] && echo "ok   cache: 10 of 10 from cache on the warm run (table and JSON)"

# ptx over a file of 13,000 kernels: the deadline bounds the whole run, reading and decoding
# included (such a file once ran 66 s and 891 MB past an 8 s deadline, every claim UNKNOWN). Each
# kernel is printed as it runs; those the deadline passed before are listed UNKNOWN, not run.
python3 - "$BIN" "$tmp" <<'PY' || fails=$((fails + 1))
import json, re, resource, subprocess, sys, time
binary, tmp = sys.argv[1], sys.argv[2]
kernel = """.visible .entry row{i}(.param .u64 row{i}_param_0)
{{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 s{i}[4096];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, s{i};
	add.s32 %r3, %r3, %r2;
	st.shared.u32 [%r3], %r1;
	ret;
}}
"""
path = f"{tmp}/many_kernels.ptx"
with open(path, "w") as f:
    f.write(".version 8.0\n.target sm_90\n.address_size 64\n")
    for i in range(13000):
        f.write(kernel.format(i=i))
def run(*args, block="1024"):
    t0 = time.monotonic()
    p = subprocess.run([binary, "ptx", path, "--block", block, "--claim", "conflict-free", *args], capture_output=True, text=True)
    return p, time.monotonic() - t0
ok = True
# Without a deadline every kernel runs, each decoded when it runs, printed and dropped (measured
# first: a child's peak memory counts its parent's at the fork).
p, full = run(block="32")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
if p.returncode != 0 or p.stdout.count("PROVED  conflict-free") != 13000 or rss > 120:
    print(f"FAIL full run: exit {p.returncode}, {p.stdout.count('PROVED  conflict-free')} proved, {rss} MB"); ok = False
p, wall = run("--deadline-s", "1")
ran = p.stdout.count("PROVED  conflict-free")
# "UNKNOWN  conflict-free  [method, X ms]  kernel: why" (cli/output/results.hpp)
late = len(re.findall(r"^UNKNOWN  conflict-free  \[.*\]  kernel: deadline of 1 s reached before this kernel ran", p.stdout, re.M))
cut = p.stdout.count("UNKNOWN  conflict-free")  # late, and the one the deadline stopped while it ran
if p.returncode != 3 or wall > 2.5 or ran + cut != 13000 or cut - late > 1 or late == 0 or ran == 0:
    print(f"FAIL ptx --deadline-s 1 over 13000 kernels: exit {p.returncode}, {wall:.1f} s, {ran} run, {late} not run: {p.stderr[:300]}")
    ok = False
# After the first kernel the deadline passed before, no kernel runs (the verdicts are in kernel order).
first = p.stdout.find("kernel: deadline of 1 s reached before this kernel ran")
if ok and "PROVED" in p.stdout[first:]:
    print("FAIL a kernel ran after the deadline had passed"); ok = False
# JSON streams the same run: every kernel, each either run or not_run with its claims UNKNOWN.
p, wall = run("--deadline-s", "1", "--json")
try:
    ks = json.loads(p.stdout)["kernels"]
    not_run = [k for k in ks if "not_run" in k]
    if len(ks) != 13000 or not not_run or any(v["verdict"] != "UNKNOWN" for k in not_run for v in k["unapplied"]) or wall > 2.5:
        print(f"FAIL --json: {len(ks)} kernels, {len(not_run)} not run, {wall:.1f} s"); ok = False
    # A kernel that did not run has no totals: null, saying why (never an executed count of 0).
    if any(set(k["totals"].values()) != {None} or not k.get("totals_unknown", "").startswith("not run: ") for k in not_run):
        print(f"FAIL --json: a kernel not run has totals {next(k['totals'] for k in not_run)}"); ok = False
except ValueError as e:
    print(f"FAIL --json is not JSON ({e}): {p.stdout[-200:]}"); ok = False
# A deadline that passes while the file is read: nothing ran, said so, exit 3, at once.
p, wall = run("--deadline-s", "0.000001")
if p.returncode != 3 or "while reading" not in p.stdout or wall > 1.5:
    print(f"FAIL deadline while reading: exit {p.returncode}, {wall:.1f} s: {p.stdout[:300]}"); ok = False
if ok: print(f"ok   ptx --deadline-s 1 over 13000 kernels: {ran} ran, {late} UNKNOWN (not run); the full run {full:.1f} s, {rss} MB at most")
sys.exit(0 if ok else 1)
PY
exit $fails
