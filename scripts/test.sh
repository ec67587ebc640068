#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what it needs, then builds
# and runs every test under CTest (unit, golden, and the integration tests
# that start real prometheus, promtool, yanglint, sshd, snmpd, etcd and veth
# interfaces on this machine) under ASan+UBSan+LSan with a short pass of
# every fuzz target, then the concurrency-heavy tests under TSan.
#
# Every test runs in the sanitizer build: a plain build's run of the same
# tests found nothing the ASan run does not, and on two cores it cost a third
# of CI's time (its own build of every unit plus the suite again).
# SANITIZERS=0 runs the plain build (scripts/build.sh, the one the demo and
# the package use) and the suite on it instead: a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's end is stamped with the seconds since the start, so a slow
# CI run says where its time went.
stage() { echo "== test.sh: $1 done at ${SECONDS} s"; }
if [ "${SANITIZERS:-1}" = 0 ]; then
  bash scripts/build.sh
  stage "build"
  # Five tests at a time on two cores: most integration tests spend their
  # time waiting on a peer (etcd leases, sshd, snmpd, a scrape, a simulated
  # fabric's one-second ticks), not computing. Measured here: at -j3 the CPU
  # sat 62 % idle and the suite took 377 s; at -j6 43 % idle, 202 s. Every
  # test waits on events with generous limits, never on this machine's speed.
  ctest --test-dir build --output-on-failure -j "${TEST_JOBS:-5}" --timeout 600
  stage "plain suite"
  exit 0
fi
bash scripts/sanitize.sh address
stage "ASan+UBSan build and suite"
bash scripts/sanitize.sh thread
stage "TSan build and suite"
