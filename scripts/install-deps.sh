#!/usr/bin/env bash
# Installs every Debian 12 package rdmagw needs to build, test and run its demo.
# Idempotent: a second run only checks. Needs root (apt-get).
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake pkg-config ninja-build
  # sanitizer and fuzz builds (scripts/sanitize.sh, scripts/fuzz.sh): clang's
  # ASan/UBSan/TSan/libFuzzer runtimes and llvm-symbolizer for their reports
  clang libclang-rt-14-dev llvm
  # LLVM's linker: links the ~90 test and tool binaries several times faster
  # than GNU ld (CMakeLists.txt uses it when present)
  lld
  # design-card libraries
  libgrpc++-dev protobuf-compiler-grpc protobuf-compiler libprotobuf-dev
  libsnmp-dev snmpd snmp libssh-dev prometheus-cpp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # a real gNMI peer for tests: Debian's grpcio and protobuf for python3
  python3-grpcio python3-protobuf
  # the schema generator (models/gen_schema.py, run by the build) reads YAML
  python3-yaml
  # small well-kept helpers
  libyaml-cpp-dev libcivetweb-dev nlohmann-json3-dev
  # NX-API: HTTPS client with keep-alive, TLS verification and key pinning
  libcurl4-openssl-dev
  # sd_notify for the Type=notify systemd unit
  libsystemd-dev
  # the package (scripts/package.sh) and its test: lintian, systemd-analyze
  lintian systemd
  # real peers and validators used by the tests and benchmarks
  prometheus prometheus-node-exporter libyang2-tools ethtool iproute2 curl bc python3
  # SNMP northbound: smilint for mibs/RDMAGW-MIB.txt
  smitools
  # SNMP notifications: the tests' trap/inform receiver
  snmptrapd
  openssh-server openssh-client openssl passwd procps
  # the fleet's coordination: a real etcd (and etcdctl) for the cluster tests
  etcd-server etcd-client
  # bench/soak.sh plots RSS, fds and lag to PNG: gnuplot-nox is 4 packages,
  # python3-matplotlib would pull 48 (numpy, pillow, fonts)
  gnuplot-nox
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run as root" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# --no-install-recommends keeps the image small; policy-rc.d stops the
# packaged daemons (snmpd, prometheus) from starting: tests start their own.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}"
