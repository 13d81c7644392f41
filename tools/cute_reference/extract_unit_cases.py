#!/usr/bin/env python3
"""Writes the CASE lines of CUTLASS's own layout-algebra unit tests as a C++ source for
algebra_reference.hpp (nothing of CUTLASS is committed: the tests are read from a CUTLASS checkout
at corpus-build time).

  extract_unit_cases.py CUTLASS_DIR OUT.cu [--pycute-dynamic]

Reads test/unit/cute/core/{coalesce,complement,composition,inverse_left,inverse_right,
logical_divide,logical_product,nullspace,domain_distribute,swizzle_layout}.cpp and
test/python/pycute/test_{coalesce,complement,composition,left_inverse,right_inverse}.py.
Each C++ test block `{ auto x = EXPR; ... test_op(x, ...); }` becomes one CASE line per test call
with the names substituted; each pycute `Layout(shape, stride)` becomes the static C++ layout (pycute
has no compile-time ints), and with --pycute-dynamic also the run-time one (int(8): a Python int is a
run-time value, and CuTe's results then keep the size-1 modes the static form drops). Commented-out
blocks (CuTe's "should fail" cases) are skipped.
"""
import ast
import os
import re
import sys

UNIT_FILES = ["coalesce", "complement", "composition", "inverse_left", "inverse_right", "logical_divide",
              "logical_product", "nullspace", "domain_distribute", "swizzle_layout"]

# test helper -> (reference case function, how the arguments map)
CPP_TESTS = {
    "test_coalesce": "coalesce_case",
    "test_composition": "composition_case",
    "test_complement": "complement_case",
    "test_left_inverse": "left_inverse_case",
    "test_right_inverse": "right_inverse_case",
    "test_logical_divide": "logical_divide_case",
    "test_logical_product": "logical_product_case",
    "test_nullspace": "nullspace_case",
    "test_distribute": "domain_distribute_case",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def test_bodies(text):
    """The bodies of TEST(...) { ... }."""
    for m in re.finditer(r"TEST\s*\([^)]*\)\s*\{", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        yield text[m.end():i - 1]


def split_args(s):
    """Top-level comma split (templates and parentheses nest)."""
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "(<{[":
            depth += 1
        elif c in ")>}]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def substitute(expr, env):
    for name in sorted(env, key=len, reverse=True):
        expr = re.sub(r"\b%s\b" % re.escape(name), "(" + env[name] + ")", expr)
    return expr


def cases_of_block(block, env):
    """CASE lines of one test block; nested blocks inherit the enclosing names."""
    out = []
    env = dict(env)
    stmts, depth, cur = [], 0, ""
    for c in block:
        if c == "{":
            depth += 1
        if c == "}":
            depth -= 1
        cur += c
        if depth == 0 and (c == ";" or (c == "}" and cur.strip().startswith("{"))):
            stmts.append(cur.strip())
            cur = ""
    for st in stmts:
        if st.startswith("{"):
            out += cases_of_block(st[1:-1], env)
            continue
        st = " ".join(st.rstrip(";").split())
        m = re.match(r"auto\s+(\w+)\s*=\s*(.*)$", st) or re.match(r"(?:Layout|auto const)\s+(\w+)\s*=\s*(.*)$", st)
        if m:
            env[m.group(1)] = substitute(m.group(2), env)
            continue
        m = re.match(r"(test_\w+)\s*\((.*)\)$", st)
        if m and m.group(1) in CPP_TESTS:
            args = [substitute(a, env) for a in split_args(m.group(2))]
            fn = CPP_TESTS[m.group(1)]
            if fn == "domain_distribute_case":  # the test calls domain_distribute(shape(A), shape(B))
                args = ["shape(%s)" % a for a in args]
            out.append("CASE(%s(%s));" % (fn, ", ".join(args)))
    return out


def cpp_cases(cutlass):
    lines = []
    for name in UNIT_FILES:
        path = os.path.join(cutlass, "test/unit/cute/core", name + ".cpp")
        text = strip_comments(open(path).read())
        lines.append("// test/unit/cute/core/%s.cpp" % name)
        for body in test_bodies(text):
            lines += cases_of_block(body, {})
    return lines


def cpp_of(value, dynamic=False):
    """A pycute int tuple as C++: static (Int<8>{}) or run-time (int(8))."""
    if isinstance(value, int):
        return ("int(%d)" if dynamic else "Int<%d>{}") % value
    return "make_shape(%s)" % ", ".join(cpp_of(v, dynamic) for v in value)


def cpp_layout(args, dynamic=False):
    shape = args[0]
    if len(args) == 1:
        return "make_layout(%s)" % cpp_of(shape, dynamic)
    return "make_layout(%s, %s)" % (cpp_of(shape, dynamic), cpp_of(args[1], dynamic).replace("make_shape", "make_stride"))


def py_layouts(text):
    """Layout(...) expressions of a pycute test, in order, as C++."""
    out = {}
    for m in re.finditer(r"(\w+)\s*=\s*Layout\((.*)\)\s*$", text, flags=re.M):
        args = ast.literal_eval("(" + m.group(2) + ",)")
        out.setdefault("order", []).append((m.group(1), cpp_layout(list(args))))
    return out.get("order", [])


PY_TESTS = {"test_coalesce": ("coalesce_case", 1), "test_complement": ("complement_case", 1),
            "test_left_inverse": ("left_inverse_case", 1), "test_right_inverse": ("right_inverse_case", 1),
            "test_composition": ("composition_case", 2)}


def pycute_cases(cutlass, dynamic=False):
    lines = []
    for name, (fn, arity) in PY_TESTS.items():
        path = os.path.join(cutlass, "test/python/pycute", name + ".py")
        lines.append("// test/python/pycute/%s.py (%s C++)" % (name, "run-time" if dynamic else "static"))
        text = open(path).read()
        env = {}
        for line in text.splitlines():
            m = re.match(r"\s*(\w+)\s*=\s*Layout\((.*)\)\s*$", line)
            if m:
                env[m.group(1)] = cpp_layout(list(ast.literal_eval("(" + m.group(2) + ",)")), dynamic)
                continue
            m = re.match(r"\s*self\.helper_test_\w+\((.*)\)\s*$", line)
            if m:
                names = [a.strip() for a in m.group(1).split(",")]
                lines.append("CASE(%s(%s));" % (fn, ", ".join(env[n] for n in names)))
    return lines


def main():
    cutlass, out = sys.argv[1], sys.argv[2]
    dynamic = "--pycute-dynamic" in sys.argv[3:]
    lines = ["// Generated by tools/cute_reference/extract_unit_cases.py from a CUTLASS checkout; not committed.",
             '#include "algebra_reference.hpp"', ""]
    lines += cpp_cases(cutlass) + pycute_cases(cutlass)
    if dynamic:
        lines += pycute_cases(cutlass, dynamic=True)
    lines += ["", "int main(int argc, char** argv) { return ref::run_main(argc, argv); }", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))
    print("%s: %d cases" % (out, sum(1 for l in lines if l.startswith("CASE("))))


if __name__ == "__main__":
    main()
