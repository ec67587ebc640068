#!/usr/bin/env bash
# Installs the Debian packages (when missing) and builds everything into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
# Two jobs: the machines this runs on have two cores and gRPC-heavy units
# need ~1 GiB each.
cmake --build build -j "${JOBS:-2}"
