#!/usr/bin/env python3
"""The figures and the verdict of bench/soak.sh.

  soak_report.py row PREV_METRICS CUR_METRICS
      -> the gateway's part of one CSV row: ingest lag p50 and p99 of the
         updates applied between the two scrapes, gNMI southbound totals,
         open gNMI subscribers, gNMI updates dropped for subscribers, targets up,
         updates the store rejected
  soak_report.py verdict DIR
      -> reads DIR/soak.csv, DIR/gateway.log, DIR/final.txt, DIR/subscribers.stats
         and DIR/meta; prints the figures and PASS/FAIL per check; plots
         DIR/soak.png (gnuplot); exits 1 when any check fails

The checks:
  flat     RSS, open fds, threads and ingest lag p99 after the warm-up: the
           least-squares line's change over the window must stay within
           noise: at most twice the residuals' standard deviation (a trend
           that does not stand out of the scatter around it), or a floor
           below which no leak is worth a verdict (RSS 2 MiB, 2 fds,
           2 threads, lag 0.5 s).
  lost     after the churn ends the simulated switches stop sending; then
           every gNMI notification they sent was received, no leaf the
           stream queued was dropped, the store rejected no update, no
           update for gNMI subscribers was dropped, and every target is up
           again.
  served   no scrape failed; an SNMP walk failed only while snmpd restarted;
           no gNMI subscriber ended with an error of its own.
  logs     every WARN and ERROR line of the gateway falls inside the window
           of a fault the churn caused and names what that fault touched;
           the rest are listed as unexplained.
"""
import bisect
import math
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime, timezone

from prom_text import lag_buckets as buckets, quantile, samples, total  # next to this script


SOURCE = ['rdmagw_gnmi_source_notifications_received_total', 'rdmagw_gnmi_source_leaves_queued_total',
          'rdmagw_gnmi_source_leaves_applied_total', 'rdmagw_gnmi_source_leaves_coalesced_total',
          'rdmagw_gnmi_source_leaves_dropped_total']


def row(prev, cur):
    a, b = buckets(prev), buckets(cur)
    cum = sorted((le, b[le] - a.get(le, 0)) for le in b)
    up = [v for _, v in samples(cur, 'rdmagw_target_up')]
    vals = ['%.4f' % quantile(0.5, cum), '%.4f' % quantile(0.99, cum)]
    vals += ['%d' % total(cur, n) for n in SOURCE]
    vals += ['%d' % total(cur, 'rdmagw_gnmi_subscribers'), '%d' % total(cur, 'rdmagw_gnmi_updates_dropped_total'),
             '%d/%d' % (sum(1 for v in up if v == 1), len(up)), '%d' % total(cur, 'rdmagw_target_rejected_updates_total')]
    print(','.join(vals))


# ---------------------------------------------------------------- verdict

def read_kv(path):
    out = {}
    try:
        for line in open(path):
            if '=' in line:
                k, v = line.rstrip('\n').split('=', 1)
                out[k] = v
    except OSError:
        pass
    return out


def read_csv(path):
    lines = [l.rstrip('\n').split(',') for l in open(path) if l.strip()]
    head, rows = lines[0], lines[1:]
    return [dict(zip(head, r)) for r in rows]


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float('nan')


def fit(ts, ys):
    """Least squares y = a + b t -> (b, residual standard deviation)."""
    pts = [(t, y) for t, y in zip(ts, ys) if not math.isnan(y)]
    n = len(pts)
    if n < 3:
        return float('nan'), float('nan')
    mt = sum(t for t, _ in pts) / n
    my = sum(y for _, y in pts) / n
    stt = sum((t - mt) ** 2 for t, _ in pts)
    b = sum((t - mt) * (y - my) for t, y in pts) / stt if stt > 0 else 0.0
    a = my - b * mt
    sd = math.sqrt(sum((y - a - b * t) ** 2 for t, y in pts) / (n - 2))
    return b, sd


def stamp(text):
    return datetime.strptime(text, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=timezone.utc).timestamp()


LOG = re.compile(r'^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z) (\w+)\s+\[([^\]]+)\] (.*)$')
# A warning may follow the fault's repair by this much: the retry the
# gateway had scheduled during the outage (backoff doubling from about 1 s,
# outages of 6-9 s in a 60 s cycle) or a poll already under way.
AFTER = 30.0


def fault_windows(events, end):
    """[(start, stop, regex, label)] from the churn log lines."""
    wins, open_ = [], {}
    for t, kind, subject in events:
        if kind in ('gnmi-down', 'rdma-device-gone', 'sshd-down'):
            open_[(kind, subject)] = t
            continue
        pair = {'gnmi-up': 'gnmi-down', 'rdma-device-back': 'rdma-device-gone', 'sshd-up': 'sshd-down'}.get(kind)
        if pair:
            t0 = open_.pop((pair, subject), t)
            if pair == 'gnmi-down':
                rx = r'^\[(gnmi|poll|ssh)\] %s:' % re.escape(subject)
            elif pair == 'rdma-device-gone':
                host, dev = subject.split(':', 1)
                rx = r'%s.*%s|%s' % (re.escape(host), re.escape(dev), re.escape(dev))
            else:
                rx = r'ssh'
            wins.append((t0 - 1, t + AFTER, re.compile(rx), '%s %s' % (pair, subject)))
        elif kind == 'snmpd-restart':
            wins.append((t - 1, t + AFTER, re.compile(r'snmp|agentx|AgentX', re.I), 'snmpd-restart'))
        elif kind == 'done':
            # The simulated switches stop serving gNMI for good: they fall back to SSH.
            wins.append((t - 1, end, re.compile(r'^\[gnmi\]|gNMI'), 'churn done, gNMI servers stopped'))
        elif kind == 'stop':
            wins.append((t - 1, end, re.compile(r''), 'the soak stops the demo'))
    for (kind, subject), t0 in open_.items():  # never undone: open to the end
        wins.append((t0 - 1, end, re.compile(r''), '%s %s (never undone)' % (kind, subject)))
    return wins


def read_log(path):
    events, problems = [], []
    for line in open(path, errors='replace'):
        m = LOG.match(line.rstrip('\n'))
        if not m:
            continue
        t, level, comp, msg = stamp(m.group(1)), m.group(2), m.group(3), m.group(4)
        if comp == 'churn' and level == 'INFO':
            if msg.startswith('done:'):
                events.append((t, 'done', ''))
            else:
                kind, _, subject = msg.partition(' ')
                events.append((t, kind, subject))
        elif comp == 'demo' and msg.startswith('signal '):
            events.append((t, 'stop', ''))
        if level in ('WARN', 'ERROR'):
            problems.append((t, level, '[%s] %s' % (comp, msg)))
    return events, problems


def plot(d, rows, warm):
    png = os.path.join(d, 'soak.png')
    if not shutil.which('gnuplot'):
        print('plot: gnuplot not installed (scripts/install-deps.sh installs gnuplot-nox); no %s' % png)
        return
    data = os.path.join(d, 'plot.dat')
    with open(data, 'w') as f:
        for r in rows:
            f.write('%s %.1f %s %s %s\n' % (r['time_s'], num(r['rss_kb']) / 1024, r['fds'], r['threads'],
                                            r['lag_p99_s'] if not math.isnan(num(r['lag_p99_s'])) else 'NaN'))
    script = '''
set terminal pngcairo size 1100,800 font ",10"
set output '%s'
set multiplot layout 3,1 title "rdmagw soak: %s"
set grid
set xlabel "minutes"
set arrow from %f, graph 0 to %f, graph 1 nohead dt 2 lc rgb "gray"
set ylabel "RSS (MiB)"
plot '%s' using ($1/60):2 with lines lw 2 title "RSS"
set ylabel "count"
plot '%s' using ($1/60):3 with lines lw 2 title "open fds", '' using ($1/60):4 with lines lw 2 title "threads"
set ylabel "seconds"
plot '%s' using ($1/60):5 with linespoints pt 7 ps 0.4 title "ingest lag p99 (per 5 s)"
unset multiplot
''' % (png, read_kv(os.path.join(d, 'meta')).get('title', ''), warm / 60, warm / 60, data, data, data)
    r = subprocess.run(['gnuplot'], input=script, text=True, capture_output=True)
    print('plot: %s' % png if r.returncode == 0 else 'plot failed: %s' % r.stderr.strip()[:300])


def thread_names(path, warm):
    """Which threads (by name) came or went between the first sample after
    the warm-up and the last: "name a->b, ...", "" without threads.csv."""
    rows = []
    try:
        with open(path, errors='replace') as f:
            for line in f:
                t, _, names = line.rstrip('\n').partition(',')
                counts = {}
                for item in names.split(';'):
                    name, _, n = item.rpartition('=')
                    if name:
                        counts[name] = int(n)
                rows.append((num(t), counts))
    except OSError:
        return ''
    after = [c for t, c in rows if t >= warm]
    if not after:
        return ''
    first, last = after[0], after[-1]
    moved = ['%s %d->%d' % (n, first.get(n, 0), last.get(n, 0))
             for n in sorted(set(first) | set(last)) if first.get(n, 0) != last.get(n, 0)]
    return ', '.join(moved) if moved else 'the same'


def verdict(d):
    meta = read_kv(os.path.join(d, 'meta'))
    rows = read_csv(os.path.join(d, 'soak.csv'))
    final = read_kv(os.path.join(d, 'final.txt'))
    subs = read_kv(os.path.join(d, 'subscribers.stats'))
    warm = float(meta.get('warmup_s', 120))
    fails = []

    def check(ok, what):
        print('%s  %s' % ('PASS' if ok else 'FAIL', what))
        if not ok:
            fails.append(what)

    churn = [r for r in rows if r.get('final') == '0']
    window = [r for r in churn if num(r['time_s']) >= warm]
    print('samples: %d (%d during churn, %d after the %.0f s warm-up); churn events: %s' % (
        len(rows), len(churn), len(window), warm, rows[-1]['churn_events'] if rows else 0))
    if len(window) < 10:
        check(False, 'too few samples after the warm-up to judge slopes (run longer)')
    else:
        ts = [num(r['time_s']) for r in window]
        span = ts[-1] - ts[0]
        for col, unit, scale, floor in (('rss_kb', 'MiB', 1 / 1024, 2048), ('fds', 'fds', 1, 2),
                                        ('threads', 'threads', 1, 2), ('lag_p99_s', 's', 1, 0.5)):
            ys = [num(r[col]) for r in window]
            b, sd = fit(ts, ys)
            change = b * span
            bound = max(2 * sd, floor)
            vals = [y for y in ys if not math.isnan(y)]
            ok = not math.isnan(b) and abs(change) <= bound
            check(ok, '%-9s %s %.2f..%.2f %s, slope %+.3f %s/h, change over %.0f s %+.3f (bound %.3f = max(2 sd %.3f, floor %.3f))' % (
                col, 'range', min(vals) * scale, max(vals) * scale, unit, b * 3600 * scale, unit, span,
                change * scale, bound * scale, 2 * sd * scale, floor * scale))
    names = thread_names(os.path.join(d, 'threads.csv'), warm)
    if names:
        print('      threads by name, after the warm-up -> end: %s' % names)
    lag = sorted(num(r['lag_p99_s']) for r in window if not math.isnan(num(r['lag_p99_s'])))
    if lag:
        print('      ingest lag p99 per 5 s: median %.3f s, max %.3f s' % (lag[len(lag) // 2], lag[-1]))

    # --- nothing lost
    sent = int(final.get('notifications_sent', -1))
    recv = int(num(final.get('notifications_received')))
    queued, applied, coalesced, dropped = (int(num(final.get(k))) for k in
                                           ('leaves_queued', 'leaves_applied', 'leaves_coalesced', 'leaves_dropped'))
    check(final.get('final') == '1', 'the churn ended and the simulated switches stopped sending (final counts)')
    check(sent == recv, 'gNMI notifications sent by the switches %d, received by the gateway %d' % (sent, recv))
    # The gateway counts the leaves its SSH fallback and CLI supplement
    # applied for a switch in leaves_applied too, so applied only bounds
    # queued from above; a leaf the stream queued and the store never took
    # shows as dropped or rejected.
    rejected = int(num(final.get('rejected')))
    check(dropped == 0 and rejected == 0 and applied >= queued - coalesced,
          'leaves the gNMI stream queued %d: coalesced %d, dropped %d; applied %d (with the SSH fallback\'s); '
          'updates the store rejected %d' % (queued, coalesced, dropped, applied, rejected))
    sub_drop = int(num(final.get('gnmi_updates_dropped')))
    check(sub_drop == 0, 'gNMI updates dropped for subscribers: %d' % sub_drop)
    up = final.get('targets_up', '0/0')
    check(up.split('/')[0] == up.split('/')[1] and up != '0/0', 'targets up at the end: %s' % up)

    # --- served
    last = rows[-1] if rows else {}
    check(int(num(last.get('scrape_failed', 1))) == 0,
          'scrapes every 5 s: %s ok, %s failed' % (last.get('scrape_ok'), last.get('scrape_failed')))
    events, problems = read_log(os.path.join(d, 'gateway.log'))
    end = max([t for t, _, _ in problems] + [num(r['epoch']) for r in rows] + [0]) + 1
    restarts = [t for t, k, _ in events if k == 'snmpd-restart']
    snmp_unexplained = []
    prev_failed = 0
    for r in rows:
        f = int(num(r['snmp_failed']))
        if f > prev_failed:
            t = num(r['epoch'])
            if not any(t0 - 1 <= t <= t0 + 15 for t0 in restarts):
                snmp_unexplained.append(r['time_s'])
        prev_failed = f
    check(not snmp_unexplained, 'SNMP walks every 5 s: %s ok, %s failed (%d while snmpd restarted, %d otherwise%s)' % (
        last.get('snmp_ok'), last.get('snmp_failed'), int(num(last.get('snmp_failed', 0))) - len(snmp_unexplained),
        len(snmp_unexplained), (' at t=' + ' '.join(snmp_unexplained[:5])) if snmp_unexplained else ''))
    check(subs.get('sessions_failed', '0') == '0',
          'gNMI subscribers: %s sessions, %s updates received, %s failed%s' % (
              subs.get('sessions'), subs.get('updates'), subs.get('sessions_failed'),
              '' if subs.get('sessions_failed', '0') == '0' else ' (last: %s)' % subs.get('last_error')))
    check(meta.get('demo_exit', '') in ('0', ''), 'the demo ran to the end and exited cleanly (status %s)' % meta.get('demo_exit'))

    # --- logs
    wins = fault_windows(events, end)
    unexplained, by_fault = [], {}
    for t, level, text in problems:
        hit = next((w for w in wins if w[0] <= t <= w[1] and w[2].search(text)), None)
        if hit is None or (text.startswith('[churn]') and level == 'ERROR'):
            unexplained.append((t, level, text))
        else:
            key = hit[3].split(' ')[0]
            by_fault[key] = by_fault.get(key, 0) + 1
    check(not unexplained, 'gateway log: %d WARN/ERROR lines, %d explained by the churn (%s), %d unexplained' % (
        len(problems), len(problems) - len(unexplained),
        ', '.join('%s %d' % kv for kv in sorted(by_fault.items())) or '-', len(unexplained)))
    for t, level, text in unexplained[:30]:
        print('      unexplained: %s %s %s' % (datetime.fromtimestamp(t, timezone.utc).strftime('%H:%M:%S'), level, text[:200]))
    plot(d, rows, warm)
    print('VERDICT: %s' % ('PASS' if not fails else 'FAIL (%d check%s)' % (len(fails), '' if len(fails) == 1 else 's')))
    return 0 if not fails else 1


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'row':
        row(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == 'verdict':
        sys.exit(verdict(sys.argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
