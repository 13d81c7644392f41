#!/usr/bin/env python3
"""Compares `layoutproof raster trace sm90-persistent ... --json` with CUTLASS's own scheduler run on
the GPU (scheduler_reference.cu's output: one configuration a line).

Usage: compare.py LAYOUTPROOF VISITS.txt[.gz|.xz] [--kind sm90-persistent|sm90-group|sm90-stream-k|sm100-persistent|sm100-group|sm100-stream-k]
(group_reference.cu's lines: "G M0 N0 ... cluster_m cluster_n max_swizzle raster sms <json>";
sm100_group_reference.cu's: "G M0 N0 ... cluster_m cluster_n max_swizzle raster sms atom_m dynamic <json>";
stream_k_reference.cu's and sm100_stream_k_reference.cu's: "M N L cluster_m cluster_n max_swizzle raster sms k_tiles splits
decomposition <json>")
Every configuration's grid and every CTA's visit sequence must be equal; exit 1 otherwise.
Every configuration is traced by one process (`raster trace KIND --configs FILE --json`: one JSON
object a line, in FILE's order), not one process each: thousands of process starts cost more than
the traces.
"""
import gzip
import lzma
import json
import os
import subprocess
import sys
import tempfile

RASTERS = ['heuristic', 'along-m', 'along-n']
DECOMPOSITIONS = ['heuristic', 'data-parallel', 'split-k', 'stream-k']


def main():
    tool, path = sys.argv[1], sys.argv[2]
    opener = gzip.open if path.endswith('.gz') else lzma.open if path.endswith('.xz') else open
    failures, cases = [], []
    kind = sys.argv[sys.argv.index('--kind') + 1] if '--kind' in sys.argv else 'sm90-persistent'
    for line in opener(path, 'rt'):
        if kind in ('sm90-group', 'sm100-group'):
            head = line.split(' ', 1)
            if len(head) < 2 or not head[0].isdigit():
                continue
            g = int(head[0])
            tail = 7 if kind == 'sm100-group' else 5  # sm100: the AtomThrShape's M and the cluster type too
            parts = line.split(' ', 1 + 2 * g + tail)
            if len(parts) < 2 + 2 * g + tail:
                continue
            nums = [int(x) for x in parts[1:1 + 2 * g + tail]]
            groups = ','.join(f'{nums[2 * k]}x{nums[2 * k + 1]}' for k in range(g))
            cm, cn, sw, ri, sms = nums[2 * g:2 * g + 5]
            rest = parts[-1]
            flags = ['--groups', groups]
            if kind == 'sm100-group':
                flags += ['--atom-m', str(nums[2 * g + 5]), '--cluster-type', 'dynamic' if nums[2 * g + 6] else 'static']
        elif kind in ('sm90-stream-k', 'sm100-stream-k'):
            parts = line.split(' ', 11)
            if len(parts) < 12:
                continue
            m, n, l, cm, cn, sw, ri, sms, kt, sp, dec = (int(x) for x in parts[:11])
            rest = parts[11]
            flags = ['--tiles', f'{m},{n},{l}', '--k-tiles', str(kt), '--splits', str(sp), '--decomposition', DECOMPOSITIONS[dec]]
        else:
            parts = line.split(' ', 8)
            if len(parts) < 9:
                continue
            m, n, l, cm, cn, sw, ri, sms = (int(x) for x in parts[:8])
            rest = parts[8]
            flags = ['--tiles', f'{m},{n},{l}']
        if rest.startswith('ERROR'):
            failures.append(f'{line.strip()[:120]}: the reference did not run')
            continue
        # sm100-persistent launches every tile: its lines carry 0 for the SM count, and it takes no --sms.
        sms_flags = [] if kind == 'sm100-persistent' else ['--sms', str(sms)]
        cases.append((flags + ['--cluster', f'{cm},{cn}', '--max-swizzle', str(sw), '--raster', RASTERS[ri]] + sms_flags, rest))
    configs, units = len(cases), 0
    with tempfile.TemporaryDirectory() as d:
        cfg = os.path.join(d, "configs.txt")
        with open(cfg, 'w') as f:
            f.writelines(' '.join(flags) + '\n' for flags, _ in cases)
        p = subprocess.run([tool, 'raster', 'trace', kind, '--configs', cfg, '--json'], capture_output=True, text=True)
    got_lines = p.stdout.splitlines()
    if p.returncode != 0 or len(got_lines) != configs:
        failures.append(f'raster trace {kind} --configs ({configs} configurations): exit {p.returncode}, '
                        f'{len(got_lines)} traces: {p.stderr.strip()[:400]}')
        got_lines = []
    for (flags, rest), line in zip(cases, got_lines):
        want, got = json.loads(rest), json.loads(line)
        units += sum(len(c['work']) for c in want['ctas'])
        if got != want:
            detail = 'grid' if got['grid'] != want['grid'] else next(
                (f"cta {a['cta']}" for a, b in zip(got['ctas'], want['ctas']) if a != b), 'cta count')
            failures.append(f'{kind} {" ".join(flags)}: differs at {detail}')
    for f in failures[:20]:
        print('FAIL', f)
    print(f'scheduler reference: {configs} configurations, {units} work units, {len(failures)} differences')
    return 1 if failures or configs == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
