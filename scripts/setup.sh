#!/usr/bin/env bash
# Installs every Debian package layoutproof's build and tests need, on Debian 12 (bookworm), the system
# the project is built and tested on; safe to run twice. Installed with --no-install-recommends, so every
# package a build or test uses is named here, even where another package only recommends it
# (tests/package/setup_test.py checks this list against what the build and the tests run).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ -r /etc/os-release ]; then
  . /etc/os-release
  if [ "${ID:-}" != debian ] || [ "${VERSION_ID:-}" != 12 ]; then
    echo "setup.sh: this is ${PRETTY_NAME:-an unknown system}; the package names below are Debian 12's" >&2
  fi
fi
PACKAGES=(
  cmake g++ make
  ccache               # scripts/build.sh and scripts/fuzz.sh compile through it when present
  libz3-dev            # proofs/smt (Z3 C++ API)
  librapidcheck-dev    # properties/ (RapidCheck)
  libgtest-dev         # tests/ (GoogleTest)
  libbenchmark-dev     # bench/ (Google Benchmark)
  libyaml-cpp-dev      # cli/spec/spec.cpp (spec files)
  nlohmann-json3-dev   # every JSON the command writes or reads (results, baselines, merged shards)
  libcli11-dev         # CLI11: the flag tables of every subcommand
  python3 python3-jsonschema python3-yaml libxml2-utils  # tests: SARIF, JUnit, JSON and spec schemas
  chromium fonts-dejavu-core        # tests: headless screenshots of the --report pages (report.*)
  clang                # fuzz/ (libFuzzer targets; ctest fuzz.smoke)
  libclang-rt-14-dev   # libFuzzer's runtime for Debian 12's clang 14 (only a Recommends of clang)
)
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
