#!/usr/bin/env python3
"""gNMI subscribers that come and go, for bench/soak.sh.

  soak_subscribers.py MODULE_DIR ADDRESS STATS_FILE [CLIENTS] [SEED]

Keeps CLIENTS (default 3) Subscribe STREAMs open against the gateway's gNMI
server, each for a random 5-40 s: ON_CHANGE on every target's interface
counters, or SAMPLE every 2 s of the RDMA tree. A stream leaves in one of two
ways: the client cancels it, or its deadline ends it (DEADLINE_EXCEEDED); a
new one takes its place after a pause of up to 3 s. MODULE_DIR holds the
protoc-generated gnmi_pb2 (as tests/northbound/gnmi/python_client.py
uses). STATS_FILE is rewritten every second: sessions, sessions_failed (an
error other than the two ways out), responses, updates, syncs, last_error.
Runs until SIGTERM.
"""
import os
import random
import signal
import sys
import threading
import time

import grpc

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'support'))
import gnmi_pb2  # noqa: E402
import gnmi_pb2_grpc  # noqa: E402
from gnmi_path_text import path_of  # noqa: E402

ADDR, STATS = sys.argv[2], sys.argv[3]
CLIENTS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
lock = threading.Lock()
stats = {'sessions': 0, 'sessions_failed': 0, 'responses': 0, 'updates': 0, 'syncs': 0, 'last_error': '-'}
stop = threading.Event()


def request(kind):
    if kind == 'on_change':
        sub = gnmi_pb2.Subscription(path=path_of('/interfaces/interface/state/counters'),
                                    mode=gnmi_pb2.SubscriptionMode.ON_CHANGE)
    else:
        sub = gnmi_pb2.Subscription(path=path_of('/rdma'), mode=gnmi_pb2.SubscriptionMode.SAMPLE,
                                    sample_interval=2_000_000_000)
    sl = gnmi_pb2.SubscriptionList(prefix=gnmi_pb2.Path(target='*'), subscription=[sub],
                                   mode=gnmi_pb2.SubscriptionList.STREAM, encoding=gnmi_pb2.PROTO)
    return gnmi_pb2.SubscribeRequest(subscribe=sl)


def client(n):
    with lock:
        r = random.Random(rng.random())
    while not stop.is_set():
        life = r.uniform(5, 40)
        by_deadline = r.random() < 0.5
        kind = r.choice(['on_change', 'sample'])
        ch = grpc.insecure_channel(ADDR, options=[('grpc.use_local_subchannel_pool', 1)])
        stub = gnmi_pb2_grpc.gNMIStub(ch)
        gate = threading.Event()  # the request stream stays open until the call ends

        def reqs():
            yield request(kind)
            gate.wait()
        call = stub.Subscribe(reqs(), timeout=life if by_deadline else None)
        if not by_deadline:
            timer = threading.Timer(life, call.cancel)
            timer.start()
        with lock:
            stats['sessions'] += 1
        try:
            for resp in call:
                with lock:
                    stats['responses'] += 1
                    if resp.HasField('update'):
                        stats['updates'] += len(resp.update.update)
                    elif resp.sync_response:
                        stats['syncs'] += 1
                if stop.is_set():
                    call.cancel()
        except grpc.RpcError as e:
            if e.code() not in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED):
                with lock:
                    stats['sessions_failed'] += 1
                    stats['last_error'] = '%s %s' % (e.code().name, (e.details() or '').replace('\n', ' ')[:120])
        finally:
            gate.set()
            if not by_deadline:
                timer.cancel()
            ch.close()
        stop.wait(r.uniform(0, 3))


def write_stats():
    with lock:
        text = ''.join('%s=%s\n' % kv for kv in stats.items())
    with open(STATS + '.tmp', 'w') as f:
        f.write(text)
    os.replace(STATS + '.tmp', STATS)


signal.signal(signal.SIGTERM, lambda *_: stop.set())
threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(CLIENTS)]
for t in threads:
    t.start()
while not stop.wait(1):
    write_stats()
for t in threads:
    t.join(timeout=5)
write_stats()
