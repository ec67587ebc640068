#!/usr/bin/env python3
"""Writes mibs/RDMAGW-MIB.txt from the schema table (models/schema_table.cc).

The schema's `oid` column says which leaf is served in which column; this
script gives each column of our arc an SMIv2 definition (name, syntax,
description from the schema's help text). Run it after adding or moving a
schema OID under the rdmagw arc; tests/northbound/snmp/mib_file_test.cc
fails while the MIB and the schema disagree.

Usage: python3 mibs/gen_rdmagw_mib.py > mibs/RDMAGW-MIB.txt
"""
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARC = "1.3.6.1.4.1.32473.1.1."  # rdmagwObjects

MACROS = {"RG_IF": "2.1.", "RG_PRIO": "3.1.", "RG_QUEUE": "4.1.", "RG_RDEV": "5.1.",
          "RG_RPORT": "6.1.", "RG_VMNIC": "7.1.", "RG_FPRIO": "8.1.", "RG_FDCQCN": "9.1.",
          "RG_FDCB": "10.1."}


def camel(leaf):
    return "".join(p[:1].upper() + p[1:] for p in leaf.split("-"))


# Tables of our arc: sub-id, name stem, description, INDEX, local index
# objects (column 1), and fixed names for some columns.
TABLES = [
    (2, "rdmagwIf", "Per-interface pause accounting, PFC state and counters no standard MIB carries, "
     "for switch ports, host netdevs and ESXi vmnics. Indexed by the stable ifIndex of IF-MIB "
     "in the device's context.", ["ifIndex"], None,
     {1: "InPkts", 2: "OutPkts", 3: "InPauseCtrlFrames", 4: "OutPauseCtrlFrames", 5: "InGlobalPauseDuration",
      6: "OutGlobalPauseDuration", 7: "InGlobalPauseTransitions", 8: "PauseStormWarnings", 9: "PauseStormErrors",
      10: "InPfcFrames", 11: "OutPfcFrames", 12: "PfcAdminMode", 13: "PfcOperMode", 14: "PfcEnabledPriorities",
      15: "IngressDroppedPkts", 16: "DcqcnNpEnabledPriorities", 17: "DcqcnRpEnabledPriorities",
      18: "DcbTrust"}),
    (3, "rdmagwPfcPrio", "Per-priority (802.1Qbb PFC) counters. Indexed by ifIndex and the priority 0..7.",
     ["ifIndex", "rdmagwPfcPriority"], ("rdmagwPfcPriority", "Unsigned32 (0..7)", "The 802.1p priority."),
     {2: "InPauseFrames", 3: "OutPauseFrames", 4: "InPauseDuration", 5: "OutPauseDuration",
      6: "InPauseTransitions", 7: "InOctets", 8: "OutOctets", 9: "InPkts", 10: "OutPkts", 11: "InDiscards"}),
    (4, "rdmagwQueue", "Output queue (qos-group) statistics. Indexed by ifIndex and the queue name as the "
     "device names it (length-prefixed octets).", ["ifIndex", "rdmagwQueueName"],
     ("rdmagwQueueName", "DisplayString (SIZE (1..64))", "The queue (qos-group) name as the device reports it."),
     {}),
    (5, "rdmagwRdmaDevice", "RDMA devices (HCAs) of a host. Indexed by the device name (mlx5_0) as "
     "length-prefixed octets.", ["rdmagwRdmaDeviceName"],
     ("rdmagwRdmaDeviceName", "DisplayString (SIZE (1..64))", "The RDMA device name, e.g. mlx5_0."), {}),
    (6, "rdmagwRdmaPort", "RDMA ports: state, IB PMA port counters, mlx5 congestion (ECN/CNP) and "
     "hw error counters. Indexed by the device name and the port number.",
     ["rdmagwRdmaDeviceName", "rdmagwRdmaPortNumber"],
     ("rdmagwRdmaPortNumber", "Unsigned32 (1..255)", "The port number on the RDMA device."), {6: "RateMbps"}),
    (7, "rdmagwVmnic", "ESXi physical NIC (vmnic) counters as esxcli reports them. Pause and storm "
     "counters are in rdmagwIfTable, per-priority pause in rdmagwPfcPrioTable. Indexed by ifIndex.",
     ["ifIndex"], None, {}),
    (8, "rdmagwFabricPrio", "Fabric verdicts per interface and priority, derived by the gateway's "
     "analytics over its window (YANG rdmagw-fabric): PFC pause balance with the link peer, pause "
     "storm, drops on a lossless priority, place in a pause tree. Indexed by ifIndex and the priority.",
     ["ifIndex", "rdmagwPfcPriority"], None,
     {1: "PauseBalanceCode", 2: "PauseStormAlarm", 3: "LosslessDropAlarm", 4: "PauseTreeStateCode",
      5: "PauseTreeSize", 6: "PauseTreeRoots"}),
    (9, "rdmagwFabricDcqcn", "DCQCN chain verdict per RDMA port, derived by the gateway's analytics "
     "over its window (YANG rdmagw-fabric). Indexed by the device name and the port number.",
     ["rdmagwRdmaDeviceName", "rdmagwRdmaPortNumber"], None, {1: "VerdictCode", 2: "Verdict"}),
    (10, "rdmagwFabricDcb", "DCB configuration consistency per interface against the other end of its "
     "cable (PFC priorities, MTU, DCQCN NP/RP on lossless priorities), derived by the gateway's analytics "
     "(YANG rdmagw-fabric). Indexed by ifIndex.", ["ifIndex"], None,
     {1: "ConsistencyCode", 2: "Consistency", 3: "Mismatches", 4: "PfcPriorities", 5: "PeerPfcPriorities",
      6: "Mtu", 7: "PeerMtu"}),
]
TABLE_NAMES = {2: "rdmagwIfTable", 3: "rdmagwPfcPriorityTable", 4: "rdmagwQueueTable",
               5: "rdmagwRdmaDeviceTable", 6: "rdmagwRdmaPortTable", 7: "rdmagwVmnicTable",
               8: "rdmagwFabricPrioTable", 9: "rdmagwFabricDcqcnTable",
               10: "rdmagwFabricDcbTable"}

TARGET_COLUMNS = [
    (2, "rdmagwTargetKind", "DisplayString (SIZE (0..64))", None, "Target kind: rdma-host, nexus or esxi."),
    (3, "rdmagwTargetContextName", "DisplayString (SIZE (0..64))", None,
     "The SNMP context serving this target's tables: the target name."),
    (4, "rdmagwTargetUp", "TruthValue", None, "true(1) when the target's last collection succeeded."),
    (5, "rdmagwTargetTransport", "DisplayString (SIZE (0..64))", None, "Transport in use: sysfs, ssh or gnmi."),
    (6, "rdmagwTargetLastSuccess", "Unsigned32", "seconds",
     "Unix time of the last successful collection; absent before the first one."),
    (7, "rdmagwTargetSeries", "Gauge32", None, "Leaves the gateway holds for the target."),
    (8, "rdmagwTargetPolls", "Counter64", None, "Collections attempted."),
    (9, "rdmagwTargetPollErrors", "Counter64", None, "Collections that failed as a whole."),
    (10, "rdmagwTargetReadErrors", "Counter64", None, "Parts a collection could not read while the rest succeeded."),
    (11, "rdmagwTargetPollDuration", "Gauge32", "milliseconds", "Duration of the last collection."),
    (12, "rdmagwTargetCounterResets", "Counter64", None, "Counter resets detected on the target."),
    (13, "rdmagwTargetRejectedUpdates", "Counter64", None, "Updates the gateway refused for the target."),
    (14, "rdmagwTargetLastError", "DisplayString (SIZE (0..255))", None,
     "The last collection error, empty when none."),
]


def schema_columns():
    text = open(os.path.join(ROOT, "models/schema_table.cc")).read()
    rows = re.findall(r'\{(\w+) "([\w-]+)", ([CGS]), "([^"]*)", "((?:[^"\\]|\\.)*)", "(\w+)", "([\w,]*)"'
                      r'(?:, ([-\d.e]+))?(?:, ([^}]*))?\}', text)
    cols = {}  # (table, column) -> list of (leaf, kind, unit, help)
    for macro, leaf, kind, unit, help_, _prom, _labels, _scale, oid in rows:
        for m in re.finditer(r'(RG_\w+) "(\d+)', oid or ""):
            table = int(MACROS[m.group(1)].split(".")[0])
            cols.setdefault((table, int(m.group(2))), []).append((leaf, kind, unit, help_))
    return cols


def notification_rows():
    """The rows of northbound/snmp/notification_table.cc: one NOTIFICATION-TYPE each."""
    text = open(os.path.join(ROOT, "northbound/snmp/notification_table.cc")).read()
    rows = re.findall(r'\{"([\w-]+)", "(\w+)", (\d+), "(\w+)", (\d+), \{([\d, ]*)\}, \d+, \w+, "((?:[^"\\]|\\.)*)"\}',
                      text)
    out = []
    for _type, name, sub, table, code, extras, description in rows:
        columns = [int(code)] + [int(c) for c in extras.replace(" ", "").split(",") if c and c != "0"]
        out.append((name, int(sub), table, columns, description))
    if not out:
        sys.exit("gen_rdmagw_mib.py: no notification rows found in notification_table.cc")
    return out


# Objects every notification carries: the trap has no context, so it names
# the device (and the port, which the varbinds' instance gives as ifIndex).
NOTIFY_OBJECTS = [
    (1, "rdmagwNotifyTarget", "The target (device) the notification is about: its name in the gateway config, "
     "which is also the SNMP context serving its tables. Sent with instance 0."),
    (2, "rdmagwNotifyPort", "The port the notification is about as the device names it: the interface (ifName) for "
     "per-interface verdicts, the RDMA device and port (mlx5_0:1) for RDMA ports. The instance of the verdict "
     "varbinds gives the same port as the table's index (ifIndex in the device's context), plus the priority "
     "where there is one. Sent with instance 0."),
]


def notifications_block(rows, column_names):
    out = "-- Notifications: sent by the subagent to the destinations of the gateway config\n"
    out += "-- (northbound.snmp.notifications) when a fabric verdict changes.\n\n"
    for sub, name, description in NOTIFY_OBJECTS:
        out += object_type(name, "DisplayString (SIZE (0..255))", None, "accessible-for-notify", description,
                           "rdmagwNotifyObjects", sub)
    for name, sub, table, columns, description in rows:
        objects = [n for _, n, _ in NOTIFY_OBJECTS] + [column_names[(table, c)] for c in columns]
        out += f"{name} NOTIFICATION-TYPE\n    OBJECTS     {{ " + ",\n                  ".join(objects) + " }\n"
        out += f"    STATUS      current\n    DESCRIPTION\n{desc(description)}\n"
        out += f"    ::= {{ rdmagwNotifications {sub} }}\n\n"
    return out


def syntax(table, column, kind, unit):
    if table == 6 and column == 6:
        return "Gauge32", "Mbit/s"
    if kind == "C":
        return "Counter64", unit
    if kind == "G":
        return "Gauge32", unit or None
    return "DisplayString (SIZE (0..255))", None


def desc(text, indent=8):
    text = text.replace('"', "'")
    return "\n".join(" " * indent + l for l in textwrap.wrap('"' + text + '"', 72))


def object_type(name, syn, units, access, description, parent, sub):
    out = f"{name} OBJECT-TYPE\n    SYNTAX      {syn}\n"
    if units:
        out += f'    UNITS       "{units}"\n'
    out += f"    MAX-ACCESS  {access}\n    STATUS      current\n    DESCRIPTION\n{desc(description)}\n"
    out += f"    ::= {{ {parent} {sub} }}\n\n"
    return out


def table_block(table_name, entry, seq_type, description, index, sub, columns):
    out = f"{table_name} OBJECT-TYPE\n    SYNTAX      SEQUENCE OF {seq_type}\n    MAX-ACCESS  not-accessible\n"
    out += f"    STATUS      current\n    DESCRIPTION\n{desc(description)}\n    ::= {{ rdmagwObjects {sub} }}\n\n"
    out += f"{entry} OBJECT-TYPE\n    SYNTAX      {seq_type}\n    MAX-ACCESS  not-accessible\n"
    out += f"    STATUS      current\n    DESCRIPTION\n{desc('A row of ' + table_name + '.')}\n"
    out += f"    INDEX       {{ {', '.join(index)} }}\n    ::= {{ {table_name} 1 }}\n\n"
    width = max(len(c[1]) for c in columns)
    body = ",\n".join(f"    {c[1].ljust(width)}  {c[2].split(' (')[0]}" for c in columns)
    out += f"{seq_type} ::= SEQUENCE {{\n{body}\n}}\n\n"
    for col, name, syn, units, access, d in columns:
        out += object_type(name, syn, units, access, d, entry, col)
    return out


def main():
    cols = schema_columns()
    mib = []
    groups = []
    column_names = {}  # (table name, column) -> object name, for the notifications
    # Target table (default context); its columns come from store health, not leaves.
    tcols = [(1, "rdmagwTargetName", "DisplayString (SIZE (1..64))", None, "not-accessible",
              "The target name from the gateway config; also its SNMP context name.")]
    tcols += [(c, n, s, u, "read-only", d) for c, n, s, u, d in TARGET_COLUMNS]
    mib.append(table_block("rdmagwTargetTable", "rdmagwTargetEntry", "RdmagwTargetEntry",
                           "Per-target gateway health, in the default context: one row per device the gateway "
                           "collects from. Indexed by the target name (length-prefixed octets).",
                           ["rdmagwTargetName"], 1, tcols))
    groups.append([c[1] for c in tcols if c[4] == "read-only"])
    for sub, stem, description, index, local, names in TABLES:
        columns = []
        if local:
            columns.append((1, local[0], local[1], None, "not-accessible", local[2]))
        for (t, c), leaves in sorted(cols.items()):
            if t != sub:
                continue
            leaf_name = leaves[0][0][5:] if t == 6 and leaves[0][0].startswith("port-") else leaves[0][0]
            name = stem + names.get(c, camel(leaf_name))
            syn, units = syntax(t, c, leaves[0][1], leaves[0][2])
            helps = []
            for leaf in leaves:
                if leaf[3] not in helps:
                    helps.append(leaf[3])
            columns.append((c, name, syn, units, "read-only", " ".join(helps)))
        for c in columns:
            column_names[(TABLE_NAMES[sub], c[0])] = c[1]
        entry = TABLE_NAMES[sub][:-5] + "Entry"
        seq = entry[0].upper() + entry[1:]
        mib.append(table_block(TABLE_NAMES[sub], entry, seq, description, index, sub, columns))
        groups.append([c[1] for c in columns if c[4] == "read-only"])

    group_names = ["rdmagwTargetGroup", "rdmagwIfGroup", "rdmagwPfcPriorityGroup", "rdmagwQueueGroup",
                   "rdmagwRdmaDeviceGroup", "rdmagwRdmaPortGroup", "rdmagwVmnicGroup",
                   "rdmagwFabricPrioGroup", "rdmagwFabricDcqcnGroup",
                   "rdmagwFabricDcbGroup"]
    conf = "rdmagwCompliances OBJECT IDENTIFIER ::= { rdmagwConformance 1 }\n"
    conf += "rdmagwGroups      OBJECT IDENTIFIER ::= { rdmagwConformance 2 }\n\n"
    conf += "rdmagwCompliance MODULE-COMPLIANCE\n    STATUS      current\n    DESCRIPTION\n"
    conf += desc("The rdmagw SNMP subagent serves every group; a group whose device kind is absent "
                 "has no rows.") + "\n"
    notify_groups = ["rdmagwNotifyObjectsGroup", "rdmagwFabricNotificationsGroup"]
    conf += "    MODULE      -- this module\n    MANDATORY-GROUPS { " + ",\n                       ".join(
        group_names + notify_groups) + " }\n"
    conf += "    ::= { rdmagwCompliances 1 }\n\n"
    for i, (g, objs) in enumerate(zip(group_names, groups), start=1):
        conf += f"{g} OBJECT-GROUP\n    OBJECTS     {{ " + ",\n                  ".join(objs) + " }\n"
        conf += f"    STATUS      current\n    DESCRIPTION\n{desc('Objects of ' + g[:-5] + 'Table.')}\n"
        conf += f"    ::= {{ rdmagwGroups {i} }}\n\n"
    # Numbered from 20 so the object groups above can grow without moving them.
    rows = notification_rows()
    conf += "rdmagwNotifyObjectsGroup OBJECT-GROUP\n    OBJECTS     { " + ", ".join(
        n for _, n, _ in NOTIFY_OBJECTS) + " }\n"
    conf += f"    STATUS      current\n    DESCRIPTION\n{desc('Objects only carried in notifications.')}\n"
    conf += "    ::= { rdmagwGroups 20 }\n\n"
    conf += "rdmagwFabricNotificationsGroup NOTIFICATION-GROUP\n    NOTIFICATIONS { " + ",\n                    ".join(
        r[0] for r in rows) + " }\n"
    conf += f"    STATUS      current\n    DESCRIPTION\n{desc('Notifications of fabric verdict changes.')}\n"
    conf += "    ::= { rdmagwGroups 21 }\n\n"

    head = '''RDMAGW-MIB DEFINITIONS ::= BEGIN

-- Generated by mibs/gen_rdmagw_mib.py from models/schema_table.cc: edit
-- the schema (and the script for names), then regenerate.

IMPORTS
    MODULE-IDENTITY, OBJECT-TYPE, NOTIFICATION-TYPE, Counter64,
    Gauge32, Unsigned32, enterprises
        FROM SNMPv2-SMI
    DisplayString, TruthValue
        FROM SNMPv2-TC
    MODULE-COMPLIANCE, OBJECT-GROUP, NOTIFICATION-GROUP
        FROM SNMPv2-CONF
    ifIndex
        FROM IF-MIB;

rdmagwMIB MODULE-IDENTITY
    LAST-UPDATED "202611230000Z"
    ORGANIZATION "rdmagw project"
    CONTACT-INFO
        "rdmagw maintainers; see the project README."
    DESCRIPTION
        "Telemetry of RoCE/RDMA fabrics collected by the rdmagw gateway:
        per-priority PFC, queues, RDMA ports (PMA, ECN/CNP, hw errors),
        ESXi vmnics, the fabric verdicts of the gateway's analytics and
        per-target gateway health.

        Contexts: the default context holds rdmagwTargetTable; every other
        table is served in the context named after the target (device),
        next to that device's IF-MIB, EtherLike-MIB dot3PauseTable,
        IEEE8021-PFC-MIB and CISCO-PFC-EXT-MIB tables.

        Counters are the gateway's monotonic 64-bit model values;
        ifCounterDiscontinuityTime of the interface marks a reset.

        The enterprise arc 32473 is reserved for documentation (RFC 5612)
        and stands in until the project has its own Private Enterprise
        Number; the subtree below it will move, the structure will not."
    REVISION     "202611230000Z"
    DESCRIPTION
        "First version."
    ::= { rdmagwExampleArc 1 }

-- PEN 32473: reserved for documentation (RFC 5612); a placeholder.
rdmagwExampleArc  OBJECT IDENTIFIER ::= { enterprises 32473 }
rdmagwNotifications OBJECT IDENTIFIER ::= { rdmagwMIB 0 }
rdmagwObjects       OBJECT IDENTIFIER ::= { rdmagwMIB 1 }
rdmagwConformance   OBJECT IDENTIFIER ::= { rdmagwMIB 2 }
rdmagwNotifyObjects OBJECT IDENTIFIER ::= { rdmagwMIB 3 }

'''
    sys.stdout.write(head + "".join(mib) + notifications_block(notification_rows(), column_names) + conf + "END\n")


if __name__ == "__main__":
    main()
