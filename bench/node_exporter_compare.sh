#!/usr/bin/env bash
# Side by side: Debian's prometheus-node-exporter (infiniband collector, with
# --path.sysfs) and rdmagw read the SAME simulated sysfs tree; prints scrape
# times of both and the ratio.
#
# What each number means:
#   node_exporter reads sysfs during the scrape, so its scrape time is its
#   collection cost. rdmagw polls in the background and serves the store, so
#   its scrape time is the exposition cost; its collection cost is its own
#   rdmagw_target_poll_duration_seconds, printed too.
#
# Usage: bench/node_exporter_compare.sh [devices (max 16)] [scrapes]
# (RDMAGW_BIN=path/to/rdmagw to compare another build, e.g. build-rel)
set -euo pipefail
cd "$(dirname "$0")/.."
DEVICES="${1:-16}"
SCRAPES="${2:-50}"
BIN="${RDMAGW_BIN:-./build/gateway/rdmagw}"
NE=/usr/bin/prometheus-node-exporter
DEMO=$(dirname "$BIN")/rdmagw-demo  # the demo's program, built beside rdmagw
[ -x "$DEMO" ] || { echo "build first: ./scripts/build.sh" >&2; exit 1; }
[ -x "$NE" ] || { echo "missing $NE (scripts/install-deps.sh installs it)" >&2; exit 1; }

WORK=$(mktemp -d)
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
GW_PORT=$(free_port)
NE_PORT=$(free_port)
GW_PID= NE_PID=
cleanup() { kill $GW_PID $NE_PID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

# One simulated host with DEVICES mlx5 devices (and the one leaf the
# simulator needs; no ESXi host, gNMI server or SNMP); a slow period keeps
# the tree still while we measure.
"$DEMO" --hosts 1 --devices "$DEVICES" --esxi 0 --gnmi-listen off --snmp off \
  --period 1h --interval 1s --listen "127.0.0.1:$GW_PORT" --dir "$WORK/sim" --log-level warn &
GW_PID=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$GW_PORT/metrics" | grep -q '^rdmagw_rdma_port_np_cnp_sent_total' && break
  sleep 0.2
done
SYSFS=$(ls -d "$WORK"/sim/*/sys 2>/dev/null | head -1)
[ -n "$SYSFS" ] || { echo "the demo wrote no host tree" >&2; exit 1; }
HOST=$(basename "$(dirname "$SYSFS")")
# The collection cost of that host: its own poll duration (the gateway
# reports one per target; a run with other targets must not mix them in).
poll_seconds() {
  curl -s "http://127.0.0.1:$GW_PORT/metrics" |
    awk -v t="target=\"$HOST\"" '/^rdmagw_target_poll_duration_seconds\{/ && index($0, t) && v == "" {v = $NF} END {print v}'
}
for _ in $(seq 100); do
  [ -n "$(poll_seconds)" ] && break
  sleep 0.2
done

"$NE" --web.listen-address="127.0.0.1:$NE_PORT" --path.sysfs="$SYSFS" \
  --collector.disable-defaults --collector.infiniband >"$WORK/ne.log" 2>&1 &
NE_PID=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$NE_PORT/metrics" | grep -q '^node_infiniband_port_data_received_bytes_total' && break
  sleep 0.2
done

time_scrapes() {  # url -> mean seconds over SCRAPES scrapes
  local url=$1
  for _ in $(seq "$SCRAPES"); do
    curl -s -o /dev/null -w '%{time_total}\n' -H 'Accept-Encoding: identity' "$url"
  done | awk '{ total += $1 } END { printf "%.6f\n", total / NR }'
}

NE_T=$(time_scrapes "http://127.0.0.1:$NE_PORT/metrics")
GW_T=$(time_scrapes "http://127.0.0.1:$GW_PORT/metrics")
NE_SERIES=$(curl -s "http://127.0.0.1:$NE_PORT/metrics" | grep -c '^node_infiniband_' || true)
GW_SERIES=$(curl -s "http://127.0.0.1:$GW_PORT/metrics" | grep -c '^rdmagw_rdma_' || true)
GW_POLL=$(poll_seconds)
[ -n "$GW_POLL" ] || { echo "the gateway reported no poll duration for $HOST" >&2; exit 1; }

# awk, not bc: Prometheus may print a value as 1.5e-05, which bc cannot read.
awk -v devices="$DEVICES" -v scrapes="$SCRAPES" -v host="$HOST" -v ne_t="$NE_T" -v gw_t="$GW_T" \
    -v ne_series="$NE_SERIES" -v gw_series="$GW_SERIES" -v gw_poll="$GW_POLL" 'BEGIN {
  printf "tree: 1 host (%s) x %s devices, %s scrapes each\n", host, devices, scrapes
  printf "node_exporter infiniband: %d node_infiniband_* series, mean scrape %.2f ms (reads sysfs per scrape)\n", ne_series, ne_t * 1000
  printf "rdmagw:                   %d rdmagw_rdma_* series, mean scrape %.2f ms, background poll %.2f ms\n", gw_series, gw_t * 1000, gw_poll * 1000
  printf "ratio scrape node_exporter/rdmagw: %.1fx; ratio node_exporter scrape / rdmagw poll: %.1fx\n", ne_t / gw_t, (gw_poll > 0 ? ne_t / gw_poll : 0)
  printf "per series: node_exporter %.1f us (scrape), rdmagw %.1f us (poll)\n", ne_t * 1e6 / ne_series, gw_poll * 1e6 / gw_series
}'
