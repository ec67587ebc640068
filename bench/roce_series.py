#!/usr/bin/env python3
"""Counts, in a /metrics scrape, the series of the RoCE configuration leaves
the collectors write and of the /fabric/checks leaves the analytics write
(bench/roce_check_bench.sh). Prometheus names come from models/schema.yaml,
so a renamed metric is still counted.

  roce_series.py SCHEMA SCRAPE  ->  config=N checks=M store=S (S: every leaf the store holds)
"""
import re
import sys

import yaml

# The configuration leaves the RoCE check added (keyless paths, without
# module prefixes); the ones that existed before it (trust, PFC priorities,
# DCQCN enable bitmaps, PFC admin mode) are left out.
NEW_CONFIG_LEAVES = {
    "/interfaces/interface/ethernet/dcqcn/state/cnp-dscp",
    "/interfaces/interface/ethernet/dcqcn/state/cnp-802p-priority",
    "/interfaces/interface/ethernet/dcb/dscp-priorities/dscp-priority/state/priority",
    "/interfaces/interface/ethernet/dcb/priorities/priority/state/traffic-class",
    "/interfaces/interface/ethernet/dcb/priorities/priority/state/receive-buffer-bytes",
    "/interfaces/interface/ethernet/dcb/traffic-classes/traffic-class/state/tsa",
    "/interfaces/interface/ethernet/dcb/traffic-classes/traffic-class/state/bandwidth-percent",
    "/rdma/devices/device/ports/port/state/default-roce-tos",
    "/rdma/devices/device/ports/port/state/default-roce-mode",
    "/qos/dscp-map/dscp/state/qos-group",
    "/qos/pfc-watchdog/state/interval",
    "/interfaces/interface/ethernet/pfc/state/watchdog-interval",
} | {"/qos/qos-groups/qos-group/state/" + leaf for leaf in (
    "pause-cos", "mtu", "egress-queue", "priority-level", "bandwidth-percent", "ecn",
    "wred-min-threshold", "wred-max-threshold", "pause-buffer-size", "pause-threshold",
    "resume-threshold")}


def keyless(path):
    return "/".join(part.split(":")[-1] for part in path.split("/"))


def names(schema):
    config, checks = set(), set()
    for group in schema["leaves"]:
        prefix = keyless(group["prefix"])
        for leaf in group["leaves"]:
            prom = (leaf.get("prometheus") or {}).get("name")
            if not prom:
                continue
            path = prefix + "/" + leaf["name"]
            if path in NEW_CONFIG_LEAVES:
                config.add(prom)
            elif path.startswith("/fabric/checks/"):
                checks.add(prom)
    return config, checks


def main():
    with open(sys.argv[1]) as f:
        config, checks = names(yaml.safe_load(f))
    counts = {"config": 0, "checks": 0, "store": 0}
    sample = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]")
    with open(sys.argv[2]) as f:
        for line in f:
            m = sample.match(line)
            if not m:
                continue
            if m.group(1) == "rdmagw_target_series":
                counts["store"] += int(float(line.split()[-1]))
            elif m.group(1) in config:
                counts["config"] += 1
            elif m.group(1) in checks:
                counts["checks"] += 1
    print(" ".join(f"{k}={v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
