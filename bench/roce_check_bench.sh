#!/usr/bin/env bash
# What `rdmagw check roce` costs (docs/performance.md): on the demo's fabric
# and on the scale simulator's 720-target fabric (80 leaves over gNMI with
# their CLI over SSH, 640 RDMA hosts x 8 mlx5 devices), the wall time of the
# analytics' RoCE check pass (the gateway's own
# rdmagw_analytics_roce_check_duration_seconds, median over RUNS analytics
# runs), the wall time of `rdmagw check roce --json` (one gNMI Get of
# /fabric/checks on every target, plus printing; median of RUNS), the
# series of the RoCE configuration leaves and of the /fabric/checks leaves,
# and the gateway's RSS (median of RUNS readings, one per analytics run).
# Each fabric runs up to three gateways one after the other on the same
# simulator:
#   with      this build, analytics.roce_checks on
#   no-checks this build, analytics.roce_checks: false (no /fabric/checks leaves)
#   before    OLD_RDMAGW: a build of the commit before the RoCE check
#             (reads none of the new configuration leaves, checks nothing),
#             e.g. 7987c0d built in a tree of its own (docs/performance.md);
#             without OLD_RDMAGW that row is left out
# The demo's gateway shares its process with the simulator: its RSS
# includes the simulator's, and the demo has no no-checks row (it has no
# setting for it). Prints, asserts nothing.
#
#   sudo bench/roce_check_bench.sh [BUILD_DIR] [OLD_RDMAGW] [FABRICS...]
#   FABRICS: demo, 720 (80x640), or SWITCHESxHOSTS (default: demo 720)
#   env: RUNS=5, WARMUP=30 (seconds after the store stops growing),
#        RUN_DIR=/dev/shm. Needs root (the simulated leaves' sshd).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../build-rel}; shift || true
OLD=${1:-}; shift || true
FABRICS=${*:-demo 720}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-30}
RUN_DIR=${RUN_DIR:-/dev/shm}
SCHEMA=$HERE/../models/schema.yaml
RDMAGW=$BUILD/gateway/rdmagw
RDMAGW_DEMO=$BUILD/gateway/rdmagw-demo
PROM=127.0.0.1:19474
GNMI=127.0.0.1:19349
SIM_PID= GW_PID=

cleanup() {
  [ -n "$GW_PID" ] && kill "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  GW_PID= SIM_PID=
}
trap cleanup EXIT INT TERM

rss_mb() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo 0; }
scrape() { curl -s -m 60 -o "$1" "http://$PROM/metrics"; }
metric() { awk -v n="$1" '$1 == n {print $2}' "$2"; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "-"}'; }
ms() { awk '{printf "%.1f", $1 * 1000}'; }

# Until the store stops growing, then WARMUP more seconds (the first
# analytics runs, the CLI commands that run every 10th poll).
warm_up() {
  local prev=0 cur
  for _ in $(seq 120); do
    sleep 5
    kill -0 "$GW_PID" 2>/dev/null || return 1
    scrape "$1/m.txt" && cur=$(python3 "$HERE/roce_series.py" "$SCHEMA" "$1/m.txt" | sed 's/.*store=//')
    [ "${cur:-0}" -gt 0 ] && [ "${cur:-0}" = "$prev" ] && break
    prev=${cur:-0}
  done
  sleep "$WARMUP"
}

# One gateway measured: prints one table row.
measure() {
  local fabric=$1 run=$2 dir=$3 pid=$4 period=$5
  warm_up "$dir" || { echo "$fabric $run: the gateway exited: $(tail -3 "$dir/gw.log" 2>/dev/null)"; return; }
  local checks=() passes=() cli=() rss=()
  # One sample per analytics run (the gauge holds the last run's).
  for _ in $(seq "$RUNS"); do
    scrape "$dir/m.txt"
    checks+=("$(metric rdmagw_analytics_roce_check_duration_seconds "$dir/m.txt")")
    passes+=("$(metric rdmagw_analytics_run_duration_seconds "$dir/m.txt")")
    rss+=("$(rss_mb "$pid")")
    sleep "$period"
  done
  local check_ms pass_ms cli_ms=- items=-
  check_ms=$(echo "${checks[*]}" | median | ms)
  pass_ms=$(echo "${passes[*]}" | median | ms)
  if [ "$run" != before ] && [ "$run" != no-checks ]; then
    for _ in $(seq "$RUNS"); do
      local t0 t1
      t0=$(date +%s%N)
      "$RDMAGW" check roce --address "$GNMI" --insecure --json >"$dir/check.json" 2>"$dir/check.err"
      t1=$(date +%s%N)
      cli+=("$(( (t1 - t0) / 1000 ))")
    done
    cli_ms=$(echo "${cli[*]}" | median | awk '{printf "%.1f", $1 / 1000}')
    items=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
gs = d.get("groups", [])
print("%d/%d/%d" % tuple(sum(int(g.get(k, 0)) for g in gs) for k in ("checked", "failed", "warned")))' "$dir/check.json" 2>/dev/null || echo "?")
  fi
  [ "$run" = no-checks ] && check_ms=-
  [ "$run" = before ] && check_ms=- && pass_ms=-
  scrape "$dir/m.txt"
  read -r config checks_series store <<<"$(python3 "$HERE/roce_series.py" "$SCHEMA" "$dir/m.txt" | sed 's/[a-z]*=//g')"
  local targets
  targets=$(grep -c '^rdmagw_target_up{' "$dir/m.txt")
  printf '%-8s %-9s %7s %10s %9s %9s %9s %11s %8s %8s %6s  %s\n' "$fabric" "$run" "$targets" "$store" "$config" \
    "$checks_series" "$check_ms" "$pass_ms" "$cli_ms" "$(echo "${rss[*]}" | median)" "$((RUNS))" "$items"
}

header() {
  printf '# %s, %s cores, loadavg %s, %s runs per median\n' "$(date -u +%FT%TZ)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$RUNS"
  printf '%-8s %-9s %7s %10s %9s %9s %9s %11s %8s %8s %6s  %s\n' fabric gateway targets series config_s checks_s \
    check_ms analytics_ms cli_ms rss_mb runs "checked/failed/warned"
}

demo_fabric() {
  local run dir demo
  for run in with no-checks before; do
    demo=("$RDMAGW_DEMO")
    # OLD_RDMAGW predates rdmagw-demo: its demo is its `demo` command.
    [ "$run" = before ] && { [ -n "$OLD" ] || continue; demo=("$OLD" demo); }
    # The demo has no switch for the check: its no-checks row is left out.
    [ "$run" = no-checks ] && continue
    dir=$(mktemp -d "$RUN_DIR/rdmagw-roce-bench-XXXXXX")
    "${demo[@]}" --dir "$dir/sim" --listen "$PROM" --gnmi-listen "$GNMI" --snmp off --log-level warn >"$dir/gw.log" 2>&1 &
    GW_PID=$!
    measure demo "$run" "$dir" "$GW_PID" 2
    cleanup
    rm -rf "$dir"
  done
}

scale_fabric() {
  local sw=$1 ho=$2 run bin dir
  dir=$(mktemp -d "$RUN_DIR/rdmagw-roce-bench-XXXXXX")
  "$BUILD/bench/rdmagw_scale_sim" --dir "$dir" --switches "$sw" --hosts "$ho" --devices 8 --hosts-per-leaf 64 \
    --period 10 --prometheus "$PROM" --gnmi-listen "$GNMI" --snmp off --ssh on --analytics on >"$dir/sim.log" 2>&1 &
  SIM_PID=$!
  for _ in $(seq 600); do [ -f "$dir/ready" ] || ! kill -0 $SIM_PID 2>/dev/null && break; sleep 0.5; done
  [ -f "$dir/ready" ] || { echo "${sw}x$ho: simulator did not start: $(tail -3 "$dir/sim.log")"; cleanup; return; }
  for run in with no-checks before; do
    bin=$RDMAGW
    cp "$dir/gateway.yaml" "$dir/run.yaml"
    [ "$run" = no-checks ] && sed -i 's/^  roce_checks: true$/  roce_checks: false/' "$dir/run.yaml"
    if [ "$run" = before ]; then
      [ -n "$OLD" ] || continue
      bin=$OLD
      sed -i '/^  roce_checks: /d' "$dir/run.yaml"  # a setting it does not know
    fi
    "$bin" run --config "$dir/run.yaml" >"$dir/gw.log" 2>&1 &
    GW_PID=$!
    measure "${sw}x$ho" "$run" "$dir" "$GW_PID" 10
    kill "$GW_PID"; wait "$GW_PID" 2>/dev/null; GW_PID=
  done
  cleanup
  rm -rf "$dir"
}

header
for f in $FABRICS; do
  case $f in
    demo) demo_fabric ;;
    720) scale_fabric 80 640 ;;
    *x*) scale_fabric "${f%x*}" "${f#*x}" ;;
    *) echo "unknown fabric $f" >&2 ;;
  esac
done
