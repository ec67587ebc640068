#!/usr/bin/env bash
# Rewrites the checked-in files generated from models/schema.yaml:
# mibs/RDMAGW-MIB.txt and docs/metrics.md. (The build generates the C++
# schema table itself, and tests fail while these two differ from what the
# schema gives.) Run after editing models/schema.yaml, then commit all three.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 models/gen_schema.py --schema models/schema.yaml \
  --mib mibs/RDMAGW-MIB.txt --docs docs/metrics.md
