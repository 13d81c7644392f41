#!/usr/bin/env python3
"""Which of CUTLASS's scheduler grids launch at all: `layoutproof raster trace` against the hardware.

tests/raster/sm90_launches.txt was made on the GPU machine by tools/scheduler_reference/launch_reference.cu
(the real get_grid_shape, then a cluster launch of that grid). Per line, the model's grid must equal
CUTLASS's, and `raster prove ... --claim launches` must be REFUTED exactly where the launch failed
(an empty grid, or a grid the cluster does not divide).

Usage: launch_reference_test.py LAYOUTPROOF sm90_launches.txt
"""
import json
import subprocess
import sys

RASTERS = {1: 'along-m', 2: 'along-n'}


def main():
    tool, path = sys.argv[1], sys.argv[2]
    failures, lines, refused = [], 0, 0
    for line in open(path):
        f = line.split()
        if len(f) < 11:
            continue
        kind, m, n, cm, cn, ri, sms, gx, gy, gz = (int(x) for x in f[:10])
        launched = f[10] == 'ok'
        refused += not launched
        cmd = [tool, 'raster', 'trace', 'sm90-persistent' if kind == 0 else 'sm90-stream-k', '--tiles', f'{m},{n},1',
               '--cluster', f'{cm},{cn}', '--raster', RASTERS[ri], '--sms', str(sms), '--max-swizzle', '1', '--json']
        if kind == 1:
            cmd += ['--k-tiles', '1', '--decomposition', 'data-parallel']
        p = subprocess.run(cmd, capture_output=True, text=True)
        lines += 1
        if p.returncode != 0:
            failures.append(f'{" ".join(cmd[3:])}: exit {p.returncode}: {p.stderr.strip()}')
            continue
        got = json.loads(p.stdout)
        prove = [tool, 'raster', 'prove'] + [a for a in cmd[3:] if a != '--json'] + ['--claim', 'launches']
        q = subprocess.run(prove, capture_output=True, text=True)
        if got['grid'] != [gx, gy, gz]:
            failures.append(f'{" ".join(cmd[3:])}: grid {got["grid"]}, CUTLASS {[gx, gy, gz]}')
        elif q.returncode != (0 if launched else 1):
            failures.append(f'{" ".join(prove[3:])}: exit {q.returncode}, the launch {"succeeded" if launched else "failed"}: {q.stdout.strip()[:200]}')
    for f in failures[:20]:
        print('FAIL', f)
    print(f'launch reference: {lines} grids ({refused} refused by the hardware), {len(failures)} differences')
    return 1 if failures or lines == 0 or refused == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
