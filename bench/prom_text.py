"""Reading the gateway's /metrics text: what bench/scale_report.py and
bench/soak_report.py share."""
import re

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')


def samples(path, name):
    """[(labels text, value)] of every sample of `name` in the file; none if it cannot be read."""
    out = []
    try:
        f = open(path, errors='replace')
    except OSError:
        return out
    with f:
        for line in f:
            if not line.startswith(name):
                continue
            m = LINE.match(line)
            if m and m.group(1) == name:
                out.append((m.group(2) or '', float(m.group(3))))
    return out


def total(path, name):
    return sum(v for _, v in samples(path, name))


def lag_buckets(path):
    """{upper bound (s): cumulative count} of rdmagw_ingest_lag_updates_total."""
    b = {}
    for labels, v in samples(path, 'rdmagw_ingest_lag_updates_total'):
        le = re.search(r'max_seconds="([^"]*)"', labels).group(1)
        b[float('inf') if le == '+Inf' else float(le)] = v
    return b


def quantile(q, cum):
    """cum: sorted [(le, cumulative count)], interpolated inside a bucket as
    histogram_quantile does; past the last bound, the bound (a lower limit)."""
    if not cum or cum[-1][1] <= 0:
        return float('nan')
    rank = q * cum[-1][1]
    prev_le, prev_c = 0.0, 0.0
    for le, c in cum:
        if c >= rank:
            if le == float('inf'):
                return prev_le
            return prev_le + (le - prev_le) * (rank - prev_c) / max(c - prev_c, 1e-9)
        prev_le, prev_c = le, c
    return prev_le
