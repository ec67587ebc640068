#pragma once
// RDMA netlink replies built byte by byte, as <rdma/rdma_netlink.h> and
// <linux/netlink.h> lay them out (native byte order, 4-byte alignment, the
// kernel's nests without NLA_F_NESTED, a u64 after a PAD attribute as
// nla_put_u64_64bit leaves it), kept apart from the code under test so the
// two do not share a mistake.

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace rdmagw::testing {

using Bytes = std::vector<uint8_t>;

inline void put16(Bytes& b, uint16_t v) {
  b.insert(b.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 2);
}
inline void put32(Bytes& b, uint32_t v) {
  b.insert(b.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 4);
}
inline void pad4(Bytes& b) {
  while (b.size() % 4 != 0) b.push_back(0);
}

inline Bytes attr(uint16_t type, const Bytes& payload) {
  Bytes b;
  put16(b, uint16_t(4 + payload.size()));
  put16(b, type);
  b.insert(b.end(), payload.begin(), payload.end());
  pad4(b);
  return b;
}
inline Bytes u32(uint16_t type, uint32_t v) {
  Bytes p;
  put32(p, v);
  return attr(type, p);
}
inline Bytes u64(uint16_t type, uint64_t v) {
  Bytes p(8);
  std::memcpy(p.data(), &v, 8);
  Bytes b = attr(RDMA_NLDEV_ATTR_PAD, {});  // what nla_put_u64_64bit may add first
  Bytes value = attr(type, p);
  b.insert(b.end(), value.begin(), value.end());
  return b;
}
inline Bytes str(uint16_t type, const std::string& s) {
  Bytes p(s.begin(), s.end());
  p.push_back(0);  // nla_put_string includes the NUL
  return attr(type, p);
}
inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) b.insert(b.end(), p.begin(), p.end());
  return b;
}
inline Bytes nest(uint16_t type, std::initializer_list<Bytes> children) { return attr(type, cat(children)); }

inline Bytes message(uint16_t type, uint16_t flags, uint32_t seq, const Bytes& payload) {
  Bytes b;
  put32(b, uint32_t(16 + payload.size()));
  put16(b, type);
  put16(b, flags);
  put32(b, seq);
  put32(b, 0);  // from the kernel
  b.insert(b.end(), payload.begin(), payload.end());
  pad4(b);
  return b;
}
inline uint16_t nldev(uint16_t command) { return uint16_t((RDMA_NL_NLDEV << 10) + command); }
inline Bytes done(uint32_t seq) {
  Bytes p;
  put32(p, 0);
  return message(NLMSG_DONE, NLM_F_MULTI, seq, p);
}
inline Bytes error(uint32_t seq, int code) {
  Bytes p;
  put32(p, uint32_t(code));
  Bytes request(16, 0);  // the request's header, echoed
  p.insert(p.end(), request.begin(), request.end());
  return message(NLMSG_ERROR, 0, seq, p);
}

inline Bytes hwCounter(const std::string& name, uint64_t value) {
  return nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, {str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name),
                                                     u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value)});
}

// One bound counter as fill_res_counter_entry lays it out.
inline Bytes counterEntry(uint32_t port, uint32_t id, uint32_t pid, std::vector<uint32_t> qpns,
                          std::vector<std::pair<std::string, uint64_t>> hw) {
  Bytes qps;
  for (uint32_t qpn : qpns) {
    Bytes entry = nest(RDMA_NLDEV_ATTR_RES_QP_ENTRY, {u32(RDMA_NLDEV_ATTR_RES_LQPN, qpn)});
    qps.insert(qps.end(), entry.begin(), entry.end());
  }
  Bytes counters;
  for (const auto& [name, value] : hw) {
    Bytes entry = hwCounter(name, value);
    counters.insert(counters.end(), entry.begin(), entry.end());
  }
  return nest(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,
              {u32(RDMA_NLDEV_ATTR_PORT_INDEX, port), u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id),
               u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO),
               u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMA_COUNTER_MASK_PID), attr(RDMA_NLDEV_ATTR_RES_QP, qps),
               attr(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, counters), u32(RDMA_NLDEV_ATTR_RES_PID, pid)});
}

// One device's message of a STAT_GET dump: its handle, then the counter table.
inline Bytes deviceCounters(uint32_t seq, uint32_t index, const std::string& name,
                            std::initializer_list<Bytes> entries) {
  return message(nldev(RDMA_NLDEV_CMD_STAT_GET), NLM_F_MULTI, seq,
                 cat({u32(RDMA_NLDEV_ATTR_DEV_INDEX, index), str(RDMA_NLDEV_ATTR_DEV_NAME, name),
                      attr(RDMA_NLDEV_ATTR_STAT_COUNTER, cat(entries))}));
}

inline Bytes portMessage(uint32_t seq, uint32_t index, const std::string& name, uint32_t port) {
  return message(nldev(RDMA_NLDEV_CMD_PORT_GET), NLM_F_MULTI, seq,
                 cat({u32(RDMA_NLDEV_ATTR_DEV_INDEX, index), str(RDMA_NLDEV_ATTR_DEV_NAME, name),
                      u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)}));
}

}  // namespace rdmagw::testing
