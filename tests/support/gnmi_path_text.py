# gNMI paths as text and back, for the Python gNMI peers the tests run
# (tests/northbound/gnmi/python_client.py and the simulator's client in
# tests/e2e/sim/gnmi/gnmi_python_test.cc). Import it after the directory holding
# the protoc-generated gnmi_pb2 is on sys.path.
import gnmi_pb2


def path_of(text, target=''):
    """'origin:/a/b[k=v]/c' -> gnmi_pb2.Path (keys: no escapes, as our tests write them)."""
    p = gnmi_pb2.Path(target=target)
    if ':' in text.split('/')[0]:
        p.origin, text = text.split(':', 1)
    i = 0
    while i < len(text):
        if text[i] == '/':
            i += 1
            continue
        e = p.elem.add()
        j = i
        while j < len(text) and text[j] not in '/[':
            j += 1
        e.name = text[i:j]
        while j < len(text) and text[j] == '[':
            k = text.index(']', j)
            key, val = text[j + 1:k].split('=', 1)
            e.key[key] = val
            j = k + 1
        i = j
    return p


def show(p, empty='/'):
    """gnmi_pb2.Path -> 'origin:/a/b[k=v]', keys sorted; `empty` for a path with no elements."""
    s = (p.origin + ':') if p.origin else ''
    for e in p.elem:
        s += '/' + e.name + ''.join('[%s=%s]' % kv for kv in sorted(e.key.items()))
    return s or empty
