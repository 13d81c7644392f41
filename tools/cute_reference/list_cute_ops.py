#!/usr/bin/env python3
"""Lists the MMA and copy op names CUTLASS's CuTe headers define, one per line: `mma NAME` or
`copy NAME`. tests/model/atoms/cute_op_names_test.cpp reads the list (tests/model/atoms/cute_op_names.txt)
and checks every name is modelled (find_mma_atom / find_copy_op) or refused with a reason
(unmodelled_mma_reason / unmodelled_copy_reason).

  python3 tools/cute_reference/list_cute_ops.py --cutlass /work/cutlass > tests/model/atoms/cute_op_names.txt

Where the names come from:
  mma:  MMA_Traits<NAME ...> in include/cute/atom/mma_traits*.hpp (the atoms an MMA_Atom takes, with
        their namespaces as written, e.g. SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS), and the
        top-level `struct SM...` / `struct Universal...` of include/cute/arch/mma*.hpp.
  copy: Copy_Traits<NAME ...> in include/cute/atom/copy_traits*.hpp, and the top-level `struct NAME`
        and `using NAME =` of include/cute/arch/copy*.hpp.
Template parameters standing for an op (MMA_Op, CopyOp, ...) and member types (X::PREFETCH) are
skipped; the `_OP` / `_PTR` helper structs of the TMA traits are kept (they are TMA names too).
"""
import argparse
import glob
import os
import re
import sys

PARAMS = {"MMA_Op", "MMA_Op_Arg", "MMAOp", "Args", "CPY_Op_Arg", "CopyArgs", "CopyOp", "CopyOperation", "Op"}


def names(pattern, regex, files):
    out = set()
    for f in files:
        with open(f) as fh:
            for m in re.finditer(regex, fh.read(), re.M):
                n = m.group(1)
                if n in PARAMS or n.endswith("::PREFETCH"):
                    continue
                out.add(n)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", required=True)
    a = ap.parse_args()
    cute = os.path.join(a.cutlass, "include", "cute")
    atom = lambda p: sorted(glob.glob(os.path.join(cute, "atom", p)))
    arch = lambda p: sorted(f for f in glob.glob(os.path.join(cute, "arch", p)) if not f.endswith("_desc.hpp"))
    mma = names(None, r"MMA_Traits<\s*([A-Za-z_][A-Za-z0-9_:]*)", atom("mma_traits*.hpp"))
    mma |= names(None, r"^struct ((?:SM|Universal)[A-Za-z0-9_]*)", arch("mma*.hpp"))
    copy = names(None, r"Copy_Traits<\s*([A-Za-z_][A-Za-z0-9_:]*)", atom("copy_traits*.hpp"))
    copy |= names(None, r"^struct ([A-Za-z_][A-Za-z0-9_]*)", arch("copy*.hpp"))
    copy |= names(None, r"^using ([A-Za-z_][A-Za-z0-9_]*) =", arch("copy*.hpp"))
    print("# The MMA and copy op names of CUTLASS's CuTe headers (include/cute/arch, include/cute/atom).")
    print("# Generated: python3 tools/cute_reference/list_cute_ops.py --cutlass /work/cutlass > tests/model/atoms/cute_op_names.txt")
    for n in sorted(mma):
        print("mma", n)
    for n in sorted(copy):
        print("copy", n)


if __name__ == "__main__":
    sys.exit(main())
