#!/usr/bin/python3
"""Generates everything derived from models/schema.yaml.

  --cc FILE    the C++ schema table data (models/schema_data.h declares it)
  --mib FILE   RDMAGW-MIB (the checked-in copy is mibs/RDMAGW-MIB.txt)
  --docs FILE  the operator's metrics reference (checked in as docs/metrics.md)

CMake runs it at build time for all three (outputs in the build dir); tests
diff the generated MIB and docs against the checked-in copies, and
scripts/gen-schema.sh rewrites those. Any inconsistency in the schema (an
unknown table, a label no list gives, two leaves disagreeing on a column)
is an error that names the entry, and nothing is written.

Needs Python 3 and PyYAML (Debian: python3-yaml).
"""
import argparse
import os
import re
import sys
import textwrap

try:
    import yaml
except ImportError:
    sys.exit("gen_schema.py: PyYAML is missing (Debian: apt-get install python3-yaml)")


class SchemaError(Exception):
    pass


KINDS = {"counter": "kCounter", "gauge": "kGauge", "string": "kString"}
SNMP_TYPES = {"INTEGER": "kInteger", "OCTET STRING": "kOctetString", "Counter32": "kCounter32",
              "Gauge32": "kGauge32", "TimeTicks": "kTimeTicks", "Counter64": "kCounter64"}
DEFAULT_SNMP_TYPE = {"counter": "Counter64", "gauge": "Gauge32", "string": "OCTET STRING"}
MAPS = {None: "kNone", "if-status": "kIfStatus", "if-admin-status": "kIfAdminStatus", "truth-value": "kTruthValue"}
INDEX_KINDS = {"ifIndex": "kIfIndex", "unsigned": "kUnsigned", "string": "kString"}
SCOPES = {"device": "kDevice", "gateway": "kGateway"}
DERIVED = {None: "kNone", "if-index": "kIfIndex", "if-name": "kIfName", "if-type": "kIfType",
           "discontinuity-time": "kDiscontinuityTime", "target-last-error": "kTargetLastError",
           "fleet-target": "kFleetTarget", "fleet-owner": "kFleetOwner", "fleet-owner-snmp": "kFleetOwnerSnmp",
           "fleet-owner-gnmi": "kFleetOwnerGnmi", "fleet-owned-here": "kFleetOwnedHere"}
# Derived columns only a table of the gateway's scope can fill: they describe the fleet's targets.
FLEET_DERIVED = {"fleet-target", "fleet-owner", "fleet-owner-snmp", "fleet-owner-gnmi", "fleet-owned-here"}
NOTIFY_ROLES = {"target": "kTarget", "port": "kPort"}
# Label names other exporters fix and users join on (models/schema.h
# kForeignLabelSpellings): dcgm-exporter's UUID and modelName.
FOREIGN_LABEL_SPELLINGS = {"UUID", "modelName"}


def label_name_ok(label):
    return re.fullmatch(r"[a-z_][a-z0-9_]*", label) is not None or label in FOREIGN_LABEL_SPELLINGS


YANG_BUILTINS = {"string", "enumeration", "identityref", "boolean", "decimal64", "int8", "int16", "int32", "int64",
                 "uint8", "uint16", "uint32", "uint64"}


def need(entry, field, where):
    if field not in entry or entry[field] is None or entry[field] == "":
        raise SchemaError(f"{where}: missing '{field}'")
    return entry[field]


def strip_modules(qualified):
    """/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet -> /interfaces/interface/ethernet"""
    return "/" + "/".join(seg.split(":", 1)[-1] for seg in qualified.strip("/").split("/"))


def node_modules(qualified, where):
    """Per node of a qualified path, the module that owns it (inherited from the parent when unqualified)."""
    segs = qualified.strip("/").split("/")
    if not qualified.startswith("/") or not segs or ":" not in segs[0]:
        raise SchemaError(f"{where}: path '{qualified}' must start with /<module>:<node>")
    out = []
    module = None
    for seg in segs:
        if ":" in seg:
            module, seg = seg.split(":", 1)
        if not seg:
            raise SchemaError(f"{where}: empty node in '{qualified}'")
        out.append((seg, module))
    return out


class Schema:
    def __init__(self, doc):
        if not isinstance(doc, dict):
            raise SchemaError("the schema file is not a YAML mapping")
        self.modules = self._modules(need(doc, "modules", "schema"))
        self._snmp(need(doc, "snmp", "schema"))
        self.lists = self._lists(need(doc, "lists", "schema"))
        self.info_rows = self._info_rows(doc.get("info_rows") or [])
        self.leaves = self._leaves(need(doc, "leaves", "schema"))
        self._check_info_rows()
        self.gateway = self._gateway(need(doc, "gateway", "schema"))
        self.notify_objects = self._notify_objects(need(doc, "notify_objects", "schema"))
        self.notifications = self._notifications(need(doc, "notifications", "schema"))
        self._check_columns()
        self.node_modules = self._node_modules()

    # --- sections ---
    def _modules(self, rows):
        out = []
        for i, m in enumerate(rows):
            where = f"modules[{i}]"
            out.append({"name": str(need(m, "name", where)), "prefix": str(need(m, "prefix", where)),
                        "organization": str(need(m, "organization", where)), "version": str(need(m, "version", where)),
                        "openconfig": bool(m.get("openconfig", False))})
        names = [m["name"] for m in out]
        if len(set(names)) != len(names):
            raise SchemaError("modules: a module is listed twice")
        return out

    def module(self, name, where):
        for m in self.modules:
            if m["name"] == name:
                return m
        raise SchemaError(f"{where}: module '{name}' is not in the modules section")

    def _snmp(self, snmp):
        self.enterprise = str(need(snmp, "enterprise", "snmp"))
        if not re.fullmatch(r"1(\.\d+)+", self.enterprise):
            raise SchemaError(f"snmp.enterprise: '{self.enterprise}' is not an OID")
        mib = need(snmp, "mib", "snmp")
        self.mib_name = str(need(mib, "name", "snmp.mib"))
        rel = {k: str(need(mib, k, "snmp.mib")) for k in ("root", "notifications", "objects", "conformance", "notify_objects")}
        self.mib_oids = {k: self.enterprise + "." + v for k, v in rel.items()}
        self.mib_rel = rel
        for k in ("notifications", "objects", "conformance", "notify_objects"):
            if not (rel[k].startswith(rel["root"] + ".") and rel[k].count(".") == rel["root"].count(".") + 1):
                raise SchemaError(f"snmp.mib.{k}: '{rel[k]}' is not a direct branch of the module root {rel['root']}")
        self.tables = []
        for i, t in enumerate(need(snmp, "tables", "snmp")):
            where = f"snmp.tables[{i}]"
            name = str(need(t, "name", where))
            where = f"snmp table {name}"
            oid = str(need(t, "oid", where))
            ours = oid.startswith("enterprise.")
            if ours:
                oid = self.enterprise + oid[len("enterprise"):]
            if not re.fullmatch(r"1(\.\d+)+", oid):
                raise SchemaError(f"{where}: oid '{t['oid']}' is not an OID (or enterprise.<rest>)")
            scope = str(need(t, "scope", where))
            if scope not in SCOPES:
                raise SchemaError(f"{where}: scope '{scope}' is not device or gateway")
            index = []
            for j, part in enumerate(need(t, "index", where)):
                kind = str(need(part, "kind", f"{where} index[{j}]"))
                if kind not in INDEX_KINDS:
                    raise SchemaError(f"{where}: index kind '{kind}' is not ifIndex, unsigned or string")
                index.append({"object": str(need(part, "object", f"{where} index[{j}]")), "kind": kind,
                              "syntax": part.get("syntax"), "description": part.get("description")})
            derived = [self._placement(p, f"{where} derived[{j}]", None, derived=True)
                       for j, p in enumerate(t.get("derived") or [])]
            fleet = [p["from"] in FLEET_DERIVED for p in derived]
            if any(fleet) and (not all(fleet) or scope != "gateway" or [p["kind"] for p in index] != ["string"]):
                raise SchemaError(f"{where}: a table of fleet targets is of the gateway's scope, indexed by the "
                                  f"target name (string) alone, and all its derived columns are fleet-*")
            table = {"name": name, "mib": str(need(t, "mib", where)), "oid": oid, "ours": ours, "scope": scope,
                     "index": index, "derived": derived, "description": t.get("description"), "fleet": any(fleet)}
            if ours:
                need(t, "description", where)
                if table["mib"] != self.mib_name:
                    raise SchemaError(f"{where}: a table under the enterprise arc belongs to {self.mib_name}")
                if not oid.startswith(self.mib_oids["objects"] + "."):
                    raise SchemaError(f"{where}: our tables live under {self.mib_name}'s objects branch")
            self.tables.append(table)
        names = [t["name"] for t in self.tables]
        if len(set(names)) != len(names):
            raise SchemaError("snmp.tables: a table is listed twice")
        for t in self.tables:
            for p in t["derived"]:
                p["table"] = t["name"]
                p["table_index"] = names.index(t["name"])

    def table(self, name, where):
        for i, t in enumerate(self.tables):
            if t["name"] == name:
                return i, t
        raise SchemaError(f"{where}: table '{name}' is not in snmp.tables")

    def _placement(self, p, where, kind, derived=False):
        out = {"column": int(need(p, "column", where)), "object": str(need(p, "object", where))}
        if out["column"] < 1:
            raise SchemaError(f"{where}: column must be 1 or more")
        typ = p.get("type") or (DEFAULT_SNMP_TYPE[kind] if kind else None)
        if typ not in SNMP_TYPES:
            raise SchemaError(f"{where}: SNMP type '{typ}' is not one of {', '.join(SNMP_TYPES)}")
        out["type"] = typ
        out["scale"] = float(p.get("scale", 1.0))
        out["map"] = p.get("map")
        if out["map"] not in MAPS:
            raise SchemaError(f"{where}: map '{out['map']}' is not one of if-status, if-admin-status, truth-value")
        if out["map"] and typ != "INTEGER":
            raise SchemaError(f"{where}: map {out['map']} needs type INTEGER")
        out["label"] = p.get("label") or ""
        out["from"] = p.get("from") if derived else None
        if derived and out["from"] not in DERIVED or (derived and out["from"] is None):
            raise SchemaError(f"{where}: from '{p.get('from')}' is not one of {', '.join(k for k in DERIVED if k)}")
        for k in ("units", "syntax", "description"):
            out[k] = p.get(k)
        if not derived:
            name = str(need(p, "table", where))
            out["table_index"], _ = self.table(name, where)
            out["table"] = name
        return out

    def _lists(self, rows):
        out = {}
        for i, l in enumerate(rows):
            where = f"lists[{i}]"
            path = str(need(l, "path", where))
            if ":" in path:
                raise SchemaError(f"{where}: list paths are written without module names")
            if path in out:
                raise SchemaError(f"{where}: list {path} is listed twice")
            typ = str(need(l, "type", where))
            if typ not in YANG_BUILTINS:
                raise SchemaError(f"{where}: key type '{typ}' is not a YANG built-in type")
            if not label_name_ok(str(need(l, "label", where))):
                raise SchemaError(f"{where}: label {l['label']} is neither snake_case nor another exporter's spelling")
            out[path] = {"path": path, "key": str(need(l, "key", where)), "type": typ,
                         "typedef": str(l.get("typedef") or typ), "label": str(need(l, "label", where))}
        return out

    def _info_rows(self, rows):
        out = {}
        for i, r in enumerate(rows):
            where = f"info_rows[{i}]"
            name = str(need(r, "name", where))
            if not name.endswith("_info"):
                raise SchemaError(f"{where}: an info row's family name ends in _info")
            if name in out:
                raise SchemaError(f"{where}: {name} is listed twice")
            out[name] = {"name": name, "help": str(need(r, "description", where))}
        return out

    def _check_info_rows(self):
        """The leaves of one info row: strings on one list's entries, each with its own label."""
        for name in self.info_rows:
            members = [leaf for leaf in self.leaves if leaf["prom"] == name]
            if not members:
                raise SchemaError(f"info row {name}: no leaf names it")
            labels = [leaf["info_label"] for leaf in members]
            if len(set(labels)) != len(labels):
                raise SchemaError(f"info row {name}: a label is given by two leaves")
            for leaf in members:
                if leaf["labels"] != members[0]["labels"]:
                    raise SchemaError(f"leaf {leaf['qualified']}: its keys differ from the other leaves of {name}")
                if leaf["info_label"] in members[0]["labels"] or leaf["info_label"] == "target":
                    raise SchemaError(f"leaf {leaf['qualified']}: label {leaf['info_label']} is already a key label")
        for leaf in self.leaves:
            # A gauge may name an entry too (dcgm-exporter's gpu is an index);
            # a counter would renumber the series at every change.
            if leaf["info_label"] and (leaf["kind"] not in ("string", "gauge") or
                                       not label_name_ok(leaf["info_label"])):
                raise SchemaError(f"leaf {leaf['qualified']}: an info row's label is a string or gauge leaf "
                                  "named [a-z_][a-z0-9_]* or as another exporter spells it")
            if leaf["info_label"] and leaf["prom"] not in self.info_rows:
                raise SchemaError(f"leaf {leaf['qualified']}: prometheus.label needs {leaf['prom']} in info_rows")
            if leaf["prom"] in self.info_rows and not leaf["info_label"]:
                raise SchemaError(f"leaf {leaf['qualified']}: a leaf of info row {leaf['prom']} gives its label")

    def _leaves(self, groups):
        out = []
        for gi, g in enumerate(groups):
            if "prefix" in g:
                prefix = str(g["prefix"]).rstrip("/")
                items = need(g, "leaves", f"leaves[{gi}] ({prefix})")
                entries = [(prefix + "/" + str(need(e, "name", f"leaves[{gi}] ({prefix}) [{j}]")), e)
                           for j, e in enumerate(items)]
            else:
                entries = [(str(need(g, "path", f"leaves[{gi}]")), g)]
            for qualified, e in entries:
                out.append(self._leaf(qualified, e))
        paths = {}
        for leaf in out:
            if leaf["path"] in paths:
                raise SchemaError(f"leaf {leaf['qualified']}: path described twice")
            paths[leaf["path"]] = leaf
        self.leaf_by_path = paths
        return out

    def _leaf(self, qualified, e):
        where = f"leaf {qualified}"
        nodes = node_modules(qualified, where)
        for _, m in nodes:
            self.module(m, where)
        path = strip_modules(qualified)
        kind = str(need(e, "kind", where))
        if kind not in KINDS:
            raise SchemaError(f"{where}: kind '{kind}' is not counter, gauge or string")
        prom = need(e, "prometheus", where)
        yang_t = need(e, "yang", where)
        ytype = str(need(yang_t, "type", where + " yang"))
        if ytype not in YANG_BUILTINS:
            raise SchemaError(f"{where}: yang type '{ytype}' is not a YANG built-in type")
        identities = yang_t.get("identities")
        if ytype == "identityref" and not identities:
            raise SchemaError(f"{where}: an identityref names the module of its identities (yang.identities)")
        fraction_digits = int(yang_t.get("fraction-digits") or 0)
        if (ytype == "decimal64") != (1 <= fraction_digits <= 18):
            raise SchemaError(f"{where}: a decimal64 has fraction-digits 1..18 (yang.fraction-digits), no other type has")
        labels, key_lists = [], []
        segs = path.strip("/").split("/")
        for i in range(1, len(segs)):
            lp = "/" + "/".join(segs[:i])
            if lp in self.lists:
                labels.append(self.lists[lp]["label"])
                key_lists.append(self.lists[lp])
        leaf = {"qualified": qualified, "path": path, "kind": kind, "unit": str(e.get("unit") or ""),
                "help": str(need(e, "description", where)), "prom": str(need(prom, "name", where + " prometheus")),
                "scale": float(prom.get("scale", 1.0)), "labels": labels, "module": nodes[-1][1],
                "info_label": str(prom.get("label") or ""),
                "ytype": ytype, "typedef": str(yang_t.get("typedef") or ytype), "identities": str(identities or ""),
                "fraction_digits": fraction_digits,
                "snmp": [self._placement(p, f"{where} snmp[{j}]", kind) for j, p in enumerate(e.get("snmp") or [])]}
        for p in leaf["snmp"]:
            t = self.tables[p["table_index"]]
            if len(t["index"]) != len(labels):
                raise SchemaError(f"{where}: table {t['name']} has {len(t['index'])} index parts but the leaf has "
                                  f"{len(labels)} keys ({', '.join(labels) or 'none'})")
            for part, lst in zip(t["index"], key_lists):
                numeric = re.fullmatch(r"u?int(8|16|32|64)", lst["type"]) is not None
                if (part["kind"] == "unsigned") != numeric:
                    raise SchemaError(f"{where}: {t['name']} index {part['object']} ({part['kind']}) cannot be built "
                                      f"from the {lst['type']} key of {lst['path']}")
            if t["scope"] != "device":
                raise SchemaError(f"{where}: leaves are served in device tables, not in {t['name']}")
            if p["label"]:
                raise SchemaError(f"{where}: label is for gateway rows only")
        return leaf

    def _gateway(self, rows):
        out = []
        for i, g in enumerate(rows):
            where = f"gateway[{i}]"
            gid = str(need(g, "id", where))
            where = f"gateway metric {gid}"
            kind = str(need(g, "kind", where))
            if kind not in KINDS:
                raise SchemaError(f"{where}: kind '{kind}' is not counter, gauge or string")
            prom = need(g, "prometheus", where)
            labels = [str(x) for x in (prom.get("labels") or [])]
            row = {"id": gid, "kind": kind, "unit": str(g.get("unit") or ""), "help": str(need(g, "description", where)),
                   "prom": str(need(prom, "name", where)), "labels": labels,
                   "snmp": [self._placement(p, f"{where} snmp[{j}]", kind) for j, p in enumerate(g.get("snmp") or [])]}
            for p in row["snmp"]:
                t = self.tables[p["table_index"]]
                if t["scope"] != "gateway":
                    raise SchemaError(f"{where}: gateway metrics are served in gateway tables, not in {t['name']}")
                if t["fleet"]:
                    raise SchemaError(f"{where}: {t['name']}'s rows are the fleet's targets, not this gateway's")
                if p["label"] and p["label"] not in labels:
                    raise SchemaError(f"{where}: placement label '{p['label']}' is not a label of the metric")
                if not p["description"]:
                    raise SchemaError(f"{where}: a gateway placement gives its MIB description")
            out.append(row)
        ids = [g["id"] for g in out]
        if len(set(ids)) != len(ids):
            raise SchemaError("gateway: an id is listed twice")
        return out

    def _notify_objects(self, rows):
        out = []
        for i, o in enumerate(rows):
            where = f"notify_objects[{i}]"
            role = str(need(o, "role", where))
            if role not in NOTIFY_ROLES:
                raise SchemaError(f"{where}: role '{role}' is not target or port")
            sub = int(need(o, "sub_id", where))
            out.append({"role": role, "sub_id": sub, "object": str(need(o, "object", where)),
                        "description": str(need(o, "description", where)),
                        "oid": self.mib_oids["notify_objects"] + f".{sub}.0"})
        if sorted(o["role"] for o in out) != sorted(NOTIFY_ROLES):
            raise SchemaError("notify_objects: one object per role (target, port)")
        return out

    def _our_column(self, path, where):
        """The one placement of a leaf in a table of our MIB: (table index, column)."""
        leaf = self.leaf_by_path.get(strip_modules(path))
        if leaf is None:
            raise SchemaError(f"{where}: '{path}' is not a leaf of the schema")
        ours = [p for p in leaf["snmp"] if self.tables[p["table_index"]]["ours"]]
        if len(ours) != 1:
            raise SchemaError(f"{where}: '{path}' must be placed in exactly one {self.mib_name} column")
        return ours[0]["table_index"], ours[0]["column"], leaf

    def _notifications(self, rows):
        out = []
        for i, n in enumerate(rows):
            where = f"notifications[{i}]"
            name = str(need(n, "name", where))
            where = f"notification {name}"
            t, code, leaf = self._our_column(str(need(n, "verdict", where)), where)
            extras = []
            for c in n.get("carries") or []:
                t2, col, _ = self._our_column(str(c), where)
                if t2 != t:
                    raise SchemaError(f"{where}: '{c}' is not in the verdict's table")
                extras.append(col)
            if len(extras) > 3:
                raise SchemaError(f"{where}: at most 3 carried leaves")
            mask = 0
            for code_value in n.get("normal") or []:
                if not 0 <= int(code_value) < 32:
                    raise SchemaError(f"{where}: normal codes are 0..31")
                mask |= 1 << int(code_value)
            port_parts = int(need(n, "port_parts", where))
            if not 1 <= port_parts <= len(self.tables[t]["index"]):
                raise SchemaError(f"{where}: port_parts must be 1..{len(self.tables[t]['index'])}")
            out.append({"type": str(need(n, "type", where)), "name": name, "sub_id": int(need(n, "sub_id", where)),
                        "table": self.tables[t]["name"], "table_index": t, "code_column": code, "extras": extras,
                        "port_parts": port_parts, "normal_mask": mask, "description": str(need(n, "description", where)),
                        "verdict": leaf["path"]})
        return out

    def _check_columns(self):
        """A MIB column has one object name and one syntax: every leaf placed there must agree."""
        seen = {}
        def visit(p, who):
            key = (p["table_index"], p["column"])
            if key in seen:
                q, other = seen[key]
                if q["type"] != p["type"] or q["object"] != p["object"]:
                    raise SchemaError(f"{who}: {p['table']} column {p['column']} is {p['object']} {p['type']} here "
                                      f"but {q['object']} {q['type']} for {other}")
            else:
                seen[key] = (p, who)
        for t in self.tables:
            for p in t["derived"]:
                visit(p, f"table {t['name']} (derived)")
        for leaf in self.leaves:
            for p in leaf["snmp"]:
                visit(p, leaf["qualified"])
        for g in self.gateway:
            for p in g["snmp"]:
                visit(p, "gateway metric " + g["id"])
        self.columns = seen

    def _node_modules(self):
        """Every node on a leaf path (keyless, unqualified) -> the module that owns it."""
        out = {}
        for leaf in self.leaves:
            path = ""
            for seg, module in node_modules(leaf["qualified"], leaf["qualified"]):
                path += "/" + seg
                if out.setdefault(path, module) != module:
                    raise SchemaError(f"leaf {leaf['qualified']}: node {path} is owned by {out[path]} on another path")
        for lp, lst in self.lists.items():
            if lp not in out:
                raise SchemaError(f"lists: {lp} is on no leaf path")
            # A key leaf is its list's (a renderer writes it inside each entry).
            key_path = lp + "/" + lst["key"]
            if out.setdefault(key_path, out[lp]) != out[lp]:
                raise SchemaError(f"lists: key {key_path} is owned by {out[key_path]}, not by its list's module")
        return out


# --- C++ -----------------------------------------------------------------

def cstr(s):
    s = str(s)
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def cdouble(x):
    r = repr(float(x))
    return r if ("." in r or "e" in r) else r + ".0"


def placement_cc(p):
    return (f"{{{p['table_index']}, {p['column']}, SnmpSyntax::{SNMP_TYPES[p['type']]}, {cdouble(p['scale'])}, "
            f"SnmpValueMap::{MAPS[p['map']]}, {cstr(p['object'])}, {cstr(p['label'])}, SnmpDerived::{DERIVED[p['from']]}}}")


def write_cc(s):
    L = []
    w = L.append
    w("// Generated by models/gen_schema.py from models/schema.yaml: edit the YAML, not this file.")
    w('#include "models/schema_data.h"')
    w("")
    w("namespace rdmagw::schema_data {")
    w("namespace {")
    w("")
    placements = []
    def add(ps):
        start = len(placements)
        placements.extend(ps)
        return start, len(ps)
    table_derived = [add(t["derived"]) for t in s.tables]
    leaf_snmp = [add(l["snmp"]) for l in s.leaves]
    gw_snmp = [add(g["snmp"]) for g in s.gateway]
    w("constexpr SnmpPlacement kPlacements[] = {")
    for p in placements:
        w("    " + placement_cc(p) + ",")
    if not placements:
        w("    {},")
    w("};")
    w("")
    kinds = []
    table_index = []
    for t in s.tables:
        table_index.append((len(kinds), len(t["index"])))
        kinds.extend(INDEX_KINDS[p["kind"]] for p in t["index"])
    w("constexpr SnmpIndexKind kIndexKinds[] = {" + ", ".join("SnmpIndexKind::" + k for k in kinds) + "};")
    w("")
    def span(start_n, array):
        start, n = start_n
        return f"{{{array} + {start}, {n}}}" if n else "{}"
    w("constexpr SnmpTableSchema kTables[] = {")
    for t, d, ix in zip(s.tables, table_derived, table_index):
        w(f"    {{{cstr(t['name'])}, {cstr(t['mib'])}, {cstr(t['oid'])}, SnmpScope::{SCOPES[t['scope']]}, "
          f"{span(ix, 'kIndexKinds')}, {span(d, 'kPlacements')}}},")
    w("};")
    w("")
    w("constexpr LeafSchema kLeaves[] = {")
    for l, sn in zip(s.leaves, leaf_snmp):
        oids = " ".join(f"{s.tables[p['table_index']]['oid']}.1.{p['column']}" for p in l["snmp"])
        w(f"    {{{cstr(l['path'])}, LeafKind::{KINDS[l['kind']]}, {cstr(l['unit'])}, {cstr(l['help'])},")
        w(f"     {cstr(l['prom'])}, {cstr(','.join(l['labels']))}, {cdouble(l['scale'])}, {cstr(oids)},")
        w(f"     {cstr(l['qualified'])}, {cstr(l['module'])}, {cstr(l['ytype'])}, {cstr(l['typedef'])}, "
          f"{cstr(l['identities'])}, {l['fraction_digits']}, {span(sn, 'kPlacements')}, {cstr(l['info_label'])}}},")
    w("};")
    w("")
    if s.info_rows:  # a zero-length array is not C++: none is an empty span
        w("constexpr InfoRowSchema kInfoRows[] = {")
        for r in s.info_rows.values():
            w(f"    {{{cstr(r['name'])}, {cstr(r['help'])}}},")
        w("};")
        w("")
    w("constexpr GatewayMetric kGateway[] = {")
    for g, sn in zip(s.gateway, gw_snmp):
        w(f"    {{{cstr(g['id'])}, LeafKind::{KINDS[g['kind']]}, {cstr(g['help'])}, {cstr(g['prom'])}, "
          f"{cstr(','.join(g['labels']))}, {cstr(g['unit'])}, {span(sn, 'kPlacements')}}},")
    w("};")
    w("")
    w("constexpr YangModule kModules[] = {")
    for m in s.modules:
        w(f"    {{{cstr(m['name'])}, {cstr(m['prefix'])}, {cstr(m['organization'])}, {cstr(m['version'])}, "
          f"{'true' if m['openconfig'] else 'false'}}},")
    w("};")
    w("")
    w("constexpr ListSchema kLists[] = {")
    for l in s.lists.values():
        w(f"    {{{cstr(l['path'])}, {cstr(l['key'])}, {cstr(l['type'])}, {cstr(l['typedef'])}, {cstr(l['label'])}}},")
    w("};")
    w("")
    w("constexpr NodeModule kNodeModules[] = {")
    for path, module in s.node_modules.items():
        w(f"    {{{cstr(path)}, {cstr(module)}}},")
    w("};")
    w("")
    w("constexpr NotifyObjectSchema kNotifyObjects[] = {")
    for o in s.notify_objects:
        w(f"    {{NotifyRole::{NOTIFY_ROLES[o['role']]}, {o['sub_id']}, {cstr(o['object'])}, {cstr(o['oid'])}, "
          f"{cstr(o['description'])}}},")
    w("};")
    w("")
    w("constexpr NotificationSchema kNotifications[] = {")
    for n in s.notifications:
        extras = (n["extras"] + [0, 0, 0])[:3]
        w(f"    {{{cstr(n['type'])}, {cstr(n['name'])}, {n['sub_id']}, {cstr(n['table'])}, {n['code_column']}, "
          f"{{{', '.join(map(str, extras))}}}, {n['port_parts']}, {n['normal_mask']:#x}, {cstr(n['description'])}, "
          f"{cstr(n['verdict'])}}},")
    w("};")
    w("")
    w("}  // namespace")
    w("")
    w("extern const SchemaData kSchemaData;")
    w("const SchemaData kSchemaData = {")
    w("    kLeaves, kGateway, " + ("kInfoRows" if s.info_rows else "{}") + ", kModules, kLists, kNodeModules, kTables, kNotifyObjects, kNotifications,")
    w(f"    {cstr(s.enterprise)}, {cstr(s.mib_name)}, {cstr(s.mib_oids['root'])}, {cstr(s.mib_oids['notifications'])},")
    w("};")
    w("")
    w("}  // namespace rdmagw::schema_data")
    return "\n".join(L) + "\n"


# --- RDMAGW-MIB ----------------------------------------------------------

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


def mib_syntax(p, kind):
    if p.get("syntax"):
        return p["syntax"]
    return {"Counter64": "Counter64", "Counter32": "Counter32", "Gauge32": "Gauge32", "TimeTicks": "TimeTicks",
            "INTEGER": "Integer32", "OCTET STRING": "DisplayString (SIZE (0..255))"}[p["type"]]


def mib_units(p, kind, unit):
    if "units" in p and p["units"] is not None:
        return p["units"]
    if kind in ("counter", "gauge") and p["type"] != "OCTET STRING":
        return unit or None
    return None


def table_columns(s, ti):
    """(column, object, syntax, units, access, description) of one of our tables, by column."""
    t = s.tables[ti]
    cols = {}
    # Index objects the table defines (those with a syntax) are its first
    # columns, in index order.
    for part in [part for part in t["index"] if part["syntax"]]:
        c = len(cols) + 1
        cols[c] = (c, part["object"], part["syntax"], None, "not-accessible", part["description"])
    helps = {}
    for leaf in s.leaves:
        for p in leaf["snmp"]:
            if p["table_index"] != ti:
                continue
            c = p["column"]
            if c in cols and c not in helps:
                raise SchemaError(f"leaf {leaf['qualified']}: {t['name']} column {c} is an index object")
            text = p["description"] or leaf["help"]
            if c not in helps:
                helps[c] = []
                cols[c] = [c, p["object"], mib_syntax(p, leaf["kind"]), mib_units(p, leaf["kind"], leaf["unit"]),
                           "read-only", None]
            if text not in helps[c]:
                helps[c].append(text)
    for g in s.gateway:
        for p in g["snmp"]:
            if p["table_index"] != ti:
                continue
            if p["column"] in cols:
                raise SchemaError(f"gateway metric {g['id']}: {t['name']} column {p['column']} is placed twice")
            cols[p["column"]] = (p["column"], p["object"], mib_syntax(p, g["kind"]), p.get("units"), "read-only",
                                 p["description"])
    for p in t["derived"]:
        if p["column"] in cols:
            raise SchemaError(f"table {t['name']}: derived column {p['column']} is also placed")
        cols[p["column"]] = (p["column"], p["object"], mib_syntax(p, None), p.get("units"), "read-only",
                             p["description"] or "")
    for c, h in helps.items():
        cols[c][5] = " ".join(h)
    return [tuple(cols[c]) for c in sorted(cols)]


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


def write_mib(s):
    enterprise_number = s.enterprise.rsplit(".", 1)[1]
    if s.enterprise.rsplit(".", 1)[0] != "1.3.6.1.4.1":
        raise SchemaError("snmp.enterprise must be an arc under enterprises (1.3.6.1.4.1)")
    sub = {k: v.rsplit(".", 1)[-1] for k, v in s.mib_rel.items()}
    mib, groups, column_names = [], [], {}
    ours = [i for i, t in enumerate(s.tables) if t["ours"]]
    for ti in ours:
        t = s.tables[ti]
        if not t["name"].endswith("Table"):
            raise SchemaError(f"table {t['name']}: a MIB table's name ends in Table")
        columns = table_columns(s, ti)
        for c in columns:
            column_names[(t["name"], c[0])] = c[1]
        entry = t["name"][:-5] + "Entry"
        seq = entry[0].upper() + entry[1:]
        rel = t["oid"][len(s.mib_oids["objects"]) + 1:]
        if "." in rel:
            raise SchemaError(f"table {t['name']}: our tables are direct children of the objects branch")
        mib.append(table_block(t["name"], entry, seq, t["description"], [p["object"] for p in t["index"]], rel, columns))
        groups.append((t["name"][:-5] + "Group", t["name"], [c[1] for c in columns if c[4] == "read-only"]))

    notes = "-- Notifications: sent by the subagent to the destinations of the gateway config\n"
    notes += "-- (northbound.snmp.notifications) when a fabric verdict changes.\n\n"
    for o in sorted(s.notify_objects, key=lambda o: o["sub_id"]):
        notes += object_type(o["object"], "DisplayString (SIZE (0..255))", None, "accessible-for-notify",
                             o["description"], "rdmagwNotifyObjects", o["sub_id"])
    notify_names = [o["object"] for o in sorted(s.notify_objects, key=lambda o: o["sub_id"])]
    for n in s.notifications:
        objects = notify_names + [column_names[(n["table"], c)] for c in [n["code_column"]] + n["extras"]]
        notes += f"{n['name']} NOTIFICATION-TYPE\n    OBJECTS     {{ " + ",\n                  ".join(objects) + " }\n"
        notes += f"    STATUS      current\n    DESCRIPTION\n{desc(n['description'])}\n"
        notes += f"    ::= {{ rdmagwNotifications {n['sub_id']} }}\n\n"

    conf = "rdmagwCompliances OBJECT IDENTIFIER ::= { rdmagwConformance 1 }\n"
    conf += "rdmagwGroups      OBJECT IDENTIFIER ::= { rdmagwConformance 2 }\n\n"
    conf += "rdmagwCompliance MODULE-COMPLIANCE\n    STATUS      current\n    DESCRIPTION\n"
    conf += desc("The rdmagw SNMP subagent serves every group; a group whose device kind is absent "
                 "has no rows.") + "\n"
    notify_groups = ["rdmagwNotifyObjectsGroup", "rdmagwFabricNotificationsGroup"]
    conf += "    MODULE      -- this module\n    MANDATORY-GROUPS { " + ",\n                       ".join(
        [g[0] for g in groups] + notify_groups) + " }\n"
    conf += "    ::= { rdmagwCompliances 1 }\n\n"
    for i, (g, table, objs) in enumerate(groups, start=1):
        conf += f"{g} OBJECT-GROUP\n    OBJECTS     {{ " + ",\n                  ".join(objs) + " }\n"
        conf += f"    STATUS      current\n    DESCRIPTION\n{desc('Objects of ' + table + '.')}\n"
        conf += f"    ::= {{ rdmagwGroups {i} }}\n\n"
    # Numbered from 20 so the object groups above can grow without moving them.
    if len(groups) >= 20:
        raise SchemaError("more than 19 tables: the notification groups' numbers (20, 21) would collide")
    conf += "rdmagwNotifyObjectsGroup OBJECT-GROUP\n    OBJECTS     { " + ", ".join(notify_names) + " }\n"
    conf += f"    STATUS      current\n    DESCRIPTION\n{desc('Objects only carried in notifications.')}\n"
    conf += "    ::= { rdmagwGroups 20 }\n\n"
    conf += "rdmagwFabricNotificationsGroup NOTIFICATION-GROUP\n    NOTIFICATIONS { " + ",\n                    ".join(
        n["name"] for n in s.notifications) + " }\n"
    conf += f"    STATUS      current\n    DESCRIPTION\n{desc('Notifications of fabric verdict changes.')}\n"
    conf += "    ::= { rdmagwGroups 21 }\n\n"

    head = f'''{s.mib_name} DEFINITIONS ::= BEGIN

-- Generated by models/gen_schema.py from models/schema.yaml: edit the
-- schema, then run scripts/gen-schema.sh.

IMPORTS
{{smi_imports}}
        FROM SNMPv2-SMI
{{tc_imports}}
        FROM SNMPv2-TC
    MODULE-COMPLIANCE, OBJECT-GROUP, NOTIFICATION-GROUP
        FROM SNMPv2-CONF
    ifIndex
        FROM IF-MIB;

rdmagwMIB MODULE-IDENTITY
    LAST-UPDATED "202611261200Z"
    ORGANIZATION "rdmagw project"
    CONTACT-INFO
        "rdmagw maintainers; see the project README."
    DESCRIPTION
        "Telemetry of RoCE/RDMA fabrics collected by the rdmagw gateway:
        per-priority PFC, queues, RDMA ports (PMA, ECN/CNP, hw errors),
        ESXi vmnics, the fabric verdicts of the gateway's analytics and
        per-target gateway health.

        Contexts: the default context holds rdmagwTargetTable (the
        targets this gateway collects) and rdmagwFleetTargetTable (every
        target of its fleet and the member serving it); every other
        table is served in the context named after the target (device),
        next to that device's IF-MIB, EtherLike-MIB dot3PauseTable,
        IEEE8021-PFC-MIB and CISCO-PFC-EXT-MIB tables.

        Counters are the gateway's monotonic 64-bit model values;
        ifCounterDiscontinuityTime of the interface marks a reset.

        The enterprise arc {enterprise_number} is reserved for documentation (RFC 5612)
        and stands in until the project has its own Private Enterprise
        Number; the subtree below it will move, the structure will not."
    REVISION     "202611261200Z"
    DESCRIPTION
        "Added rdmagwRoceCheckGroupTable, rdmagwRoceCheckFindingTable
        and rdmagwRoceCheckGroupChange."
    REVISION     "202611260000Z"
    DESCRIPTION
        "Added rdmagwFleetTargetTable."
    REVISION     "202611230000Z"
    DESCRIPTION
        "First version."
    ::= {{ rdmagwExampleArc {sub['root']} }}

-- PEN {enterprise_number}: reserved for documentation (RFC 5612); a placeholder.
rdmagwExampleArc  OBJECT IDENTIFIER ::= {{ enterprises {enterprise_number} }}
rdmagwNotifications OBJECT IDENTIFIER ::= {{ rdmagwMIB {sub['notifications']} }}
rdmagwObjects       OBJECT IDENTIFIER ::= {{ rdmagwMIB {sub['objects']} }}
rdmagwConformance   OBJECT IDENTIFIER ::= {{ rdmagwMIB {sub['conformance']} }}
rdmagwNotifyObjects OBJECT IDENTIFIER ::= {{ rdmagwMIB {sub['notify_objects']} }}

'''
    # SMIv2 types our objects use beyond the ones every version has.
    used = "".join(mib) + notes
    smi = ["MODULE-IDENTITY", "OBJECT-TYPE", "NOTIFICATION-TYPE", "Counter64", "Gauge32", "Unsigned32", "enterprises"]
    smi += [t for t in ("Counter32", "Integer32", "TimeTicks") if re.search(r"SYNTAX\s+" + t + r"\b", used)]
    tc = ["DisplayString"] + [t for t in ("TruthValue",) if re.search(r"SYNTAX\s+" + t + r"\b", used)]
    head = head.replace("{smi_imports}", "\n".join(textwrap.wrap(", ".join(smi), 64, initial_indent="    ",
                                                                subsequent_indent="    ")))
    head = head.replace("{tc_imports}", "    " + ", ".join(tc))
    if s.mib_rel["root"].count("."):
        raise SchemaError("snmp.mib.root: the module identity is a direct child of the enterprise arc")
    return head + "".join(mib) + notes + conf + "END\n"


# --- docs/metrics.md -----------------------------------------------------

def md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def snmp_cell(s, placements):
    out = []
    for p in placements:
        t = s.tables[p["table_index"]]
        extra = []
        if p["type"]:
            extra.append(p["type"])
        if p["scale"] != 1.0:
            extra.append(f"x{p['scale']:g}")
        if p["map"]:
            extra.append(p["map"])
        if p["label"]:
            extra.append(f"label {p['label']}")
        out.append(f"{t['mib']}::{p['object']} ({', '.join(extra)})")
    return "<br>".join(out)


def prom_cell(name, labels, scale=1.0):
    series = f"`{name}{{{','.join(labels)}}}`" if labels else f"`{name}`"
    return series + (f" (x{scale:g})" if scale != 1.0 else "")


def write_docs(s):
    L = []
    w = L.append
    w("# Metrics reference")
    w("")
    w("<!-- Generated by models/gen_schema.py from models/schema.yaml: edit the schema, then run")
    w("     scripts/gen-schema.sh. -->")
    w("")
    w("Every leaf the gateway collects, as each northbound serves it: the gNMI path (keyless, with")
    w("the YANG module that owns the leaf), the Prometheus series and its labels, the SNMP objects,")
    w("the unit the collectors store and what the value means.")
    w("")
    w("Every Prometheus series also carries `target` (the device, as the gateway config names it),")
    w("and every SNMP object of a device is served in the SNMP context named after the target.")
    w("Scales (x1e-06, x0.125) convert the stored unit into the Prometheus base unit or the MIB's unit.")
    w("")
    w("## YANG modules")
    w("")
    w("| Module | Prefix | Version | Organization |")
    w("|---|---|---|---|")
    for m in s.modules:
        w(f"| {m['name']} | {m['prefix']} | {m['version']} | {md(m['organization'])} |")
    w("")
    w("## Lists and labels")
    w("")
    w("| List | Key (YANG type) | Prometheus label |")
    w("|---|---|---|")
    for l in s.lists.values():
        w(f"| `{l['path']}` | {l['key']} ({l['type']}) | {l['label']} |")
    w("")
    w("## SNMP tables")
    w("")
    w("Device tables are served in each target's SNMP context, gateway tables in the default context.")
    w("")
    w("| Table | MIB | OID | Scope | Index |")
    w("|---|---|---|---|---|")
    for t in s.tables:
        index = ", ".join(f"{p['object']} ({p['kind']})" for p in t["index"])
        w(f"| {t['name']} | {t['mib']} | {t['oid']} | {t['scope']} | {index} |")
    w("")
    tops = []
    for leaf in s.leaves:
        top = leaf["path"].split("/")[1]
        if top not in tops:
            tops.append(top)
    for top in tops:
        w(f"## /{top}")
        w("")
        w("| Path | Prometheus | SNMP | YANG | Unit | Description |")
        w("|---|---|---|---|---|---|")
        for leaf in s.leaves:
            if leaf["path"].split("/")[1] != top:
                continue
            yang_type = leaf["ytype"] if leaf["typedef"] == leaf["ytype"] else f"{leaf['ytype']} ({leaf['typedef']})"
            prom = prom_cell(leaf['prom'], ['target'] + leaf['labels'], leaf['scale'])
            if leaf["info_label"]:
                prom = f"label `{leaf['info_label']}` of {prom}"
            w(f"| `{leaf['path']}` | {prom} | "
              f"{snmp_cell(s, leaf['snmp'])} | {leaf['module']}<br>{md(yang_type)} | {leaf['unit']} | {md(leaf['help'])} |")
        w("")
    w("## The gateway's own metrics")
    w("")
    w("| Id | Prometheus | SNMP | Unit | Description |")
    w("|---|---|---|---|---|")
    for g in s.gateway:
        w(f"| {g['id']} | {prom_cell(g['prom'], g['labels'])} | {snmp_cell(s, g['snmp'])} | {g['unit']} | {md(g['help'])} |")
    w("")
    w("## SNMP notifications")
    w("")
    w(f"Sent as {s.mib_name}::rdmagwNotifications.<n> when the verdict leaf changes; each carries")
    w(", ".join(f"{o['object']}.0" for o in s.notify_objects) + ", the verdict and the leaves listed.")
    w("")
    w("| Notification | Type label | Verdict | Description |")
    w("|---|---|---|---|")
    for n in s.notifications:
        w(f"| {n['name']} ({n['sub_id']}) | {n['type']} | `{n['verdict']}` | {md(n['description'])} |")
    w("")
    return "\n".join(L)


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--schema", required=True)
    ap.add_argument("--cc")
    ap.add_argument("--mib")
    ap.add_argument("--docs")
    args = ap.parse_args()
    try:
        with open(args.schema, encoding="utf-8") as f:
            # libyaml's loader when PyYAML has it: five times faster than the pure-Python one
            doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        s = Schema(doc)
        outputs = []
        if args.cc:
            outputs.append((args.cc, write_cc(s)))
        if args.mib:
            outputs.append((args.mib, write_mib(s)))
        if args.docs:
            outputs.append((args.docs, write_docs(s)))
    except (SchemaError, yaml.YAMLError, OSError) as e:
        sys.exit(f"{args.schema}: {e}")
    for path, text in outputs:
        try:
            write(path, text)
        except OSError as e:
            sys.exit(f"gen_schema.py: cannot write {path}: {e}")


if __name__ == "__main__":
    main()
