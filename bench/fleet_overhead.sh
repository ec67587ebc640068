#!/usr/bin/env bash
# What fleet mode costs one member: the same gateway on the same simulated
# hosts, once alone and once as the only member of an etcd fleet (a real
# etcd on loopback), side by side for DURATION seconds. Prints RSS, CPU
# seconds, and the etcd requests the member sent (by kind, per second).
#
#   bench/fleet_overhead.sh [DURATION=60] [HOSTS=16]
# Needs a built tree (BIN, default build-rel/ if present, else build/) and
# /usr/bin/etcd.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60}
HOSTS=${2:-16}
BIN=${BIN:-build-rel/gateway/rdmagw}
[ -x "$BIN" ] || BIN=build/gateway/rdmagw
DEMO=$(dirname "$BIN")/rdmagw-demo  # the demo's program, built beside rdmagw
WORK=$(mktemp -d /tmp/rdmagw-fleet-bench-XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The simulated hosts' sysfs trees, ticking (the demo's own gateway is idle weight for both runs alike).
"$DEMO" --dir "$WORK/sim" --hosts "$HOSTS" --esxi 0 --switches 1 --listen "127.0.0.1:$(free_port)" \
  --gnmi-listen off --snmp off > "$WORK/demo.log" 2>&1 &
PIDS+=($!)
EC=$(free_port); EP=$(free_port)
etcd --data-dir "$WORK/etcd" --name bench --listen-client-urls "http://127.0.0.1:$EC" \
  --advertise-client-urls "http://127.0.0.1:$EC" --listen-peer-urls "http://127.0.0.1:$EP" \
  --initial-advertise-peer-urls "http://127.0.0.1:$EP" --initial-cluster "bench=http://127.0.0.1:$EP" \
  > "$WORK/etcd.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do [ -d "$WORK/sim/host01" ] && break; sleep 0.2; done

targets() {
  for h in $(seq -f "host%02g" 1 "$HOSTS"); do
    printf -- '- name: %s\n  kind: rdma-host\n  interval: 1s\n  rdma: {sysfs_root: %s/sim/%s/sys, ethtool: text, ethtool_dir: %s/sim/%s/ethtool, lldp: off}\n' \
      "$h" "$WORK" "$h" "$WORK" "$h"
  done
}
ALONE_PORT=$(free_port); FLEET_PORT=$(free_port)
{ echo "admin_socket: off"; echo "targets_dir: \"\""; echo "northbound: {prometheus: {listen: \"127.0.0.1:$ALONE_PORT\"}}"; echo "targets:"; targets; } > "$WORK/alone.yaml"
{ echo "admin_socket: off"; echo "targets_dir: \"\""; echo "northbound: {prometheus: {listen: \"127.0.0.1:$FLEET_PORT\"}}";
  echo "cluster: {endpoints: [\"127.0.0.1:$EC\"], name: bench, member: m1, lease_ttl: 10s}"; echo "targets:"; targets; } > "$WORK/fleet.yaml"
"$BIN" run --config "$WORK/alone.yaml" --log-level warn > "$WORK/alone.log" 2>&1 &
ALONE=$!; PIDS+=($ALONE)
"$BIN" run --config "$WORK/fleet.yaml" --log-level warn > "$WORK/fleet.log" 2>&1 &
FLEET=$!; PIDS+=($FLEET)

# Both collect every host before the clock starts.
for _ in $(seq 1 300); do
  a=$(curl -s "127.0.0.1:$ALONE_PORT/metrics" | grep -c '^rdmagw_target_up{.*} 1' || true)
  f=$(curl -s "127.0.0.1:$FLEET_PORT/metrics" | grep -c '^rdmagw_target_up{.*} 1' || true)
  [ "$a" = "$HOSTS" ] && [ "$f" = "$HOSTS" ] && break
  sleep 0.2
done
if [ "$a" != "$HOSTS" ] || [ "$f" != "$HOSTS" ]; then
  echo "not every host is up (alone $a, member $f of $HOSTS); logs in $WORK:" >&2
  tail -n 5 "$WORK/demo.log" "$WORK/alone.log" "$WORK/fleet.log" >&2
  exit 1
fi
cpu() { awk '{print ($14+$15)/100}' "/proc/$1/stat"; }
rss() { awk '/VmRSS/ {print $2/1024}' "/proc/$1/status"; }
requests() { curl -s "127.0.0.1:$FLEET_PORT/metrics" | awk '/^rdmagw_cluster_etcd_requests_total/ {s+=$2} END {print s+0}'; }
a0=$(cpu $ALONE); f0=$(cpu $FLEET); r0=$(requests)
sleep "$DURATION"
a1=$(cpu $ALONE); f1=$(cpu $FLEET); r1=$(requests)
echo "fleet overhead over ${DURATION} s, ${HOSTS} simulated hosts polled every 1 s ($BIN):"
awk -v r="$(rss $ALONE)" -v c0="$a0" -v c1="$a1" 'BEGIN {printf "  alone : RSS %6.1f MB  CPU %6.2f s\n", r, c1 - c0}'
awk -v r="$(rss $FLEET)" -v c0="$f0" -v c1="$f1" 'BEGIN {printf "  member: RSS %6.1f MB  CPU %6.2f s\n", r, c1 - c0}'
awk -v n="$((r1 - r0))" -v d="$DURATION" 'BEGIN {printf "  etcd requests by the member: %d in %d s = %.2f/s\n", n, d, n / d}'
curl -s "127.0.0.1:$FLEET_PORT/metrics" | grep -E '^rdmagw_cluster_(etcd_requests_total|members|owned_targets|member_info)' | sed 's/^/  /'
