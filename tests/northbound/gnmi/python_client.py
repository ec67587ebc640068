# An independent gNMI client for the server's conformance tests: Debian's
# python3-grpcio with message classes protoc generated from proto/ at test
# time. argv: <module dir> <address> <request.json>. Prints one line per
# item, flushed:
#   CAPS <version> <encodings> <name@version;...>
#   N <target> <timestamp>        a notification, then its
#   U <path> <kind> <value>       updates and
#   D <path>                      deletes
#   SYNC
#   STATUS <code> <details>       last line
import json, os, queue, sys, threading, time
import grpc
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'support'))
import gnmi_pb2, gnmi_pb2_grpc
from gnmi_path_text import path_of, show

addr = sys.argv[2]
req = json.load(open(sys.argv[3]))


def out(*parts):
    print(*parts)
    sys.stdout.flush()


def channel():
    opts = [('grpc.use_local_subchannel_pool', 1)]
    if 'keepalive_ms' in req:  # an eager client, pinging far more often than gRPC's defaults allow
        opts += [('grpc.keepalive_time_ms', req['keepalive_ms']), ('grpc.keepalive_timeout_ms', 5000),
                 ('grpc.keepalive_permit_without_calls', 1), ('grpc.http2.max_pings_without_data', 0),
                 ('grpc.http2.min_time_between_pings_ms', req['keepalive_ms'])]
    if 'ca' not in req:
        return grpc.insecure_channel(addr, options=opts)
    rd = lambda k: open(req[k], 'rb').read() if req.get(k) else None
    creds = grpc.ssl_channel_credentials(rd('ca'), rd('key'), rd('cert'))
    return grpc.secure_channel(addr, creds, options=opts + [('grpc.ssl_target_name_override', 'localhost')])


def notification(n):
    out('N', n.prefix.target, n.timestamp)
    for u in n.update:
        kind = u.val.WhichOneof('value')
        v = getattr(u.val, kind)
        if isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, bool):
            v = str(v).lower()
        out('U', show(u.path), kind, v)
    for d in getattr(n, 'delete'):
        out('D', show(d))


md = [('username', req['user']), ('password', req.get('pass', ''))] if 'user' in req else []
md += [tuple(kv) for kv in req.get('metadata', [])]  # extra [key, value] pairs
enc = gnmi_pb2.Encoding.Value(req.get('encoding', 'PROTO'))
prefix = path_of(req.get('prefix', ''), req.get('target', ''))
held = []
try:
    ch = channel()
    stub = gnmi_pb2_grpc.gNMIStub(ch)
    rpc = req['rpc']
    if rpc == 'caps':
        r = stub.Capabilities(gnmi_pb2.CapabilityRequest(), metadata=md, timeout=30)
        out('CAPS', r.gNMI_version, ','.join(gnmi_pb2.Encoding.Name(e) for e in r.supported_encodings),
            ';'.join(m.name + '@' + m.version for m in r.supported_models))
    elif rpc == 'reflect':
        # ServerReflectionRequest{list_services: ""} by hand: field 7, empty string.
        call = ch.stream_stream('/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo',
                                request_serializer=lambda b: b, response_deserializer=lambda b: b)
        raw = next(iter(call(iter([b'\x3a\x00']), metadata=md, timeout=30)))
        out('REFLECT', 'gnmi.gNMI' if b'gnmi.gNMI' in raw else 'missing')
    elif rpc == 'set':
        stub.Set(gnmi_pb2.SetRequest(), metadata=md, timeout=30)
    elif rpc == 'get':
        r = stub.Get(gnmi_pb2.GetRequest(prefix=prefix, path=[path_of(p) for p in req.get('paths', [])],
                                         encoding=enc, type=gnmi_pb2.GetRequest.DataType.Value(req.get('type', 'ALL'))),
                     metadata=md, timeout=30)
        for n in r.notification:
            notification(n)
    else:
        sl = gnmi_pb2.SubscriptionList(prefix=prefix, encoding=enc, updates_only=req.get('updates_only', False),
                                       mode=gnmi_pb2.SubscriptionList.Mode.Value(req.get('mode', 'STREAM')))
        for s in req.get('subs', []):
            sl.subscription.add(path=path_of(s['path']), mode=gnmi_pb2.SubscriptionMode.Value(s.get('mode', 'SAMPLE')),
                                sample_interval=int(s.get('sample_ms', 0) * 1000000),
                                heartbeat_interval=int(s.get('heartbeat_ms', 0) * 1000000),
                                suppress_redundant=s.get('suppress', False))
        first = {'poll': gnmi_pb2.SubscribeRequest(poll=gnmi_pb2.Poll()),
                 'empty': gnmi_pb2.SubscribeRequest()}.get(req.get('first'), gnmi_pb2.SubscribeRequest(subscribe=sl))
        for _ in range(req.get('hold_streams', 0)):  # streams kept open; read once, so surely admitted
            held.append(stub.Subscribe(iter([gnmi_pb2.SubscribeRequest(subscribe=sl)]), metadata=md, timeout=60))
            next(held[-1])
        q = queue.Queue()
        q.put(first)
        for extra in req.get('then', []):
            q.put(gnmi_pb2.SubscribeRequest(poll=gnmi_pb2.Poll()) if extra == 'poll'
                  else gnmi_pb2.SubscribeRequest(subscribe=sl))

        def reqs():
            while True:
                r = q.get()
                if r is None:
                    return
                yield r
        call = stub.Subscribe(reqs(), metadata=md, timeout=req.get('timeout', 60))
        polls, syncs, seen = req.get('polls', 0), 0, 0
        stop_syncs, count = req.get('stop_after_syncs', 0), req.get('count', 0)
        for resp in call:
            seen += 1
            kind = resp.WhichOneof('response')
            if kind == 'update':
                notification(resp.update)
            elif kind == 'sync_response':
                out('SYNC')
                syncs += 1
                if syncs <= polls:
                    # poll_gate: the k-th poll waits for the file <gate><k> (the test made its change)
                    while req.get('poll_gate') and not os.path.exists(req['poll_gate'] + str(syncs)):
                        time.sleep(0.02)
                    q.put(gnmi_pb2.SubscribeRequest(poll=gnmi_pb2.Poll()))
                if stop_syncs and syncs >= stop_syncs:
                    break
            if count and seen >= count:
                break
        q.put(None)
        call.cancel()
    out('STATUS OK')
except grpc.RpcError as e:
    out('STATUS', e.code().name, e.details())
for h in held:
    h.cancel()
