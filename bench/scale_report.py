#!/usr/bin/env python3
"""Reads the gateway's /metrics text for bench/scale_run.sh.

  scale_report.py series METRICS            -> total series the store holds
  scale_report.py lag BEFORE AFTER          -> ingest lag p50/p99 (s) over the window, from
                                               rdmagw_ingest_lag_updates_total{max_seconds} deltas,
                                               interpolated inside a bucket as histogram_quantile does
  scale_report.py stream METRICS            -> gNMI southbound totals: notifications received, leaves queued applied coalesced dropped
"""
import re
import sys

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')


def samples(path, name):
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            if not line.startswith(name):
                continue
            m = LINE.match(line)
            if m and m.group(1) == name:
                out.append((m.group(2) or '', float(m.group(3))))
    return out


def buckets(path):
    b = {}
    for labels, v in samples(path, 'rdmagw_ingest_lag_updates_total'):
        le = re.search(r'max_seconds="([^"]*)"', labels).group(1)
        b[float('inf') if le == '+Inf' else float(le)] = v
    return b


def quantile(q, cum):
    """cum: sorted [(le, cumulative count)]."""
    total = cum[-1][1]
    if total <= 0:
        return float('nan')
    rank = q * total
    prev_le, prev_c = 0.0, 0.0
    for le, c in cum:
        if c >= rank:
            if le == float('inf'):
                return prev_le  # past the last bound: report the bound (a lower limit)
            return prev_le + (le - prev_le) * (rank - prev_c) / max(c - prev_c, 1e-9)
        prev_le, prev_c = le, c
    return prev_le


def main():
    cmd = sys.argv[1]
    if cmd == 'series':
        print(int(sum(v for _, v in samples(sys.argv[2], 'rdmagw_target_series'))))
    elif cmd == 'lag':
        a, b = buckets(sys.argv[2]), buckets(sys.argv[3])
        cum = sorted((le, b[le] - a.get(le, 0)) for le in b)
        print('%.4f %.4f %d' % (quantile(0.5, cum), quantile(0.99, cum), int(cum[-1][1])))
    elif cmd == 'stream':
        names = ['received', 'queued', 'applied', 'coalesced', 'dropped']
        fam = {'received': 'rdmagw_gnmi_source_notifications_received_total'}
        for n in names[1:]:
            fam[n] = 'rdmagw_gnmi_source_leaves_%s_total' % n
        print(' '.join('%d' % sum(v for _, v in samples(sys.argv[2], fam[n])) for n in names))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
