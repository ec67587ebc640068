#!/usr/bin/env bash
# Soak of the gateway under churn: `rdmagw-demo --churn` runs the simulated
# fabric (4 RDMA hosts x 2 mlx5, a Nexus leaf over gNMI with SSH fallback,
# 2 ESXi hosts over sshd, snmpd as AgentX master) and, every CYCLE, stops
# the leaf's gNMI server (the gateway falls back to SSH) and starts it again,
# hides an RDMA device's sysfs directory and restores it, stops sshd (the
# ESXi hosts refuse connections) and starts it, and restarts snmpd. Meanwhile
# this script scrapes /metrics and walks SNMP every 5 s, and gNMI subscribers
# come and go (bench/soak_subscribers.py). Every 5 s it samples the demo
# process's RSS, open fds and threads (their names go to threads.csv), the
# ingest lag and the counts of gNMI notifications sent (by the simulated leaf) and received and applied (by
# the gateway) into soak.csv. At the end the leaf stops sending, the gateway
# drains, and bench/soak_report.py gives the verdict: slopes flat within
# noise, nothing lost, every WARN/ERROR line explained by a fault the churn
# caused, and plots soak.png (RSS, fds, threads, lag over time).
#
# The demo process holds the simulator too (its tick thread, the gNMI
# servers); sshd and snmpd are child processes and not counted. A leak in
# either half shows in the slopes.
#
# Usage: bench/soak.sh [duration (default 10m; s, m or h)]
# env: CYCLE=60s (the churn cycle), WARMUP (seconds left out of the slopes;
#      default a fifth of the duration, at least 120), SUBSCRIBERS=3,
#      RELOADS=1: a second gateway (`rdmagw run`) reads the simulated hosts
#      through a targets_dir; every 5 s a file of five targets appears or
#      goes (the file watch reloads), every minute a SIGHUP; its RSS, fds and
#      threads go to reload.csv, and a refused reload, a base target down or
#      RSS growing past RELOAD_RSS_SLACK_KB (default 8192) after the warmup
#      fails the soak,
#      OUT=dir (kept; default a temp dir, removed unless KEEP=1),
#      RDMAGW_BIN=path/to/rdmagw
# Needs root for the simulated sshd (as the demo does). Exits 1 on a failing
# verdict, 2 when the soak could not run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
HERE=$PWD/bench
DUR_ARG=${1:-10m}
case $DUR_ARG in
  *h) DURATION=$(( ${DUR_ARG%h} * 3600 )) ;;
  *m) DURATION=$(( ${DUR_ARG%m} * 60 )) ;;
  *s) DURATION=${DUR_ARG%s} ;;
  *) DURATION=$DUR_ARG ;;
esac
[[ $DURATION =~ ^[0-9]+$ ]] && [ "$DURATION" -ge 60 ] || { echo "soak: duration must be at least 60s (e.g. 10m, 1h)" >&2; exit 2; }
CYCLE=${CYCLE:-60s}
WARMUP=${WARMUP:-$(( DURATION / 5 > 120 ? DURATION / 5 : 120 ))}
SUBSCRIBERS=${SUBSCRIBERS:-3}
DRAIN=20  # seconds after the leaf stops sending: two polls and the queues
BIN=${RDMAGW_BIN:-./build/gateway/rdmagw}
[ -x "$BIN" ] || { echo "soak: build first: ./scripts/build.sh (or set RDMAGW_BIN)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "soak: needs root (the simulated switches' and ESXi hosts' sshd)" >&2; exit 2; }
PY=/usr/bin/python3  # Debian's, with python3-grpcio (not a pyenv or venv one)
for tool in protoc /usr/bin/grpc_python_plugin curl snmpwalk $PY; do
  command -v "$tool" >/dev/null || { echo "soak: missing $tool (scripts/install-deps.sh installs it)" >&2; exit 2; }
done

if [ -n "${OUT:-}" ]; then mkdir -p "$OUT"; WORK=$(cd "$OUT" && pwd); else WORK=$(mktemp -d /tmp/rdmagw-soak-XXXXXX); fi
free_port() { $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PROM=127.0.0.1:$(free_port)
GNMI=127.0.0.1:$(free_port)
GW_PID="" SUB_PID="" RL_PID=""
cleanup() {
  [ -n "$SUB_PID" ] && kill "$SUB_PID" 2>/dev/null
  [ -n "$RL_PID" ] && kill -INT "$RL_PID" 2>/dev/null
  [ -n "$GW_PID" ] && kill -INT "$GW_PID" 2>/dev/null
  wait 2>/dev/null
  [ -z "${OUT:-}" ] && [ -z "${KEEP:-}" ] && rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

protoc -I proto --python_out="$WORK" --grpc_python_out="$WORK" \
  --plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin gnmi.proto gnmi_ext.proto || exit 2

start=$(date +%s)
# The soak runs copies of the gateway, of the demo's program (built beside
# it) and of the simulator's device shell (sshd execs it for every command),
# so a rebuild while it runs cannot change any of them under it.
mkdir -p "$WORK/bin"
cp "$BIN" "$WORK/bin/rdmagw" || exit 2
cp "$(dirname "$BIN")/rdmagw-demo" "$WORK/bin/rdmagw-demo" || { echo "soak: no rdmagw-demo next to $BIN (build it)" >&2; exit 2; }
SHELL_BIN=$(dirname "$BIN")/../sim/rdmagw-sim-shell
[ -x "$(dirname "$BIN")/rdmagw-sim-shell" ] && SHELL_BIN=$(dirname "$BIN")/rdmagw-sim-shell
[ -x "$SHELL_BIN" ] || { echo "soak: no rdmagw-sim-shell next to $BIN or in ../sim (build it)" >&2; exit 2; }
cp "$SHELL_BIN" "$WORK/bin/rdmagw-sim-shell" || exit 2
BIN=$WORK/bin/rdmagw
"$WORK/bin/rdmagw-demo" --dir "$WORK/sim" --listen "$PROM" --gnmi-listen "$GNMI" --churn "$CYCLE" --churn-for "${DURATION}s" \
  >"$WORK/demo.out" 2>"$WORK/gateway.log" &
GW_PID=$!
printf 'title=%s, %s, churn cycle %s, %s cores\nwarmup_s=%s\nduration_s=%s\n' \
  "$(date -u +%FT%TZ)" "$DUR_ARG" "$CYCLE" "$(nproc)" "$WARMUP" "$DURATION" >"$WORK/meta"

# Ready when the 7 targets are up and the leaf streams over gNMI.
ready=
for _ in $(seq 120); do
  kill -0 "$GW_PID" 2>/dev/null || break
  m=$(curl -sf -m 4 "http://$PROM/metrics" || true)
  if [ "$(grep -c '^rdmagw_target_up{.*} 1$' <<<"$m")" -ge 7 ] &&
     grep -q 'rdmagw_target_info{target="leaf01",kind="nexus",transport="gnmi"' <<<"$m"; then
    ready=1; break
  fi
  sleep 1
done
[ -n "$ready" ] || { echo "soak: the demo did not come up:"; tail -5 "$WORK/gateway.log"; exit 2; }
# The demo prints how to walk its snmpd; the first walk is of the devices' table.
read -r -a SNMP_WALK <<<"$(grep -m1 -E '^ +snmpwalk ' "$WORK/demo.out" | sed "s/#.*//; s/'//g")"
[ "${#SNMP_WALK[@]}" -gt 2 ] || { echo "soak: the demo printed no snmpwalk line" >&2; exit 2; }

$PY "$HERE/soak_subscribers.py" "$WORK" "$GNMI" "$WORK/subscribers.stats" "$SUBSCRIBERS" >"$WORK/subscribers.log" 2>&1 &
SUB_PID=$!

# RELOADS=1: the reloading gateway, on the demo's simulated host trees.
RL=$WORK/reload RL_PROM=""
reload_target() {  # name host: one targets_dir entry reading that host's tree
  printf -- '- name: %s\n  kind: rdma-host\n  interval: 5s\n  rdma: {sysfs_root: %s, ethtool: text, ethtool_dir: %s, lldp: off}\n' \
    "$1" "$WORK/sim/$2/sys" "$WORK/sim/$2/ethtool"
}
if [ "${RELOADS:-0}" = 1 ]; then
  mkdir -p "$RL/targets.d"
  RL_PROM=127.0.0.1:$(free_port)
  printf 'targets_dir: targets.d\nnorthbound:\n  prometheus: {listen: "%s"}\n' "$RL_PROM" >"$RL/rdmagw.yaml"
  { reload_target base1 host01; reload_target base2 host02; } >"$RL/targets.d/base.yaml"
  "$BIN" run --config "$RL/rdmagw.yaml" >"$RL/gateway.log" 2>&1 &
  RL_PID=$!
  echo "epoch,time_s,rss_kb,fds,threads,reloads_ok,reloads_failed,targets" >"$WORK/reload.csv"
fi
reload_step=0
reload_tick() {  # every sample: add or remove five targets, a SIGHUP each minute, one row of reload.csv
  [ -n "$RL_PID" ] || return 0
  kill -0 "$RL_PID" 2>/dev/null || { echo "soak: the reloading gateway died" >&2; RL_PID=""; echo "reload_died=1" >>"$WORK/meta"; return 0; }
  reload_step=$((reload_step + 1))
  if [ $((reload_step % 2)) = 1 ]; then
    for i in 1 2 3 4 5; do reload_target "extra$i" "host0$(( (i % 4) + 1 ))"; done >"$RL/.extra.tmp"
    mv "$RL/.extra.tmp" "$RL/targets.d/extra.yaml"
  else
    rm -f "$RL/targets.d/extra.yaml"
  fi
  [ $((reload_step % 12)) = 0 ] && kill -HUP "$RL_PID"
  local m
  m=$(curl -sf -m 4 "http://$RL_PROM/metrics" || true)
  printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$(date +%s)" "$(( $(date +%s) - start ))" \
    "$(awk '/^VmRSS/ {print $2}' "/proc/$RL_PID/status" 2>/dev/null)" "$(ls "/proc/$RL_PID/fd" 2>/dev/null | wc -l)" \
    "$(awk '/^Threads/ {print $2}' "/proc/$RL_PID/status" 2>/dev/null)" \
    "$(awk '/^rdmagw_config_reloads_total\{result="success"\}/ {print $2}' <<<"$m")" \
    "$(awk '/^rdmagw_config_reloads_total\{result="failure"\}/ {print $2}' <<<"$m")" \
    "$(grep -c '^rdmagw_target_up{' <<<"$m")" >>"$WORK/reload.csv"
}
# The verdict on the reloading gateway: no refused reload, the base targets
# up at the end, RSS flat after the warmup (within RELOAD_RSS_SLACK_KB).
reload_verdict() {
  [ -f "$WORK/reload.csv" ] || return 0
  local m
  m=$(curl -sf -m 4 "http://$RL_PROM/metrics" || true)
  kill -INT "$RL_PID" 2>/dev/null; wait "$RL_PID" 2>/dev/null; RL_PID=""
  awk -F, -v warm="$WARMUP" -v slack="${RELOAD_RSS_SLACK_KB:-8192}" -v up="$(grep -c '^rdmagw_target_up{target="base[12]"} 1' <<<"$m")" '
    NR > 1 && $2 >= warm && first == "" { first = $3 }
    NR > 1 { last = $3; ok = $6; failed = $7 }
    END {
      printf "reloads: %s applied, %s refused; RSS %s kB after the warmup, %s kB at the end; base targets up: %s of 2\n", ok, failed, first, last, up
      bad = (failed + 0 > 0) || (ok + 0 == 0) || (up + 0 < 2) || (first != "" && last - first > slack)
      exit bad
    }' "$WORK/reload.csv"
}

echo "soak: ${DUR_ARG} of churn (cycle $CYCLE) under $WORK; samples every 5 s in soak.csv"
echo "epoch,time_s,rss_kb,fds,threads,lag_p50_s,lag_p99_s,notifications_received,leaves_queued,leaves_applied,leaves_coalesced,leaves_dropped,gnmi_subscribers,gnmi_updates_dropped,targets_up,rejected,notifications_sent,updates_sent,churn_events,final,subscriber_sessions,scrape_ok,scrape_failed,snmp_ok,snmp_failed" >"$WORK/soak.csv"
kv() { awk -F= -v k="$2" '$1 == k {print $2}' "$1" 2>/dev/null; }
scrape_ok=0 scrape_failed=0 snmp_ok=0 snmp_failed=0
touch "$WORK/prev.txt"
final_at=
next=$(date +%s)
while kill -0 "$GW_PID" 2>/dev/null; do
  now=$(date +%s)
  if curl -sf -m 4 -o "$WORK/cur.txt" "http://$PROM/metrics"; then
    scrape_ok=$((scrape_ok + 1))
  else
    scrape_failed=$((scrape_failed + 1)); cp "$WORK/prev.txt" "$WORK/cur.txt"
  fi
  if walk=$("${SNMP_WALK[0]}" -t 2 -r 0 "${SNMP_WALK[@]:1}" 2>&1) && grep -q ' = ' <<<"$walk"; then
    snmp_ok=$((snmp_ok + 1))
  else
    snmp_failed=$((snmp_failed + 1))
  fi
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$GW_PID/status" 2>/dev/null)
  threads=$(awk '/^Threads/ {print $2}' "/proc/$GW_PID/status" 2>/dev/null)
  fds=$(ls "/proc/$GW_PID/fd" 2>/dev/null | wc -l)
  # Thread names per sample, so a change in the count says whose threads.
  echo "$((now - start)),$(cat /proc/"$GW_PID"/task/*/comm 2>/dev/null | sort | uniq -c |
    sed -E 's/^ *([0-9]+) (.*)$/\2=\1/' | paste -sd ';')" >>"$WORK/threads.csv"
  gw=$($PY "$HERE/soak_report.py" row "$WORK/prev.txt" "$WORK/cur.txt")
  st="$WORK/sim/.churn-stats"
  fin=$(kv "$st" final)
  echo "$now,$((now - start)),${rss:-0},$fds,${threads:-0},$gw,$(kv "$st" notifications_sent),$(kv "$st" updates_sent),$(kv "$st" events),${fin:-0},$(kv "$WORK/subscribers.stats" sessions),$scrape_ok,$scrape_failed,$snmp_ok,$snmp_failed" >>"$WORK/soak.csv"
  mv "$WORK/cur.txt" "$WORK/prev.txt"
  reload_tick
  [ "${fin:-0}" = 1 ] && [ -z "$final_at" ] && final_at=$now && echo "soak: churn over; draining ${DRAIN} s"
  [ -n "$final_at" ] && [ $((now - final_at)) -ge "$DRAIN" ] && break
  [ $((now - start)) -gt $((DURATION + 300)) ] && { echo "soak: the churn did not end in time" >&2; break; }
  next=$((next + 5))
  sleep $(( next > $(date +%s) ? next - $(date +%s) : 0 ))
done

# Final counts: the leaf sends nothing more, the gateway has drained.
{
  cat "$WORK/sim/.churn-stats"
  names=(lag_p50_s lag_p99_s notifications_received leaves_queued leaves_applied leaves_coalesced leaves_dropped gnmi_subscribers gnmi_updates_dropped targets_up rejected)
  IFS=, read -r -a vals <<<"$($PY "$HERE/soak_report.py" row "$WORK/prev.txt" "$WORK/prev.txt")"
  for i in "${!names[@]}"; do echo "${names[$i]}=${vals[$i]}"; done
} >"$WORK/final.txt"
kill "$SUB_PID" 2>/dev/null; wait "$SUB_PID" 2>/dev/null; SUB_PID=
demo_exit=gone
if kill -0 "$GW_PID" 2>/dev/null; then
  kill -INT "$GW_PID"; wait "$GW_PID"; demo_exit=$?
fi
GW_PID=
echo "demo_exit=$demo_exit" >>"$WORK/meta"
$PY "$HERE/soak_report.py" verdict "$WORK"
rc=$?
if [ "${RELOADS:-0}" = 1 ]; then
  reload_verdict || { echo "soak: the reloading gateway FAILED (reload.csv, reload/gateway.log)"; rc=1; }
fi
echo "soak: files in $WORK"
[ -z "${OUT:-}" ] && [ -z "${KEEP:-}" ] && echo "soak: (removed; OUT=dir or KEEP=1 keeps them)"
exit $rc
