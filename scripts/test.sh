#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, runs every test
# under CTest (unit, golden, and the integration tests that start real
# prometheus, promtool, yanglint and veth interfaces on this machine).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j "${JOBS:-2}" --timeout 600
