#!/bin/sh
# Stands in for nvidia-smi in the tests. Accepts only a CSV query without
# header and units whose field list ends with the free-text name (what the
# gateway must send), then prints the file named by FAKE_NVIDIA_SMI_OUTPUT.
# With FAKE_NVIDIA_SMI_EXIT set it fails as nvidia-smi does without a
# driver: its message on stdout, that exit code (9 in real life).
query=""
format=""
for arg in "$@"; do
  case "$arg" in
    --query-gpu=*) query="${arg#--query-gpu=}" ;;
    --format=*) format="${arg#--format=}" ;;
    *) echo "fake nvidia-smi: unexpected argument $arg" >&2; exit 2 ;;
  esac
done
if [ "$format" != "csv,noheader,nounits" ]; then
  echo "fake nvidia-smi: format '$format' is not csv,noheader,nounits" >&2
  exit 2
fi
case "$query" in
  *,name) ;;
  *) echo "fake nvidia-smi: query '$query' does not end with name" >&2; exit 2 ;;
esac
if [ -n "$FAKE_NVIDIA_SMI_EXIT" ]; then
  echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
  exit "$FAKE_NVIDIA_SMI_EXIT"
fi
cat "$FAKE_NVIDIA_SMI_OUTPUT"
