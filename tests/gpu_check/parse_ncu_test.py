#!/usr/bin/env python3
"""parse_ncu.py records the GPU Nsight Compute names in its CSV (device__attribute_display_name, CC),
never a fixed name; without those columns it says 'unknown GPU' (or $LAYOUTPROOF_GPU_NAME).
Usage: parse_ncu_test.py gpu_check/bank_probe/parse_ncu.py"""
import json, os, subprocess, sys, tempfile

script = sys.argv[1]
W = 'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'
lanes = ' '.join(str(4 * i) for i in range(32))


def run(header, row, env=None):
    with tempfile.TemporaryDirectory() as d:
        cases, csvp, out = (os.path.join(d, n) for n in ('cases.txt', 'ncu.csv', 'out.jsonl'))
        open(cases, 'w').write('c0 ld 4 ' + lanes + '\n')
        open(csvp, 'w').write('==PROF== noise\n' + ','.join('"%s"' % h for h in header) + '\n' +
                              ','.join('"%s"' % v for v in row) + '\n')
        subprocess.run([sys.executable, script, cases, csvp, out], check=True, env=env, capture_output=True)
        return json.loads(open(out).readline())


base_h = ['ID', 'Kernel Name', 'sass__inst_executed_shared_loads', W]
base_r = ['0', 'void k_ld<4>(const int *, unsigned int *)', '64', '128']
a = run(base_h + ['device__attribute_display_name', 'CC'], base_r + ['NVIDIA H100 80GB HBM3', '9.0'])
assert a['gpu'] == 'NVIDIA H100 80GB HBM3 (sm_90)', a
assert a['measured_wavefronts_per_instruction'] == 2.0, a
b = run(base_h, base_r, env={k: v for k, v in os.environ.items() if k != 'LAYOUTPROOF_GPU_NAME'})
assert b['gpu'] == 'unknown GPU', b
c = run(base_h + ['CC'], base_r + ['10.0'], env=dict(os.environ, LAYOUTPROOF_GPU_NAME='NVIDIA B200'))
assert c['gpu'] == 'NVIDIA B200 (sm_100)', c
print('ok   parse_ncu names the measured GPU:', a['gpu'], '|', b['gpu'], '|', c['gpu'])
