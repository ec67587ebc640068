#!/usr/bin/env bash
# Installs the Debian packages (when missing) and builds everything into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"
# -g1 (line tables) in place of -g: backtraces and sanitizer-style stacks
# keep their file:line, and the build is about a quarter faster per unit.
# The package's Release build is made by scripts/package.sh, not here.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
# Two jobs: the machines this runs on have two cores and gRPC-heavy units
# need ~1 GiB each.
cmake --build build -j "${JOBS:-2}"
