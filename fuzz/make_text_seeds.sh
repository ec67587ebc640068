#!/usr/bin/env bash
# Writes the seeds of the JSON, path and SNMP OID targets that come from
# tests/fixtures/ (the first 16 KiB of each) or are written out here.
# Run from anywhere; commit the result.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/tests/fixtures
c=$root/fuzz/corpus
rm -rf "$c/nxos_json" "$c/gnmi_json" "$c/gnmi_path" "$c/snmp_oid"
mkdir -p "$c/nxos_json" "$c/gnmi_json" "$c/gnmi_path" "$c/snmp_oid"

for f in "$fx"/nxos/*.json "$fx"/rdma/*.json; do
  head -c 16384 "$f" > "$c/nxos_json/$(basename "$f")"
done
printf 'switch# show interface | json\n\n{"TABLE_interface": {"ROW_interface": {"interface": "Ethernet1/1", "eth_inbytes": 18446744073709551616}}}\nswitch# ' \
  > "$c/nxos_json/prompt_then_json.txt"
printf '{"prio_pfc":[false,false,false,true,false,false,false,false]}' > "$c/nxos_json/dcb_pfc.json"

# gNMI json_val blobs: the DME REST object (after its two header lines), the
# native queuing list, an OpenConfig JSON_IETF container, scalars.
tail -n +3 "$fx"/gnmi/nxos_dme_rest_dbgDot3Stats_rmonDot3Stats__devnet_nxapi_rest_10.4x.json.txt | head -c 16384 \
  > "$c/gnmi_json/dme_rmonDot3Stats.json"
printf '{"QueuingStats-list":[{"cmapName":"c-out-8q-q-default","statType":"ucast","pfcTxPpp":1},{"cmapName":"c-out-8q-q3","statType":"ucast","pfcTxPpp":3,"txPackets":4}]}' \
  > "$c/gnmi_json/native_queuing_list.json"
printf '{"openconfig-interfaces:counters":{"in-octets":"5","out-octets":6,"last-clear":"never"},"oper-status":"UP","list":["a","b"]}' \
  > "$c/gnmi_json/openconfig_ietf.json"
printf '[{"name":"eth1/1","mtu":9216},{"id":7,"x":-2.5e1},{"nokey":true}]' > "$c/gnmi_json/list_of_entries.json"
printf '"\\u00e9t\\u00e9\\n"' > "$c/gnmi_json/scalar_string.json"

# Path string form: pattern, store path, target (one per line).
printf '/interfaces/interface[name=*]/state/counters/in-octets\n/interfaces/interface[name=eth1/1]/state/counters/in-octets\nsw1\n' > "$c/gnmi_path/wildcard_key"
printf '/.../in-octets\n/interfaces/interface[name=eth0]/state/counters/in-octets\n*\n' > "$c/gnmi_path/multi_level"
printf '/*/interface/*/counters\n/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue[name=3]/state/transmit-pkts\n' > "$c/gnmi_path/one_level"
printf 'openconfig:/interfaces\nopenconfig:/interfaces/interface[name=Ethernet1/1]\n' > "$c/gnmi_path/origin"
printf '/sys/intf/phys[name=phys-[eth1/1\\]]/dbgDot3Stats\n/sys/intf/phys[name=phys-[eth1/1\\]]/dbgDot3Stats/outPauseFrames\nleaf01\n' > "$c/gnmi_path/escaped_bracket"
printf '/a\\/b/c[k\\=x=v\\\\]\n/a\\/b/c[k\\=x=v\\\\]/d\n' > "$c/gnmi_path/escaped_names"
printf '/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state\n/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/counters/port-xmit-octets\nhost01\n' > "$c/gnmi_path/rdma"

# snmp_oid: the last byte picks the mode (0 OID text, 1 table, 2 ifIndex file).
printf '1.3.6.1.2.1.31.1.1.1.6.1\0' > "$c/snmp_oid/oid_ifhcinoctets"
printf '.1.3.6.1.4.1.32473.1.1.1.2.3.115.119.49\0' > "$c/snmp_oid/oid_leading_dot"
printf '1.3.6.1.4294967295.0\0' > "$c/snmp_oid/oid_max_arc"
printf '1..3\0' > "$c/snmp_oid/oid_empty_arc"
head -c 512 /dev/zero | tr '\0' 'A' > "$c/snmp_oid/table_zeros"; printf '\1' >> "$c/snmp_oid/table_zeros"
printf 'Ethernet1/1,Ethernet1/2,mlx5_0:1,,Ethernet1/1\\xsw1\tEthernet1/1\t1\nsw1\tEthernet1/2\t7\n\tvmnic0\t2\n# comment\nsw1\tbad\tx\n\2' > "$c/snmp_oid/ifindex_state"
for d in nxos_json gnmi_json gnmi_path snmp_oid; do echo "$d: $(ls "$c/$d" | wc -l) seeds"; done
