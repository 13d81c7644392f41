#!/usr/bin/env python3
"""fit_rule.py: the bank model's LDS/STS/LDSM/STSM rule in Python (model/bank/bank.cpp), against every
measured ld/st/ldsm/stsm case of tests/bank/data/*.jsonl; use it to test a candidate rule. Usage: python3 gpu_check/bank_probe/fit_rule.py [-v]"""
import glob, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "bank", "data")


def load():
    rows = []
    for f in sorted(glob.glob(os.path.join(DATA, "*.jsonl"))):
        for l in open(f):
            r = json.loads(l)
            r["file"] = os.path.basename(f)
            rows.append(r)
    return rows


def conflict(a, lanes, w):
    words = {}
    for i in lanes:
        x = a[i]
        for wd in range(x // 4, (x + w - 1) // 4 + 1):
            words.setdefault(wd % 32, set()).add(wd)
    return max((len(v) for v in words.values()), default=0)


def fold_ok(a, lanes, m, share=True):
    s = set(lanes)
    return all((l ^ m) not in s or (share and a[l ^ m] == a[l]) for l in s)


def ld64(a, act):
    if len({a[i] for i in act}) == 1:
        return 1
    if (fold_ok(a, act, 1) or fold_ok(a, act, 2)) and conflict(a, act, 8) == 1:
        return 1
    return sum(conflict(a, [i for i in act if i // 16 == h], 8) for h in (0, 1))


def half128(a, lanes, h, both):
    """wavefronts of one half-warp (lanes all in half h) of an LDS.128."""
    if not lanes:
        return 0
    q = [conflict(a, [i for i in lanes if (i // 8) % 2 == k], 16) for k in (0, 1)]
    if q[0] == 0 or q[1] == 0:
        return q[0] + q[1]
    ok = h == 0 or fold_ok(a, lanes, 1) or fold_ok(a, lanes, 2)
    if ok and conflict(a, lanes, 16) == 1:
        return 1
    return sum(q)


def ld128(a, act):
    n = len(act)
    if len({a[i] for i in act}) == 1:
        return 1 if n <= 16 else 2
    h0 = [i for i in act if i < 16]
    h1 = [i for i in act if i >= 16]
    n0 = half128(a, h0, 0, False)
    n1 = half128(a, h1, 1, False)
    merged0 = n0 == 1 and any(i < 8 for i in h0) and any(8 <= i < 16 for i in h0)
    pairs = any(all(a[l ^ m] == a[l] for l in act) for m in (1, 2))  # complete same-address pairs
    extra31 = 31 in h1 and len(h1) >= 2 and not pairs
    return n0 + n1 + (1 if merged0 and extra31 else 0)


def predict_phase_sum(op, w, a, act):
    if op.startswith(("ldsm", "stsm")):
        n = int(op[-1])
        return sum(conflict(a, [i for i in act if 8 * m <= i < 8 * m + 8], 16) for m in range(n))
    size = 32 if w <= 4 else (16 if w == 8 else 8)
    return sum(conflict(a, [i for i in act if s <= i < s + size], w) for s in range(0, 32, size))


def predict(r):
    op, w, a = r["op"], r["width_bytes"], r["lane_byte_addresses"]
    act = [i for i in range(32) if a[i] >= 0]
    if op.startswith(("ldsm", "stsm")):
        act = [i for i in act if i < 8 * int(op[-1])]
        return predict_phase_sum(op, w, a, act)
    if op == "ld" and w == 8:
        return ld64(a, act)
    if op == "ld" and w == 16:
        return ld128(a, act)
    return predict_phase_sum(op, w, a, act)


def main():
    verbose = "-v" in sys.argv
    stats = {}
    for r in load():
        if r["op"] in ("ldgsts", "atom"):
            continue  # their own rules: bank_test.cpp
        a = r["lane_byte_addresses"]
        act = [i for i in range(32) if a[i] >= 0]
        distinct = len({a[i] for i in act}) == len(act)
        p, m = predict(r), r["measured_wavefronts_per_instruction"]
        s = stats.setdefault(r["file"], [0, 0, 0, 0, 0])
        s[0] += 1; s[1] += p == m; s[2] += distinct; s[3] += distinct and p == m; s[4] += p < m
        if p != m and verbose:
            print(f"{'BELOW' if p < m else 'above'} {r['file'][:14]} {r['name']:28s} w={r['width_bytes']} pred={p} meas={m:g} dist={distinct} " +
                  " ".join(f"{i}:{a[i]}" for i in act)[:160])
    for f, s in stats.items():
        print(f"{f}: {s[1]}/{s[0]} exact ({100*s[1]/s[0]:.2f}%), distinct-address exact {s[3]}/{s[2]}, below {s[4]}")


if __name__ == "__main__":
    main()
