#!/usr/bin/env python3
"""layoutproof sass and ptx against Nsight Compute, per SASS instruction (docs/compiled.md).

Usage: compare.py LAYOUTPROOF MEASURED_DIR [--markdown]
MEASURED_DIR holds, per program P: P.sass (cuobjdump -sass), P.ptx (the PTX nvcc gave ptxas),
P.ncu.csv (ncu --section SourceCounters --page source --csv --print-source sass) and launches.txt.
For every launch: `layoutproof sass` per instruction (executed, wavefronts, ideal) must equal the
measurement at the same /*offset*/, and every shared-memory instruction ncu counted must be one
layoutproof lists; `ptx` totals are compared per kernel. `--claim conflict-free` must say REFUTED
exactly where some measured instruction took more wavefronts than its ideal. Exit 1 on a difference.
"""
import csv
import json
import os
import re
import subprocess
import sys

SHARED_OPS = re.compile(r'\b(LDS|STS|LDSM|STSM|LDGSTS|ATOMS)\b')


def ncu_tables(path):
    """kernel name -> [(offset, sass, executed, wavefronts, ideal)] (the first table of each kernel)."""
    out, name, hdr, rows = {}, None, None, None
    for r in csv.reader(open(path, newline='')):
        if r and r[0] == 'Kernel Name':
            name, hdr = r[1], None
            rows = [] if name not in out else None
            if rows is not None:
                out[name] = rows
            continue
        if r and r[0] == 'Address':
            hdr = {h: i for i, h in enumerate(r)}
            if not {'Instructions Executed', 'L1 Wavefronts Shared', 'L1 Wavefronts Shared Ideal'} <= hdr.keys():
                hdr = None  # a table the profiler did not finish (the program failed before it): not measured
                if rows is not None and not rows:
                    del out[name]
                rows = None
            continue
        if rows is None or hdr is None or len(r) < len(hdr):
            continue
        num = lambda k: int(r[hdr[k]] or 0) if r[hdr[k]] not in ('', '-') else 0
        rows.append((int(r[hdr['Address']], 16), r[hdr['Source']].strip(), num('Instructions Executed'),
                     num('L1 Wavefronts Shared'), num('L1 Wavefronts Shared Ideal')))
    for name, rows in out.items():
        if rows:
            base = min(x[0] for x in rows)
            out[name] = [(x[0] - base,) + tuple(x[1:]) for x in rows]
    return out


def run(tool, fmt, path, kernel, block, params):
    cmd = [tool, fmt, path, '--kernel', kernel, '--block', block, '--claim', 'conflict-free', '--json']
    for p in params:
        cmd += ['--param', p]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        raise SystemExit(f'{" ".join(cmd)}: exit {p.returncode}: {p.stderr}')
    return json.loads(p.stdout)['kernels'][0]


def main():
    tool, d = sys.argv[1], sys.argv[2]
    markdown = '--markdown' in sys.argv
    failures, lines = [], []
    tables = {}
    lines.append('| program | kernel | sass instr. | executed (ncu / sass) | wavefronts (ncu / sass) | ideal (ncu / sass) | ptx executed / wavefronts / ideal | conflict-free (hw / sass) |')
    lines.append('| --- | --- | --- | --- | --- | --- | --- | --- |')
    short = lambda k: k if len(k) <= 48 else k[:30] + '..' + k[-16:]
    for line in open(os.path.join(d, 'launches.txt')):
        if not line.strip() or line.startswith('#'):
            continue
        prog, kernel, block, ptx_params, sass_params, ncu_name = line.rstrip('\n').split(' ', 5)
        ptx_params = [] if ptx_params == '-' else ptx_params.split(',')
        sass_params = ptx_params if sass_params == '=' else [] if sass_params == '-' else sass_params.split(',')
        if prog not in tables:
            tables[prog] = ncu_tables(os.path.join(d, prog + '.ncu.csv'))
        names = [n for n in tables[prog] if n.startswith(ncu_name)]
        if len(names) != 1:
            failures.append(f'{prog} {short(kernel)}: {len(names)} ncu tables named {ncu_name!r}')
            continue
        meas = [t for t in tables[prog][names[0]] if SHARED_OPS.search(t[1])]
        s = run(tool, 'sass', os.path.join(d, prog + '.sass'), kernel, block, sass_params)
        x = run(tool, 'ptx', os.path.join(d, prog + '.ptx'), kernel, block, ptx_params)
        by_off = {i['sass_offset']: i for i in s['instructions']}
        for off, text, ex, wf, ideal in meas:
            got = by_off.get(off)
            if got is None:
                failures.append(f'{prog} {short(kernel)} /*{off:04x}*/ {text}: measured, not listed by sass')
                continue
            if [got['executed'], got['wavefronts'], got['ideal']] != [ex, wf, ideal]:
                failures.append(f'{prog} {short(kernel)} /*{off:04x}*/ {text}: sass {got["executed"]}/{got["wavefronts"]}/{got["ideal"]}, '
                                f'ncu {ex}/{wf}/{ideal} (executed/wavefronts/ideal)')
        for off in by_off:
            if off not in {m[0] for m in meas}:
                failures.append(f'{prog} {short(kernel)} /*{off:04x}*/: listed by sass, not measured')
        hw = sum(m[3] for m in meas) > sum(m[4] for m in meas)
        refuted = any(v['verdict'] == 'REFUTED' for i in s['instructions'] for v in i['verdicts'])
        # An instruction no lane ran (never reached, or every lane's guard false) is UNKNOWN (NOT
        # RUN), never PROVED: it made no access, as the measurement's 0 wavefronts there agree.
        proved = all(v['verdict'] == 'PROVED' or (v['method'] == 'not run' and i['wavefronts'] == 0)
                     for i in s['instructions'] for v in i['verdicts'])
        if hw != refuted or (not hw and not proved):
            failures.append(f'{prog} {short(kernel)}: hardware {"conflicts" if hw else "conflict-free"}, sass says '
                            f'{"REFUTED" if refuted else "PROVED" if proved else "UNKNOWN"}')
        st, xt = s['totals'], x['totals']
        lines.append(f'| {prog} | {short(kernel)} | {len(meas)} | {sum(m[2] for m in meas)} / {st["executed"]} | '
                     f'{sum(m[3] for m in meas)} / {st["wavefronts"]} | {sum(m[4] for m in meas)} / {st["ideal"]} | '
                     f'{xt["executed"]} / {xt["wavefronts"]} / {xt["ideal"]} | '
                     f'{"conflicts" if hw else "free"} / {"REFUTED" if refuted else "PROVED" if proved else "UNKNOWN"} |')
    if markdown:
        print('\n'.join(lines))
    # Differences measured and explained (docs/compiled.md): the text of each, as printed.
    known = set()
    kpath = os.path.join(d, 'known_differences.txt')
    if os.path.exists(kpath):
        known = {l.strip() for l in open(kpath) if l.strip() and not l.startswith('#')}
    for f in failures:
        print('KNOWN' if f in known else 'FAIL', f)
    unexplained = [f for f in failures if f not in known]
    stale = known - set(failures)
    for f in sorted(stale):
        print('STALE (no longer differs; remove it from known_differences.txt):', f)
    print(f'compare: {len(lines) - 2} launches, {len(unexplained)} unexplained differences, {len(failures) - len(unexplained)} known')
    return 1 if unexplained or stale else 0


if __name__ == '__main__':
    sys.exit(main())
