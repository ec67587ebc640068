#!/usr/bin/env bash
# Times a gNMI Get of the whole tree ("/", every target) in JSON_IETF from
# `rdmagw-demo` (its default fabric: 4 RDMA hosts, 1 Nexus leaf, 2 ESXi hosts,
# the fabric verdicts), with Debian's python3-grpcio as the client (messages
# generated from proto/ by protoc, as the gNMI conformance tests do).
#
# Prints, per Get, the wall time (request sent -> response decoded) and the
# bytes: the serialized GetResponse and the JSON text inside it; then min,
# median and max of the times.
#
# Usage: bench/json_ietf_get.sh [repetitions (default 10)] [encoding (default JSON_IETF)]
# (RDMAGW_BIN=path/to/rdmagw to time another build, e.g. build-rel;
# SETTLE=seconds to wait once every target is up, default 30: the fabric
# verdicts need a full analytics window of the demo's 2 s polls)
# The switches and ESXi hosts of the demo need root (sshd); without root the
# tree holds the RDMA hosts and verdicts only, and the script says so.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS="${1:-10}"
ENCODING="${2:-JSON_IETF}"
BIN="${RDMAGW_BIN:-./build/gateway/rdmagw}"
DEMO=$(dirname "$BIN")/rdmagw-demo  # the demo's program, built beside rdmagw
[ -x "$DEMO" ] || { echo "build first: ./scripts/build.sh (or set RDMAGW_BIN)" >&2; exit 1; }
for tool in protoc /usr/bin/grpc_python_plugin curl; do
  command -v "$tool" >/dev/null || { echo "missing $tool (scripts/install-deps.sh installs it)" >&2; exit 1; }
done

WORK=$(mktemp -d)
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PROM_PORT=$(free_port)
GNMI_PORT=$(free_port)
GW_PID=
cleanup() { [ -n "$GW_PID" ] && kill "$GW_PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

protoc -I proto --python_out="$WORK" --grpc_python_out="$WORK" \
  --plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin gnmi.proto gnmi_ext.proto

"$DEMO" --listen "127.0.0.1:$PROM_PORT" --gnmi-listen "127.0.0.1:$GNMI_PORT" --snmp off \
  --dir "$WORK/sim" --log-level warn >"$WORK/demo.out" 2>"$WORK/demo.err" &
GW_PID=$!

# Ready when every target is up and the leaves stream over gNMI (the tree
# is then as full as the demo makes it), and two polls later.
expected=$( [ "$(id -u)" = 0 ] && echo 7 || echo 4 )  # 4 hosts (+ 1 leaf + 2 ESXi with root)
ready=
for _ in $(seq 300); do
  m=$(curl -sf "http://127.0.0.1:$PROM_PORT/metrics" || true)
  up=$(grep -c '^rdmagw_target_up{.*} 1$' <<<"$m" || true)
  if [ "$up" -ge "$expected" ] && { [ "$expected" = 4 ] || grep -q 'rdmagw_target_info{target="leaf01",kind="nexus",transport="gnmi"' <<<"$m"; }; then
    ready=1
    break
  fi
  sleep 0.5
done
[ -n "$ready" ] || { echo "the demo did not come up (targets up: ${up:-0} of $expected); its stderr:" >&2; tail -20 "$WORK/demo.err" >&2; exit 1; }
[ "$expected" = 4 ] && echo "not root: the demo runs without its switch and ESXi hosts" >&2
sleep "${SETTLE:-30}"

/usr/bin/python3 - "$WORK" "127.0.0.1:$GNMI_PORT" "$REPS" "$ENCODING" <<'EOF'
import statistics, sys, time
sys.path.insert(0, sys.argv[1])
import grpc
import gnmi_pb2, gnmi_pb2_grpc

addr, reps, encoding = sys.argv[2], int(sys.argv[3]), sys.argv[4]
stub = gnmi_pb2_grpc.gNMIStub(grpc.insecure_channel(addr, options=[('grpc.max_receive_message_length', 1 << 30)]))
req = gnmi_pb2.GetRequest(prefix=gnmi_pb2.Path(target='*'), path=[gnmi_pb2.Path()],
                          encoding=gnmi_pb2.Encoding.Value(encoding))
times = []
for i in range(reps):
    t0 = time.perf_counter()
    resp = stub.Get(req, timeout=60)
    dt = time.perf_counter() - t0
    times.append(dt)
    text = sum(len(u.val.json_ietf_val) + len(u.val.json_val) for n in resp.notification for u in n.update)
    updates = sum(len(n.update) for n in resp.notification)
    print(f'get {i + 1}: {dt * 1000:.1f} ms, {resp.ByteSize()} bytes GetResponse, {text} bytes JSON, '
          f'{len(resp.notification)} notifications, {updates} updates', flush=True)
print('targets:', ' '.join(sorted(n.prefix.target for n in resp.notification)))
print(f'{encoding} Get of /: min {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms, '
      f'max {max(times) * 1000:.1f} ms over {reps}')
EOF
