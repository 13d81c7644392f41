#!/usr/bin/env python3
"""compare.py PREDICTED NCU_CSV [SASS]: layoutproof's prediction for each real CuTe copy (cute_copies
--predict) against what Nsight Compute counted for its launch (launch k = line k). Prints a
Markdown table; exit 0 when every copy agrees on wavefronts, 1 otherwise.
Each prediction has two traces: the CuTe-level one and the fused one (model/trace/trace.hpp fuse_trace:
what nvcc issues when it merges a thread's contiguous, aligned accesses into one vector); they are
equal where nothing fuses. A copy agrees when the measurement equals either; the table says which.
SASS (cuobjdump -sass of cute_copies, filtered to Function/LDS lines): for the tagged s2r kernels
(k_s2r<Tag,...>, TAGS below) the static LDS/LDS.64/LDS.128 count per thread (the copy is fully
unrolled) against each trace's instructions per warp, saying which trace the SASS holds.
Agreement: the measured shared-memory wavefronts equal the predicted ones and the measured
instruction count of the copy's op equals the traced count ("exact"), or the wavefronts agree
with fewer, wider instructions ("fused by nvcc": SASS merged neighbouring element accesses)."""
import csv, re, sys

pred_path, csv_path = sys.argv[1:3]
sass_path = sys.argv[3] if len(sys.argv) > 3 else None
# cute_copies.cu's k_s2r tags (the number in the mangled name k_s2rILi<tag>E).
TAGS = {1: "SM80 f64 TN 128x64x16: s2r A DefaultCopy", 2: "SM80 SIMT f32 NT 128x128x8: s2r A DefaultCopy",
        3: "SM80 SIMT f32 TN 128x128x8: s2r A DefaultCopy", 4: "fusion f64 MN-major 128x16x3: s2r A DefaultCopy",
        5: "fusion f32 pairs MN-major 128x8x3: s2r UniversalCopy (32,4) x (2,1)"}
preds = {l.split("|")[0]: l.rstrip("\n").split("|") for l in open(pred_path) if "|" in l}
# The launches, named by the program's "launch NAME" lines (in the CSV's stdout); a name with a
# " [variant]" suffix is the same copy measured another way: it takes the base name's prediction.
launches = [l.rstrip("\n")[len("launch "):] for l in open(csv_path) if l.startswith("launch ")]
rows = list(csv.reader(l for l in open(csv_path) if l.startswith('"')))
hdr, data = rows[0], [r for r in rows[1:] if r and r[0].isdigit()]
col = {h: i for i, h in enumerate(hdr)}
def num(r, m):
    i = col.get(m)
    return float(r[i].replace(",", "")) if i is not None and r[i] not in ("", "n/a") else None
KIND = {"ld": "ld", "st": "st", "ldsm1": "ldsm", "ldsm2": "ldsm", "ldsm4": "ldsm", "stsm1": "stsm", "stsm2": "stsm",
        "stsm4": "stsm", "ldgsts": "ldgsts"}
INST = {"ld": "smsp__sass_inst_executed_op_shared_ld.sum", "st": "smsp__sass_inst_executed_op_shared_st.sum",
        "ldsm": "smsp__sass_inst_executed_op_ldsm.sum", "stsm": "smsp__sass_inst_executed_op_shared_stsm.sum",
        "ldgsts": "smsp__sass_inst_executed_op_ldgsts.sum"}
WF = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"
if len(data) != len(launches):
    print(f"{len(data)} launches measured, {len(launches)} announced"); sys.exit(1)
print("| copy | predicted (CuTe-level trace) | predicted (fused trace) | measured (Nsight Compute) | agree |")
print("| --- | --- | --- | --- | --- |")
bad = 0
for launch, r in zip(launches, data):
    base = launch.split(" [")[0]
    if base not in preds:
        print(f"| {launch} | no prediction | | NO |"); bad += 1; continue
    name, op, width, n, wf, ideal = preds[base][:6]
    fw, fn, fwf, fideal = (preds[base][6:10] if len(preds[base]) >= 10 else (width, n, wf, ideal))
    fusable = (fw, fn) != (width, n)
    # A partial fusion lists one width and count per part ("16,8" / "96,192").
    fparts = list(zip(fw.split(","), fn.split(",")))
    fn = str(sum(int(c) for _, c in fparts))
    ftext = " + ".join(f"{c} x {op}.{8 * int(w)}" for w, c in fparts)
    fpred = f"{ftext}, {fwf} wavefronts (ideal {fideal})" if fusable else "the same (nothing fuses)"
    name = launch
    k = KIND[op]
    m_wf, m_inst = num(r, WF % k), num(r, INST[k])
    # A g2s kernel reads one element back per thread after the copy; only an ld trace is affected.
    pred = f"{n} x {op}.{8 * int(width)}, {wf} wavefronts (ideal {ideal})"
    if m_wf is None or m_inst is None:
        print(f"| {name} | {pred} | {fpred} | not measured | NO |"); bad += 1; continue
    meas = f"{int(m_inst)} x {k}, {int(m_wf)} wavefronts"
    if int(m_wf) == int(wf) and int(m_inst) == int(n):
        verdict = "yes (exact, CuTe-level)"
    elif fusable and int(m_wf) == int(fwf) and int(m_inst) == int(fn):
        verdict = "yes (exact, fused trace)"
    elif int(m_wf) == int(wf) and int(m_inst) < int(n):
        verdict = "yes (wavefronts; fewer, wider instructions than either trace)"
    else:
        verdict = "NO"; bad += 1
    print(f"| {name} | {pred} | {fpred} | {meas} | {verdict} |")

def lds_width(mnemonic):
    """LDS -> 32, LDS.64 -> 64, LDS.128 -> 128, LDS.U8/S8 -> 8, LDS.U16/S16 -> 16."""
    for w in ("128", "64", "16", "8"):
        if re.search(r"\.[US]?" + w + r"\b", mnemonic): return int(w)
    return 32

if sass_path:
    counts, tag = {}, None
    for line in open(sass_path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            t = re.search(r"k_s2rILi(\d+)E", m.group(1))
            tag = int(t.group(1)) if t and int(t.group(1)) in TAGS else None
            if tag is not None: counts.setdefault(tag, {})
            continue
        i = re.search(r"\b(LDS(?:\.[A-Z0-9]+)*)\s", line)
        if tag is None or not i or i.group(1).startswith("LDSM"): continue
        w = lds_width(i.group(1)); counts[tag][w] = counts[tag].get(w, 0) + 1
    print()
    print("| copy (SASS of its k_s2r) | CuTe-level trace per thread | fused trace per thread | SASS: LDS per thread | SASS has |")
    print("| --- | --- | --- | --- | --- |")
    for tag, base in sorted(TAGS.items()):
        if base not in preds or tag not in counts:
            print(f"| {base} | | | no SASS found | NO |"); bad += 1; continue
        p = preds[base]
        warps = int(p[10]) if len(p) > 10 else 1
        cute = {8 * int(p[2]): int(p[3]) // warps}
        fused = ({8 * int(w): int(c) // warps for w, c in zip(p[6].split(","), p[7].split(","))} if len(p) > 10 else cute)
        has = counts[tag]
        txt = lambda d: ", ".join(f"{n} x LDS.{w}" for w, n in sorted(d.items())) or "none"
        which = ("both (nothing fuses)" if cute == fused and has == cute else "the CuTe-level trace" if has == cute
                 else "the fused trace" if has == fused else "neither")
        if which == "neither": bad += 1
        print(f"| {base} | {txt(cute)} | {txt(fused)} | {txt(has)} | {which} |")
sys.exit(1 if bad else 0)
