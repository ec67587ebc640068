#!/usr/bin/env bash
# Scale run of the whole gateway (docs/performance.md): for each size, the simulator
# (rdmagw_scale_sim, its own process) streams N Nexus leaves over gNMI and
# writes M RDMA hosts' sysfs trees; the real `rdmagw run` reads them with all
# three northbounds on; this script measures the gateway process alone and
# prints one line of figures per size. Benchmarks print, they assert nothing.
#
#   bench/scale_run.sh [BUILD_DIR] [SIZES...]
#   SIZES: 100k 300k 1m (default all three), or SWITCHESxHOSTS (e.g. 10x80)
#   env: WINDOW=60 (seconds measured at steady state), WARMUP=40,
#        FLAP=0 (percent of leaves whose streams reset every 30 s), SNMP=on, RUN_DIR=/dev/shm,
#        INGEST_NICE (the gateway's ingest_nice; unset: its default),
#        SIM_NICE=0 (the simulator's nice value: 19 lets its bursts take only
#        the CPU the gateway leaves, as devices on other machines would),
#        GW_CPUS / SIM_CPUS (taskset CPU lists: GW_CPUS=0 SIM_CPUS=1 gives the
#        gateway one core of its own and the simulator, its snmpd and the
#        users' clients the other, so neither's bursts delay the other),
#        SUBSCRIBERS=10 (gNMI ON_CHANGE subscribers in the window),
#        PROM_REFRESH (the gateway's northbound.prometheus.refresh_period, e.g. 5s:
#        scrapes served a prebuilt exposition; unset: built per scrape)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../build-rel}; shift || true
SIZES=${*:-100k 300k 1m}
WINDOW=${WINDOW:-60}
WARMUP=${WARMUP:-40}
FLAP=${FLAP:-0}
SNMP=${SNMP:-on}
RUN_DIR=${RUN_DIR:-/dev/shm}
SIM_NICE=${SIM_NICE:-0}
GW_CPUS=${GW_CPUS:-}    # e.g. 0: the gateway on these CPUs only (taskset)
SIM_CPUS=${SIM_CPUS:-}  # e.g. 1: the simulator, its snmpd and the users' clients on these
SUBSCRIBERS=${SUBSCRIBERS:-10}  # gNMI ON_CHANGE subscribers during the window
DEVICES=8          # mlx5 devices per host (8 rails)
HOSTS_PER_LEAF=64  # host ports per leaf: a 64-port leaf per rail and pod
PROM=127.0.0.1:19464
GNMI=127.0.0.1:19339
REPORT="python3 $HERE/scale_report.py"
SIM_PID= GW_PID=

# A size is switches x hosts with 8 rails: hosts = switches * 64 / 8 fills
# every leaf's 64 host ports (plus 2 uplinks and 4 ii ports). A leaf then
# holds 5,042 series and a host 928, so 8 leaves + 64 hosts = 99.7k series.
shape() {
  case $1 in
    100k) echo "8 64" ;;
    300k) echo "24 192" ;;
    1m) echo "80 640" ;;
    *x*) echo "${1%x*} ${1#*x}" ;;
    *) echo "bad size $1" >&2; exit 2 ;;
  esac
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
# Command prefixes confining a process to a CPU list (taskset execs, so $! stays the process's pid).
GW_ON=() SIM_ON=()
[ -n "$GW_CPUS" ] && GW_ON=(taskset -c "$GW_CPUS")
[ -n "$SIM_CPUS" ] && SIM_ON=(taskset -c "$SIM_CPUS")
scrape() { "${SIM_ON[@]}" curl -s -m 60 -o "$1" "http://$PROM/metrics"; }

cleanup() {
  [ -n "$GW_PID" ] && kill "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  GW_PID= SIM_PID=
}
trap cleanup EXIT INT TERM

HZ=$(getconf CLK_TCK)
printf '# %s, %s cores, window %ss, flap %s%%, snmp %s, simulator nice %s, gateway cpus %s, simulator cpus %s, prometheus refresh %s\n' \
  "$(date -u +%FT%TZ)" "$(nproc)" "$WINDOW" "$FLAP" "$SNMP" "$SIM_NICE" "${GW_CPUS:-all}" "${SIM_CPUS:-all}" "${PROM_REFRESH:-per scrape}"
for size in $SIZES; do
  read -r SW HO <<<"$(shape "$size")"
  dir=$(mktemp -d "$RUN_DIR/rdmagw-scale-XXXXXX")
  "${SIM_ON[@]}" nice -n "$SIM_NICE" "$BUILD/bench/rdmagw_scale_sim" --dir "$dir" --switches "$SW" --hosts "$HO" --devices $DEVICES \
      --hosts-per-leaf $HOSTS_PER_LEAF --period 10 --prometheus $PROM --gnmi-listen $GNMI \
      --flap "$FLAP" --snmp "$SNMP" >"$dir/sim.log" 2>&1 &
  SIM_PID=$!
  for _ in $(seq 600); do [ -f "$dir/ready" ] || ! kill -0 $SIM_PID 2>/dev/null && break; sleep 0.5; done
  [ -f "$dir/ready" ] || { echo "$size: simulator did not start: $(tail -3 "$dir/sim.log")"; cleanup; continue; }
  # The loopback snmpd (the simulator's child) is the gateway's AgentX master,
  # a part of the serving side: it keeps the users' priority.
  [ "$SIM_NICE" = 0 ] || for c in $(pgrep -P "$SIM_PID"); do renice -n 0 -p "$c" >/dev/null; done
  # shellcheck disable=SC1091
  . "$dir/scale.env"
  [ -n "${INGEST_NICE:-}" ] && printf 'ingest_nice: %s\n' "$INGEST_NICE" >>"$dir/gateway.yaml"
  [ -n "${PROM_REFRESH:-}" ] && sed -i "/^  prometheus:\$/a\\    refresh_period: $PROM_REFRESH" "$dir/gateway.yaml"
  "${GW_ON[@]}" "$BUILD/gateway/rdmagw" run --config "$dir/gateway.yaml" >"$dir/gateway.log" 2>&1 &
  GW_PID=$!
  # Warm-up: every leaf's first full sample and every host's first poll.
  prev=0
  for _ in $(seq 60); do
    sleep 5
    kill -0 $GW_PID 2>/dev/null || break
    scrape "$dir/m.txt" && cur=$($REPORT series "$dir/m.txt")
    [ "${cur:-0}" -gt 0 ] && [ "${cur:-0}" = "$prev" ] && break
    prev=${cur:-0}
  done
  sleep "$WARMUP"
  kill -0 $GW_PID 2>/dev/null || { echo "$size: gateway exited: $(tail -3 "$dir/gateway.log")"; cleanup; continue; }

  # --- the measured window: users scrape, subscribe and walk meanwhile ---
  scrape "$dir/before.txt"
  g0=$(cpu_ticks $GW_PID); s0=$(cpu_ticks $SIM_PID); t0=$(date +%s.%N); rss0=$(rss_kb $GW_PID)
  "${SIM_ON[@]}" "$BUILD/bench/rdmagw_scale_probe" --gnmi $GNMI --subscribers "$SUBSCRIBERS" --seconds "$WINDOW" \
      --path /interfaces/interface/state/counters/in-octets >"$dir/probe.txt" 2>"$dir/probe.err" &
  probe=$!
  sleep 5
  scrape_ms=() gzip_ms=() scrape_bytes=0 gzip_bytes=0
  for _ in 1 2 3; do
    out=$("${SIM_ON[@]}" curl -s -m 60 -o /dev/null -w '%{time_total} %{size_download}' "http://$PROM/metrics")
    scrape_ms+=("$(awk '{printf "%.0f", $1 * 1000}' <<<"$out")"); scrape_bytes=${out#* }
    out=$("${SIM_ON[@]}" curl -s -m 60 -H 'Accept-Encoding: gzip' -o /dev/null -w '%{time_total} %{size_download}' "http://$PROM/metrics")
    gzip_ms+=("$(awk '{printf "%.0f", $1 * 1000}' <<<"$out")"); gzip_bytes=${out#* }
    sleep 5
  done
  walk_ms=- walk_vb=-
  if [ -n "${SNMP_ADDR:-}" ]; then
    w0=$(date +%s%N)
    # shellcheck disable=SC2086
    "${SIM_ON[@]}" env $SNMP_CLIENT_ENV snmpbulkwalk -Cr50 -On -t 30 -r 0 -v2c -c "$SNMP_COMMUNITY" "$SNMP_ADDR" .1 >"$dir/walk.txt" 2>&1
    walk_vb=$(grep -c " = " "$dir/walk.txt")
    walk_ms=$(( ($(date +%s%N) - w0) / 1000000 ))
  fi
  wait $probe
  g1=$(cpu_ticks $GW_PID); s1=$(cpu_ticks $SIM_PID); t1=$(date +%s.%N)
  scrape "$dir/after.txt"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  rss=$(rss_kb $GW_PID); hwm=$(hwm_kb $GW_PID)
  series=$($REPORT series "$dir/after.txt")
  build_ms=$(awk '/^rdmagw_exposition_duration_seconds / {printf "%.0f", $2 * 1000}' "$dir/after.txt")
  build_cpu_ms=$(awk '/^rdmagw_exposition_cpu_seconds / {printf "%.0f", $2 * 1000}' "$dir/after.txt")
  read -r lag50 lag99 lagn <<<"$($REPORT lag "$dir/before.txt" "$dir/after.txt")"
  gw_cores=$(awk -v a="$g0" -v b="$g1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" 'BEGIN {printf "%.2f", (b - a) / hz / (t1 - t0)}')
  sim_cores=$(awk -v a="$s0" -v b="$s1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" 'BEGIN {printf "%.2f", (b - a) / hz / (t1 - t0)}')
  probe_line=$(cat "$dir/probe.txt")

  # --- no update lost: stop the simulator's sending, let the gateway drain ---
  kill $SIM_PID; wait $SIM_PID 2>/dev/null; SIM_PID=
  sleep 3
  # A prebuilt exposition (PROM_REFRESH) may predate the drain: take one
  # built after it, or the last leaves applied would be missed.
  drained=$(date +%s.%N)
  for _ in $(seq 60); do
    scrape "$dir/final.txt"
    built=$(awk '/^rdmagw_exposition_timestamp_seconds / {print $2}' "$dir/final.txt")
    awk -v b="${built:-0}" -v d="$drained" 'BEGIN {exit !(b >= d)}' && break
    sleep 1
  done
  sent=$(awk -F= '/^sent=/ {print $2}' "$dir/sim-stats")
  read -r recv queued applied coalesced dropped <<<"$($REPORT stream "$dir/final.txt")"
  kill $GW_PID; wait $GW_PID 2>/dev/null; GW_PID=

  echo "size=$size switches=$SW hosts=$HO series=$series gw_cores=$gw_cores sim_cores=$sim_cores" \
       "rss_start_mb=$((rss0 / 1024)) rss_mb=$((rss / 1024)) rss_peak_mb=$((hwm / 1024)) rss_bytes_per_series=$(( series > 0 ? rss * 1024 / series : 0 ))" \
       "scrape_ms=$(IFS=/; echo "${scrape_ms[*]}") exposition_build_ms=$build_ms exposition_cpu_ms=$build_cpu_ms scrape_bytes=$scrape_bytes gzip_scrape_ms=$(IFS=/; echo "${gzip_ms[*]}") gzip_bytes=$gzip_bytes" \
       "snmp_walk_ms=$walk_ms snmp_varbinds=$walk_vb ingest_lag_p50_s=$lag50 ingest_lag_p99_s=$lag99 lag_updates=$lagn" \
       "$probe_line notifications_sent=$sent received=$recv leaves_queued=$queued applied=$applied coalesced=$coalesced dropped=$dropped" \
       "loadavg=\"$load\""
  [ -n "${KEEP:-}" ] || rm -rf "$dir"
done
