#!/usr/bin/env bash
# Regenerates fuzz/corpus/parse_formats/ from tests/fixtures/: one seed per (format,
# fixture) pair that format reads, each "FORMAT\n" + the fixture's first
# 16 KiB (a cut reply is itself input the parsers must survive, and short
# seeds keep the mutation pass fast). Run from anywhere; commit the result.
set -eu  # no pipefail: head closes the pipe on long fixtures
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/tests/fixtures
out=$root/fuzz/corpus/parse_formats
rm -rf "$out"
mkdir -p "$out"

seed() {  # seed FORMAT FILE...  (several files are concatenated)
  local format=$1; shift
  local name
  name=$format--$(basename "$1" | sed 's/[^A-Za-z0-9._-]/_/g' | cut -c1-80)
  { printf '%s\n' "$format"; cat "$@"; } | head -c 16400 > "$out/$name"
}

for f in "$fx"/nxos/*; do
  b=$(basename "$f")
  case $b in
    SOURCES.md) continue ;;
  esac
  case $b in *priority-flow-control*|*pfc*) seed nxos-pfc "$f" ;; esac
  case $b in *pfc*|*queuing*) seed nxos-pfc-detail "$f" ;; esac
  case $b in *queuing*) seed nxos-queuing "$f" ;; esac
  case $b in *queuing*json*) seed nxos-queuing-json "$f" ;; esac
  case $b in *show_interface__*|*show_interface_json*|*_show_interface__*|*rx_tx_block*) seed nxos-interface "$f" ;; esac
  case $b in *interface*json*) seed nxos-interface-json "$f" ;; esac
  case $b in *interface_counters__*|*counters_detailed*) seed nxos-interface-counters "$f" ;; esac
  case $b in *counters_errors*) seed nxos-interface-counters-errors "$f" ;; esac
  case $b in *lldp*) seed nxos-lldp-neighbors "$f" ;; esac
  case $b in *network-qos*) seed nxos-network-qos "$f" ;; esac
  case $b in *class-map*) seed nxos-class-map-qos "$f" ;; esac
  case $b in *counters_errors*json*) seed nxos-interface-counters-errors-json "$f" ;; esac
done

# The RoCE configuration readers' NX-OS fixtures.
seed nxos-running-config-ipqos "$fx"/roce-config/nxos_running-config_qos_snippet__zartbot-blog.txt
seed nxos-pfc-watchdog "$fx"/roce-config/nxos_show_queuing_pfc-queue_interface_detail__otel-ciscoos-test.txt
seed nxos-pfc-watchdog-json "$fx"/roce-config/SYNTHETIC_nxos_show_queuing_pfc-queue_detail_json__from_9.3x_grammar.json

seed ethtool-s "$fx"/rdma/ethtool_S_mlx5_core_cx4lx_ethq.txt
seed ethtool-s "$fx"/rdma/LINUX_PROXY_mlx5_ethtool_S_pause_counters__cx4lx_blog.txt
seed sysfs-dump "$fx"/rdma/sysfs_infiniband_mlx5_procfs_fixture.txt
for f in "$fx"/rdma/*lldpctl*; do seed lldpctl-json "$f"; done

# The remote dump: sysfs, then the sections the dump command prints.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo '### rdmagw-remote-dump 1 ethtool=1'
  grep -v '^#' "$fx"/rdma/sysfs_infiniband_mlx5_procfs_fixture.txt | head -60
  echo '### ethtool -S ens1f0np0'
  cat "$fx"/rdma/LINUX_PROXY_mlx5_ethtool_S_pause_counters__cx4lx_blog.txt
  echo '### ethtool-failed ib0 94'
  echo '### lldpctl'
  cat "$fx"/rdma/RECONSTRUCTED_lldpctl_json0_two_ports.json
  echo '### dcb -j pfc show dev ens1f0np0'
  echo '{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[false,false,false,true,false,false,false,false]}'
  echo '### dcb-failed ens1f1np1 127'
  echo '### mlnx_qos -i ens1f1np1'
  sed -n '3,12p' "$fx"/roce-config/linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt
  echo '### mlnx_qos-failed ens1f1np1 1'
  echo '### rdmagw-skipped bad$name'
  echo '### rdmagw-end'
} > "$tmp/remote_dump.txt"
seed rdma-remote-dump "$tmp/remote_dump.txt"

# iproute2 dcb JSON (shapes from tests/southbound/rdma/netdev_dcb_test.cc).
printf '# dcb -j pfc show dev ens6\n{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[false,false,false,true,false,false,false,false]}\n' > "$tmp/dcb_pfc_list.json"
printf '{"prio_pfc":{"0":false,"1":false,"2":false,"3":true,"4":true,"5":false,"6":false,"7":false}}\n' > "$tmp/dcb_pfc_map.json"
printf '# dcb -j app show dev ens6\n{"dscp_prio":[["AF31",3],["CS6",6]]}\n' > "$tmp/dcb_app_dscp.json"
printf '{"default_prio":[3],"ethtype_prio":[["0x8915",3]]}\n' > "$tmp/dcb_app_pcp.json"
seed dcb-pfc-json "$tmp/dcb_pfc_list.json"
seed dcb-pfc-json "$tmp/dcb_pfc_map.json"
seed dcb-app-json "$tmp/dcb_app_dscp.json"
seed dcb-app-json "$tmp/dcb_app_pcp.json"

# iproute2 dcb text (recorded in iproute2's commit messages), and `dcb -j`
# documents behind their command lines, as the remote dump prints them.
for o in ets pfc; do seed dcb-show "$fx"/roce-config/linux_dcb_${o}_show_dev__iproute2-commit-mlxsw.txt; done
for o in ets pfc buffer app; do
  echo "# dcb -j $o show dev ens6"
  grep -v '^#' "$fx"/roce-config/SYNTHETIC_dcb_-j_${o}_show__iproute2-keys.json
done > "$tmp/dcb_json_all_objects.txt"
seed dcb-json "$tmp/dcb_json_all_objects.txt"

# NVIDIA mlnx_qos -i text: the recorded ConnectX-7, and one whose line breaks were lost.
for f in "$fx"/roce-config/linux_mlnx_qos_*; do seed mlnx-qos "$f"; done

# NX-API responses of both dialects, and what is not one (an HTML page, a
# request, a bare body): the format must refuse those clearly.
for f in "$fx"/nxapi/*; do
  case $(basename "$f") in SOURCES.md) ;; *) seed nxapi-envelope "$f" ;; esac
done

seed esxi-nic-list "$fx"/esxi/SYNTHETIC_esxcli_network_nic_list.txt
seed esxi-nic-stats "$fx"/esxi/esxi_esxcli_network_nic_stats_get_vmnic2__broadcom_kb341594.txt
seed esxi-nic-dcb-status "$fx"/esxi/SYNTHETIC_esxcli_network_nic_dcb_status_get.txt
for f in "$fx"/esxi/*vsish* "$fx"/esxi/*privstats*; do seed esxi-vsish-stats "$f"; done

# The ESXi bundle: the nic list, then one marked section per kind.
{
  cat "$fx"/esxi/SYNTHETIC_esxcli_network_nic_list.txt
  echo '@@rdmagw nic-stats vmnic2'
  cat "$fx"/esxi/esxi_esxcli_network_nic_stats_get_vmnic2__broadcom_kb341594.txt
  echo '@@rdmagw vsish vmnic2'
  cat "$fx"/esxi/SYNTHETIC_nmlx5_vsish_pNics_stats.txt
  echo '@@rdmagw dcb vmnic2'
  cat "$fx"/esxi/SYNTHETIC_esxcli_network_nic_dcb_status_get.txt
  echo '@@rdmagw other vmnic3'
} > "$tmp/esxi_bundle.txt"
seed esxi-bundle "$tmp/esxi_bundle.txt"

echo "$(ls "$out" | wc -l) seeds in $out"
ls "$out" | sed 's/--.*//' | sort | uniq -c
