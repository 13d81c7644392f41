#!/usr/bin/env python3
"""gpu_check/probes/cg_ideal.cu's Nsight Compute table as bank-model cases (tests/bank/data's JSONL).

Usage: cg_ideal_table.py CG_IDEAL.csv > tests/bank/data/h200_cg_probe.jsonl

Each kernel cg<G, S, M> is one case: the active lanes' shared and global byte addresses (inactive
lanes -1), instruction "ldgsts.cg.alone" (one cp.async.cg, nothing else in flight), and the LDGSTS's
measured wavefronts and ideal. The arrangements are the probe's (its header comment).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'compiled'))
from compare import ncu_tables  # noqa: E402


def g_unit(g, l):
    return [l, l % 16 + 16 * (l // 16), 8 * l, l % 16 + 4 * (l // 16)][g]


def s_unit(s, l):
    return [l, l % 16 + 4 * (l // 16), 8 * l][s]


MASKS = [0xffffffff, 0x000f000f, 0xff, 0xf, 0x55555555]
G_NAMES = ['contiguous', 'rows256', 'line_each', 'rows64']
S_NAMES = ['contiguous', 'rows64', 'line_each']
M_NAMES = ['full', 'l0-3_16-19', 'l0-7', 'l0-3', 'even']


def main():
    for name, rows in sorted(ncu_tables(sys.argv[1]).items()):
        m = re.search(r'cgILi(\d)ELi(\d)ELi(\d)E', name)
        if not m:
            continue
        g, s, k = map(int, m.groups())
        ld = [r for r in rows if 'LDGSTS' in r[1]]
        assert len(ld) == 1, name
        _, sass, executed, wavefronts, ideal = ld[0]
        on = [(MASKS[k] >> l) & 1 for l in range(32)]
        print(json.dumps({
            'name': f'cg_g_{G_NAMES[g]}_s_{S_NAMES[s]}_{M_NAMES[k]}', 'op': 'ldgsts', 'width_bytes': 16,
            'lane_byte_addresses': [16 * s_unit(s, l) if on[l] else -1 for l in range(32)],
            'instruction': 'ldgsts.cg.alone',
            'global_byte_offsets': [16 * g_unit(g, l) if on[l] else -1 for l in range(32)],
            'sass': 'LDGSTS.E.BYPASS.128',
            'measured_wavefronts_per_instruction': float(wavefronts) / executed, 'measured_ideal': float(ideal) / executed,
            'gpu': 'NVIDIA H200 (sm_90)', 'source': 'gpu_check/probes/cg_ideal.cu'}))


if __name__ == '__main__':
    main()
