#!/usr/bin/env python3
"""The SASS reader and the PTX reader agree on real kernels: for every launch of the measured corpus
(tests/compiled/measured/launches.txt), the lane-address vectors of every shared-memory warp issue,
per (op, width), are the same whether the kernel is read from its PTX or from the SASS ptxas made of
it (SASS addresses are window offsets: both sides are taken relative to their lowest address). Two
independent readers of two languages giving the same addresses checks the SASS lowering of IMAD,
LEA, LOP3, SHF, IADD3, ... on compiled CuTe code. Where ptxas changed the accesses the two differ,
and those launches are listed below with the reason; the test fails if one of them stops differing.

Usage: sass_ptx_agree_test.py LAYOUTPROOF REPO_ROOT
"""
import json
import os
import subprocess
import sys

# Launches whose PTX and SASS accesses differ because ptxas changed them (kernel name substring).
PTXAS_CHANGED = {
    'epilogue_padded': 'ptxas merged two st.shared.f32 at adjacent words into one STS.64',
    'k_s2rILi1EdN4cute14ComposedLayoutINS1_7SwizzleILi2ELi0ELi4E': 'ptxas fused the f64 DefaultCopy loads into LDS.128',
}


def issues(binary, fmt, path, kernel, block, params):
    cmd = [binary, fmt, path, '--kernel', kernel, '--block', block, '--json']
    for x in params:
        cmd += ['--param', x]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        raise SystemExit(f'{" ".join(cmd)}: exit {p.returncode}: {p.stderr}')
    out = {}
    for i in json.loads(p.stdout)['kernels'][0]['instructions']:
        for s in i['issues']:
            if any(a >= 0 for a in s['addrs']):
                out.setdefault((i['op'], i['width_bytes']), set()).add(tuple(s['addrs']))
    lo = min((a for v in out.values() for t in v for a in t if a >= 0), default=0)
    return {k: {tuple(a - lo if a >= 0 else -1 for a in t) for t in v} for k, v in out.items()}


def main():
    binary, root = sys.argv[1], sys.argv[2]
    m = os.path.join(root, 'tests/compiled/measured')
    failures, same, changed = [], 0, 0
    for line in open(os.path.join(m, 'launches.txt')):
        if not line.strip() or line.startswith('#'):
            continue
        prog, kernel, block, ptx_params, sass_params, _ = line.rstrip('\n').split(' ', 5)
        ptx_params = [] if ptx_params == '-' else ptx_params.split(',')
        sass_params = ptx_params if sass_params == '=' else [] if sass_params == '-' else sass_params.split(',')
        x = issues(binary, 'ptx', os.path.join(m, prog + '.ptx'), kernel, block, ptx_params)
        s = issues(binary, 'sass', os.path.join(m, prog + '.sass'), kernel, block, sass_params)
        why = next((r for k, r in PTXAS_CHANGED.items() if k in kernel), None)
        if why is None and x != s:
            failures.append(f'{prog} {kernel[:60]}: PTX and SASS issue different lane addresses '
                            f'(PTX {dict((k, len(v)) for k, v in x.items())}, SASS {dict((k, len(v)) for k, v in s.items())})')
        elif why is not None and x == s:
            failures.append(f'{prog} {kernel[:60]}: listed as changed by ptxas ({why}) but PTX and SASS agree')
        elif why is None:
            same += 1
        else:
            changed += 1
    for f in failures:
        print('FAIL', f)
    print(f'sass_ptx_agree: {same} launches agree, {changed} changed by ptxas as listed, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
