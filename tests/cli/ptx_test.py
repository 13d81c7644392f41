#!/usr/bin/env python3
"""`layoutproof ptx` against counts computed here, independently: ptx_test.py LAYOUTPROOF REPO_ROOT

examples/ptx/kernels.ptx is nvcc's PTX of examples/ptx/kernels.cu. For each kernel this test writes
down, from the CUDA source alone, every warp-level shared-memory access a 32-thread CTA makes (the
byte address of each lane) and counts its wavefronts with the plain bank rule (a 4-byte access is
one phase of 32 lanes, 8 bytes two phases of 16, 16 bytes and ldmatrix rows four phases of 8; a
phase takes as many wavefronts as the most distinct 4-byte words one bank holds). The tool's JSON
must give the same executed issues, wavefronts and ideal wavefronts per CUDA source line and per
kernel, and conflict-free must be REFUTED exactly where some issue exceeds its ideal. Also: bad
input is exit 2 with FILE:LINE:COL, and a parameter not given makes what depends on it UNKNOWN."""
import json
import re
import os
import subprocess
import sys
import tempfile


def wavefronts(addrs, width):
    lanes_per_phase = {1: 32, 2: 32, 4: 32, 8: 16, 16: 8}[width]
    wf = 0
    for p in range(0, 32, lanes_per_phase):
        banks = {}
        for a in addrs[p:p + lanes_per_phase]:
            for w in range(a // 4, (a + width - 1) // 4 + 1):
                banks.setdefault(w % 32, set()).add(w)
        wf += max(len(v) for v in banks.values())
    return wf


def ideal(width):
    return {1: 1, 2: 1, 4: 1, 8: 2, 16: 4}[width]


def main():
    binary, root = sys.argv[1], sys.argv[2]
    src = open(os.path.join(root, 'examples/ptx/kernels.cu')).read().split('\n')
    ptx = os.path.join(root, 'examples/ptx/kernels.ptx')

    def line_of(text, after=0):
        return next(i + 1 for i, l in enumerate(src) if i + 1 > after and text in l)

    def kernel_line(name):
        return line_of('void ' + name + '(')

    T = range(32)
    cases = {}  # kernel -> (params, {source line: [(addrs, width), ...]})
    k = kernel_line('padded_rows')
    cases['padded_rows'] = ([], {line_of('s[i * 33 + t] = t;', k): [([4 * (i * 33 + t) for t in T], 4) for i in range(32)],
                                 line_of('acc += s[t * 33 + i];', k): [([4 * (t * 33 + i) for t in T], 4) for i in range(32)]})
    k = kernel_line('column_read')
    cases['column_read'] = ([], {line_of('s[t] = t;', k): [([4 * t for t in T], 4)],
                                 line_of('out[t] = s[t * 32];', k): [([128 * t for t in T], 4)]})
    k = kernel_line('broadcast')
    cases['broadcast'] = (['--param', '1=5'], {line_of('s[t] = t;', k): [([4 * t for t in T], 4)],
                                               line_of('out[t] = s[k];', k): [([4 * 5] * 32, 4)]})
    k = kernel_line('stride_two')
    cases['stride_two'] = ([], {line_of('s[2 * t] = t;', k): [([8 * t for t in T], 4)],
                                line_of('out[t] = s[2 * t];', k): [([8 * t for t in T], 4)]})
    k = kernel_line('vector_rows')
    cases['vector_rows'] = ([], {line_of('s[t] = make_float4', k): [([16 * t for t in T], 16)],
                                 line_of('out[t] = s[t];', k): [([16 * t for t in T], 16)]})
    k = kernel_line('ldmatrix_swizzled')
    cases['ldmatrix_swizzled'] = ([], {line_of('s[i] = i;', k): [([2 * (t + 32 * j) for t in T], 2) for j in range(64)],
                                       line_of('asm volatile("ldmatrix', k): [([2 * (t * 64 + ((0 ^ (t & 7)) * 8)) for t in T], 16)]})
    k = kernel_line('cp_async_rows')
    cases['cp_async_rows'] = ([], {line_of('out[t] = s[t];', k): [([16 * t for t in T], 16)]})
    cp_async = [([16 * t for t in T], 16), ([16 * (t + 32) for t in T], 16)]  # in CUDA's pipeline header
    k = kernel_line('ring_stages')
    tiles = 6
    cases['ring_stages'] = (['--param', f'1={tiles}'],
                            {line_of('s[stage * 256 + row * 32', k): [([4 * ((kk % 3) * 256 + (t // 4) * 32 + ((t % 4) ^ ((t // 4) & 3)) * 8) for t in T], 4)
                                                                      for kk in range(tiles)],
                             line_of('acc += s[stage * 256 + t];', k): [([4 * ((kk % 3) * 256 + t) for t in T], 4) for kk in range(tiles)]})
    failures = []
    for name, (params, by_line) in cases.items():
        p = subprocess.run([binary, 'ptx', ptx, '--kernel', name, '--block', '32', '--claim', 'conflict-free', '--json'] + params,
                           capture_output=True, text=True)
        kern = json.loads(p.stdout)['kernels'][0] if p.stdout.startswith('{') else None
        # An instruction no lane runs (an unrolled loop's remainder) is UNKNOWN, NOT RUN: exit 3
        # when that is the only doubt and no conflict exists.
        not_run_only = kern is not None and all(v['verdict'] != 'UNKNOWN' or v['detail'].startswith('NOT RUN')
                                                for i in kern['instructions'] for v in i['verdicts'])
        if p.returncode not in (0, 1) and not (p.returncode == 3 and not_run_only):
            failures.append(f'{name}: exit {p.returncode}: {p.stderr}')
            continue
        got = {}
        for ins in kern['instructions']:
            src = ins['source']  # path:line of the CUDA source, from .loc
            line = int(src.rsplit(':', 1)[1]) if src.endswith(tuple(f'kernels.cu:{n}' for n in by_line)) else -1
            g = got.setdefault(line, [0, 0, 0, False])
            g[0] += ins['executed']
            g[1] += ins['wavefronts']
            g[2] += ins['ideal']
            g[3] = g[3] or any(v['verdict'] == 'REFUTED' for v in ins['verdicts'])
        if name == 'cp_async_rows':  # the cp.async lines are the pipeline header's
            by_line[-1] = cp_async
        for ln, issues in by_line.items():
            want = [len(issues), sum(wavefronts(a, w) for a, w in issues), sum(ideal(w) for a, w in issues),
                    any(wavefronts(a, w) > ideal(w) for a, w in issues)]
            if got.get(ln) != want:
                failures.append(f'{name} line {ln}: got {got.get(ln)}, want [executed, wavefronts, ideal, refuted] = {want}')
        tot = kern['totals']
        want_tot = [sum(len(v) for v in by_line.values()), sum(wavefronts(a, w) for v in by_line.values() for a, w in v)]
        if [tot['executed'], tot['wavefronts']] != want_tot:
            failures.append(f'{name} totals: got {tot}, want executed, wavefronts = {want_tot}')
        if (p.returncode == 1) != any(wavefronts(a, w) > ideal(w) for v in by_line.values() for a, w in v) or p.returncode == 2:
            failures.append(f'{name}: exit {p.returncode} does not say whether a conflict exists')
    # A parameter not given is a symbol: s[k] is conflict-free for every k, and PROVED says so.
    p = subprocess.run([binary, 'ptx', ptx, '--kernel', 'broadcast', '--block', '32', '--claim', 'conflict-free'], capture_output=True, text=True)
    if p.returncode != 0 or 'for every 32-bit value of parameter 1' not in p.stdout:
        failures.append(f'broadcast without its parameter: exit {p.returncode}: {p.stdout}')
    # Never a stale value: a guarded write whose guard is not known, and a vector destination, make
    # what they write not known (UNKNOWN), where keeping the old value would prove a wrong address.
    guarded = """.version 9.0
.target sm_90
.visible .entry g(
  .param .u32 g_p0
)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  .shared .align 4 .b8 s[256];
  ld.param.u32 %r1, [g_p0];
  mov.u32 %r2, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mov.u32 %r2, 0;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, s;
  add.s32 %r3, %r3, %r4;
  st.shared.u32 [%r3], %r2;
  mov.b64 {%r5, %r2}, %rd1;
  ld.shared.u32 %r1, [%r5];
  ret;
}
"""
    with tempfile.NamedTemporaryFile('w', suffix='.ptx', delete=False) as f:
        f.write(guarded)
        gpath = f.name
    p = subprocess.run([binary, 'ptx', gpath, '--block', '32', '--claim', 'conflict-free', '--json'], capture_output=True, text=True)
    verdicts = [v['verdict'] for i in json.loads(p.stdout)['kernels'][0]['instructions'] for v in i['verdicts']] if p.returncode == 3 else []
    if verdicts != ['UNKNOWN', 'UNKNOWN']:
        failures.append(f'guarded write / vector destination: exit {p.returncode}, verdicts {verdicts}: {p.stdout} {p.stderr}')
    p = subprocess.run([binary, 'ptx', gpath, '--block', '32', '--param', '0=1', '--claim', 'conflict-free', '--json'], capture_output=True, text=True)
    verdicts = [v['verdict'] for i in json.loads(p.stdout)['kernels'][0]['instructions'] for v in i['verdicts']] if p.returncode == 3 else []
    if verdicts != ['PROVED', 'UNKNOWN']:
        failures.append(f'guard known false: exit {p.returncode}, verdicts {verdicts}: {p.stdout} {p.stderr}')
    os.unlink(gpath)
    # The totals sum the counted instructions: a generic store whose address is not known (it may hit
    # the shared window, and Nsight Compute would count it) leaves them "?" / null, saying why; the
    # counted store keeps its own numbers.
    generic = """.version 9.0
.target sm_90
.address_size 64
.visible .entry g(
  .param .u64 g_p0
)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[128];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.s32 %r2, %r2, %r3;
  st.shared.u32 [%r2], %r1;
  ld.param.u64 %rd1, [g_p0];
  ld.global.u64 %rd2, [%rd1];
  st.u32 [%rd2], %r1;
  ret;
}
"""
    with tempfile.NamedTemporaryFile('w', suffix='.ptx', delete=False) as f:
        f.write(generic)
        gpath = f.name
    p = subprocess.run([binary, 'ptx', gpath, '--block', '32', '--json'], capture_output=True, text=True)
    k = json.loads(p.stdout)['kernels'][0] if p.stdout.startswith('{') else {}
    ins = k.get('instructions', [{}])
    if (k.get('totals') != {'executed': None, 'wavefronts': None, 'ideal': None} or 'st.u32 may touch shared memory' not in k.get('totals_unknown', '')
            or [ins[0].get('executed'), ins[0].get('wavefronts')] != [1, 1]):
        failures.append(f'totals with a generic store not known: exit {p.returncode}: {p.stdout[:600]} {p.stderr}')
    p = subprocess.run([binary, 'ptx', gpath, '--block', '32'], capture_output=True, text=True)
    if not re.search(r'totals\s+\?\s+\?\s+\?', p.stdout) or 'note: totals not known: line' not in p.stdout:
        failures.append(f'totals text with a generic store not known: {p.stdout}')
    os.unlink(gpath)
    # Malformed PTX: exit 2, FILE:LINE:COL and a caret.
    with tempfile.NamedTemporaryFile('w', suffix='.ptx', delete=False) as f:
        f.write('.version 9.0\n.target sm_90\n.visible .entry k(\n)\n{\n  mov.u32 %r1, %tid.x;\n  st.shared.f32 [%r1], %f1\n')
        bad = f.name
    p = subprocess.run([binary, 'ptx', bad, '--block', '32'], capture_output=True, text=True)
    os.unlink(bad)
    if p.returncode != 2 or not re.search(r'\.ptx:[57]:\d+:', p.stderr) or '^' not in p.stderr:  # the open '{' or the unended line
        failures.append(f'malformed PTX: exit {p.returncode}: {p.stderr}')
    for f in failures:
        print('FAIL', f)
    print(f'ptx: {len(cases)} kernels checked against independent counts, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
