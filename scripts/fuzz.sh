#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with ASan+UBSan in build-fuzz/ and
# runs each one for a while, seeds and regression inputs merged into a work
# corpus kept in build-fuzz/fuzz/work/<target>/ between runs.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [MAX_EXECUTIONS]
#   FUZZ_TARGETS="gnmi_path snmp_oid" scripts/fuzz.sh 30
#   FUZZ_JOBS=4 scripts/fuzz.sh 3600 10000000   (targets run 4 at a time)
#
# SECONDS defaults to 60; MAX_EXECUTIONS (or FUZZ_RUNS) stops a target
# earlier after that many executions (the long run: 3600 10000000).
# Prints per target: executions, exec/s, coverage (cov, ft), corpus size and
# what it found. Exits 1 if any target crashed, leaked, timed out or ran out
# of memory; the input is kept in build-fuzz/fuzz/work/<target>/artifacts/.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
runs=${2:-${FUZZ_RUNS:--1}}
build=$root/build-fuzz
all="parse_formats nxos_json gnmi_json gnmi_notification gnmi_path gnmi_get gnmi_subscribe config_yaml target_yaml agentx_pdu snmp_oid status_reply nxos_ipqos roce_host vf_stats rdma_netlink"
targets=${FUZZ_TARGETS:-$all}
jobs=${FUZZ_BUILD_JOBS:-2}

declare -A dict=([parse_formats]=parse.dict [nxos_json]=json.dict [gnmi_json]=json.dict [gnmi_path]=gnmi_path.dict
                 [config_yaml]=yaml.dict [target_yaml]=yaml.dict
                 [nxos_ipqos]=ipqos.dict [roce_host]=json.dict)

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DRDMAGW_FUZZ=ON -DRDMAGW_SANITIZE=address,undefined -DRDMAGW_BENCH=OFF > "$build/fuzz-configure.log" 2>&1 ||
  { cat "$build/fuzz-configure.log"; exit 2; }
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" --target $targets || exit 2

stat() {  # stat LOG NAME: the value libFuzzer's -print_final_stats printed
  sed -n "s/^stat::$2: *//p" "$1" | tail -n 1
}
# cov and ft of the last status line ("#N  DONE  cov: 123 ft: 456 corp: 7/8b ...").
field() { grep -E '^#[0-9]+' "$1" | tail -n 1 | sed -n "s/.* $2: \([^ ]*\).*/\1/p"; }

# fuzz_one TARGET: runs it, writes its table row to work/<target>/row.
fuzz_one() {
  local t=$1 work log before rc after result kind
  local -a seeds args
  work=$build/fuzz/work/$t
  mkdir -p "$work/corpus" "$work/artifacts"
  seeds=("$root/fuzz/corpus/$t")
  [ -d "$root/fuzz/regressions/$t" ] && seeds+=("$root/fuzz/regressions/$t")
  args=(-max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len=65536
        -print_final_stats=1 -artifact_prefix="$work/artifacts/")
  [ -n "${dict[$t]:-}" ] && args+=(-dict="$root/fuzz/dict/${dict[$t]}")
  log=$work/log
  before=$(ls "$work/artifacts" | wc -l)
  "$build/fuzz/$t" "${args[@]}" "$work/corpus" "${seeds[@]}" > "$log" 2>&1
  rc=$?
  after=$(ls "$work/artifacts" | wc -l)
  result=clean
  if [ $rc -ne 0 ] || [ "$after" -gt "$before" ]; then
    kind=$(grep -oE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer): [a-z-]+|SUMMARY: UndefinedBehaviorSanitizer: [a-z-]+|runtime error|ALARM: working on the last Unit for [0-9]+ seconds|out-of-memory|deadly signal' "$log" | head -n 1)
    result="FOUND (${kind:-exit $rc}): $(ls -t "$work/artifacts" | head -n 1)"
  fi
  printf '%-18s %12s %8s %7s %8s %10s  %s\n' "$t" "$(stat "$log" number_of_executed_units)" \
    "$(stat "$log" average_exec_per_sec)" "$(field "$log" cov)" "$(field "$log" ft)" \
    "$(ls "$work/corpus" | wc -l)" "$result" > "$work/row"
}

fuzz_jobs=${FUZZ_JOBS:-1}
for t in $targets; do
  rm -f "$build/fuzz/work/$t/row"
  while [ "$(jobs -rp | wc -l)" -ge "$fuzz_jobs" ]; do wait -n; done
  fuzz_one "$t" &
done
wait
failed=0
printf '%-18s %12s %8s %7s %8s %10s  %s\n' target executions exec/s cov ft corpus result
for t in $targets; do
  row=$build/fuzz/work/$t/row
  if [ -f "$row" ]; then cat "$row"; else echo "$t: no result"; failed=1; fi
  grep -q ' clean$' "$row" 2>/dev/null || failed=1
done
if [ $failed -ne 0 ]; then
  echo "fuzz: something was found; logs and inputs in $build/fuzz/work/<target>/ (log, artifacts/)"
  exit 1
fi
