#!/usr/bin/env bash
# What a fleet member costs as the fleet grows, on one fabric of fixed size
# (docs/performance.md "Fleet: per-member cost at N = 2, 4, 8"): the scale
# simulator's leaves (gNMI, LLDP naming their hosts) and RDMA hosts (sysfs
# trees every member can read), one real etcd, and N `rdmagw run` members
# on loopback with analytics on, for each N given. Once every target is up
# and the series hold still, over WINDOW seconds, prints per member: targets
# owned, own series, RSS, CPU (cores), the peer copy's series and peer
# ports, bytes per second the copy received, etcd requests per second and
# the analytics run time; then the fleet's totals. Prints, asserts nothing.
#
#   bench/fleet_scale.sh [SWITCHES=16] [HOSTS=128] [MEMBERS="2 4 8"]
#   env: BIN (rdmagw, default build-rel/gateway/rdmagw), SIM (the scale
#        simulator, default beside BIN's tree), WARMUP=20 (after the
#        series hold still), WINDOW=60,
#        DEVICES=8, HOSTS_PER_LEAF=16, PERIOD=10 (collection and analytics),
#        CALM=on (no hot spots, so no pause trees; off: the simulator's
#        random incasts build trees that cross members)
# Needs /usr/bin/etcd. Every member runs on this machine: the CPU figures
# are shares of its cores, with the simulator beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
SWITCHES=${1:-16}
HOSTS=${2:-128}
MEMBERS=${3:-2 4 8}
BIN=${BIN:-build-rel/gateway/rdmagw}
SIM=${SIM:-$(dirname "$(dirname "$BIN")")/bench/rdmagw_scale_sim}
WARMUP=${WARMUP:-20}
WINDOW=${WINDOW:-60}
DEVICES=${DEVICES:-8}
HOSTS_PER_LEAF=${HOSTS_PER_LEAF:-16}
PERIOD=${PERIOD:-10}
CALM=${CALM:-on}
WORK=$(mktemp -d /tmp/rdmagw-fleet-scale-XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
TICK=$(getconf CLK_TCK)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
rss_mb() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo 0; }
# metric NAME FILE: the sum of every series of NAME (any labels).
metric() { awk -v n="$1" '$1 == n || index($1, n "{") == 1 {s += $2; f = 1} END {printf "%.6g", f ? s : 0}' "$2"; }

EC=$(free_port); EP=$(free_port)
etcd --data-dir "$WORK/etcd" --name bench --listen-client-urls "http://127.0.0.1:$EC" \
  --advertise-client-urls "http://127.0.0.1:$EC" --listen-peer-urls "http://127.0.0.1:$EP" \
  --initial-advertise-peer-urls "http://127.0.0.1:$EP" --initial-cluster "bench=http://127.0.0.1:$EP" \
  > "$WORK/etcd.log" 2>&1 &
PIDS+=($!)

"$SIM" --dir "$WORK/sim" --switches "$SWITCHES" --hosts "$HOSTS" --devices "$DEVICES" \
  --hosts-per-leaf "$HOSTS_PER_LEAF" --period "$PERIOD" --snmp off --gnmi-listen off --analytics on --calm "$CALM" \
  > "$WORK/sim.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 600); do [ -f "$WORK/sim/ready" ] && break; sleep 0.5; done
[ -f "$WORK/sim/ready" ] || { echo "simulator did not start: $(tail -3 "$WORK/sim.log")" >&2; exit 1; }
# The simulator's gateway.yaml: its targets and analytics blocks, as they are.
TARGETS=$(awk '/^targets:/ {on = 1} /^northbound:/ {on = 0} on' "$WORK/sim/gateway.yaml")
ANALYTICS=$(awk '/^analytics:/ {on = 1} on' "$WORK/sim/gateway.yaml")
TOTAL=$(grep -c '^  - name:' <<<"$TARGETS")

echo "fabric: $SWITCHES leaves (gNMI) + $HOSTS hosts x $DEVICES devices = $TOTAL targets; period ${PERIOD}s;" \
  "calm $CALM; warm-up ${WARMUP}s, window ${WINDOW}s; $(nproc) cores; $BIN"
for n in $MEMBERS; do
  MPIDS=(); PROMS=()
  for i in $(seq 1 "$n"); do
    prom=$(free_port); gnmi=$(free_port)
    PROMS+=("$prom")
    {
      echo "admin_socket: off"
      echo "targets_dir: \"\""
      echo "log_level: warn"
      echo "max_concurrent_polls: 8"
      echo "$TARGETS"
      echo "northbound:"
      echo "  prometheus: {listen: \"127.0.0.1:$prom\"}"
      echo "  gnmi: {listen: \"127.0.0.1:$gnmi\", insecure: true}"
      echo "cluster: {endpoints: [\"http://127.0.0.1:$EC\"], name: bench-$n, member: m$i, lease_ttl: 10s}"
      echo "$ANALYTICS"
    } > "$WORK/m$i-of-$n.yaml"
    "$BIN" run --config "$WORK/m$i-of-$n.yaml" > "$WORK/m$i-of-$n.log" 2>&1 &
    MPIDS+=($!); PIDS+=($!)
  done
  # Every target up on exactly one member.
  up=0
  for _ in $(seq 600); do
    up=0
    for p in "${PROMS[@]}"; do
      c=$(curl -s -m 10 "127.0.0.1:$p/metrics" | grep -c '^rdmagw_target_up{.*} 1' || true)
      up=$((up + c))
    done
    [ "$up" = "$TOTAL" ] && break
    sleep 1
  done
  if [ "$up" != "$TOTAL" ]; then
    echo "N=$n: $up of $TOTAL targets up; logs in $WORK" >&2; trap - EXIT; exit 1
  fi
  # Then until the fleet's own and copied series hold still (within 1 % over
  # a period, twice running), then WARMUP more seconds.
  prev="0 0"; still=0
  for _ in $(seq 60); do
    sleep "$PERIOD"
    own=0; copied=0
    for p in "${PROMS[@]}"; do
      curl -s -m 30 "127.0.0.1:$p/metrics" > "$WORK/settle"
      own=$(awk -v a="$own" -v b="$(metric rdmagw_target_series "$WORK/settle")" 'BEGIN {print a + b}')
      copied=$(awk -v a="$copied" -v b="$(metric rdmagw_fleet_mirror_series "$WORK/settle")" 'BEGIN {print a + b}')
    done
    if awk -v p="$prev" -v o="$own" -v c="$copied" 'BEGIN {split(p, x, " "); d1 = o - x[1]; d2 = c - x[2];
        if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2; exit !(d1 <= 0.01 * o && d2 <= 0.01 * (c + 1))}'; then
      still=$((still + 1))
    else
      still=0
    fi
    prev="$own $copied"
    [ "$still" -ge 2 ] && break
  done
  sleep "$WARMUP"
  declare -A cpu0 bytes0 etcd0
  for i in $(seq 1 "$n"); do
    idx=$((i - 1)); pid=${MPIDS[$idx]}
    curl -s -m 30 "127.0.0.1:${PROMS[$idx]}/metrics" > "$WORK/before-$i"
    cpu0[$i]=$(cpu_ticks "$pid")
    bytes0[$i]=$(metric rdmagw_fleet_mirror_received_bytes_total "$WORK/before-$i")
    etcd0[$i]=$(metric rdmagw_cluster_etcd_requests_total "$WORK/before-$i")
  done
  sleep "$WINDOW"
  echo
  echo "N = $n members"
  printf '%-6s %8s %11s %8s %9s %12s %10s %6s %12s %10s %12s\n' member targets own_series rss_mb cpu_cores \
    mirror_series peer_ports whole rx_bytes_s etcd_req_s analytics_s
  t_targets=0 t_series=0 t_rss=0 t_cpu=0 t_mirror=0 t_rx=0 t_etcd=0 max_run=0
  for i in $(seq 1 "$n"); do
    idx=$((i - 1)); pid=${MPIDS[$idx]}
    f="$WORK/after-$i"
    curl -s -m 30 "127.0.0.1:${PROMS[$idx]}/metrics" > "$f"
    cpu=$(awk -v a="${cpu0[$i]}" -v b="$(cpu_ticks "$pid")" -v t="$TICK" -v w="$WINDOW" 'BEGIN {printf "%.3f", (b - a) / t / w}')
    rx=$(awk -v a="${bytes0[$i]}" -v b="$(metric rdmagw_fleet_mirror_received_bytes_total "$f")" -v w="$WINDOW" \
      'BEGIN {printf "%.0f", (b - a) / w}')
    etcd=$(awk -v a="${etcd0[$i]}" -v b="$(metric rdmagw_cluster_etcd_requests_total "$f")" -v w="$WINDOW" \
      'BEGIN {printf "%.2f", (b - a) / w}')
    targets=$(metric rdmagw_cluster_owned_targets "$f")
    series=$(metric rdmagw_target_series "$f")
    mirror=$(metric rdmagw_fleet_mirror_series "$f")
    ports=$(metric rdmagw_fleet_mirror_peer_ports "$f")
    whole=$(metric rdmagw_fleet_mirror_whole_targets "$f")
    run=$(metric rdmagw_analytics_run_duration_seconds "$f")
    rss=$(rss_mb "$pid")
    printf '%-6s %8s %11s %8s %9s %12s %10s %6s %12s %10s %12s\n' "m$i" "$targets" "$series" "$rss" "$cpu" "$mirror" \
      "$ports" "$whole" "$rx" "$etcd" "$run"
    read -r t_targets t_series t_rss t_cpu t_mirror t_rx t_etcd max_run < <(awk -v a="$t_targets" -v b="$targets" \
      -v c="$t_series" -v d="$series" -v e="$t_rss" -v f="$rss" -v g="$t_cpu" -v h="$cpu" -v i="$t_mirror" \
      -v j="$mirror" -v k="$t_rx" -v l="$rx" -v m="$t_etcd" -v o="$etcd" -v p="$max_run" -v q="$run" \
      'BEGIN {printf "%d %d %d %.3f %d %d %.2f %.3f\n", a + b, c + d, e + f, g + h, i + j, k + l, m + o, (q > p ? q : p)}')
  done
  printf '%-6s %8s %11s %8s %9s %12s %10s %6s %12s %10s %12s\n' fleet "$t_targets" "$t_series" "$t_rss" "$t_cpu" \
    "$t_mirror" - - "$t_rx" "$t_etcd" "max $max_run"
  for p in "${MPIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${MPIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  unset cpu0 bytes0 etcd0
done
