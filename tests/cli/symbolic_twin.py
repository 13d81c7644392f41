"""The exhaustive twin of the free-parameter claims (docs/compiled.md "Free parameters"), shared by
tests/cli/ptx_symbolic_test.py (PTX) and tests/cli/sass_symbolic_test.py (SASS).

A kernel's claims decided for every k of LO..HI at once (`--param-range I=LO..HI`, Z3 over affine
terms) must equal the kernel run concretely with each k (`--param I=k`):
  PROVED   every concrete run proves the claim (bank claims: every run at which the accesses are
           valid; at the others the concrete run is ERROR, the bank model's precondition);
  REFUTED  its witness k lies in LO..HI and the concrete run with it refutes the claim; or the
           witness says other issues of the instruction fault at k (the violation replayed on its
           issue alone) and the concrete run with it is ERROR there;
  anything else is a failure: every kernel given to the twin is affine in k, so the brute force
  decides and the symbols must too.
"""
import re
import subprocess

CLAIMS = ["conflict-free", "max-ways:2", "aligned", "in-bounds"]
# "VERDICT  claim  [method, X ms]  line N: witness or detail" (cli/output/results.hpp)
VERDICT = re.compile(r"^(PROVED|REFUTED|UNKNOWN|ERROR)  (\S+)  \[(.*?), [0-9.]+ ms\]  line (\d+): (.*)$")
WITNESS = re.compile(r"replayed with --param (\S+?)=(-?\d+)")
FAULTS = "other issue(s) of this instruction fault"


class Twin:
    def __init__(self, lp, fmt="ptx", block="32", extra=()):
        """block None: the kernel's .reqntid; extra: arguments every run takes."""
        self.lp, self.fmt, self.block, self.extra = lp, fmt, block, list(extra)
        self.failures = []

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
            print("FAIL:", what)

    def run(self, path, kernel, args, claims=CLAIMS):
        """(exit code, {(line, claim): (verdict, rest of the line)}, stdout)."""
        cmd = [self.lp, self.fmt, path, "--kernel", kernel] + (["--block", self.block] if self.block else []) + self.extra + list(args)
        for c in claims:
            cmd += ["--claim", c]
        p = subprocess.run(cmd, capture_output=True, text=True)
        out = {}
        for line in p.stdout.splitlines():
            m = VERDICT.match(line)
            if m:
                out[(int(m.group(4)), m.group(2))] = (m.group(1), m.group(5) + "  [" + m.group(3) + "]")
        return p.returncode, out, p.stdout

    @staticmethod
    def witness_k(text, unsigned=False):
        m = WITNESS.search(text)
        if not m:
            return None
        k = int(m.group(2))  # an unsigned parameter's witness is spelled unsigned; the range reads its bits signed
        return k - 2**32 if unsigned and k >= 2**31 else k

    def twin(self, path, kernel, lo, hi, label, param="1", claims=CLAIMS, unsigned=False):
        """The symbolic verdicts over LO..HI (the symbol's bits read signed) against the concrete ones
        for each k, given as the parameter's type takes it (an unsigned 32-bit one's -3 is
        4294967293: --param refuses a value outside the type); how many compared."""
        _, sym, _ = self.run(path, kernel, ["--param-range", f"{param}={lo}..{hi}"], claims)
        conc = {k: self.run(path, kernel, ["--param", f"{param}={k % 2**32 if unsigned else k}"], claims)[1] for k in range(lo, hi + 1)}
        checked = 0
        for (line, claim), (v, detail) in sym.items():
            # An instruction no lane runs is UNKNOWN (NOT RUN) at every k the control flow does not
            # reach it, and in the symbolic run when no value reaches it: nothing to compare.
            runs = {k: not conc[k].get((line, claim), ("MISSING", ""))[1].startswith("NOT RUN") for k in conc}
            if not any(runs.values()):
                self.check(v == "UNKNOWN" and detail.startswith("NOT RUN"), f"{label} line {line} {claim}: run at no k, symbolic {v} ({detail[:80]})")
                checked += 1
                continue
            per_k = {k: conc[k].get((line, claim), ("MISSING", ""))[0] for k in conc if runs[k]}
            bank = claim in ("conflict-free", "max-ways:2")
            valid = {k: c for k, c in per_k.items() if not (bank and c == "ERROR")}
            what = f"{label} line {line} {claim} over {lo}..{hi}: symbolic {v}, concrete {sorted(set(per_k.values()))}"
            self.check(all(c in ("PROVED", "REFUTED", "ERROR") for c in per_k.values()), what + " (a concrete run undecided)")
            if v == "PROVED":
                self.check(valid and all(c == "PROVED" for c in valid.values()), what)
            elif v == "REFUTED":
                k = self.witness_k(detail, unsigned)
                if k is None:  # refuted by an issue that does not depend on k: every k refutes
                    self.check(all(c == "REFUTED" for c in valid.values()), what)
                elif FAULTS in detail:
                    self.check(lo <= k <= hi and per_k.get(k) == "ERROR", what + f" (witness k={k}, other issues fault there)")
                else:
                    self.check(lo <= k <= hi and per_k.get(k) == "REFUTED", what + f" (witness k={k})")
            else:
                self.check(False, what + " (undecided though the brute force decides): " + detail)
            checked += 1
        return checked
