#!/usr/bin/env python3
"""An assert on a parameter (tests/ptx/assert_trap.cu: printf from one thread, then __trap()):
  - with n free, the trapping side touches no shared memory (printf writes the global printf
    buffer), so every claim is decided for every n: PROVED, and printf is not listed as an access
    that may touch shared memory;
  - at n = 64 (no trap) the counts are the kernel's: known totals;
  - at n = 48 the launch traps before any shared-memory instruction: the totals are not known
    ("the launch traps", the hardware measures nothing) and the gate over nothing is an ERROR that
    names the trap. Before, trap was read as a no-op: the kernel ran on past it and printed counts
    and PROVED verdicts for a launch the hardware aborts.
Usage: trap_test.py LAYOUTPROOF REPO_ROOT
"""
import json
import os
import subprocess
import sys

LP, ROOT = sys.argv[1], sys.argv[2]
PTX = os.path.join(ROOT, 'tests/ptx/assert_trap.ptx')
failures = []


def run(extra):
    p = subprocess.run([LP, 'ptx', PTX, '--block', '1024', '--claim', 'conflict-free', '--claim', 'in-bounds', '--json'] + extra,
                       capture_output=True, text=True)
    d = json.loads(p.stdout)
    return d['kernels'][0], d['results'], d.get('unapplied', []) + sum((k.get('unapplied', []) for k in d['kernels']), [])


k, rs, _ = run([])
if [r['verdict'] for r in rs] != ['PROVED'] * 4:
    failures.append(f"n free: want 4 PROVED, got {[(r['verdict'], (r.get('detail') or '')[:100]) for r in rs]}")
if any('vprintf' in (n.get('why') or '') for n in k.get('not_counted', [])):
    failures.append('n free: printf is listed as an access that may touch shared memory')
k, rs, _ = run(['--param', '2=64'])
if k['totals'] != {'executed': 64, 'wavefronts': 64, 'ideal': 64} or [r['verdict'] for r in rs] != ['PROVED'] * 4:
    failures.append(f"n = 64: want totals 64/64/64 and 4 PROVED, got {k['totals']} {[r['verdict'] for r in rs]}")
p = subprocess.run([LP, 'ptx', PTX, '--block', '1024', '--param', '2=48', '--claim', 'conflict-free', '--json'], capture_output=True, text=True)
d = json.loads(p.stdout)
k = d['kernels'][0]
if k['totals']['executed'] is not None or 'the launch traps' not in (k.get('totals_unknown') or ''):
    failures.append(f"n = 48: want totals not known because the launch traps, got {k['totals']} {k.get('totals_unknown')!r}")
if 'it traps first' not in p.stdout or p.returncode != 3:
    failures.append(f'n = 48: want the gate-over-nothing ERROR naming the trap (exit 3), got exit {p.returncode}')
print(f'trap: {len(failures)} failures')
for f in failures:
    print('FAIL', f)
sys.exit(1 if failures else 0)
