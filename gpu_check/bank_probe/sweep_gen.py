#!/usr/bin/env python3
"""sweep_gen.py OUTDIR: the per-instruction bank sweep (docs/bank_model.md, "The H200 sweep").

Writes, for each program P of PROGRAMS:
  OUTDIR/sweep_P.cu   single-warp kernels; pattern i of a kernel is ONE predicated inline-PTX
                      shared-memory instruction (@p ld/st.shared, cp.async, atom/red.shared) whose
                      lane address comes from a per-lane table in global memory, so ptxas folds
                      nothing; a lane with address -1 has p false (inactive).
  OUTDIR/sweep_P.txt  the tables: K, then per kernel its pattern count and one line per pattern
                      (32 shared byte offsets, then 32 global byte offsets for cp.async).
and OUTDIR/manifest.jsonl: one line per pattern (program, kernel, index, name, op, width, lanes).

Order is fixed in the SASS so that instruction k of a kernel is pattern k: each load's address
depends on the previous load's value (and-ed with a runtime 0), atomics with results likewise,
stores, red and cp.async are separated by bar.warp.sync / cp.async.wait_all. parse_sweep.py checks
it: exactly one SASS instruction of the intended opcode per pattern, each executed once per launch.
Deterministic: the same OUTDIR contents on every run (fixed seeds).
"""
import glob
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PER_KERNEL = 400  # patterns per kernel: keeps each kernel's SASS a few thousand instructions

# ---------------------------------------------------------------------------------------------
# Lane-address patterns for LDS/STS (shared byte offsets; -1 = inactive).


def masks(rng):
    """Named lane masks: full, halves, quarters, alternating, random densities."""
    out = [('full', [True] * 32)]
    out.append(('half0', [l < 16 for l in range(32)]))
    out.append(('half1', [l >= 16 for l in range(32)]))
    out.append(('q02', [(l // 8) % 2 == 0 for l in range(32)]))
    out.append(('even', [l % 2 == 0 for l in range(32)]))
    out.append(('odd', [l % 2 == 1 for l in range(32)]))
    out.append(('no31', [l != 31 for l in range(32)]))
    for d in (0.25, 0.5, 0.75):
        m = [rng.random() < d for _ in range(32)]
        if not any(m):
            m[0] = True
        out.append(('rand%d' % int(100 * d), m))
    return out


def apply(mask, addrs):
    a = [x if m else -1 for x, m in zip(addrs, mask)]
    if all(x < 0 for x in a):
        a[min(i for i in range(32) if addrs[i] >= 0)] = addrs[min(i for i in range(32) if addrs[i] >= 0)]
    return a


def group_addresses(w, ngroups, kind, rng):
    """One byte address per broadcast group."""
    if kind == 'seq':  # consecutive slots: conflict-free
        return [k * w for k in range(ngroups)]
    if kind == 'bank':  # every group on bank 0, a different 128-byte row: conflicting
        return [k * 128 for k in range(ngroups)]
    if kind == 'rowpad':  # rows of 128 + w bytes (a padded tile's column)
        return [k * (128 + w) for k in range(ngroups)]
    if kind == 'half':  # pairs of groups on one bank
        return [(k // 2) * w + (k % 2) * 512 for k in range(ngroups)]
    return [rng.randrange(0, 8192 // w) * w for _ in range(ngroups)]  # random in 8 KiB


def lane_groups(g, layout, rng):
    """Lane -> group index for broadcast groups of g lanes."""
    n = 32 // g
    if layout == 'contig':
        return [l // g for l in range(32)]
    if layout == 'strided':
        return [l % n for l in range(32)]
    p = list(range(32))
    rng.shuffle(p)
    return [p.index(l) // g for l in range(32)]


def ldst_patterns(w, rng, budget):
    """Broadcast groups, quarter/half sharing, the GEMM load, pools, random linear/XOR maps."""
    pats = []
    ms = masks(rng)
    for g in (1, 2, 4, 8, 16, 32):
        for layout in ('contig', 'strided', 'shuffled'):
            if g in (1, 32) and layout != 'contig':
                continue
            for kind in ('seq', 'bank', 'rowpad', 'half', 'rand'):
                grp = lane_groups(g, layout, rng)
                ga = group_addresses(w, 32 // g, kind, rng)
                base = [ga[grp[l]] for l in range(32)]
                for mn, m in ms:
                    pats.append(('bcast_g%d_%s_%s_%s' % (g, layout, kind, mn), apply(m, base)))
    # The register-blocked GEMM load: lanes 0-15 on A, 16-31 on B; quarter-warps on 4 addresses;
    # lanes i and i+16 (i+8) on one address.
    for t in range(60):
        A = rng.randrange(0, 4096 // w) * w
        B = [A, A + w, A + 128, A + 32, rng.randrange(0, 4096 // w) * w][t % 5]
        for mn, m in ms[:4] + ms[6:]:
            pats.append(('gemm_halves_%d_%s' % (t, mn), apply(m, [A if l < 16 else B for l in range(32)])))
    for t in range(40):
        q = [rng.randrange(0, 2048 // w) * w for _ in range(4)]
        if t % 4 == 0:
            q = [0, 0, 128, 128]
        if t % 4 == 1:
            q = [k * w for k in range(4)]
        for mn, m in (ms[0], ms[4], ms[7], ms[8]):
            pats.append(('quarters_%d_%s' % (t, mn), apply(m, [q[l // 8] for l in range(32)])))
    for t in range(40):
        mod = (8, 16, 4, 2)[t % 4]
        sl = [rng.randrange(0, 2048 // w) * w for _ in range(mod)] if t >= 4 else [k * w for k in range(mod)]
        for mn, m in (ms[0], ms[1], ms[2], ms[8]):
            pats.append(('mod%d_%d_%s' % (mod, t, mn), apply(m, [sl[l % mod] for l in range(32)])))
    # Pools: k distinct addresses in a window, assigned to lanes at random.
    while len(pats) < budget * 0.6:
        k = rng.choice((1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32))
        win = rng.choice((128, 256, 512, 1024, 4096))
        pool = [rng.randrange(0, win // w) * w for _ in range(k)]
        a = [rng.choice(pool) for _ in range(32)]
        mn, m = rng.choice(ms)
        pats.append(('pool_k%d_win%d_%s_%d' % (k, win, mn, len(pats)), apply(m, a)))
    # Random structured maps: slot(lane) = XOR (or sum) over lane bits b of v_b; v_b = 0 makes
    # lanes differing in bit b share an address (a broadcast along that bit).
    while len(pats) < budget:
        vs = [rng.choice((0, 0, 1, 2, 4, 8, 16, 32, 64, 128 // w, 256 // w, rng.randrange(1, 512 // w))) for _ in range(5)]
        xor = rng.random() < 0.5
        off = rng.randrange(0, 64) * w
        a = []
        for l in range(32):
            s = 0
            for b in range(5):
                if (l >> b) & 1:
                    s = (s ^ vs[b]) if xor else (s + vs[b])
            a.append(off + s * w)
        mn, m = rng.choice(ms)
        pats.append(('lin_%s_%s_%s_%d' % ('xor' if xor else 'add', '-'.join(map(str, vs)), mn, len(pats)), apply(m, a)))
    return pats


# ---------------------------------------------------------------------------------------------
# cp.async: shared destinations x global sources.


def ldgsts_patterns(w, rng):
    g_kinds = {
        'coal': [l * w for l in range(32)],
        'rev': [(31 - l) * w for l in range(32)],
        'perm': None,  # a random permutation of coal
        'same': [0] * 32,
        'pairs': [(l // 2) * w for l in range(32)],
        'stride32': [l * 32 for l in range(32)],
        'stride64': [l * 64 for l in range(32)],
        'stride128': [l * 128 for l in range(32)],
        'stride256': [l * 256 for l in range(32)],
        'stride2w': [l * 2 * w for l in range(32)],
        'lines4': [(l // 4) * 1024 + (l % 4) * w for l in range(32)],  # 8 lines, 4 contiguous lanes each
        'lines8': [(l // 8) * 1024 + (l % 8) * w for l in range(32)],
        'halves': [(l // 16) * 4096 + (l % 16) * w for l in range(32)],
        'padrow': [(l // 4) * 528 + (l % 4) * w for l in range(32)],  # rows of a padded tile
        'pad33': [l * 132 for l in range(32)],  # a padded f32 tile's column (aligned down below)
        'scatter': None,
    }
    s_kinds = {
        'cf': [l * w for l in range(32)],
        'cfperm': None,
        'bank0': [l * 128 for l in range(32)],
        'two_way': [(l % 16) * w + (l // 16) * 2048 for l in range(32)] if w < 16 else [(l % 4) * w + (l // 4) * 256 for l in range(32)],
        'same': [0] * 32,
        'pad': [(l // 4) * (128 + 16) + (l % 4) * w for l in range(32)] if w < 16 else [(l // 8) * (128 + 16) + (l % 8) * w for l in range(32)],
        'swz': [((l ^ (l >> 3)) % 32) * w for l in range(32)],
    }
    ms = [('full', [True] * 32), ('half0', [l < 16 for l in range(32)]), ('rand50', [rng.random() < 0.5 for _ in range(32)])]
    pats = []
    for gn, g in g_kinds.items():
        for sn, s in s_kinds.items():
            for mn, m in ms:
                if mn != 'full' and sn not in ('cf', 'bank0'):
                    continue
                gg = g
                if gn == 'perm':
                    p = list(range(32)); rng.shuffle(p); gg = [p[l] * w for l in range(32)]
                if gn == 'scatter':
                    gg = [rng.randrange(0, 32) * 1024 + rng.randrange(0, 128 // w) * w for _ in range(32)]
                ss = s
                if sn == 'cfperm':
                    p = list(range(32)); rng.shuffle(p); ss = [p[l] * w for l in range(32)]
                gg = [x - x % w for x in gg]
                a = [x if mm else -1 for x, mm in zip(ss, m)]
                if all(x < 0 for x in a):
                    a[0] = ss[0]
                pats.append(('g_%s_s_%s_%s' % (gn, sn, mn), a, gg))
    for t in range(60):  # random lines x random shared slots
        nl = rng.choice((1, 2, 4, 8, 16, 32))
        lines = [rng.randrange(0, 64) for _ in range(nl)]
        gg = [lines[rng.randrange(nl)] * 128 + rng.randrange(0, 128 // w) * w for _ in range(32)]
        ss = [rng.randrange(0, 4096 // w) * w for _ in range(32)]
        pats.append(('rand_lines%d_%d' % (nl, t), ss, gg))
    return pats


# ---------------------------------------------------------------------------------------------
# Atomics: op spelling -> (width, PTX template); %A = address register, results/values per op.

ATOMICS = [
    ('atom.add.u32', 4), ('atom.add.u64', 8), ('atom.exch.b32', 4), ('atom.exch.b64', 8),
    ('atom.cas.b32', 4), ('atom.cas.b64', 8), ('atom.min.s32', 4), ('atom.max.u32', 4),
    ('atom.and.b32', 4), ('atom.or.b64', 8), ('atom.inc.u32', 4), ('atom.add.f32', 4),
    ('red.add.u32', 4), ('red.add.u64', 8), ('red.add.f32', 4), ('atom.add.f64', 8),
]


def atomic_patterns(w, rng):
    pats = []
    full = [True] * 32
    base = {
        'distinct': [l * w for l in range(32)],
        'same': [0] * 32,
        'bank2': [(l % 16) * w + (l // 16) * 128 * (w // 4) * 4 for l in range(32)],
        'bank0': [l * 128 for l in range(32)],
        'stride2w': [l * 2 * w for l in range(32)],
        'pairs': [(l // 2) * w for l in range(32)],
        'quads': [(l // 4) * w for l in range(32)],
        'g8': [(l // 8) * w for l in range(32)],
        'g16': [(l // 16) * w for l in range(32)],
        'mod2': [(l % 2) * w for l in range(32)],
        'mod8': [(l % 8) * w for l in range(32)],
        'halves_bank': [(l // 16) * 128 for l in range(32)],
        'pairs_bank': [(l // 2) * 128 for l in range(32)],
        'half_same': [l * w if l < 16 else 0 for l in range(32)],
    }
    for k in (4, 8):
        base['bank%dway' % k] = [(l % (32 // k)) * w + (l // (32 // k)) * 128 * (1 if w == 4 else 2) for l in range(32)]
    ms = [('full', full), ('half0', [l < 16 for l in range(32)]), ('one', [l == 5 for l in range(32)]),
          ('rand50', [rng.random() < 0.5 for _ in range(32)])]
    for bn, b in base.items():
        for mn, m in ms:
            if mn != 'full' and bn not in ('distinct', 'same', 'bank0', 'pairs'):
                continue
            pats.append(('%s_%s' % (bn, mn), [x if mm else -1 for x, mm in zip(b, m)]))
    for t in range(16):
        k = rng.choice((1, 2, 4, 8, 16, 32))
        pool = [rng.randrange(0, 1024 // w) * w for _ in range(k)]
        pats.append(('pool%d_%d' % (k, t), [rng.choice(pool) for _ in range(32)]))
    return pats


# ---------------------------------------------------------------------------------------------
# Code generation.

LD = {1: ('ld.shared.u8 %0, [%2];', 1), 2: ('ld.shared.u16 %0, [%2];', 1), 4: ('ld.shared.u32 %0, [%2];', 1),
      8: ('ld.shared.v2.u32 {%0,%1}, [%3];', 2), 16: ('ld.shared.v4.u32 {%0,%1,%2,%3}, [%5];', 4)}
ST = {1: 'st.shared.u8 [%1], %2;', 2: 'st.shared.u16 [%1], %2;', 4: 'st.shared.u32 [%1], %2;',
      8: 'st.shared.v2.u32 [%1], {%2,%3};', 16: 'st.shared.v4.u32 [%1], {%2,%3,%4,%5};'}


def body(kind, op, w, i):
    """C++ for pattern i of one kernel: table read, one predicated instruction, ordering. Kinds
    gld/gst/gatom are ld/st/atom through a generic address in the shared window: `gen` is the
    window address of smem xor-ed with the runtime 0 `mask`, so ptxas cannot see the window and
    emits the generic LD/ST/ATOM it would for cooperative groups' or templated code's pointers."""
    if kind in ('gld', 'gst', 'gatom'):
        code = body(kind[1:], op[1:], w, i)
        code = code.replace('.shared.', '.').replace('"r"(base + a + dep)', '"l"(gen + (long long)(a + dep))')
        return code.replace('"r"(base + a)', '"l"(gen + (long long)a)')
    t = '  { const int a = tab[%d * 32 + lane];\n' % i
    if kind == 'ld':
        n = LD[w][1]
        if w == 2:
            return t + ('    unsigned short v = 0; asm volatile("{.reg .pred p; setp.ge.s32 p, %1, 0;\\n@p ld.shared.u16 %0, [%2];}" '
                        ': "+h"(v) : "r"(a), "r"(base + a + dep) : "memory"); acc ^= v; dep = v & mask; }\n')
        outs = ', '.join('"+r"(v%d)' % k for k in range(n))
        decl = ', '.join('v%d = 0' % k for k in range(n))
        # Operands: the n outputs %0..%(n-1), then a (%n, the predicate's source), the address (%(n+1)).
        return t + ('    unsigned %s; asm volatile("{.reg .pred p; setp.ge.s32 p, %%%d, 0;\\n@p %s}" : %s : "r"(a), "r"(base + a + dep) : "memory");\n'
                    '    acc ^= %s; dep = v0 & mask; }\n') % (decl, n, LD[w][0], outs, ' ^ '.join('v%d' % k for k in range(n)))
    if kind == 'st':
        n = max(1, w // 4)
        vals = ', '.join('"r"(lane * 4u + %du)' % k for k in range(n)) if w >= 4 else ('"r"(lane)' if w == 1 else '"h"((unsigned short)lane)')
        return t + ('    asm volatile("{.reg .pred p; setp.ge.s32 p, %%0, 0;\\n@p %s}" :: "r"(a), "r"(base + a), %s : "memory");\n'
                    '    __syncwarp(); }\n') % (ST[w], vals)
    if kind == 'ldgsts':
        cache = 'cg' if op.endswith('cg') else 'ca'
        return t + ('    const long long g = gtab[%d * 32 + lane];\n'
                    '    asm volatile("{.reg .pred p; setp.ge.s32 p, %%0, 0;\\n@p cp.async.%s.shared.global [%%1], [%%2], %d;}" :: "r"(a), "r"(base + a), "l"(gbuf + %d * 65536ll + g) : "memory");\n'
                    '    asm volatile("cp.async.wait_all;" ::: "memory"); }\n') % (i, cache, w, i)
    # atomics
    name = op
    is_red = name.startswith('red.')
    ty = name.split('.')[-1]
    bits64 = ty.endswith('64')
    head, rest = name.split('.', 1)
    ptx = head + '.shared.' + rest
    if ty.startswith('f'):
        cty, reg, one = ('float', 'f', '1.0f') if ty == 'f32' else ('double', 'd', '1.0')
    else:
        cty, reg, one = ('unsigned long long', 'l', '1ull') if bits64 else ('unsigned', 'r', '1u')
    if is_red:
        return t + ('    asm volatile("{.reg .pred p; setp.ge.s32 p, %%0, 0;\\n@p %s [%%1], %%2;}" :: "r"(a), "r"(base + a), "%s"((%s)%s) : "memory");\n'
                    '    __syncwarp(); }\n') % (ptx, reg, cty, one)
    if '.cas.' in name:
        return t + ('    %s r = 0; asm volatile("{.reg .pred p; setp.ge.s32 p, %%1, 0;\\n@p %s %%0, [%%2], %%3, %%4;}" : "+%s"(r) : "r"(a), "r"(base + a + dep), "%s"((%s)lane), "%s"((%s)(lane + 1)) : "memory");\n'
                    '    acc ^= (unsigned)r; dep = (unsigned)r & mask; }\n') % (cty, ptx, reg, reg, cty, reg, cty)
    return t + ('    %s r = 0; asm volatile("{.reg .pred p; setp.ge.s32 p, %%1, 0;\\n@p %s %%0, [%%2], %%3;}" : "+%s"(r) : "r"(a), "r"(base + a + dep), "%s"((%s)%s) : "memory");\n'
                '    acc ^= (unsigned)r; dep = (unsigned)r & mask; }\n') % (cty, ptx, reg, reg, cty, one)


HOST = r'''
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)
typedef void (*Kernel)(const int*, const long long*, unsigned*, unsigned, char*);
// argv[1]: the tables; argv[2]: launches of each kernel (default 2).
int main(int argc, char** argv) {
  std::ifstream in(argv[1]);
  int nk = 0; in >> nk;
  if (nk != kKernels) { std::fprintf(stderr, "table has %d kernels, program %d\n", nk, kKernels); return 1; }
  const int reps = argc > 2 ? std::atoi(argv[2]) : 2;
  char* gbuf; CK(cudaMalloc(&gbuf, (size_t)kMaxPatterns * 65536 + 65536)); CK(cudaMemset(gbuf, 1, (size_t)kMaxPatterns * 65536 + 65536));
  unsigned* sink; CK(cudaMalloc(&sink, 4096));
  for (int k = 0; k < nk; ++k) {
    int n = 0; in >> n;
    std::vector<int> tab(n * 32); std::vector<long long> gt(n * 32);
    for (int i = 0; i < n; ++i) { for (int l = 0; l < 32; ++l) in >> tab[i * 32 + l]; for (int l = 0; l < 32; ++l) in >> gt[i * 32 + l]; }
    int* dt; long long* dg; CK(cudaMalloc(&dt, tab.size() * 4)); CK(cudaMalloc(&dg, gt.size() * 8));
    CK(cudaMemcpy(dt, tab.data(), tab.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dg, gt.data(), gt.size() * 8, cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(kKernel[k], cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    for (int r = 0; r < reps; ++r) { kKernel[k]<<<1, 32, 65536>>>(dt, dg, sink, 0u, gbuf); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
    CK(cudaFree(dt)); CK(cudaFree(dg));
  }
  std::printf("ran %d kernels x %d\n", nk, reps);
  return 0;
}
'''


def write_program(outdir, prog, kernels, manifest):
    """kernels: list of (kname, kind, op, width, [(name, addrs, gaddrs)])."""
    cu = ['// Generated by gpu_check/bank_probe/sweep_gen.py: do not edit.\n']
    for kname, kind, op, w, pats in kernels:
        cu.append('__global__ void __launch_bounds__(32) %s(const int* __restrict__ tab, const long long* __restrict__ gtab, '
                  'unsigned* sink, unsigned mask, char* gbuf) {\n' % kname)
        cu.append('  extern __shared__ __align__(1024) unsigned char smem[];\n')
        cu.append('  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));\n')
        cu.append('  const unsigned long long gen = reinterpret_cast<unsigned long long>(smem) ^ mask; (void)gen;\n')
        cu.append('  const int lane = threadIdx.x; unsigned acc = 0, dep = 0; (void)gtab; (void)gbuf; (void)dep; (void)mask;\n')
        for i in range(len(pats)):
            cu.append(body(kind, op, w, i))
        cu.append('  sink[lane] = acc;\n}\n')
    cu.append('constexpr int kKernels = %d;\nconstexpr int kMaxPatterns = %d;\n' % (len(kernels), max(len(k[4]) for k in kernels)))
    cu.append('__global__ void dummy() {}\n')
    cu.append('void (*kKernel[])(const int*, const long long*, unsigned*, unsigned, char*) = {%s};\n' % ', '.join(k[0] for k in kernels))
    cu.append(HOST)
    open(os.path.join(outdir, 'sweep_%s.cu' % prog), 'w').write(''.join(cu))
    with open(os.path.join(outdir, 'sweep_%s.txt' % prog), 'w') as t:
        t.write('%d\n' % len(kernels))
        for kname, kind, op, w, pats in kernels:
            t.write('%d\n' % len(pats))
            for i, (name, a, g) in enumerate(pats):
                t.write(' '.join(map(str, a)) + ' ' + ' '.join(map(str, g)) + '\n')
                manifest.write(json.dumps({'program': prog, 'kernel': kname, 'index': i, 'name': name, 'op': op,
                                           'width_bytes': w, 'lane_byte_addresses': a,
                                           **({'global_byte_offsets': g} if kind == 'ldgsts' else {})}) + '\n')


def chunked(prefix, kind, op, w, pats):
    out = []
    for c in range(0, len(pats), PER_KERNEL):
        out.append(('%s_%d' % (prefix, c // PER_KERNEL), kind, op, w, pats[c:c + PER_KERNEL]))
    return out


def dedupe(pats):
    seen, out = set(), []
    for p in pats:
        key = (tuple(p[1]), tuple(p[2]) if len(p) > 2 else ())
        if key not in seen:
            seen.add(key)
            out.append(p if len(p) > 2 else (p[0], p[1], [0] * 32))
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    manifest = open(os.path.join(outdir, 'manifest.jsonl'), 'w')
    # 1. New LDS/STS patterns.
    budgets = {('ld', 16): 1900, ('ld', 8): 1400, ('ld', 4): 600, ('st', 16): 700, ('st', 8): 600, ('st', 4): 300}
    ks = []
    for (op, w), b in budgets.items():
        rng = random.Random('%s%d-20261202' % (op, w))
        ks += chunked('k_%s%d' % (op, w), op, op, w, dedupe(ldst_patterns(w, rng, b)))
    half = len(ks) // 2
    write_program(outdir, 'ldst_a', ks[:half], manifest)
    write_program(outdir, 'ldst_b', ks[half:], manifest)
    # 2. The H100 cases of tests/bank/data (ld/st), again on this GPU.
    old = {}
    for f in sorted(glob.glob(os.path.join(HERE, '..', '..', 'tests', 'bank', 'data', 'h100_*.jsonl'))):
        for line in open(f):
            d = json.loads(line)
            if d['op'] in ('ld', 'st'):
                old.setdefault((d['op'], d['width_bytes']), []).append(('h100:' + d['name'], d['lane_byte_addresses']))
    ks = []
    for (op, w), pats in sorted(old.items()):
        ks += chunked('k_h100_%s%d' % (op, w), op, op, w, dedupe(pats))
    write_program(outdir, 'h100', ks, manifest)
    # 3. cp.async and atomics.
    ks = []
    for w, op in ((4, 'ldgsts.ca'), (8, 'ldgsts.ca'), (16, 'ldgsts.ca'), (16, 'ldgsts.cg')):
        rng = random.Random('ldgsts%d%s' % (w, op))
        ks += chunked('k_ldgsts%d_%s' % (w, op[-2:]), 'ldgsts', op, w, dedupe(ldgsts_patterns(w, rng)))
    for op, w in ATOMICS:
        rng = random.Random(op)
        ks += chunked('k_' + op.replace('.', '_'), 'atom', op, w, dedupe(atomic_patterns(w, rng)))
    write_program(outdir, 'async_atom', ks, manifest)
    # 4. Generic ld/st/atom whose address is in the shared window (LD.E/ST.E/ATOM.E on shared).
    ks = []
    for (op, w), b in {('ld', 16): 900, ('ld', 8): 700, ('ld', 4): 400, ('st', 16): 500, ('st', 8): 400, ('st', 4): 300}.items():
        rng = random.Random('generic-%s%d-20261204' % (op, w))
        pats = dedupe(ldst_patterns(w, rng, b))
        keep = sorted(rng.sample(range(len(pats)), min(b, len(pats))))  # the broadcast families alone pass the budget
        ks += chunked('k_g%s%d' % (op, w), 'g' + op, 'g' + op, w, [pats[k] for k in keep])
    for op, w in (('atom.add.u32', 4), ('atom.exch.b32', 4), ('atom.cas.b32', 4), ('atom.add.f32', 4), ('atom.or.b64', 8), ('red.add.u32', 4)):
        rng = random.Random('generic-' + op)
        ks += chunked('k_g' + op.replace('.', '_'), 'gatom', 'g' + op, w, dedupe(atomic_patterns(w, rng)))
    write_program(outdir, 'generic', ks, manifest)
    # 5. Generic atomics at the CTA and system scopes (ATOM.E.*.STRONG.SM/.SYS: cooperative groups'
    # barriers and cuda::pipeline's shared state use .cta) and the AND/OR forms (their barriers).
    ks = []
    for op, w in (('atom.cta.add.u32', 4), ('atom.cta.exch.b32', 4), ('atom.cta.cas.b32', 4), ('atom.cta.and.b32', 4),
                  ('atom.cta.or.b32', 4), ('atom.sys.add.u32', 4), ('atom.and.b32', 4), ('atom.or.b32', 4),
                  ('atom.acq_rel.cta.or.b32', 4)):
        rng = random.Random('generic-scoped-' + op)
        ks += chunked('k_g' + op.replace('.', '_'), 'gatom', 'g' + op, w, dedupe(atomic_patterns(w, rng)))
    write_program(outdir, 'generic_scoped', ks, manifest)


if __name__ == '__main__':
    main()
