#!/usr/bin/env python3
"""The property `ptx` = `trace` on random CuTe copies (tests/compiled/random_copies/): every random
SM80-style copy of tests/kernels/cute_refusals/cases.jsonl that CuTe compiles and whose atom is one
ldmatrix (an instruction nvcc can neither fuse nor split) was compiled by nvcc to PTX
(tools/cute_reference/compiled_copy_cases.py, CUTLASS's headers at generation time only). For each,
the warp issues `layoutproof ptx` runs from the compiled kernel (block from its __launch_bounds__)
must be, as a multiset of 32-lane address vectors, exactly the instructions `layoutproof trace`
computes from the copy's C++; and both must give the same conflict-free verdict.

Usage: random_copies_test.py LAYOUTPROOF REPO_ROOT
"""
import collections
import json
import os
import re
import subprocess
import sys


def main():
    binary, root = sys.argv[1], sys.argv[2]
    d = os.path.join(root, 'tests/compiled/random_copies')
    ptx = os.path.join(d, 'random_copies.ptx')
    failures, checked, issues = [], 0, 0
    # Each kernel's launch: the block its __launch_bounds__ (.maxntid) names, given as --block (a
    # .maxntid bounds the block and is not taken as it).
    text = open(ptx).read()
    blocks = {m[0]: m[1] for m in re.findall(r'\.entry\s+(\w+)\([^)]*\)\s*\.maxntid\s+(\d+)', text, re.S)}
    for line in open(os.path.join(d, 'cases.jsonl')):
        c = json.loads(line)
        block = next((b for n, b in blocks.items() if c['name'] + '_s2r' in n), '128')
        p = subprocess.run([binary, 'ptx', ptx, '--kernel', c['name'] + '_s2r', '--block', block, '--claim', 'conflict-free', '--json'],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            failures.append(f"{c['name']}: ptx exit {p.returncode}: {p.stderr.strip()[:300]}")
            continue
        k = json.loads(p.stdout)['kernels'][0]
        cmd = [binary, 'trace', '--side', c['side'], '--element', c['element'], '--smem', c['smem'], '--copy', c['copy'], '--json']
        if c['mma']:
            cmd += ['--mma', c['mma']]
        t = subprocess.run(cmd, capture_output=True, text=True)
        v = subprocess.run(cmd + ['--claim', 'conflict-free'], capture_output=True, text=True)
        if t.returncode not in (0, 1):
            failures.append(f"{c['name']}: trace exit {t.returncode}: {t.stderr.strip()[:300]}")
            continue
        tr = json.loads(t.stdout)
        mine = collections.Counter()
        for ins in k['instructions']:
            if len(ins['issues']) >= 64 and sum(i['count'] for i in ins['issues']) < ins['executed']:
                failures.append(f"{c['name']}: more distinct issues than --json lists")
            for i in ins['issues']:
                mine[tuple(i['addrs'])] += i['count']
        theirs = collections.Counter(tuple(i['addrs']) for i in tr['instructions'])
        if mine != theirs:
            failures.append(f"{c['name']}: ptx issues {sum(mine.values())} ({len(mine)} distinct), trace {sum(theirs.values())} "
                            f"({len(theirs)} distinct); {c['copy'][:80]}")
            continue
        pv = {v['verdict'] for ins in k['instructions'] for v in ins['verdicts']}
        tv = {r['verdict'] for r in json.loads(v.stdout)['results']} if v.returncode in (0, 1) else set()
        if tv and (('REFUTED' in pv) != ('REFUTED' in tv)):
            failures.append(f"{c['name']}: conflict-free: ptx {sorted(pv)}, trace {sorted(tv)}")
        checked += 1
        issues += sum(mine.values())
    for f in failures:
        print('FAIL', f)
    print(f'random_copies: {checked} compiled CuTe copies equal to trace ({issues} warp issues), {len(failures)} failures')
    return 1 if failures or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
