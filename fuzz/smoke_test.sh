#!/usr/bin/env bash
# One fuzz target's CI pass: every seed and every regression input, then a
# few seconds of mutation from them. Fails on any crash, leak, timeout or
# out-of-memory (libFuzzer exits non-zero and leaves the input in SCRATCH).
#
#   smoke_test.sh FUZZER SCRATCH SECONDS DICT CORPUS_DIR...
#
# The checked-in corpus directories are only read: new inputs go to a
# scratch corpus in the build tree, emptied first so runs are repeatable.
set -u
fuzzer=$1 scratch=$2 seconds=$3 dict=$4
shift 4
rm -rf "$scratch"
mkdir -p "$scratch/corpus" "$scratch/artifacts"
# The first directory holds the seeds and must exist; the others (the
# regression inputs) may not yet.
if [ ! -d "$1" ] || [ -z "$(ls -A "$1")" ]; then
  echo "FAILED: no seeds in $1"
  exit 1
fi
dirs=()
for d in "$@"; do
  [ -d "$d" ] && dirs+=("$d")
done
args=(-seed=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
      -print_final_stats=1 -artifact_prefix="$scratch/artifacts/")
[ -n "$dict" ] && args+=(-dict="$dict")
"$fuzzer" "${args[@]}" "$scratch/corpus" "${dirs[@]}" > "$scratch/log" 2>&1
rc=$?
tail -n 25 "$scratch/log"
if [ $rc -ne 0 ] || [ -n "$(ls -A "$scratch/artifacts")" ]; then
  echo "FAILED: $(basename "$fuzzer") exited $rc; artifacts:"
  ls -l "$scratch/artifacts"
  exit 1
fi
