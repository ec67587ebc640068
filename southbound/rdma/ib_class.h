#pragma once
// Reads /sys/class/infiniband through a SysfsReader into plain structs, the
// way procfs' sysfs/class_infiniband.go does for node_exporter. Absent files
// stay std::nullopt (never 0). Every file that cannot be read or parsed
// becomes one line in *errors and the rest is kept (node_exporter #966).
//
// Cost: every counters/ read is a firmware command on mlx5, so devices are
// filtered by name before anything of theirs is touched, and only files that
// the directory listing shows are read.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"
#include "models/value.h"
#include "southbound/rdma/device_filter.h"
#include "southbound/rdma/sysfs_reader.h"
#include "southbound/rdma/sysfs_values.h"

namespace rdmagw::southbound::rdma {

// A value and the time the poll read it.
template <typename T>
struct Reading {
  T value;
  TimestampNs ts = 0;
};

struct IbCounter {
  std::string name;  // sysfs file name, as is ("port_xmit_data", "VL15_dropped")
  uint64_t raw = 0;  // as read: port_*_data still in 4-octet words
  TimestampNs ts = 0;
};

struct IbPort {
  uint32_t num = 0;
  std::optional<Reading<IbEnum>> state;       // "4: ACTIVE"
  std::optional<Reading<IbEnum>> phys_state;  // "5: LinkUp"
  std::optional<Reading<uint64_t>> rate_bps;
  std::optional<Reading<std::string>> link_layer;
  std::optional<Reading<std::string>> netdev;
  std::vector<IbCounter> counters;     // counters/ (IB PMA); empty on bnxt_re, irdma
  std::vector<IbCounter> hw_counters;  // hw_counters/, without "lifespan"
};

struct IbDevice {
  std::string name;
  std::optional<Reading<std::string>> fw_ver;
  std::optional<Reading<std::string>> hca_type;
  std::optional<Reading<std::string>> board_id;
  std::optional<Reading<std::string>> node_guid;
  std::vector<IbPort> ports;
};

class IbClass {
 public:
  using Clock = std::function<TimestampNs()>;

  // reader must outlive this object.
  IbClass(SysfsReader& reader, DeviceFilter filter, Clock clock);

  // Non-ok (kUnavailable, naming the path) only when class/infiniband itself
  // cannot be listed; any other failure is a line in *errors.
  Result<std::vector<IbDevice>> read(std::vector<std::string>* errors);

 private:
  class DeviceRead;

  SysfsReader& reader_;
  DeviceFilter filter_;
  Clock clock_;
};

inline constexpr const char* kInfinibandDir = "class/infiniband";

}  // namespace rdmagw::southbound::rdma
