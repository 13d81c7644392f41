#!/usr/bin/env bash
# Installs every Debian package layoutproof's build and tests need. Safe to run twice.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  cmake g++ make
  libz3-dev            # proofs/smt (Z3 C++ API)
  librapidcheck-dev    # properties/ (RapidCheck)
  libgtest-dev         # tests/ (GoogleTest)
  libbenchmark-dev     # bench/ (Google Benchmark)
  libyaml-cpp-dev      # cli/spec/spec.cpp (spec files)
  python3-jsonschema python3-yaml libxml2-utils  # tests: SARIF, JUnit, JSON and spec schemas
  chromium fonts-dejavu-core        # tests: headless screenshots of the --report pages (report.*)
  clang                # fuzz/ (libFuzzer targets; ctest fuzz.smoke)
)
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
