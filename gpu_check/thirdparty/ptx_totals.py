#!/usr/bin/env python3
"""layoutproof ptx's kernel totals against Nsight Compute on kernels written by others.

Usage: ptx_totals.py LAYOUTPROOF MEASURED PTX_DIR [--only PROGRAM] [--markdown] [-v]

MEASURED is what gpu_check/thirdparty/measure.sh wrote (P.sass, P.ncu.csv, launches.txt), a folder
or a .tar.xz of one (tests/compiled/thirdparty/measured.tar.xz). PTX_DIR holds P.ptx, the PTX nvcc
gave ptxas for the measured binary (gpu_check/thirdparty/build.sh writes it next to the cubin; it
is not committed). For every launch whose program has a PTX file, `layoutproof ptx` runs with the
launch's ptx parameters, and its kernel totals (executed warp instructions, shared wavefronts,
ideal wavefronts) are compared with the sums of Nsight Compute's Instructions Executed, L1
Wavefronts Shared and L1 Wavefronts Shared Ideal over the same kernel's shared-memory SASS
instructions (as coverage.py selects them: every shared opcode, and every instruction the hardware
counted shared wavefronts for: generic LD/ST/ATOM that hit the shared window). Each launch is:
  equal    the three totals are the measurement's;
  unknown  ptx prints a total as not known ("?", JSON null), with the reason (the first
           instruction's); the totals it does print are compared as below;
  fused    the totals differ, and the SASS shows ptxas changed the shared instructions. The evidence
           is per access class (ld, st, atom, ldgsts; a generic access in its class), each class's
           executed, wavefronts and ideal summed per access width on both sides, and, where both
           runs list every issue of the class (layoutproof sass on the measured SASS, used only
           where its numbers equal the measurement), what each lane accesses: the multiset of
           (lane, shared byte) over every issue, the SASS's shifted by its 0x400 window base:
             merged     the widths differ: the SASS has widths the PTX has not (four ld.shared.f32
                        into an LDS.128) or lacks widths it has. Evidence: the same lanes access the
                        same bytes as often, or the SASS also accesses bytes the PTX does not (an
                        LDS.128 that reads a word no PTX load reads), or fewer (a load dropped); where
                        the issues are not all listed, warp-bytes (executed times width) are compared;
             predicated the same widths, each width's wavefronts and ideal equal, the SASS executes
                        more, no more than its guarded instructions (@P0 LDS) executed, and the same
                        lanes access the same bytes as often: ptxas turned the branch around an access
                        into a predicate, and Nsight Compute counts the instruction executed in every
                        warp that reaches it, its lanes all off (0 wavefronts);
             added      ptxas's `@!PT LDS RZ, [RZ]` (never executed by a lane; counted executed, 0
                        wavefronts), taken off the SASS side first;
             lowered    atom.shared.add.f32 became an LDS and an ATOMS.CAST.SPIN compare-and-swap loop
                        (how often a lane retries depends on the other lanes): the SASS's loads exceed
                        the PTX's by as many words as the ATOMS.CAST.SPIN executed;
  differs  the totals differ with none of that evidence: a number layoutproof prints that is not the
           hardware's. Each such class is listed instruction by instruction (PTX sites and SASS
           instructions whose executed/wavefronts/ideal have no equal on the other side); so is a
           class where each side accesses bytes the other does not (an address the PTX run gets
           wrong, or shared symbols placed otherwise than the PTX run places them).
Launches whose kernel Nsight Compute printed no table for are "not measured" (said, with whether
their SASS has a shared-memory instruction); programs with no PTX file are listed and skipped.
Exit 1 when any launch differs, 2 when a launch cannot run.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'compiled'))
from compare import SHARED_OPS, ncu_tables  # noqa: E402

GUARD = re.compile(r'^@(!?)(U?P[T0-9])\s+')
# The access class of a SASS opcode, as layoutproof ptx names a site's op.
CLASS = {'LDS': 'ld', 'LD': 'ld', 'STS': 'st', 'ST': 'st', 'ATOMS': 'atom', 'ATOM': 'atom', 'RED': 'red',
         'REDS': 'red', 'LDGSTS': 'ldgsts'}
MAX_ISSUES_SHOWN = 64  # --json lists at most this many distinct issues per instruction
# sm_90's SASS addresses the CTA's shared window from 0x400 (the 1 KiB the driver reserves comes
# first); PTX's symbols start at 0 (docs/compiled.md, "Shared memory").
SASS_SHARED_BASE = 0x400


def sass_access(text):
    """(class, width in bytes per lane, guard) of a SASS instruction's text; guard is '' (none),
    'never' (@!PT) or 'pred' (a predicate register)."""
    m = GUARD.match(text)
    guard = '' if not m else 'never' if (m.group(1), m.group(2)) == ('!', 'PT') else '' if m.group(2) == 'PT' else 'pred'
    parts = GUARD.sub('', text).split()[0].split('.')
    if parts[0] in ('LDSM', 'STSM'):  # LDSM.16.M88.4: four 8x8 matrices, 16 bytes a row
        return parts[0].lower()[:4] + parts[-1], 16, guard
    width = 4
    for p in parts[1:]:
        width = {'U8': 1, 'S8': 1, 'U16': 2, 'S16': 2, '64': 8, '128': 16}.get(p, width)
    return CLASS.get(parts[0], parts[0].lower()), width, guard


def run(tool, fmt, path, kernel, block, params):
    cmd = [tool, fmt, path, '--kernel', kernel, '--block', block, '--json']
    for p in params:
        cmd += ['--param', p]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1, 3):
        return None, f'exit {p.returncode}: {p.stderr.strip()[:300]}'
    return json.loads(p.stdout)['kernels'][0], ''


def lane_bytes(instrs, base=0):
    """What the instructions access, lane by lane: a multiset of (lane, shared byte - base), each
    issue as often as it ran; None where an instruction's issues are not all listed."""
    out = collections.Counter()
    for ins, width in instrs:
        if ins is None or len(ins.get('issues', [])) >= MAX_ISSUES_SHOWN:
            return None
        for i in ins['issues']:
            for lane, a in enumerate(i['addrs']):
                if a >= 0:
                    for b in range(a, a + width):
                        out[(lane, b - base)] += i['count']
    return out


def unknown_reason(k):
    for i in k['instructions']:
        for f in ('executed_unknown', 'counts_unknown'):
            if i.get(f):
                return f'line {i["line"]} {i["text"]}: ' + i[f].split('\n')[0][:240]
    if k.get('totals_unknown'):
        return k['totals_unknown'][:300]
    if k.get('stopped'):
        return 'a lane stopped: ' + str(k['stopped'])[:240]
    if k.get('not_run'):
        return 'not run: ' + k['not_run'][:240]
    return 'not known'


def sass_has_shared(sass_path, kernel):
    """Whether the kernel's function in a cuobjdump -sass listing has a shared-memory opcode."""
    inside, found = False, False
    for line in open(sass_path):
        if 'Function : ' in line:
            inside = line.split('Function : ')[1].strip() == kernel
            continue
        if inside and SHARED_OPS.search(line):
            found = True
    return found


def by_width(rows):
    """{width: [executed, wavefronts, ideal]}, a count None where not known."""
    out = collections.defaultdict(lambda: [0, 0, 0])
    for w, nums in rows:
        a = out[w]
        for j in range(3):
            a[j] = None if a[j] is None or nums[j] is None else a[j] + nums[j]
    return out


def explain(cls, ptx_sites, hw_rows, sass_by_off, cas):
    """Why class cls's numbers differ between the PTX and the SASS: (True, evidence lines), or
    (False, why there is none). ptx_sites: the PTX run's instructions of the class; hw_rows:
    (offset, text, executed, wavefronts, ideal, width, guard) as measured; sass_by_off: the SASS
    run's instructions by offset (layoutproof sass, whose numbers coverage.py holds to the measurement:
    its issues are used only where its numbers equal the measured ones)."""
    notes = []
    # ptxas's @!PT instructions: executed, never by a lane, 0 wavefronts.
    never = [r for r in hw_rows if r[6] == 'never' and r[3] == 0 and r[4] == 0]
    if never:
        notes.append(f'added: {len(never)} {never[0][1]!r} (ptxas\'s, no lane runs them: {sum(r[2] for r in never)} executed, 0 wavefronts)')
        hw_rows = [r for r in hw_rows if r not in never]
    P = by_width([(i['width_bytes'], (i['executed'], i['wavefronts'], i['ideal'])) for i in ptx_sites])
    H = by_width([(r[5], r[2:5]) for r in hw_rows])
    known = lambda p, h: all(a is None or a == b for a, b in zip(p, h))  # the PTX's stated numbers equal
    if all(known(P[w], H[w]) for w in set(P) | set(H)):
        return True, notes
    fmt = lambda d: ', '.join(f'{w} B: ' + '/'.join('?' if v is None else str(v) for v in d[w]) for w in sorted(d) if d[w][0])
    if cas and cls == 'atom':
        notes.append(f'lowered: the PTX\'s atom.shared.add.f32 is an LDS and an ATOMS.CAST.SPIN compare-and-swap loop in the SASS: '
                     f'PTX {fmt(P)}; SASS {fmt(H)} ({cas} executed ATOMS.CAST.SPIN: how often a lane retries, the other lanes decide)')
        return True, notes
    if cas and cls == 'ld':
        # The loop's LDS reads the old value before each compare-and-swap: as many 4-byte loads
        # more than the PTX's as the ATOMS.CAST.SPIN executed.
        words = lambda d: sum(w // 4 * (d[w][0] or 0) for w in d)
        if words(H) - words(P) != cas:
            return False, f'the SASS\'s loads exceed the PTX\'s by {words(H) - words(P)} words, the ATOMS.CAST.SPIN executed {cas}'
        notes.append(f'lowered: PTX {fmt(P)}; SASS {fmt(H)}: the SASS\'s loads exceed the PTX\'s by {cas} words, the '
                     f'executed ATOMS.CAST.SPIN (each compare-and-swap reads the old value with an LDS)')
        return True, notes
    # What each side accesses, lane by lane, where both list every issue.
    same = None
    sass_listed = [(sass_by_off.get(r[0]), r[5]) for r in hw_rows]
    if all(s is not None and [s['executed'], s['wavefronts'], s['ideal']] == list(r[2:5]) for (s, _), r in zip(sass_listed, hw_rows)):
        mp = lane_bytes([(i, i['width_bytes']) for i in ptx_sites])
        ms = lane_bytes(sass_listed, SASS_SHARED_BASE)
        if mp is not None and ms is not None:
            more, less = ms - mp, mp - ms
            same = ('the same lanes access the same bytes as often' if not more and not less else
                    f'the SASS also accesses {sum(more.values())} lane-bytes the PTX does not (a widened access)' if not less else
                    f'the SASS accesses {sum(less.values())} lane-bytes fewer (an access ptxas dropped or hoisted)' if not more else None)
            if same is None:  # each accesses what the other does not: not a regrouping
                return False, (f'each side accesses lane-bytes the other does not (PTX only: {sum(less.values())}, '
                               f'SASS only: {sum(more.values())})')
    pw = {w for w in P if P[w][0]}
    hw = {w for w in H if H[w][0]}
    if pw != hw:
        if same is None and not any(r[6] == 'pred' for r in hw_rows):  # every SASS execution has an active lane
            pb, sb = (sum(w * (d[w][0] or 0) for w in d) for d in (P, H))
            same = 'warp-bytes equal' if pb == sb else f'warp-bytes PTX {pb}, SASS {sb}'
        notes.append(f'merged: PTX {fmt(P)}; SASS {fmt(H)} (executed/wavefronts/ideal per width)' + (f'; {same}' if same else ''))
        return True, notes
    # The same widths: predication. Each width's wavefronts and ideal equal, the SASS executes more,
    # and no more than its guarded instructions did.
    for w in pw:
        p, h = P[w], H[w]
        if p[0] is None or h[0] < p[0] or not known(p[1:], h[1:]):
            return False, f'the same widths; {w} B: PTX ' + '/'.join(map(str, p)) + ', SASS ' + '/'.join(map(str, h))
        if h[0] - p[0] > sum(r[2] for r in hw_rows if r[5] == w and r[6] == 'pred'):
            return False, f'{w} B: the SASS executes {h[0] - p[0]} more than the PTX, more than its guarded instructions did'
    if same is not None and not same.startswith('the same'):
        return False, f'the same widths, and {same}'
    extra = sorted(w for w in pw if H[w][0] != P[w][0])
    if not extra:  # executed equal and a wavefront count the PTX does not state: nothing differs
        return True, notes
    guarded = sorted({r[1] for r in hw_rows if r[6] == 'pred' and r[5] in extra})
    notes.append('predicated: ' + ', '.join(f'{w} B: SASS {H[w][0]}, PTX {P[w][0]} executed' for w in extra) +
                 f', wavefronts and ideal equal; the excess lies in the guarded {"; ".join(guarded[:3])}' +
                 (f' (and {len(guarded) - 3} more)' if len(guarded) > 3 else '') + (f'; {same}' if same else ''))
    return True, notes


def unmatched(ptx_sites, hw_rows):
    """PTX sites and SASS instructions of one class whose (executed, wavefronts, ideal) have no
    equal on the other side: where to look."""
    p = collections.Counter((i['executed'], i['wavefronts'], i['ideal']) for i in ptx_sites)
    h = collections.Counter(tuple(r[2:5]) for r in hw_rows)
    out = []
    left_p, left_h = p - h, h - p
    for i in ptx_sites:
        t = (i['executed'], i['wavefronts'], i['ideal'])
        if left_p[t] > 0:
            left_p[t] -= 1
            out.append(f'    PTX  line {i["line"]:<6} {i["text"][:60]:60} {t[0]}/{t[1]}/{t[2]}')
    for r in hw_rows:
        if left_h[tuple(r[2:5])] > 0:
            left_h[tuple(r[2:5])] -= 1
            out.append(f'    SASS /*{r[0]:04x}*/ {r[1][:60]:60} {r[2]}/{r[3]}/{r[4]}')
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('-')]
    if len(args) < 3:
        print(__doc__)
        return 2
    tool, d, ptx_dir = args[0], args[1], args[2]
    if d.endswith('.tar.xz'):
        tmp = tempfile.TemporaryDirectory()
        with tarfile.open(d) as t:
            t.extractall(tmp.name, filter='data')
        d = tmp.name
    only = sys.argv[sys.argv.index('--only') + 1] if '--only' in sys.argv else None
    verbose = '-v' in sys.argv
    tables, rows, no_ptx, errors = {}, [], collections.Counter(), []
    for line in open(os.path.join(d, 'launches.txt')):
        if not line.strip() or line.startswith('#'):
            continue
        prog, kernel, block, ptx_params, sass_params, ncu_name = line.rstrip('\n').split(' ', 5)
        if only and prog != only:
            continue
        ptx = os.path.join(ptx_dir, prog + '.ptx')
        if not os.path.exists(ptx):
            no_ptx[prog] += 1
            continue
        ptx_params = [] if ptx_params == '-' else ptx_params.split(',')
        sass_params = ptx_params if sass_params == '=' else [] if sass_params == '-' else sass_params.split(',')
        if prog not in tables:
            csv = os.path.join(d, prog + '.ncu.csv')
            tables[prog] = ncu_tables(csv) if os.path.exists(csv) else {}
        k, err = run(tool, 'ptx', ptx, kernel, block, ptx_params)
        if k is None:
            errors.append(f'{prog} {kernel}: ptx {err}')
            continue
        t = k['totals']
        got = [t['executed'], t['wavefronts'], t['ideal']]
        row = {'prog': prog, 'kernel': kernel, 'ptx': got, 'sites': len(k['instructions'])}
        names = [n for n in tables[prog] if n.startswith(ncu_name)]
        if len(names) != 1:
            shared = sass_has_shared(os.path.join(d, prog + '.sass'), kernel)
            row.update(state='not measured', hw=None, n=0,
                       why=('its SASS has shared-memory instructions' if shared else 'no shared-memory instruction in its SASS') +
                       f'; ptx prints {got[0]}/{got[1]}/{got[2]}')
            rows.append(row)
            continue
        meas = [m for m in tables[prog][names[0]] if SHARED_OPS.search(m[1]) or m[3] > 0 or m[4] > 0]
        hw = [sum(m[j] for m in meas) for j in (2, 3, 4)]
        row.update(hw=hw, n=len(meas))
        stated_equal = all(g is None or g == h for g, h in zip(got, hw))
        if None not in got and stated_equal:
            row.update(state='equal', why='')
            rows.append(row)
            continue
        notes, unexplained = [], []
        if not stated_equal:
            s, err = run(tool, 'sass', os.path.join(d, prog + '.sass'), kernel, block, sass_params)
            sass_by_off = {i['sass_offset']: i for i in s['instructions']} if s else {}
            hw_rows = collections.defaultdict(list)
            for off, text, ex, wf, ideal in meas:
                cls, width, guard = sass_access(text)
                hw_rows[cls].append((off, text, ex, wf, ideal, width, guard))
            ptx_sites = collections.defaultdict(list)
            for i in k['instructions']:
                ptx_sites[i['op']].append(i)
            cas = sum(r[2] for r in hw_rows.get('atom', []) if 'CAST.SPIN' in r[1])
            for cls in sorted(set(hw_rows) | set(ptx_sites)):
                ok, why = explain(cls, ptx_sites[cls], hw_rows[cls], sass_by_off, cas)
                if ok:
                    notes += [f'{cls}: {w}' for w in why]
                else:
                    unexplained.append(cls)
                    notes.append(f'{cls}: no fusion evidence: {why}')
                    notes += unmatched(ptx_sites[cls], hw_rows[cls])
        if None in got:
            state = 'differs' if unexplained else 'unknown'
            why = unknown_reason(k) + ('' if stated_equal else f'; the totals it prints differ ({"no fusion evidence" if unexplained else "fused"})')
        else:
            state = 'differs' if unexplained else 'fused'
            why = ''
        row.update(state=state, why=why, notes=notes)
        rows.append(row)
    if '--markdown' in sys.argv:
        print('| program | kernel | shared SASS instr. | ptx executed / wavefronts / ideal | ncu | verdict |')
        print('| --- | --- | --- | --- | --- | --- |')
    short = lambda k: k if len(k) <= 50 else k[:34] + '..' + k[-14:]
    num = lambda v: '?' if v is None else str(v)
    for r in rows:
        p = '/'.join(num(v) for v in r['ptx'])
        h = '/'.join(str(v) for v in r['hw']) if r['hw'] else '-'
        kind = r['state']
        if kind == 'fused':
            kind += ' (' + ', '.join(sorted({n.split(': ')[1] for n in r['notes'] if ': ' in n and n.split(': ')[1] in
                                             ('merged', 'predicated', 'added', 'lowered')})) + ')'
        if '--markdown' in sys.argv:
            print(f'| {r["prog"]} | `{short(r["kernel"])}` | {r["n"]} | {p} | {h} | {kind} |')
        else:
            print(f'{r["prog"]:26} {r["kernel"][:56]:56} {r["state"]:12} ptx {p:20} ncu {h:20} {r["why"]}')
            if verbose or r['state'] == 'differs':
                for n in r.get('notes', []):
                    print('      ' + n)
    for p, c in sorted(no_ptx.items()):
        print(f'no PTX: {p} ({c} launches; skipped)')
    for e in errors:
        print('ERROR', e)
    count = collections.Counter(r['state'] for r in rows)
    instr = collections.Counter()
    for r in rows:
        instr[r['state']] += r['n']
    print(f'\nptx totals: {len(rows)} launches: ' +
          ', '.join(f'{count[s]} {s} ({instr[s]} shared-memory SASS instructions)' for s in ('equal', 'unknown', 'fused', 'differs')) +
          f', {count["not measured"]} not measured')
    return 2 if errors else 1 if count['differs'] else 0


if __name__ == '__main__':
    sys.exit(main())
