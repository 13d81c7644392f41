#!/usr/bin/env bash
# Runs a test only where the tools it needs are installed; otherwise exits 77 (CTest's SKIP_RETURN_CODE
# for every test started through here) with one "SKIPPED: ..." line naming what is missing and the
# Debian package that brings it (scripts/setup.sh installs them all; scripts/test.sh prints every
# SKIPPED line at the end of the run).
#   usage: requires.sh NEED[,NEED...] -- COMMAND [ARG...]
#   NEED:  a command on PATH (xmllint, chromium, clang++, nvcc, python3) or py:MODULE (py:jsonschema)
# The needs of every test are declared once, where tests/ adds it (layoutproof_add_test in
# tests/lib/requires.cmake); tests/package/bare_tools_test.py hides each need in turn and checks that
# the test skips with its line instead of failing.
set -euo pipefail
needs="${1:?usage: requires.sh NEED[,NEED...] -- COMMAND [ARG...]}"; shift
[ "${1:-}" = "--" ] || { echo "requires.sh: expected -- after the needs" >&2; exit 2; }
shift
package_of() {
  case "$1" in
    xmllint) echo libxml2-utils ;;
    chromium) echo chromium ;;
    clang++|clang) echo clang ;;
    g++) echo g++ ;;
    nvcc) echo "the CUDA toolkit (/usr/local/cuda/bin/nvcc; or point LAYOUTPROOF_NVCC at nvcc)" ;;
    python3) echo python3 ;;
    py:jsonschema) echo python3-jsonschema ;;
    py:yaml) echo python3-yaml ;;
    *) echo "(no package known for $1)" ;;
  esac
}
missing=()
IFS=',' read -r -a list <<<"$needs"
for need in "${list[@]}"; do
  case "$need" in
    py:*) command -v python3 >/dev/null && python3 -c "import ${need#py:}" 2>/dev/null || missing+=("$need") ;;
    nvcc)
      nv="${LAYOUTPROOF_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
      [ -x "$nv" ] || missing+=("$need") ;;
    *) command -v "$need" >/dev/null || missing+=("$need") ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  for m in "${missing[@]}"; do
    what="$m not found on PATH"; [ "${m#py:}" != "$m" ] && what="python3 module ${m#py:} not importable"
    echo "SKIPPED: $what (Debian package: $(package_of "$m"); scripts/setup.sh installs it)"
  done
  exit 77
fi
exec "$@"
