#!/usr/bin/env python3
"""Writes fuzz/corpus/vf_stats/: RTM_NEWLINK replies laid out as the kernel's
rtnl_fill_vfinfo writes them (net/core/rtnetlink.c), little-endian: a PF
with two VFs and every IFLA_VF_STATS counter, a netdev without VFs (what
`lo` answers), a VF without stats, and an old kernel's VF without the drop
counters. The numbers are the <linux/if_link.h> uAPI's."""
import os
import struct

IFLA_IFNAME, IFLA_NUM_VF, IFLA_VFINFO_LIST = 3, 21, 22
IFLA_VF_INFO, IFLA_VF_MAC, IFLA_VF_VLAN, IFLA_VF_STATS = 1, 1, 2, 8
NLA_F_NESTED = 1 << 15
RTM_NEWLINK = 16


def attr(kind, payload):
    raw = struct.pack("<HH", 4 + len(payload), kind) + payload
    return raw + b"\0" * (-len(raw) % 4)


def vf_info(vf, counters=range(9)):
    mac = struct.pack("<I", vf) + bytes([0x10 + vf, 1, 2, 3, 4, 5]) + b"\0" * 26
    vlan = struct.pack("<III", vf, 100 + vf, 0)
    stats = b"".join(attr(c, b"" if c == 6 else struct.pack("<Q", (vf + 1) << 40 | (c + 1) << 8 | vf))
                     for c in counters)
    parts = attr(IFLA_VF_MAC, mac) + attr(IFLA_VF_VLAN, vlan)
    if counters:
        parts += attr(IFLA_VF_STATS | NLA_F_NESTED, stats)
    return attr(IFLA_VF_INFO, parts)


def message(ifindex, attributes):
    header = struct.pack("<BBHiII", 0, 0, 1, ifindex, 1, 0)
    return struct.pack("<IHHII", 16 + len(header) + len(attributes), RTM_NEWLINK, 0, 1, 0) + header + attributes


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "vf_stats")
    os.makedirs(out, exist_ok=True)
    seeds = {
        "pf_two_vfs.bin": message(4, attr(IFLA_IFNAME, b"ens1f0np0\0") + attr(IFLA_NUM_VF, struct.pack("<I", 2)) +
                                  attr(IFLA_VFINFO_LIST, vf_info(0) + vf_info(1))),
        "lo_no_vfs.bin": message(1, attr(IFLA_IFNAME, b"lo\0")),
        "vf_without_stats.bin": message(4, attr(IFLA_VFINFO_LIST, vf_info(3, counters=()))),
        "old_kernel_no_drops.bin": message(4, attr(IFLA_VFINFO_LIST, vf_info(0, counters=range(7)))),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
