#!/usr/bin/env python3
"""The committed bank-probe case file is what its generator writes, and every line is a case probe.cu
accepts: (a) gen_cases.py with no arguments reproduces cases.txt byte for byte; (b) every case line
is NAME OP WIDTH and 32 lane addresses, OP/WIDTH one probe.cu's pick() launches, each address -1 or
an offset in its 48 KiB aligned to WIDTH; (c) case names are unique (the exceptions below are in the
measured data under those names); (d) --family random:99 is the file's seed-99 block; (e) each family
with measured data still matches that data (names, ops, widths, addresses, in launch order).
Usage: bank_probe_cases_test.py gpu_check/bank_probe/gen_cases.py [tests/bank/data]"""
import json, os, re, subprocess, sys, tempfile

gen = os.path.abspath(sys.argv[1])
probe_dir = os.path.dirname(gen)
data_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(probe_dir, "..", "..", "tests", "bank", "data")
cases_path = os.path.join(probe_dir, "cases.txt")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def run_gen(*args):
    with tempfile.TemporaryDirectory() as d:  # not the generator's folder: it must not depend on the cwd
        r = subprocess.run([sys.executable, gen, *args], cwd=d, capture_output=True)
    assert r.returncode == 0, (args, r.stderr.decode())
    return r.stdout


committed = open(cases_path, "rb").read()

# (a) the generator reproduces the committed file.
check(run_gen() == committed, "gen_cases.py (no arguments) differs from %s: regenerate it with "
      "'python3 gpu_check/bank_probe/gen_cases.py > gpu_check/bank_probe/cases.txt'" % cases_path)

# Family blocks: from a '# family SPEC -- ...' line to the next one.
blocks = []  # [spec, comment line, [case lines]]
for line in committed.decode().splitlines():
    if line.startswith("# family "):
        blocks.append([line.split()[2], line, []])
    elif line.startswith("#"):
        continue
    elif not blocks:
        check(False, "case line before the first '# family' line: %r" % line[:60])
    else:
        blocks[-1][2].append(line)
specs = [b[0] for b in blocks]
check(len(set(specs)) == len(specs), "a family appears twice: %s" % specs)
check(all(b[2] for b in blocks), "an empty family: %s" % [b[0] for b in blocks if not b[2]])

# (b) well-formed lines. The ops and widths are those of probe.cu's pick(); LDSM/STSM rows are 16 bytes.
src = open(os.path.join(probe_dir, "probe.cu")).read()
pick = src[src.index("Kernel pick("):]
pick = pick[:pick.index("\n}\n")]
widths_of = {}
for op, rest in re.findall(r'if \(op == "(\w+)"\)(.*)', pick):
    widths_of[op] = {int(w) for w in re.findall(r"case (\d+):", rest)} or {16}
check({"ld", "st", "ldsm1", "ldsm4", "stsm2"} <= set(widths_of), "probe.cu's pick() not parsed: %s" % widths_of)
check(widths_of.get("ld") == {1, 2, 4, 8, 16}, "probe.cu's LDS widths: %s" % widths_of.get("ld"))
SMEM = 48 * 1024  # probe.cu's kSmem
n_cases = 0
for spec, _, lines in blocks:
    for line in lines:
        n_cases += 1
        t = line.split(" ")
        if len(t) != 35 or not all(re.fullmatch(r"-?\d+", x) for x in t[2:]):
            check(False, "%s: not NAME OP WIDTH A0..A31: %r" % (spec, line[:80]))
            continue
        name, op, w, a = t[0], t[1], int(t[2]), [int(x) for x in t[3:]]
        check(op in widths_of and w in widths_of[op], "%s: %s: op %s width %d is not a probe.cu kernel" % (spec, name, op, w))
        bad = [x for x in a if not (x == -1 or (0 <= x < SMEM and x % w == 0))]
        check(not bad, "%s: %s: addresses outside [0, 48 KiB) or not multiples of %d: %s" % (spec, name, w, bad[:4]))
        check(any(x >= 0 for x in a), "%s: %s: no active lane" % (spec, name))

# (c) unique names. The three random rounds reuse the same names (one generator, three seeds; each
# round is its own data file), and round 3 drew G_h0_7_11 and G_h1_5_8 twice (h100_measured_2.jsonl
# holds both). Anything else repeated fails.
KNOWN_REPEATS = {"wide_merge": {"G_h0_7_11", "G_h1_5_8"}}
owner = {}
for spec, _, lines in blocks:
    seen = set()
    for line in lines:
        name = line.split(" ", 1)[0]
        if name in seen:
            check(name in KNOWN_REPEATS.get(spec, ()), "%s: case name %s repeats" % (spec, name))
        seen.add(name)
        family = spec.split(":")[0]
        other = owner.setdefault(name, spec)
        check(other == spec or other.split(":")[0] == family == "random",
              "case name %s in both %s and %s" % (name, other, spec))

# (d) one seeded family alone is its block of the file.
want = [b for b in blocks if b[0] == "random:99"]
check(len(want) == 1, "no random:99 block")
if want:
    block_text = "\n".join([want[0][1]] + want[0][2]) + "\n"
    check(run_gen("--family", "random:99").decode() == block_text, "--family random:99 differs from its block in cases.txt")
    other = [l for l in run_gen("--family", "random:7").decode().splitlines() if not l.startswith("#")]
    check(other != want[0][2], "the seed does not change the random family")

# (e) the measured data each family comment names holds that family's cases in launch order.
def load(f):
    return [json.loads(l) for l in open(os.path.join(data_dir, f))]


def as_line(r, prefix=""):
    return "%s%s %s %d %s" % (prefix, r["name"], r["op"], r["width_bytes"], " ".join(map(str, r["lane_byte_addresses"])))


measured = {"h100_measured.jsonl": load("h100_measured.jsonl")}
by_spec = {b[0]: b for b in blocks}
expect = {  # spec -> (data file, the lines it should match)
    "basic": ("h100_measured.jsonl", [as_line(r) for r in measured["h100_measured.jsonl"][:753]] +
              [as_line(r, "shared_") for r in load("h100_shared_memory_wavefronts.jsonl")]),
    "inactive": ("h100_measured.jsonl", [as_line(r) for r in measured["h100_measured.jsonl"][753:]]),
}
for spec, f in (("wide_merge", "h100_measured_2.jsonl"), ("lane31", "h100_measured_3.jsonl"), ("synth", "h100_measured_4.jsonl"),
                ("random:20261123", "h100_measured_5.jsonl"), ("random:7", "h100_measured_6.jsonl"), ("random:99", "h100_measured_7.jsonl")):
    expect[spec] = (f, [as_line(r) for r in load(f)])
for spec, (f, lines) in expect.items():
    b = by_spec.get(spec)
    check(b is not None, "no family %s in cases.txt" % spec)
    if b:
        check(f in b[1], "the comment of family %s does not name its data %s" % (spec, f))
        check(b[2] == lines, "family %s differs from its measured cases in tests/bank/data/%s" % (spec, f))

if failures:
    for m in failures[:30]:
        print("FAIL", m)
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok   cases.txt: %d cases in %d families (%s), reproduced by gen_cases.py, well-formed, names unique, "
      "measured families match tests/bank/data" % (n_cases, len(blocks), " ".join(specs)))
