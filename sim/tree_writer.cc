#include "sim/tree_writer.h"

#include <cmath>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <system_error>

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

struct Named {
  const char* name;
  uint64_t PortCounters::*field;
};

#define COUNTER(n) {#n, &PortCounters::n}

// sysfs ports/1/counters/: the IB PMA names.
constexpr Named kPma[] = {
    COUNTER(port_xmit_data), COUNTER(port_rcv_data), COUNTER(port_xmit_packets),
    COUNTER(port_rcv_packets), COUNTER(unicast_xmit_packets), COUNTER(unicast_rcv_packets),
    COUNTER(multicast_xmit_packets), COUNTER(multicast_rcv_packets), COUNTER(port_xmit_wait),
    COUNTER(symbol_error), COUNTER(link_error_recovery), COUNTER(link_downed),
    COUNTER(port_rcv_errors), COUNTER(port_rcv_remote_physical_errors),
    COUNTER(port_rcv_switch_relay_errors), COUNTER(port_xmit_discards),
    COUNTER(port_xmit_constraint_errors), COUNTER(port_rcv_constraint_errors),
    COUNTER(local_link_integrity_errors), COUNTER(excessive_buffer_overrun_errors),
    COUNTER(VL15_dropped),
};

// sysfs ports/1/hw_counters/: the mlx5 names.
constexpr Named kHw[] = {
    COUNTER(np_ecn_marked_roce_packets), COUNTER(np_cnp_sent), COUNTER(rp_cnp_handled),
    COUNTER(rp_cnp_ignored), COUNTER(rx_icrc_encapsulated), COUNTER(out_of_buffer),
    COUNTER(out_of_sequence), COUNTER(duplicate_request), COUNTER(rnr_nak_retry_err),
    COUNTER(packet_seq_err), COUNTER(implied_nak_seq_err), COUNTER(local_ack_timeout_err),
    COUNTER(req_cqe_error), COUNTER(resp_cqe_error), COUNTER(req_cqe_flush_error),
    COUNTER(resp_cqe_flush_error), COUNTER(req_remote_access_errors),
    COUNTER(resp_remote_access_errors), COUNTER(req_remote_invalid_request),
    COUNTER(resp_local_length_error), COUNTER(req_transport_retries_exceeded),
    COUNTER(rx_write_requests), COUNTER(rx_read_requests), COUNTER(rx_atomic_requests),
    COUNTER(rx_dct_connect), COUNTER(roce_adp_retrans), COUNTER(roce_adp_retrans_to),
    COUNTER(roce_slow_restart), COUNTER(roce_slow_restart_cnps),
    COUNTER(roce_slow_restart_trans), COUNTER(lifespan),
};

#undef COUNTER

// The new content is staged in `staging` (a hidden file at the top of the
// simulator's directory, outside every host tree) and renamed into place: a
// collector listing a sysfs directory never sees a half-written or temporary
// file, just as it never does on a real sysfs.
Status replaceFile(const std::string& path, const std::string& content, const std::string& staging) {
  const std::string& tmp = staging;
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return Status::ioError(tmp + ": " + std::strerror(errno));
  const bool wrote = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return Status::ioError(tmp + ": short write");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);  // atomic on POSIX: readers see the old or the new file
  if (ec) return Status::ioError(path + ": rename: " + ec.message());
  return Status::ok();
}

// sysfs values end in a newline, as the kernel's do.
std::string line(const std::string& value) { return value + "\n"; }
std::string line(uint64_t value) { return std::to_string(value) + "\n"; }

}  // namespace

Status TreeWriter::makeDirs(const std::string& path) {
  if (dirs_.count(path)) return Status::ok();
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::ioError(path + ": " + ec.message());
  dirs_.insert(path);
  return Status::ok();
}

Status TreeWriter::writeFile(const std::string& path, std::string content) {
  auto it = written_.find(path);
  if (it != written_.end() && it->second == content) return Status::ok();
  if (Status s = replaceFile(path, content, dir_ + "/.staging.tmp"); !s.isOk()) return s;
  written_[path] = std::move(content);
  return Status::ok();
}

Status TreeWriter::writeNetdevDcb(const Device& dev, const std::string& host_dir, const RoceQosPlan& plan,
                                  double link_gbps, bool mlnx_qos) {
  const int roce_priority = plan.roce_priority;
  const std::string net = host_dir + "/sys/class/net/" + dev.netdev;
  // The hosts' RoCE netdevs run jumbo frames; the leaf ports 9216.
  if (Status s = makeDirs(net); !s.isOk()) return s;
  if (Status s = writeFile(net + "/mtu", line(uint64_t(9000))); !s.isOk()) return s;
  // The link as the kernel shows it: up, IFF_UP|IFF_BROADCAST|IFF_MULTICAST,
  // the line rate in Mb/s.
  if (Status s = writeFile(net + "/operstate", line(std::string("up"))); !s.isOk()) return s;
  if (Status s = writeFile(net + "/flags", line(std::string("0x1003"))); !s.isOk()) return s;
  if (Status s = writeFile(net + "/speed", line(uint64_t(std::llround(link_gbps * 1000)))); !s.isOk()) return s;
  for (const auto& [knob, on] : {std::pair{"roce_np", dev.port.np_roce}, std::pair{"roce_rp", dev.port.rp_roce}}) {
    const std::string dir = net + "/ecn/" + knob + "/enable";
    if (Status s = makeDirs(dir); !s.isOk()) return s;
    for (int p = 0; p < kPriorities; ++p) {
      const uint64_t v = p == roce_priority && !on ? 0 : 1;  // mlx5's default: every priority on
      if (Status s = writeFile(dir + "/" + std::to_string(p), line(v)); !s.isOk()) return s;
    }
  }
  // The CNPs this NIC sends as notification point: DSCP 48 on the CNP priority.
  const std::pair<const char*, uint64_t> cnp[] = {{"cnp_dscp", kCnpDscp}, {"cnp_802p_prio", uint64_t(plan.cnp_priority)}};
  for (const auto& [knob, value] : cnp) {
    if (Status s = writeFile(net + "/ecn/roce_np/" + knob, line(value)); !s.isOk()) return s;
  }
  // RDMA CM's defaults, as an administrator sets them in configfs (mkdir
  // rdma_cm/<dev>): QPs the CM creates use the RoCE DSCP, ECN-capable.
  const std::string cm = host_dir + "/sys/kernel/config/rdma_cm/" + dev.name + "/ports/1";
  if (Status s = makeDirs(cm); !s.isOk()) return s;
  if (Status s = writeFile(cm + "/default_roce_tos", line(uint64_t(kRoceTos))); !s.isOk()) return s;
  if (Status s = writeFile(cm + "/default_roce_mode", line(std::string("RoCE v2"))); !s.isOk()) return s;
  const std::string base = host_dir + "/ethtool/" + dev.netdev;
  if (mlnx_qos) return writeFile(base + ".mlnx_qos.txt", mlnxQosText(dev, plan));
  const std::pair<std::string, std::string> dcb[] = {
      {".dcb-pfc.json", dcbPfcJson(dev, roce_priority)},
      {".dcb-app.json", dcbAppJson(dev, plan)},
      {".dcb-ets.json", dcbEtsJson(dev.port, plan)},
      {".dcb-buffer.json", dcbBufferJson(dev.port, plan)},
  };
  for (const auto& [suffix, content] : dcb) {
    if (Status s = writeFile(base + suffix, content); !s.isOk()) return s;
  }
  return Status::ok();
}

Status TreeWriter::writeCounters(const std::string& dir, const PortCounters& port, bool hw) {
  if (Status s = makeDirs(dir); !s.isOk()) return s;
  const Named* table = hw ? kHw : kPma;
  const size_t count = hw ? std::size(kHw) : std::size(kPma);
  for (size_t i = 0; i < count; ++i) {
    const std::string path = dir + "/" + table[i].name;
    if (Status s = writeFile(path, line(port.*table[i].field)); !s.isOk()) return s;
  }
  return Status::ok();
}

Status TreeWriter::writeDevice(const Fabric& fabric, const Device& dev,
                               const std::string& host_dir) {
  const std::string ib = host_dir + "/sys/class/infiniband/" + dev.name;
  const std::string port = ib + "/ports/1";
  for (const std::string& d : {port + "/gid_attrs/ndevs", ib + "/device/net/" + dev.netdev}) {
    if (Status s = makeDirs(d); !s.isOk()) return s;
  }
  const std::pair<std::string, std::string> files[] = {
      {ib + "/fw_ver", line(dev.fw_ver)},
      {ib + "/hca_type", line(dev.hca_type)},
      {ib + "/board_id", line(dev.board_id)},
      {ib + "/node_guid", line(dev.node_guid)},
      {port + "/state", line(fabric.portState(dev))},
      {port + "/phys_state", line(fabric.physState(dev))},
      {port + "/rate", line(fabric.rate())},
      {port + "/link_layer", line(fabric.linkLayer())},
      {port + "/gid_attrs/ndevs/0", line(dev.netdev)},
  };
  for (const auto& [path, content] : files) {
    if (Status s = writeFile(path, content); !s.isOk()) return s;
  }
  if (Status s = writeCounters(port + "/counters", dev.port, false); !s.isOk()) return s;
  return writeCounters(port + "/hw_counters", dev.port, true);
}

Status TreeWriter::writeCli(const std::string& device_dir, const char* os,
                            const std::vector<RenderedCommand>& commands) {
  const std::string cli = device_dir + "/cli";
  if (Status s = makeDirs(cli); !s.isOk()) return s;
  if (Status s = writeFile(device_dir + "/os", line(std::string(os))); !s.isOk()) return s;
  for (const RenderedCommand& c : commands) {
    if (Status s = writeFile(cli + "/" + commandSlug(c.command), c.output); !s.isOk()) return s;
  }
  return Status::ok();
}

Status TreeWriter::write(const Fabric& fabric) {
  for (const Switch& sw : fabric.switches()) {
    if (Status s = writeCli(dir_ + "/" + sw.name, kOsNxos, renderSwitch(fabric, sw)); !s.isOk()) {
      return s;
    }
  }
  for (const EsxiHost& esx : fabric.esxiHosts()) {
    if (Status s = writeCli(dir_ + "/" + esx.name, kOsEsxi, renderEsxi(fabric, esx)); !s.isOk()) {
      return s;
    }
  }
  for (const Host& host : fabric.hosts()) {
    const std::string host_dir = dir_ + "/" + host.name;
    if (Status s = makeDirs(host_dir + "/ethtool"); !s.isOk()) return s;
    for (const Device& dev : host.devices) {
      const std::string ib = host_dir + "/sys/class/infiniband/" + dev.name;
      if (hidden_.count({host.name, dev.name})) {
        if (Status s = removeDevice(ib); !s.isOk()) return s;
      } else {
        removed_.erase(ib);
        if (Status s = writeDevice(fabric, dev, host_dir); !s.isOk()) return s;
      }
      if (Status s = writeNetdevDcb(dev, host_dir, fabric.roceQos(), fabric.config().link_gbps, host.mlnx_qos);
          !s.isOk()) return s;
      const std::string ethtool = host_dir + "/ethtool/" + dev.netdev + ".txt";
      if (Status s = writeFile(ethtool, ethtoolText(dev, fabric.config().roce_priority));
          !s.isOk()) {
        return s;
      }
    }
  }
  return Status::ok();
}

void TreeWriter::setDeviceHidden(const std::string& host, const std::string& device, bool hidden) {
  if (hidden) hidden_.insert({host, device});
  else hidden_.erase({host, device});
}

Status TreeWriter::removeDevice(const std::string& ib_dir) {
  if (removed_.count(ib_dir)) return Status::ok();
  std::error_code ec;
  fs::remove_all(ib_dir, ec);
  if (ec) return Status::ioError(ib_dir + ": " + ec.message());
  // Forget the device's files and dirs, so showing it again writes them all.
  const std::string prefix = ib_dir + "/";
  for (auto it = written_.begin(); it != written_.end();) {
    it = it->first.compare(0, prefix.size(), prefix) == 0 ? written_.erase(it) : std::next(it);
  }
  for (auto it = dirs_.begin(); it != dirs_.end();) {
    it = *it == ib_dir || it->compare(0, prefix.size(), prefix) == 0 ? dirs_.erase(it) : std::next(it);
  }
  removed_.insert(ib_dir);
  return Status::ok();
}

Status writeTree(const Fabric& fabric, const std::string& dir) {
  TreeWriter writer(dir);
  return writer.write(fabric);
}

Result<std::string> writeOneHostTree(const std::string& dir) {
  FabricConfig fc;
  fc.hosts = 1;
  fc.switches = 0;
  fc.esxi_hosts = 0;
  Fabric fabric(fc);
  fabric.step();
  if (Status st = writeTree(fabric, dir); !st.isOk()) return st;
  return fabric.hosts().front().name;
}

std::string ethtoolText(const Device& dev, int roce_priority) {
  const PortCounters& c = dev.port;
  std::string out = "NIC statistics:\n";
  auto add = [&out](const std::string& name, uint64_t v) {
    out += "     " + name + ": " + std::to_string(v) + "\n";  // ethtool's 5-space indent
  };
  // The order mlx5 uses: software/vport totals, then phy, then per-priority.
  add("rx_packets", c.rx_packets);
  add("rx_bytes", c.rx_bytes);
  add("tx_packets", c.tx_packets);
  add("tx_bytes", c.tx_bytes);
  add("rx_discards_phy", c.rx_discards_phy);
  add("rx_pause_ctrl_phy", c.rx_pause_ctrl_phy);
  add("tx_pause_ctrl_phy", c.tx_pause_ctrl_phy);
  for (int p = 0; p < kPriorities; ++p) {
    const std::string rx = "rx_prio" + std::to_string(p);
    const std::string tx = "tx_prio" + std::to_string(p);
    add(rx + "_bytes", c.rx_prio_bytes[p]);
    add(rx + "_packets", c.rx_prio_packets[p]);
    add(rx + "_discards", c.rx_prio_discards[p]);
    add(tx + "_bytes", c.tx_prio_bytes[p]);
    add(tx + "_packets", c.tx_prio_packets[p]);
  }
  // Pause counters appear only for the priority with PFC enabled, as on mlx5.
  const std::string rx = "rx_prio" + std::to_string(roce_priority);
  const std::string tx = "tx_prio" + std::to_string(roce_priority);
  if (c.pfc_roce) {
    add(rx + "_pause", c.rx_roce_prio_pause);
    add(rx + "_pause_duration", c.rx_roce_prio_pause_duration);
    add(tx + "_pause", c.tx_roce_prio_pause);
    add(tx + "_pause_duration", c.tx_roce_prio_pause_duration);
    add(rx + "_pause_transition", c.rx_roce_prio_pause_transition);
  }
  add("tx_pause_storm_warning_events", c.tx_pause_storm_warning_events);
  add("tx_pause_storm_error_events", c.tx_pause_storm_error_events);
  return out;
}

std::string dcbPfcJson(const Device& dev, int roce_priority) {
  // iproute2 dcb/dcb_pfc.c: pfc_cap, macsec_bypass, delay, then prio_pfc as
  // an array of booleans (the JSON of `prio-pfc 0:off 1:off 2:off 3:on ...`).
  std::string out = "{\"pfc_cap\":8,\"macsec_bypass\":false,\"delay\":0,\"prio_pfc\":[";
  for (int p = 0; p < kPriorities; ++p) {
    out += p ? "," : "";
    out += p == roce_priority && dev.port.pfc_roce ? "true" : "false";
  }
  return out + "]}\n";
}

std::string dcbAppJson(const Device& dev, const RoceQosPlan& plan) {
  // iproute2 dcb/dcb_app.c: each dscp-prio rule a [dscp, priority] pair, the
  // DSCP as a number under -j (names only in the text form: `dscp-prio
  // AF31:3 CS6:6`); no rules at all print {}.
  if (!dev.port.dscp_trust) return "{}\n";
  return "{\"dscp_prio\":[[" + std::to_string(kRoceDscp) + "," + std::to_string(plan.roce_priority) + "],[" +
         std::to_string(kCnpDscp) + "," + std::to_string(plan.cnp_priority) + "]]}\n";
}

}  // namespace rdmagw::sim
