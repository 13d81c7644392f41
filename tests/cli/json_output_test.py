#!/usr/bin/env python3
"""ctest cli.json_output: every command's --json validates against docs/json_output.schema.json, and
every command that decides claims (prove, check, catalog, trace --claim, ptx, sass, raster prove,
synth) prints the one results shape ($defs results) with its own additions.

  python3 json_output_test.py LAYOUTPROOF ROOT

Each run is validated against its command's own $def and against the whole schema; refuted runs
must carry a structured witness (an object of the command's witness shape, never a string), so
`check --json` and `prove --json` give lanes, addresses and banks alike.
"""
import json
import os
import subprocess
import sys

import jsonschema

BIN, ROOT = sys.argv[1], sys.argv[2]
schema = json.load(open(os.path.join(ROOT, "docs/json_output.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
whole = jsonschema.Draft202012Validator(schema)


def shape(name):
    """A validator for one $def (the schema with its anyOf narrowed to that shape)."""
    return jsonschema.Draft202012Validator({**schema, "anyOf": [{"$ref": f"#/$defs/{name}"}]})


CP = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})"
FMA = "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}"
F64MMA = ("TiledMMA<MMA_Atom<SM80_8x8x4_F64F64F64F64_TN>, Layout<Shape<_2,_2,_1>>, "
          "Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>{}")
F64TN = "tile_to_shape(composition(Swizzle<2,0,4>{}, Layout<Shape<_4,_16>, Stride<_1,_4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{}))"
SASS = os.path.join(ROOT, "tests/compiled/measured/hand.sass")
RUNS = [  # (shape, expected exit codes, arguments)
    ("ptx", {1}, ["sass", SASS, "--kernel", "column_read", "--block", "32", "--claim", "conflict-free"]),
    ("raster", {1}, ["raster", "prove", "cutlass", "--log-tile", "2"]),
    ("raster", {0}, ["raster", "prove", "morton", "--claim", "injective", "--max-grid", "16"]),
    ("scheduler_prove", {1}, ["raster", "prove", "sm90-persistent", "--tiles", "3,5", "--max-swizzle", "2", "--sms", "4",
                              "--claim", "exactly-once", "--claim", "in-range"]),
    ("scheduler_prove", {0}, ["raster", "prove", "sm90-persistent", "--tiles", "3,5", "--max-swizzle", "2", "--sms", "4",
                              "--claim", "balance"]),
    ("ptx", {1}, ["ptx", os.path.join(ROOT, "examples/ptx/kernels.ptx"), "--block", "32", "--param", "1=4", "--claim", "conflict-free"]),
    ("ptx", {3}, ["ptx", os.path.join(ROOT, "examples/ptx/kernels.ptx"), "--kernel", "ring_stages", "--block", "32", "--claim", "in-bounds"]),
    ("prove_layout", {0}, ["prove", "(4,2):(2,1)", "--claim", "bijective", "--claim", "contiguous:2"]),
    ("prove_layout", {1}, ["prove", "(2,2):(1,1)", "--claim", "injective"]),
    ("prove_bank", {1}, ["prove", "(8,64):(64,1)", "--claim", "conflict-free", "--elem-bytes", "2", "--pattern", "ldmatrix",
                         "--op", "ldsm4"]),
    ("prove_bank", {0}, ["prove", "Sw<3,3,3> o (8,64):(64,1)", "--claim", "conflict-free", "--elem-bytes", "2", "--pattern",
                         "ldmatrix", "--op", "ldsm4"]),
    ("check", {1}, ["check", os.path.join(ROOT, "examples/gemm_sm80_f16.yaml"), "--no-cache"]),
    ("check", {1}, ["check", os.path.join(ROOT, "examples/kernels_sm80.yaml"), "--no-cache"]),
    # a shard (its summary's "shard", each result's "position"; merge reads them)
    ("check", {1}, ["check", os.path.join(ROOT, "examples/kernels_sm80.yaml"), "--no-cache", "--shard", "3/3"]),
    ("check", {2}, ["check", os.path.join(ROOT, "tests/cli/specs/bad_claim_key.yaml"), "--no-cache"]),
    ("check", {1}, ["check", os.path.join(ROOT, "tests/cli/specs/good_compiled.yaml"), "--no-cache"]),
    ("check", {0}, ["catalog", "--no-cache"]),
    ("trace_claims", {1}, ["trace", "--side", "D", "--element", "float", "--smem", "(128,8):(1,64)", "--copy", CP,
                           "--claim", "conflict-free", "--claim", "covers"]),
    ("trace", {0}, ["trace", "--side", "D", "--element", "float", "--smem", "(128,8):(1,129)", "--copy", CP]),
    ("trace_fused_parts", {1}, ["trace", "--side", "S", "--element", "double", "--mma", F64MMA, "--copy",
                                "make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", "--smem", F64TN, "--fused",
                                "--claim", "conflict-free", "--claim", "covers"]),
    ("ptx", {1}, ["ptx", os.path.join(ROOT, "tests/ptx/basic.ptx"), "--block", "32", "--param", "_Z9broadcastPfi_param_1=5",
                  "--param", "_Z6stagesPfi_param_1=4", "--claim", "conflict-free", "--claim", "in-bounds"]),
    ("ptx", {3}, ["ptx", os.path.join(ROOT, "tests/ptx/basic.ptx"), "--kernel", "stages", "--block", "32", "--claim", "conflict-free"]),
    # Over every CTA of every grid: a REFUTED's witness is the launch (its symbols' values, the flags that replay it).
    ("ptx", {1}, ["ptx", os.path.join(ROOT, "tests/ptx/branches.ptx"), "--kernel", "row_or_column_unpadded", "--block", "32,32",
                  "--claim", "conflict-free"]),
    ("synth", {0}, ["synth", "--tile", "(8,64):(64,1)", "--elem-bytes", "2", "--pattern", "ldmatrix", "--op", "ldsm4"]),
    ("synth_kernel", {0}, ["synth", "--kernel", "--shape", "(128,8,3)", "--element", "float", "--mma", FMA, "--copy",
                           "S:make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)", "--copy",
                           "D:" + CP[:-1] + ", Layout<Shape<_1,_1>>{})", "--no-progress"]),
    ("synth_kernel", {0}, ["synth", "--kernel", "--shape", "(128,64,4)", "--element", "half_t", "--align", "128", "--mma",
                           "make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})", "--copy",
                           "D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})",
                           "--no-progress"]),
]
WITNESS = {"prove_layout": "layout_witness", "prove_bank": "bank_witness", "trace_claims": "trace_witness", "ptx": "trace_witness",
           "raster": "layout_witness"}
# The one results shape: every run that decides claims prints it, whatever its command adds.
RESULTS = shape("results")

failures = 0
seen_witness = set()
for name, codes, args in RUNS:
    p = subprocess.run([BIN, *args, "--json"], capture_output=True, text=True, timeout=120)
    label = " ".join(args[:3])
    if p.returncode not in codes:
        print(f"FAIL {label}: exit {p.returncode}, expected {codes}: {p.stderr.strip()[:300]}")
        failures += 1
        continue
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        print(f"FAIL {label}: stdout is not one JSON document ({e}): {p.stdout[:200]!r}")
        failures += 1
        continue
    checks = [(shape(name), name), (whole, "the schema")]
    if name != "trace":
        checks.append((RESULTS, "the one results shape"))
        if "results" not in doc or doc.get("tool") != "layoutproof":
            if not (name == "trace_fused_parts" and "--claim" not in args):
                print(f"FAIL {label}: not the one results document")
                failures += 1
    for v, what in checks:
        errors = sorted(v.iter_errors(doc), key=str)
        if errors:
            print(f"FAIL {label}: invalid against {what}: {errors[0].message[:300]} at {list(errors[0].absolute_path)}")
            failures += 1
    # Structured witnesses: every REFUTED result has an object of its shape.
    results = doc.get("results", [])
    if name == "ptx":  # and the view's verdicts per instruction
        results = results + [v for k in doc["kernels"] for ins in k["instructions"] for v in ins["verdicts"]]
    for r in results:
        if r.get("verdict") != "REFUTED":
            continue
        w = r.get("witness")
        kinds = [k for k in ("layout_witness", "bank_witness", "trace_witness") if shape(k).is_valid(w)]
        if not isinstance(w, dict) or not kinds:
            print(f"FAIL {label}: a REFUTED result's witness is not structured: {str(w)[:200]}")
            failures += 1
            continue
        every_launch = isinstance(w.get("points"), list) and any(pt.get("role") == "replay" for pt in w["points"])
        if every_launch and (len(w["points"]) < 2 or not w["points"][-1]["coord"].startswith("--grid")):
            print(f"FAIL {label}: an every-launch witness lacks the symbols' values or the replay flags: {str(w)[:300]}")
            failures += 1
        if name in WITNESS and WITNESS[name] not in kinds and not (every_launch and "layout_witness" in kinds):
            print(f"FAIL {label}: witness is not a {WITNESS[name]}")
            failures += 1
        seen_witness.update(kinds)
        if name == "check" and "trace_witness" in kinds and len(w.get("addresses", [])) != len(w["lanes"]):
            print(f"FAIL {label}: a kernel witness lacks each lane's address")
            failures += 1
    if name == "check" and args[0] == "check" and 2 in codes and not doc.get("error"):
        print(f"FAIL {label}: bad input gives no error object")
        failures += 1

missing = {"layout_witness", "bank_witness", "trace_witness"} - seen_witness
if missing:
    print(f"FAIL: no run exercised {missing}")
    failures += 1
if failures:
    print(f"{failures} failure(s)")
    sys.exit(1)
print(f"json output: {len(RUNS)} runs of prove, check, catalog, trace, synth, ptx, sass and raster prove valid against "
      "docs/json_output.schema.json, each claim-deciding one the one results shape")
