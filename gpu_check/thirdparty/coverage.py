#!/usr/bin/env python3
"""layoutproof sass against Nsight Compute on kernels written by others, per SASS instruction.

Usage: coverage.py LAYOUTPROOF MEASURED [--markdown] [--only PROGRAM]

MEASURED is what gpu_check/thirdparty/measure.sh wrote (P.sass, P.ncu.csv, launches.txt), a folder
or a .tar.xz of one (the committed fixtures: tests/compiled/thirdparty/measured.tar.xz, its ncu
tables trimmed by gpu_check/compiled/trim_ncu.py). For every launch, every shared-memory instruction
Nsight Compute measured is one of:
  exact    layoutproof lists it with the measured executed count, wavefronts and ideal;
  unknown  layoutproof lists it and says its counts are not known ("?", JSON null), with the reason
           (the instruction's site, a stopped lane, a not-counted access);
  wrong    a number layoutproof prints differs from the measurement, or it does not list the
           instruction at all (a silent omission): the tool's promise is broken.
A verdict ERROR on any instruction fails the run too: on a corpus the model runs, it means the
symbolic run and its own concrete re-run disagree (a witness that does not replay).
It prints a line per launch (or a Markdown table: docs/compiled.md's coverage table) and the totals;
exit 1 when any instruction is wrong (unknown is allowed: it is said) or, with --min-exact N, fewer
than N are exact (the ratchet ctest keeps: coverage never silently drops), 2 when a launch cannot run.
"""
import collections
import json
import os
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'compiled'))
from compare import SHARED_OPS, ncu_tables  # noqa: E402


def run_sass(tool, path, kernel, block, params):
    cmd = [tool, 'sass', path, '--kernel', kernel, '--block', block, '--claim', 'conflict-free', '--json']
    for p in params:
        cmd += ['--param', p]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1, 3):
        return None, f'exit {p.returncode}: {p.stderr.strip()[:300]}'
    return json.loads(p.stdout)['kernels'][0], ''


def reason_of(kernel, got):
    """Why layoutproof says an instruction's counts are not known: its counts_unknown, else the first
    line of its verdict detail."""
    if got.get('counts_unknown'):
        return got['counts_unknown'].split('\n')[0][:400]
    for v in got.get('verdicts', []):
        if v.get('detail'):
            return v['detail'].split('\n')[0][:160]
    if kernel.get('stopped'):
        return 'stopped: ' + str(kernel['stopped'])[:140]
    return 'counts not known'


def main():
    tool, d = sys.argv[1], sys.argv[2]
    if d.endswith('.tar.xz'):
        tmp = tempfile.TemporaryDirectory()
        with tarfile.open(d) as t:
            t.extractall(tmp.name, filter='data')
        d = tmp.name
    markdown = '--markdown' in sys.argv
    only = sys.argv[sys.argv.index('--only') + 1] if '--only' in sys.argv else None
    tables, rows, reasons = {}, [], collections.Counter()
    total = collections.Counter()
    wrong_lines, errors, verdict_errors = [], [], []
    for line in open(os.path.join(d, 'launches.txt')):
        if not line.strip() or line.startswith('#'):
            continue
        prog, kernel, block, ptx_params, sass_params, ncu_name = line.rstrip('\n').split(' ', 5)
        if only and prog != only:
            continue
        ptx_params = [] if ptx_params == '-' else ptx_params.split(',')
        sass_params = ptx_params if sass_params == '=' else [] if sass_params == '-' else sass_params.split(',')
        if prog not in tables:
            csv = os.path.join(d, prog + '.ncu.csv')
            tables[prog] = ncu_tables(csv) if os.path.exists(csv) else {}
        names = [n for n in tables[prog] if n.startswith(ncu_name)]
        if len(names) != 1:
            rows.append((prog, kernel, 'not measured', 0, 0, 0, 0))
            continue
        # Every instruction the hardware counted shared wavefronts for, generic LD/ST/ATOM that hit
        # the shared window included (cooperative groups' reductions), and every shared opcode.
        meas = [t for t in tables[prog][names[0]] if SHARED_OPS.search(t[1]) or t[3] > 0 or t[4] > 0]
        k, err = run_sass(tool, os.path.join(d, prog + '.sass'), kernel, block, sass_params)
        if k is None:
            errors.append(f'{prog} {kernel}: {err}')
            rows.append((prog, kernel, 'error', len(meas), 0, 0, len(meas)))
            total['wrong'] += len(meas)
            continue
        by_off = {i['sass_offset']: i for i in k['instructions']}
        # A listed instruction's counts are not known unless a measured rule gives them (wgmma).
        by_off.update({i['sass_offset']: dict(i, executed=i.get('executed'), wavefronts=i.get('wavefronts'), ideal=i.get('ideal'))
                       for i in k.get('not_counted', [])})
        exact = unknown = wrong = 0
        for i in k['instructions']:
            for v in i.get('verdicts', []):
                if v['verdict'] == 'ERROR':
                    verdict_errors.append(f'{prog} {kernel[:40]} line {i["line"]} {i["text"]}: {v["claim"]} ERROR: {v["detail"][:200]}')
        for off, text, ex, wf, ideal in meas:
            got = by_off.get(off)
            if got is None and k.get('stopped'):  # a lane stopped before it: the run says so, its counts are not known
                unknown += 1
                reasons['not reached: the run stopped before it (' + str(k['stopped'])[:120] + ')'] += 1
                continue
            if got is None:
                wrong += 1
                wrong_lines.append(f'{prog} {kernel[:40]} /*{off:04x}*/ {text}: measured {ex}/{wf}/{ideal}, not listed')
                continue
            nums = [got['executed'], got['wavefronts'], got['ideal']]
            if nums == [ex, wf, ideal]:
                exact += 1
                continue
            stated = [n for n in nums if n is not None]
            meas_stated = [m for n, m in zip(nums, [ex, wf, ideal]) if n is not None]
            if k.get('stopped') or None in nums:
                if stated == meas_stated or k.get('stopped'):
                    unknown += 1
                    reasons[reason_of(k, got) if None in nums else 'stopped: ' + str(k['stopped'])[:140]] += 1
                    continue
            wrong += 1
            wrong_lines.append(f'{prog} {kernel[:40]} /*{off:04x}*/ {text}: layoutproof {nums}, ncu {[ex, wf, ideal]}')
        rows.append((prog, kernel, 'ok', len(meas), exact, unknown, wrong))
        total['instructions'] += len(meas)
        total['exact'] += exact
        total['unknown'] += unknown
        total['wrong'] += wrong
    if markdown:
        print('| program | kernel | shared instr. | exact | unknown | wrong |')
        print('| --- | --- | --- | --- | --- | --- |')
        for prog, kernel, state, n, e, u, w in rows:
            short = kernel if len(kernel) <= 50 else kernel[:34] + '..' + kernel[-14:]
            print(f'| {prog} | `{short}` | {n} | {e} | {u} | {w} |' if state == 'ok' else f'| {prog} | `{short}` | {state} | | | |')
    else:
        for prog, kernel, state, n, e, u, w in rows:
            print(f'{prog:28} {kernel[:60]:60} {state:5} {n:4} exact {e:4} unknown {u:4} wrong {w:4}')
    print('\nunknown, by reason:')
    for r, c in reasons.most_common():
        print(f'  {c:5}  {r}')
    for w in wrong_lines:
        print('WRONG', w)
    for e in errors:
        print('ERROR', e)
    for e in verdict_errors:
        print('VERDICT ERROR', e)
    n = max(total['instructions'], 1)
    print(f'\ncoverage: {len(rows)} launches, {total["instructions"]} shared-memory instructions: {total["exact"]} exact '
          f'({100.0 * total["exact"] / n:.1f}%), {total["unknown"]} unknown, {total["wrong"]} wrong')
    floor = int(sys.argv[sys.argv.index('--min-exact') + 1]) if '--min-exact' in sys.argv else 0
    if total['exact'] < floor:
        print(f'FAIL: {total["exact"]} exact, fewer than the {floor} this corpus had (--min-exact)')
    return 2 if errors else 1 if total['wrong'] or verdict_errors or total['exact'] < floor else 0


if __name__ == '__main__':
    sys.exit(main())
