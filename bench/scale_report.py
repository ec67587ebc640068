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

from prom_text import lag_buckets as buckets, quantile, samples, total  # next to this script


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
