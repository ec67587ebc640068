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
set -euo pipefail
cd "$(dirname "$0")/.."
DEVICES="${1:-16}"
SCRAPES="${2:-50}"
BIN=./build/gateway/rdmagw
NE=/usr/bin/prometheus-node-exporter
[ -x "$BIN" ] || { echo "build first: ./scripts/build.sh" >&2; exit 1; }
[ -x "$NE" ] || { echo "missing $NE (scripts/install-deps.sh installs it)" >&2; exit 1; }

WORK=$(mktemp -d)
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
GW_PORT=$(free_port)
NE_PORT=$(free_port)
cleanup() { kill "$GW_PID" "$NE_PID" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

# One simulated host with DEVICES mlx5 devices; a slow period keeps the tree
# still while we measure.
"$BIN" demo --hosts 1 --devices "$DEVICES" --period 1h --interval 1s \
  --listen "127.0.0.1:$GW_PORT" --dir "$WORK/sim" --log-level warn &
GW_PID=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$GW_PORT/metrics" | grep -q '^rdmagw_rdma_port_np_cnp_sent_total' && break
  sleep 0.2
done
SYSFS=$(ls -d "$WORK"/sim/*/sys | head -1)

"$NE" --web.listen-address="127.0.0.1:$NE_PORT" --path.sysfs="$SYSFS" \
  --collector.disable-defaults --collector.infiniband >"$WORK/ne.log" 2>&1 &
NE_PID=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$NE_PORT/metrics" | grep -q '^node_infiniband_port_data_received_bytes_total' && break
  sleep 0.2
done

time_scrapes() {  # url -> mean seconds over SCRAPES scrapes
  local url=$1 total=0 t
  for _ in $(seq "$SCRAPES"); do
    t=$(curl -s -o /dev/null -w '%{time_total}' -H 'Accept-Encoding: identity' "$url")
    total=$(echo "$total + $t" | bc -l)
  done
  echo "scale=6; $total / $SCRAPES" | bc -l
}

NE_T=$(time_scrapes "http://127.0.0.1:$NE_PORT/metrics")
GW_T=$(time_scrapes "http://127.0.0.1:$GW_PORT/metrics")
NE_SERIES=$(curl -s "http://127.0.0.1:$NE_PORT/metrics" | grep -c '^node_infiniband_' || true)
GW_SERIES=$(curl -s "http://127.0.0.1:$GW_PORT/metrics" | grep -c '^rdmagw_rdma_' || true)
GW_POLL=$(curl -s "http://127.0.0.1:$GW_PORT/metrics" | awk '/^rdmagw_target_poll_duration_seconds/ {print $2}')

printf 'tree: 1 host x %s devices, %s scrapes each\n' "$DEVICES" "$SCRAPES"
printf 'node_exporter infiniband: %s node_infiniband_* series, mean scrape %.2f ms (reads sysfs per scrape)\n' \
  "$NE_SERIES" "$(echo "$NE_T * 1000" | bc -l)"
printf 'rdmagw:                   %s rdmagw_rdma_* series, mean scrape %.2f ms, background poll %.2f ms\n' \
  "$GW_SERIES" "$(echo "$GW_T * 1000" | bc -l)" "$(echo "$GW_POLL * 1000" | bc -l)"
printf 'ratio scrape node_exporter/rdmagw: %.1fx; ratio node_exporter scrape / rdmagw poll: %.1fx\n' \
  "$(echo "$NE_T / $GW_T" | bc -l)" "$(echo "$NE_T / $GW_POLL" | bc -l)"
printf 'per series: node_exporter %.1f us (scrape), rdmagw %.1f us (poll)\n' \
  "$(echo "$NE_T * 1000000 / $NE_SERIES" | bc -l)" "$(echo "$GW_POLL * 1000000 / $GW_SERIES" | bc -l)"
