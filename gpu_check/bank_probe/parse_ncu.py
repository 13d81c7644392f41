#!/usr/bin/env python3
"""parse_ncu.py CASES NCU_CSV OUT_JSONL: divides the wavefront counter of each launch by its
executed shared instructions and writes one JSON case per line (same fields as
shared/hardware/h100_shared_memory_wavefronts.jsonl). Launch k of the CSV is case k of CASES."""
import csv, json, os, sys

cases_path, csv_path, out_path = sys.argv[1:4]
cases = []
for line in open(cases_path):
    if line.startswith('#') or not line.strip():
        continue
    t = line.split()
    cases.append((t[0], t[1], int(t[2]), [int(x) for x in t[3:35]]))
rows = list(csv.reader(l for l in open(csv_path) if l.startswith('"')))
hdr = rows[0]
col = {h: i for i, h in enumerate(hdr)}
data = [r for r in rows if r[0] not in ('ID',) and r[col['Kernel Name']]]
data = [r for r in data if r[0] != '' and r[0].isdigit()]
assert len(data) == len(cases), (len(data), len(cases))
def num(s):
    return float(s.replace(",", ""))


def device_of(r):
    """The GPU that ran launch r, as Nsight Compute recorded it ("NVIDIA H200 (sm_90)"); never a fixed
    name: without the device columns, $LAYOUTPROOF_GPU_NAME or "unknown GPU"."""
    name = r[col['device__attribute_display_name']] if 'device__attribute_display_name' in col else ''
    cc = r[col['CC']].replace('.', '') if 'CC' in col else ''
    name = name or os.environ.get('LAYOUTPROOF_GPU_NAME', 'unknown GPU')
    return name + (' (sm_%s)' % cc if cc else '')


K_ITERS = 64.0  # kIters in probe.cu
W = 'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_%s.sum'
out = open(out_path, 'w')
bad = 0
for (name, op, w, a), r in zip(cases, data):
    kind = op.rstrip('124') if op.startswith(('ldsm', 'stsm')) else op
    kname = r[col['Kernel Name']]
    expect = {'ld': 'k_ld<', 'st': 'k_st<', 'ldsm': 'k_ldsm<', 'stsm': 'k_stsm<', 'ldgsts': 'k_ldgsts<'}[kind]
    assert expect in kname, (name, kname)
    if (W % kind) not in col:
        bad += 1
        print('no counter', W % kind, 'for', name, file=sys.stderr)
        continue
    wf = num(r[col[W % kind]])
    if kind == 'ldsm':
        inst = num(r[col['smsp__sass_inst_executed_op_ldsm.sum']])
    elif kind == 'stsm':
        # sass__inst_executed_shared_stores does not count STSM; use the STSM counter when it was
        # collected, else the kernel's loop count (STSM is never hoisted: see docs/bank_model.md).
        c = col.get('smsp__sass_inst_executed_op_shared_stsm.sum')
        inst = num(r[c]) if c is not None else K_ITERS
    elif kind == 'ldgsts':
        c = col.get('smsp__sass_inst_executed_op_ldgsts.sum')
        inst = num(r[c]) if c is not None else K_ITERS
    else:
        inst = num(r[col['sass__inst_executed_shared_stores' if kind == 'st' else 'sass__inst_executed_shared_loads']])
    other = sum(num(r[col[W % k]]) for k in ('ld', 'st', 'ldsm', 'stsm', 'ldgsts') if k != kind and (W % k) in col)
    if inst <= 0 or other != 0:
        bad += 1
        print('suspicious', name, wf, inst, other, file=sys.stderr)
        continue
    out.write(json.dumps({"name": name, "op": op, "width_bytes": w, "lane_byte_addresses": a,
                          "measured_wavefronts_per_instruction": wf / inst,
                          "gpu": device_of(r),
                          "counter": "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st,ldsm,stsm}.sum / sass__inst_executed_shared_{loads,stores}"}) + "\n")
print(len(data) - bad, 'cases written,', bad, 'suspicious', file=sys.stderr)
