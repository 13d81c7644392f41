#!/usr/bin/env python3
"""parse_sweep.py DIR [DATA_DIR]: the sweep's measurements (run_sweep.sh's sweep.tgz, unpacked in
DIR) as JSONL cases in DATA_DIR (default tests/bank/data):
  h200_sweep_ldst.jsonl    the new LDS/STS patterns (sweep_gen.py section 1)
  h200_h100_cases.jsonl    the H100 data files' ld/st cases measured again on this GPU
  h200_ldgsts.jsonl        cp.async 4/8/16 bytes, with each lane's global byte offset
  h200_atomics.jsonl       atom/red.shared
Every case has the fields of the H100 files (name, op, width_bytes, lane_byte_addresses,
measured_wavefronts_per_instruction, gpu, counter) plus measured_ideal (Nsight Compute's
"L1 Wavefronts Shared Ideal"), per_launch (the wavefronts of each launch) and, for cp.async and
atomics, the instruction ("ldgsts.ca", "atom.add.u32", ...).

The instruction-to-pattern map is checked, not assumed: per launch of a kernel, its shared-memory
SASS rows (less ptxas's never-executed `@!PT LDS RZ, [RZ]`) must be exactly its patterns in number,
each of the intended opcode, each executed exactly once, and no other row may count a shared
wavefront; a kernel that fails is reported and left out (an atomic ptxas emulates with a loop, say).
The tables the device generated must have the md5 sums of the ones generated here."""
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = re.compile(r'\b(LDS|STS|LDSM|STSM|LDGSTS|ATOMS|ATOM|RED|LD|ST)\b')
COUNTER = 'ncu --section SourceCounters --page source: L1 Wavefronts Shared / Instructions Executed, per SASS instruction'


def opcode(source):
    """The opcode token of a SASS line, its guard ("@P0", "@!P1") dropped: "LDS.128"."""
    t = source.split()
    return t[1] if t and t[0].startswith('@') and len(t) > 1 else (t[0] if t else '')


def expected_opcode(op, w):
    """A predicate on the opcode token: one instruction of the intended kind and width."""
    if op in ('ld', 'st'):
        name = ('LDS' if op == 'ld' else 'STS') + {1: '.U8', 2: '.U16', 4: '', 8: '.64', 16: '.128'}[w]
        return lambda opc: opc == name
    if op in ('gld', 'gst'):  # generic: LD.E, LD.E.64, LD.E.128 (a .STRONG/.EF qualifier allowed)
        base = 'LD.E' if op == 'gld' else 'ST.E'
        suffix = {4: '', 8: '.64', 16: '.128'}[w]
        return lambda opc: opc.startswith(base) and (opc.endswith(suffix) if suffix else not opc.endswith(('.64', '.128')))
    if op.startswith('gatom') or op.startswith('gred'):
        return lambda opc: opc.startswith(('ATOM.E.', 'RED.E.'))
    if op.startswith('ldgsts'):
        suffix = {4: None, 8: '.64', 16: '.128'}[w]
        return lambda opc: opc.startswith('LDGSTS') and (opc.endswith(suffix) if suffix else not opc.endswith(('.64', '.128')))
    return lambda opc: opc.startswith('ATOMS.')


def sections(path):
    """[(kernel, [(source, executed, wavefronts, ideal)])]: one per launch. Nsight Compute prints
    each launch's source table twice, each under its own 'Kernel Name' line; the two must agree."""
    tables, rows = [], None
    for r in csv.reader(open(path, newline='')):
        if r and r[0] == 'Kernel Name':
            rows = []
            tables.append((r[1].split('(')[0], rows))
            continue
        if rows is None or not r or r[0] == 'Address' or len(r) < 5:
            continue
        num = lambda s: float(s.replace(',', '')) if s not in ('', '-') else 0.0
        rows.append((r[1].strip(), num(r[2]), num(r[3]), num(r[4])))
    assert len(tables) % 2 == 0 and all(tables[i] == tables[i + 1] for i in range(0, len(tables), 2)), path
    return tables[0::2]


def main():
    src = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, '..', '..', 'tests', 'bank', 'data')
    gen = tempfile.mkdtemp()
    subprocess.check_call([sys.executable, os.path.join(HERE, 'sweep_gen.py'), gen])
    md5 = {l.split()[1]: l.split()[0] for l in open(os.path.join(src, 'md5.txt'))}
    for f, h in md5.items():
        mine = hashlib.md5(open(os.path.join(gen, f), 'rb').read()).hexdigest()
        assert mine == h, '%s: the device generated other tables (%s, here %s)' % (f, h, mine)
    dev = open(os.path.join(src, 'device.txt')).read().splitlines()
    gpu = dev[1].split(',')[0].strip() + ' (sm_90)'
    by_kernel = {}
    for line in open(os.path.join(gen, 'manifest.jsonl')):
        d = json.loads(line)
        by_kernel.setdefault((d['program'], d['kernel']), []).append(d)
    results = {}  # (program, kernel) -> per pattern [(wavefronts, ideal) per launch]
    for (prog, kernel), pats in by_kernel.items():
        path = os.path.join(src, 'ncu_%s.csv' % prog)
        if not os.path.exists(path):
            continue
        launches = [rows for k, rows in sections(path) if k == kernel]
        if not launches:
            print('%s/%s: not measured' % (prog, kernel))
            continue
        want = expected_opcode(pats[0]['op'], pats[0]['width_bytes'])
        ok = []
        for rows in launches:
            rows = [r for r in rows if not r[0].startswith('@!PT')]
            shared = [r for r in rows if SHARED.search(r[0])]
            stray = [r for r in rows if not SHARED.search(r[0]) and r[2] != 0]
            bad = [r for r in shared if not want(opcode(r[0])) or r[1] != 1]
            if len(shared) != len(pats) or bad or stray:
                print('%s/%s: map check FAILED: %d shared rows for %d patterns, %d off-opcode or executed != 1 (%s), %d stray'
                      % (prog, kernel, len(shared), len(pats), len(bad), bad[:2], len(stray)))
                ok = None
                break
            ok.append([(r[2], r[3], opcode(r[0])) for r in shared])
        if ok:
            results[(prog, kernel)] = ok
            print('%s/%s: %d patterns x %d launches, map exact (%s)' % (prog, kernel, len(pats), len(ok), shared[0][0]))
    files = {'ldst_a': 'h200_sweep_ldst.jsonl', 'ldst_b': 'h200_sweep_ldst.jsonl', 'h100': 'h200_h100_cases.jsonl',
             'generic': 'h200_generic.jsonl', 'generic_scoped': 'h100_generic_scoped.jsonl'}
    outs = {}
    for (prog, kernel), per_launch in sorted(results.items()):
        for i, d in enumerate(by_kernel[(prog, kernel)]):
            op = d['op']
            fname = files.get(prog) or ('h200_ldgsts.jsonl' if op.startswith('ldgsts') else 'h200_atomics.jsonl')
            wf = [l[i][0] for l in per_launch]
            generic = prog.startswith('generic')
            if generic:
                op = op[1:]  # the instruction's own op; 'generic' says how it was addressed
            rec = {'name': d['name'], 'op': 'ldgsts' if op.startswith('ldgsts') else ('atom' if '.' in op else op),
                   'width_bytes': d['width_bytes'], 'lane_byte_addresses': d['lane_byte_addresses']}
            if '.' in op:
                rec['instruction'] = op
            if generic:
                rec['address'] = 'generic'
            if 'global_byte_offsets' in d:
                rec['global_byte_offsets'] = d['global_byte_offsets']
            rec.update({'sass': per_launch[0][i][2], 'measured_wavefronts_per_instruction': max(wf), 'measured_ideal': per_launch[0][i][1],
                        'per_launch': wf, 'gpu': gpu, 'counter': COUNTER, 'kernel': kernel})
            outs.setdefault(fname, []).append(rec)
    for fname, recs in outs.items():
        with open(os.path.join(data, fname), 'w') as f:
            for r in recs:
                f.write(json.dumps(r) + '\n')
        varied = sum(1 for r in recs if len(set(r['per_launch'])) > 1)
        print('%s: %d cases, %d vary between launches' % (fname, len(recs), varied))
    for (prog, kernel) in sorted(by_kernel):
        if (prog, kernel) not in results and os.path.exists(os.path.join(src, 'ncu_%s.csv' % prog)):
            print('left out: %s/%s (%s)' % (prog, kernel, by_kernel[(prog, kernel)][0]['op']))


if __name__ == '__main__':
    main()
