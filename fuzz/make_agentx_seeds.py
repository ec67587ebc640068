#!/usr/bin/env python3
"""Writes fuzz/corpus/agentx_pdu/: AgentX Get and GetNext PDUs (RFC 2741) for the
tables and contexts the SNMP northbound serves, in both byte orders, as
snmpd sends them to a subagent. Run from anywhere; commit the result."""
import os
import shutil
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "agentx_pdu")
GET, GETNEXT, GETBULK = 5, 6, 7
NETWORK_BYTE_ORDER, NON_DEFAULT_CONTEXT = 0x10, 0x08


def oid(text, include=0, big=True):
    arcs = [int(a) for a in text.split(".")] if text else []
    prefix = 0
    if len(arcs) >= 5 and arcs[:4] == [1, 3, 6, 1] and arcs[4] < 256:
        prefix, arcs = arcs[4], arcs[5:]
    e = ">" if big else "<"
    return struct.pack("BBBB", len(arcs), prefix, include, 0) + b"".join(struct.pack(e + "I", a) for a in arcs)


def octets(s, big=True):
    b = s.encode()
    pad = (4 - len(b) % 4) % 4
    return struct.pack((">" if big else "<") + "I", len(b)) + b + b"\0" * pad


def pdu(kind, ranges, context="", big=True, packet=7):
    flags = NETWORK_BYTE_ORDER if big else 0
    body = b""
    if context:
        flags |= NON_DEFAULT_CONTEXT
        body += octets(context, big)
    if kind == GETBULK:
        body += struct.pack((">" if big else "<") + "HH", 0, 10)
    for start, end, include in ranges:
        body += oid(start, include, big) + oid(end, 0, big)
    e = ">" if big else "<"
    return struct.pack("BBBB", 1, kind, flags, 0) + struct.pack(e + "IIII", 42, 1000 + packet, packet, len(body)) + body


IF_HC_IN = "1.3.6.1.2.1.31.1.1.1.6"      # ifXTable ifHCInOctets
IF_X = "1.3.6.1.2.1.31.1.1"
PFC_IF = "1.3.6.1.4.1.9.9.813.1.1"       # cpfcIfTable
PFC_PRIO = "1.3.6.1.4.1.9.9.813.1.2"
RDMAGW = "1.3.6.1.4.1.32473.1"
seeds = {
    "get-ifhcinoctets-sw1": pdu(GET, [(IF_HC_IN + ".1", "", 0)], "sw1"),
    "get-two-varbinds-host1": pdu(GET, [(IF_HC_IN + ".1", "", 0), (IF_HC_IN + ".2", "", 0)], "host1"),
    "get-missing-instance": pdu(GET, [(IF_HC_IN + ".999999", "", 0)], "sw1"),
    "get-unknown-context": pdu(GET, [(IF_HC_IN + ".1", "", 0)], "nosuchdevice"),
    "getnext-ifxtable-sw1": pdu(GETNEXT, [(IF_X, "", 0)], "sw1"),
    "getnext-ifxtable-ranged": pdu(GETNEXT, [(IF_X, IF_X + ".1.7", 0)], "esxi1"),
    "getnext-include-pfc": pdu(GETNEXT, [(PFC_IF + ".1.1", PFC_PRIO, 1)], "sw1"),
    "getnext-pfc-priority": pdu(GETNEXT, [(PFC_PRIO + ".1.2.1.3", "", 0)], "sw1"),
    "getnext-default-context": pdu(GETNEXT, [(RDMAGW, "", 0)]),
    "get-default-context": pdu(GET, [(RDMAGW + ".1.1.1.2.3.115.119.49", "", 0)]),
    "getnext-past-everything": pdu(GETNEXT, [("1.3.6.1.4.1.99999", "", 0)], "host1"),
    "getnext-little-endian": pdu(GETNEXT, [(IF_X, "", 0)], "sw1", big=False),
    "get-little-endian": pdu(GET, [(IF_HC_IN + ".1", "", 0)], "host1", big=False),
    "getbulk-sw1": pdu(GETBULK, [(IF_X, "", 0)], "sw1"),
    "getnext-three-ranges": pdu(GETNEXT, [(IF_X, "", 0), (PFC_IF, "", 0), ("1.3.111.2.802.1.1.21.1.1", "", 0)], "sw1"),
}

shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print(f"{len(seeds)} seeds in {OUT}")
