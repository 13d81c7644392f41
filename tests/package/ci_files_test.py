#!/usr/bin/env python3
"""ctest package.ci_files: the pre-commit hooks (.pre-commit-hooks.yaml) and the user workflow
(docs/ci/layoutproof.yml) run as written against the built `layoutproof`.

Usage: ci_files_test.py LAYOUTPROOF_BINARY SOURCE_DIR [BUILD_DIR]

A temporary user repository gets layouts/kernels.yaml (first a spec that holds, then
examples/gemm_sm80_f16.yaml with its one wrong claim) and `layoutproof` on PATH (a link to the
built binary). Each hook's entry + args (+ the changed spec files when pass_filenames) and each
workflow `run:` step run there as pre-commit and GitHub Actions run them (GitHub: bash -e, steps in
order, $GITHUB_PATH lines prepended to PATH, $RUNNER_TEMP); the exit codes must be the command's
(0 all proved, 1 refuted) and the files the workflow uploads must exist. The workflow's build step
(network clone, apt-get, a full build) is not run: .layoutproof/build is the build ctest tests.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("SKIPPED: python3-yaml is not installed (apt-get install python3-yaml)")
    sys.exit(77)

binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
build = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else os.path.dirname(binary)
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def user_repo(root, spec):
    """A user's repository: layouts/kernels.yaml and a bin/ with `layoutproof` for PATH."""
    os.makedirs(os.path.join(root, "layouts"), exist_ok=True)
    os.makedirs(os.path.join(root, "bin"), exist_ok=True)
    shutil.copy(spec, os.path.join(root, "layouts", "kernels.yaml"))
    link = os.path.join(root, "bin", "layoutproof")
    if not os.path.lexists(link):
        os.symlink(binary, link)
    env = dict(os.environ, PATH=os.path.join(root, "bin") + os.pathsep + os.environ["PATH"],
               LAYOUTPROOF_CACHE=os.path.join(root, "cache"))
    return env


def run(cmd, cwd, env, shell=False):
    p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell, executable="/bin/bash" if shell else None,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    return p.returncode, p.stdout


def test_hooks(tmp):
    hooks = yaml.safe_load(open(os.path.join(source, ".pre-commit-hooks.yaml")))
    check(isinstance(hooks, list) and len(hooks) >= 1, ".pre-commit-hooks.yaml is a list of hooks")
    ids = [h.get("id") for h in hooks]
    check("layoutproof-check" in ids, "hook layoutproof-check exists")
    for h in hooks:
        for key in ("id", "name", "entry", "language"):  # pre-commit's required keys
            check(key in h, f"hook {h.get('id')} has '{key}'")
        check(h.get("language") == "system", f"hook {h['id']} runs the installed layoutproof (language: system)")
        files = re.compile(h.get("files", ""))
        check(files.search("layouts/kernels.yaml") is not None, f"hook {h['id']} runs on layouts/kernels.yaml")
        check(files.search("src/kernel.cu") is None, f"hook {h['id']} ignores src/kernel.cu")
        for spec, want in ((os.path.join(source, "tests/package/layouts_ok.yaml"), 0),
                           (os.path.join(source, "examples/gemm_sm80_f16.yaml"), 1)):
            root = os.path.join(tmp, f"hook_{h['id']}_{want}")
            env = user_repo(root, spec)
            cmd = shlex.split(h["entry"]) + list(h.get("args", []))
            if h.get("pass_filenames", True):
                cmd += ["layouts/kernels.yaml"]
            rc, out = run(cmd, root, env)
            check(rc == want, f"hook {h['id']} on {os.path.basename(spec)} exits {want} (got {rc}): {' '.join(cmd)}")
            if rc != want:
                print(out)
            if want == 1:
                check("REFUTED" in out, f"hook {h['id']} prints the refutation")


def test_workflow(tmp):
    path = os.path.join(source, "docs/ci/layoutproof.yml")
    wf = yaml.safe_load(open(path))
    jobs = wf.get("jobs", {})
    check(len(jobs) == 1, "the workflow has one job")
    steps = next(iter(jobs.values()))["steps"]
    uploads = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
    check(len(uploads) == 1 and uploads[0].get("if") == "always()", "SARIF is uploaded, also when a claim fails")
    sarif = uploads[0]["with"]["sarif_file"] if uploads else "out.sarif"
    for spec, want in ((os.path.join(source, "tests/package/layouts_ok.yaml"), 0),
                       (os.path.join(source, "examples/gemm_sm80_f16.yaml"), 1)):
        root = os.path.join(tmp, f"workflow_{want}")
        env = user_repo(root, spec)
        env["PATH"] = os.environ["PATH"]  # the workflow's install step puts layoutproof on PATH
        os.makedirs(os.path.join(root, ".layoutproof"))
        os.symlink(build, os.path.join(root, ".layoutproof", "build"))
        env["RUNNER_TEMP"] = os.path.join(root, "runner_temp")
        env["GITHUB_PATH"] = os.path.join(root, "github_path")
        env["GITHUB_WORKSPACE"] = root
        os.makedirs(env["RUNNER_TEMP"])
        open(env["GITHUB_PATH"], "w").close()
        ran = 0
        for s in steps:
            if "run" not in s:
                continue
            if s.get("name") == "Build layoutproof":
                print("not run: step 'Build layoutproof' (network clone, apt-get, full build); .layoutproof/build is ctest's build")
                continue
            check("${{" not in s["run"], f"step '{s.get('name')}' needs no GitHub expression to run")
            extra = [l for l in open(env["GITHUB_PATH"]).read().splitlines() if l]
            step_env = dict(env, PATH=os.pathsep.join(extra[::-1] + [env["PATH"]]))
            rc, out = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s["run"]], root, step_env)
            ran += 1
            expect = want if s.get("name") == "Prove the layouts" else 0
            check(rc == expect, f"workflow step '{s.get('name')}' with {os.path.basename(spec)} exits {expect} (got {rc})")
            if rc != expect:
                print(out)
        check(ran >= 2, "the workflow's install and prove steps ran")
        for f in (sarif, "out.xml"):
            check(os.path.isfile(os.path.join(root, f)) and os.path.getsize(os.path.join(root, f)) > 0,
                  f"the workflow wrote {f} ({os.path.basename(spec)})")
        installed = os.path.join(env["RUNNER_TEMP"], "layoutproof", "bin", "layoutproof")
        check(os.path.isfile(installed), "the install step installed bin/layoutproof under $RUNNER_TEMP")
        extra = [l for l in open(env["GITHUB_PATH"]).read().splitlines() if l]
        found = shutil.which("layoutproof", path=os.pathsep.join(extra[::-1] + [env["PATH"]]))
        check(found == installed, f"the later steps run the installed layoutproof (PATH finds {found})")


with tempfile.TemporaryDirectory(prefix="layoutproof_ci_") as tmp:
    test_hooks(tmp)
    test_workflow(tmp)
print(f"{len(failures)} failures" if failures else "PASS: pre-commit hooks and workflow commands run as written")
sys.exit(1 if failures else 0)
