#include "southbound/rdma/ib_class.h"

#include <algorithm>

namespace rdmagw::southbound::rdma {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::binary_search(names.begin(), names.end(), name);
}

// "12" -> 12; anything else -> nullopt (ports and GID slots are numbered).
std::optional<uint32_t> asIndex(const std::string& s) {
  Result<uint64_t> v = parseCounter(s);
  if (!v.isOk() || v.value() > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(v.value());
}

std::vector<std::pair<uint32_t, std::string>> numbered(const std::vector<std::string>& names,
                                                       std::vector<std::string>* rejected) {
  std::vector<std::pair<uint32_t, std::string>> out;
  for (const std::string& n : names) {
    if (std::optional<uint32_t> i = asIndex(n)) {
      out.emplace_back(*i, n);
    } else if (rejected) {
      rejected->push_back(n);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

// Reads one device. Errors are buffered: when the device disappears midway
// (driver unload, VF removal) they collapse into one line for the device.
class IbClass::DeviceRead {
 public:
  DeviceRead(IbClass& owner, std::string name)
      : owner_(owner), dir_(std::string(kInfinibandDir) + "/" + name) {
    dev_.name = std::move(name);
  }

  // Returns false when the device vanished; *errors gets one line for it.
  bool run(std::vector<std::string>* errors);
  IbDevice take() { return std::move(dev_); }

 private:
  std::optional<std::vector<std::string>> list(const std::string& rel, bool quiet = false);
  std::optional<std::string> text(const std::string& rel, bool quiet = false);
  void noteFailure(const Status& st, bool quiet);
  void parseError(const std::string& rel, const Status& why);

  template <typename T, typename Parse>
  void readInto(const std::vector<std::string>& listing, const std::string& dir,
                const std::string& file, std::optional<Reading<T>>* out, Parse parse);
  void readPort(uint32_t num, const std::string& name);
  void readCounters(const std::string& rel, std::vector<IbCounter>* out, bool skip_lifespan);
  void readNetdev(IbPort& port, const std::string& port_dir,
                  const std::vector<std::string>& listing);

  IbClass& owner_;
  std::string dir_;
  IbDevice dev_;
  std::vector<std::string> errors_;
  bool vanished_ = false;
  std::string vanish_reason_;
  std::optional<std::vector<std::string>> device_netdevs_;  // device/net, read at most once
};

void IbClass::DeviceRead::noteFailure(const Status& st, bool quiet) {
  if (st.code() == Status::Code::kNotFound && !vanished_) {
    // A missing file we just listed: did the whole device go away?
    Result<std::vector<std::string>> again = owner_.reader_.listDir(dir_);
    if (!again.isOk()) {
      vanished_ = true;
      vanish_reason_ = st.message();
    }
  }
  if (!quiet && !vanished_) errors_.push_back(st.message());
}

void IbClass::DeviceRead::parseError(const std::string& rel, const Status& why) {
  errors_.push_back(owner_.reader_.displayPath(rel) + ": " + why.message());
}

std::optional<std::vector<std::string>> IbClass::DeviceRead::list(const std::string& rel,
                                                                  bool quiet) {
  if (vanished_) return std::nullopt;
  Result<std::vector<std::string>> r = owner_.reader_.listDir(rel);
  if (!r.isOk()) {
    noteFailure(r.status(), quiet);
    return std::nullopt;
  }
  return std::move(r).value();
}

std::optional<std::string> IbClass::DeviceRead::text(const std::string& rel, bool quiet) {
  if (vanished_) return std::nullopt;
  Result<std::string> r = owner_.reader_.readFile(rel);
  if (!r.isOk()) {
    noteFailure(r.status(), quiet);
    return std::nullopt;
  }
  return std::move(r).value();
}

template <typename T, typename Parse>
void IbClass::DeviceRead::readInto(const std::vector<std::string>& listing, const std::string& dir,
                                   const std::string& file, std::optional<Reading<T>>* out,
                                   Parse parse) {
  if (!contains(listing, file)) return;  // absent: nullopt, not an error
  const std::string rel = dir + "/" + file;
  std::optional<std::string> raw = text(rel);
  if (!raw) return;
  TimestampNs ts = owner_.clock_();
  Result<T> v = parse(*raw);
  if (!v.isOk()) {
    parseError(rel, v.status());
    return;
  }
  *out = Reading<T>{std::move(v).value(), ts};
}

namespace {

Result<std::string> asString(const std::string& raw) {
  std::string_view t = trimValue(raw);
  if (t.empty()) return Status::corrupt("empty value");
  return std::string(t);
}

}  // namespace

bool IbClass::DeviceRead::run(std::vector<std::string>* errors) {
  Result<std::vector<std::string>> top = owner_.reader_.listDir(dir_);
  std::optional<std::vector<std::string>> listing;
  if (top.isOk()) {
    listing = std::move(top).value();
  } else if (top.status().code() != Status::Code::kNotFound) {
    errors->push_back("rdma device " + dev_.name + " skipped: " + top.status().message());
    return false;
  }
  if (listing) {
    readInto(*listing, dir_, "fw_ver", &dev_.fw_ver, asString);
    readInto(*listing, dir_, "hca_type", &dev_.hca_type, asString);
    readInto(*listing, dir_, "board_id", &dev_.board_id, asString);
    readInto(*listing, dir_, "node_guid", &dev_.node_guid, asString);
    if (contains(*listing, "ports")) {
      std::vector<std::string> rejected;
      if (std::optional<std::vector<std::string>> ports = list(dir_ + "/ports")) {
        for (const auto& [num, name] : numbered(*ports, &rejected)) readPort(num, name);
      }
      for (const std::string& r : rejected) {
        errors_.push_back(owner_.reader_.displayPath(dir_ + "/ports/" + r) + ": not a port number");
      }
    }
  } else {
    vanished_ = true;  // listed under class/infiniband a moment ago, gone now
    vanish_reason_ = top.status().message();
  }
  if (vanished_) {
    errors->push_back("rdma device " + dev_.name + " vanished during the poll (" + vanish_reason_ +
                      "); skipped");
    return false;
  }
  errors->insert(errors->end(), errors_.begin(), errors_.end());
  return true;
}

void IbClass::DeviceRead::readPort(uint32_t num, const std::string& name) {
  const std::string pdir = dir_ + "/ports/" + name;
  std::optional<std::vector<std::string>> listing = list(pdir);
  if (!listing) return;
  IbPort port;
  port.num = num;
  readInto(*listing, pdir, "state", &port.state, parseIbEnum);
  readInto(*listing, pdir, "phys_state", &port.phys_state, parseIbEnum);
  readInto(*listing, pdir, "rate", &port.rate_bps, parseRateBps);
  readInto(*listing, pdir, "link_layer", &port.link_layer, asString);
  // bnxt_re and irdma have no counters/: nothing to read, nothing to report.
  if (contains(*listing, "counters")) readCounters(pdir + "/counters", &port.counters, false);
  if (contains(*listing, "hw_counters")) {
    readCounters(pdir + "/hw_counters", &port.hw_counters, true);
  }
  readNetdev(port, pdir, *listing);
  if (!vanished_) dev_.ports.push_back(std::move(port));
}

void IbClass::DeviceRead::readCounters(const std::string& rel, std::vector<IbCounter>* out,
                                       bool skip_lifespan) {
  if (vanished_) return;
  // The directory is read in one go: one path walk, not one per counter.
  Result<std::vector<SysfsFile>> files = owner_.reader_.readDir(rel);
  if (!files.isOk()) {
    noteFailure(files.status(), false);
    return;
  }
  out->reserve(out->size() + files->size());
  for (SysfsFile& f : files.value()) {
    if (skip_lifespan && f.name == "lifespan") continue;  // cache lifetime in ms, not a counter
    if (vanished_) return;
    if (!f.content.isOk()) {
      noteFailure(f.content.status(), false);
      continue;
    }
    TimestampNs ts = owner_.clock_();
    Result<uint64_t> v = parseCounter(*f.content);
    if (!v.isOk()) {
      parseError(rel + "/" + f.name, v.status());
      continue;
    }
    out->push_back(IbCounter{std::move(f.name), v.value(), ts});
  }
}

void IbClass::DeviceRead::readNetdev(IbPort& port, const std::string& port_dir,
                                     const std::vector<std::string>& listing) {
  // RoCE: the GID table names the netdev. Empty slots answer EINVAL: skip them
  // quietly. InfiniBand GIDs carry no netdev, so IB ports skip the scan.
  bool roce = port.link_layer && port.link_layer->value == "Ethernet";
  if (roce && contains(listing, "gid_attrs")) {
    const std::string ndevs = port_dir + "/gid_attrs/ndevs";
    if (std::optional<std::vector<std::string>> slots = list(ndevs, /*quiet=*/true)) {
      for (const auto& [idx, slot] : numbered(*slots, nullptr)) {
        std::optional<std::string> raw = text(ndevs + "/" + slot, /*quiet=*/true);
        if (!raw || trimValue(*raw).empty()) continue;
        port.netdev = Reading<std::string>{std::string(trimValue(*raw)), owner_.clock_()};
        return;
      }
    }
  }
  // Fallback (IPoIB, old kernels): device/net/<if>; several netdevs are told
  // apart by dev_port, which counts ports from 0.
  if (vanished_) return;
  if (!device_netdevs_) {
    device_netdevs_ =
        list(dir_ + "/device/net", /*quiet=*/true).value_or(std::vector<std::string>{});
  }
  if (device_netdevs_->size() == 1) {
    port.netdev = Reading<std::string>{device_netdevs_->front(), owner_.clock_()};
    return;
  }
  for (const std::string& ifname : *device_netdevs_) {
    std::optional<std::string> dp = text(dir_ + "/device/net/" + ifname + "/dev_port", true);
    if (!dp) continue;
    Result<uint64_t> v = parseCounter(*dp);
    if (v.isOk() && v.value() + 1 == port.num) {
      port.netdev = Reading<std::string>{ifname, owner_.clock_()};
      return;
    }
  }
}

IbClass::IbClass(SysfsReader& reader, DeviceFilter filter, Clock clock)
    : reader_(reader), filter_(std::move(filter)), clock_(std::move(clock)) {}

Result<std::vector<IbDevice>> IbClass::read(std::vector<std::string>* errors) {
  Result<std::vector<std::string>> names = reader_.listDir(kInfinibandDir);
  if (!names.isOk()) {
    return Status::unavailable("cannot list RDMA devices: " + names.status().message());
  }
  std::vector<IbDevice> devices;
  for (const std::string& name : names.value()) {
    if (!filter_.accepts(name)) continue;  // before ANY read of the device
    DeviceRead dr(*this, name);
    if (dr.run(errors)) devices.push_back(dr.take());
  }
  return devices;
}

}  // namespace rdmagw::southbound::rdma
