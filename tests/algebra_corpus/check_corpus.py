#!/usr/bin/env python3
"""The algebra corpus test: every query of a golden file written by CuTe itself
(tools/cute_reference/build_algebra_corpus.py) through `layoutproof algebra - --cute-text`.

  check_corpus.py LAYOUTPROOF CORPUS.txt [--verbose] [--max-shown N]

A line `QUERY => RESULT` needs exactly RESULT (CuTe's text). `QUERY => !violates: COND` (CuTe's
result breaks the definition COND) needs an `error:` that names COND; `!compile-error: ...` (CuTe
refuses it at compile time) and `!runtime-error` (CuTe crashes) need an `error:`. Prints the pass
figures per operation and per kind; exits 1 on any mismatch.
"""
import collections
import subprocess
import sys


def parse(path):
    cases = []
    for n, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        if " => " not in line:
            raise SystemExit("%s:%d: no ' => ' in %r" % (path, n, line))
        query, expected = line.rsplit(" => ", 1) if line.count(" => ") > 1 else line.split(" => ", 1)
        cases.append((n, query, expected))
    return cases


def verdict(expected, got):
    """(ok, kind)"""
    if expected.startswith("!violates: "):
        cond = expected[len("!violates: "):]
        # A run-time division by zero in CuTe's arithmetic is undefined behaviour: where the reference
        # build happened to compute a value, a refusal naming the division by zero is right as well.
        return got.startswith("error:") and (cond in got or "division by zero" in got), "rejected (definition broken)"
    if expected.startswith("!compile-error") or expected == "!runtime-error":
        return got.startswith("error:"), "rejected (CuTe refuses)"
    return got == expected, "CuTe's text"


def main():
    exe, path = sys.argv[1], sys.argv[2]
    verbose = "--verbose" in sys.argv
    max_shown = 20
    if "--max-shown" in sys.argv:
        max_shown = int(sys.argv[sys.argv.index("--max-shown") + 1])
    cases = parse(path)
    p = subprocess.run([exe, "algebra", "-", "--cute-text"], input="\n".join(q for _, q, _ in cases) + "\n",
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("layoutproof algebra - exited %d: %s" % (p.returncode, p.stderr))
    out = p.stdout.split("\n")
    per_op = collections.defaultdict(lambda: [0, 0])
    per_kind = collections.defaultdict(lambda: [0, 0])
    failures = []
    for (n, query, expected), got in zip(cases, out):
        ok, kind = verdict(expected, got)
        op = query.split(" ", 1)[0]
        for table, key in ((per_op, op), (per_kind, kind)):
            table[key][0] += ok
            table[key][1] += 1
        if not ok:
            failures.append((n, query, expected, got))
    passed = sum(v[0] for v in per_kind.values())
    print("algebra corpus %s: %d/%d cases pass (%.2f%%)" % (path, passed, len(cases), 100.0 * passed / max(1, len(cases))))
    for kind, (ok, total) in sorted(per_kind.items()):
        print("  %-32s %5d/%d" % (kind, ok, total))
    if verbose or failures:
        for op, (ok, total) in sorted(per_op.items()):
            print("  %-20s %5d/%d" % (op, ok, total))
    for n, query, expected, got in failures[:max_shown]:
        print("line %d: %s\n  CuTe:        %s\n  layoutproof: %s" % (n, query, expected, got))
    if len(failures) > max_shown:
        print("... and %d more" % (len(failures) - max_shown))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
