#!/usr/bin/env bash
# Encodes the protobuf seeds of the gNMI targets from their text form in
# fuzz/seeds/NAME.MESSAGE.txtpb (MESSAGE: GetRequest, SubscribeRequest or
# SubscribeResponse) into fuzz/corpus/<target>/NAME with protoc and
# proto/gnmi.proto. Run from anywhere; commit the result.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
declare -A target=([GetRequest]=gnmi_get [SubscribeRequest]=gnmi_subscribe [SubscribeResponse]=gnmi_notification)
for t in "${target[@]}"; do rm -rf "$root/fuzz/corpus/$t"; mkdir -p "$root/fuzz/corpus/$t"; done
for src in "$root"/fuzz/seeds/*.txtpb; do
  base=$(basename "$src" .txtpb)
  message=${base##*.}
  name=${base%.*}
  protoc -I"$root/proto" --encode="gnmi.$message" gnmi.proto < "$src" > "$root/fuzz/corpus/${target[$message]}/$name"
done
for t in "${target[@]}"; do echo "$t: $(ls "$root/fuzz/corpus/$t" | wc -l) seeds"; done
