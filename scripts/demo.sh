#!/usr/bin/env bash
# The demo: a simulated congested RoCE fabric and the gateway reading it.
# Installs what it needs, builds, then runs rdmagw-demo (Ctrl-C stops).
# Extra arguments go to rdmagw-demo (e.g. --hosts 16 --listen 0.0.0.0:9464).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec ./build/gateway/rdmagw-demo "$@"
