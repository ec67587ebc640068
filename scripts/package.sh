#!/usr/bin/env bash
# Builds the Debian package rdmagw_<version>_amd64.deb from a Release build
# in build-release/ (Debian's hardening flags from dpkg-buildflags), and
# leaves it in the source tree's top directory.
#   scripts/package.sh            # JOBS=2 by default
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
CFLAGS=$(dpkg-buildflags --get CFLAGS)
CXXFLAGS=$(dpkg-buildflags --get CXXFLAGS)
LDFLAGS=$(dpkg-buildflags --get LDFLAGS)
CPPFLAGS=$(dpkg-buildflags --get CPPFLAGS)
# The package holds only the gateway: no tests or benchmarks are built.
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DRDMAGW_BENCH=OFF \
  -DCMAKE_C_FLAGS="$CPPFLAGS $CFLAGS" -DCMAKE_CXX_FLAGS="$CPPFLAGS $CXXFLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS" >/dev/null
cmake --build build-release -j "${JOBS:-2}" --target rdmagw rdmagw_package_files
(cd build-release && rm -rf cpack && cpack -G DEB -B "$PWD/cpack")
mv build-release/cpack/rdmagw_*_amd64.deb .
ls -l rdmagw_*_amd64.deb
if command -v lintian >/dev/null; then lintian --info --show-overrides rdmagw_*_amd64.deb || true; fi
