# One Subscribe stream that never reads, and N readers on the same data.
# argv: <module dir> <address> <target> <marker path> <final value> <readers>
# Prints READY once every reader has its sync_response, then "DONE <i>" as
# reader i sees the marker leaf reach the final value, then "ALL DONE".
import sys, threading
import grpc
sys.path.insert(0, sys.argv[1])
import gnmi_pb2, gnmi_pb2_grpc

addr, target, marker, final, readers = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])


lock = threading.Lock()


def out(*parts):
    with lock:  # one whole line at a time from many threads
        sys.stdout.write(' '.join(str(p) for p in parts) + '\n')
        sys.stdout.flush()


def show(p):
    return ''.join('/' + e.name + ''.join('[%s=%s]' % kv for kv in sorted(e.key.items())) for e in p.elem)


def request():
    sl = gnmi_pb2.SubscriptionList(prefix=gnmi_pb2.Path(target=target), encoding=gnmi_pb2.PROTO)
    sl.subscription.add(path=gnmi_pb2.Path(), mode=gnmi_pb2.ON_CHANGE)
    return gnmi_pb2.SubscribeRequest(subscribe=sl)


# Every call waits for the channel to be ready (within its deadline): the
# server is known to listen, and a connect attempt that fails once while 21
# channels connect at the same time on a loaded machine (seen once in CI:
# UNAVAILABLE at the first attempt) must be retried, not fail the test.
def stub(options=()):
    ch = grpc.insecure_channel(addr, options=[('grpc.use_local_subchannel_pool', 1)] + list(options))
    return gnmi_pb2_grpc.gNMIStub(ch)


# Never read. Without BDP probing the receive window stays at HTTP/2's
# 64 KiB, so the server's writes to this stream stop almost at once.
stalled = stub([('grpc.http2.bdp_probe', 0)]).Subscribe(iter([request()]), timeout=120, wait_for_ready=True)
synced = threading.Barrier(readers + 1)


def reader(i):
    call = stub().Subscribe(iter([request()]), timeout=120, wait_for_ready=True)
    last = ''
    try:
        for resp in call:
            if resp.sync_response:
                synced.wait()
                continue
            for u in resp.update.update:
                if show(u.path) == marker:
                    last = u.val.string_val
                if show(u.path) == marker and u.val.string_val == final:
                    out('DONE', i)
                    call.cancel()
                    return
    except grpc.RpcError as e:
        out('ERROR', i, e.code().name, e.details(), 'last marker', last)
        return
    out('ERROR', i, 'stream ended', 'last marker', last)


threads = [threading.Thread(target=reader, args=(i,)) for i in range(readers)]
for t in threads:
    t.start()
synced.wait()
out('READY')
for t in threads:
    t.join()
out('ALL DONE')
sys.stdin.read()  # keep the stalled stream open until the test closes our stdin
stalled.cancel()
