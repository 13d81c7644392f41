#!/usr/bin/env bash
# ctest package.consumer: installs the build into a temporary prefix (`cmake --install`), then
# configures, builds and runs tests/package/consumer/ (find_package(layoutproof), the C++ API and
# the GoogleTest helpers) against it, as a kernel project would.
# Usage: consumer_test.sh BUILD_DIR SOURCE_DIR CXX_COMPILER [COMPILER_LAUNCHER]
set -u
build=$1 src=$2 cxx=$3 launcher=${4:-} cxxflags=${5:-} ldflags=${6:-}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/layoutproof_pkg.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$prefix/install.log" 2>&1 || { cat "$prefix/install.log"; fail "cmake --install"; }
for f in bin/layoutproof include/layoutproof/layoutproof.hpp include/layoutproof/gtest.hpp \
         lib/cmake/layoutproof/layoutproofConfig.cmake lib/cmake/layoutproof/layoutproofConfigVersion.cmake \
         lib/cmake/layoutproof/layoutproofTargets.cmake; do
  [ -f "$prefix/$f" ] || fail "the install has no $f"
done
# The installed headers stand alone: no model/ or proofs/ header is installed, none is included.
grep -n '#include "' "$prefix"/include/layoutproof/*.hpp | grep -v '"layoutproof/' && fail "an installed header includes a private header"

cli_version=$("$prefix/bin/layoutproof" --version) || fail "installed layoutproof --version"
version=${cli_version#layoutproof }
echo "installed: $cli_version"

# The version file accepts the same minor version and refuses another major one.
cat >"$prefix/version_check.cmake" <<CMK
foreach(want ${version} 9.0)
  set(PACKAGE_FIND_VERSION \${want})
  string(REGEX MATCHALL "[0-9]+" parts \${want})
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  set(PACKAGE_VERSION_COMPATIBLE)
  include("$prefix/lib/cmake/layoutproof/layoutproofConfigVersion.cmake")
  message("\${want} compatible=\${PACKAGE_VERSION_COMPATIBLE} package=\${PACKAGE_VERSION}")
endforeach()
CMK
vc=$(cmake -P "$prefix/version_check.cmake" 2>&1)
echo "$vc"
grep -q "^${version} compatible=TRUE package=${version}$" <<<"$vc" || fail "the version file refuses its own version"
grep -q "^9.0 compatible=FALSE" <<<"$vc" || fail "the version file accepts 9.0"

launch=()
[ -n "$launcher" ] && launch=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
cmake -S "$src/tests/package/consumer" -B "$prefix/consumer" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
      "${launch[@]}" -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" -DCMAKE_PREFIX_PATH="$prefix" >"$prefix/configure.log" 2>&1 || { cat "$prefix/configure.log"; fail "consumer configure"; }
cmake --build "$prefix/consumer" -j2 >"$prefix/build.log" 2>&1 || { cat "$prefix/build.log"; fail "consumer build"; }

out=$("$prefix/consumer/consumer" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "consumer exited $rc"
grep -q "^version ${version} (package ${version})$" <<<"$out" || fail "version line"
grep -q "^PROVED  bijective  \[" <<<"$out" || fail "no PROVED bijective"
grep -q "^REFUTED  contiguous:16  \[.*witness: x: index 1 (1,0) -> element 72" <<<"$out" || fail "no REFUTED contiguous:16 with its witness"
grep -q "^REFUTED  conflict-free  \[.*witness: " <<<"$out" || fail "no REFUTED conflict-free on the plain trace"
grep -q "^              \^$" <<<"$out" || fail "no caret under the parse error"

tests=$("$prefix/consumer/consumer_tests" --gtest_filter=-DemoFailure.* 2>&1); rc=$?
echo "$tests" | tail -3
[ $rc -eq 0 ] || { echo "$tests"; fail "consumer_tests exited $rc"; }
grep -q "\[  PASSED  \] 3 tests" <<<"$tests" || fail "consumer_tests did not pass 3 tests"

demo=$("$prefix/consumer/consumer_tests" --gtest_filter=DemoFailure.* 2>&1); rc=$?
[ $rc -eq 1 ] || { echo "$demo"; fail "the failing EXPECT_PROVED exited $rc, not 1"; }
grep -q 'is not PROVED' <<<"$demo" && grep -q 'REFUTED  contiguous:16  \[.*witness: x: index 1 (1,0) -> element 72' <<<"$demo" ||
  { echo "$demo"; fail "a failing EXPECT_PROVED does not print the verdict and witness"; }
echo "$demo" | grep -B1 -A2 'is not PROVED'
echo "PASS: consumer project built against the installed package"
