#!/usr/bin/env python3
"""compare.py PREDICTED NCU_CSV: layoutproof's prediction for each real CuTe copy (cute_copies
--predict) against what Nsight Compute counted for its launch (launch k = line k). Prints a
Markdown table; exit 0 when every copy agrees on wavefronts, 1 otherwise.
Agreement: the measured shared-memory wavefronts equal the predicted ones and the measured
instruction count of the copy's op equals the traced count ("exact"), or the wavefronts agree
with fewer, wider instructions ("fused by nvcc": SASS merged neighbouring element accesses)."""
import csv, sys

pred_path, csv_path = sys.argv[1:3]
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
print("| copy | predicted (CuTe-level trace) | measured (Nsight Compute) | agree |")
print("| --- | --- | --- | --- |")
bad = 0
for launch, r in zip(launches, data):
    base = launch.split(" [")[0]
    if base not in preds:
        print(f"| {launch} | no prediction | | NO |"); bad += 1; continue
    name, op, width, n, wf, ideal = preds[base]
    name = launch
    k = KIND[op]
    m_wf, m_inst = num(r, WF % k), num(r, INST[k])
    # A g2s kernel reads one element back per thread after the copy; only an ld trace is affected.
    pred = f"{n} x {op}.{8 * int(width)}, {wf} wavefronts (ideal {ideal})"
    if m_wf is None or m_inst is None:
        print(f"| {name} | {pred} | not measured | NO |"); bad += 1; continue
    meas = f"{int(m_inst)} x {k}, {int(m_wf)} wavefronts"
    if int(m_wf) == int(wf) and int(m_inst) == int(n):
        verdict = "yes (exact)"
    elif int(m_wf) == int(wf) and int(m_inst) < int(n):
        verdict = "yes (fused by nvcc: fewer, wider instructions)"
    else:
        verdict = "NO"; bad += 1
    print(f"| {name} | {pred} | {meas} | {verdict} |")
sys.exit(1 if bad else 0)
