#include "southbound/k8s/rdma_netlink.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cstring>

namespace rdmagw::southbound::k8s {
namespace {

constexpr size_t kHeader = sizeof(nlmsghdr);
constexpr size_t kAttrHeader = sizeof(nlattr);

size_t aligned(size_t n) { return (n + 3) & ~size_t{3}; }

uint16_t nldevType(uint16_t command) { return RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, command); }

// A request under construction: the header's length is set by finish().
class Request {
 public:
  Request(uint16_t type, uint16_t flags, uint32_t seq) : bytes_(kHeader, 0) {
    nlmsghdr header{};
    header.nlmsg_type = type;
    header.nlmsg_flags = flags;
    header.nlmsg_seq = seq;
    std::memcpy(bytes_.data(), &header, kHeader);
  }
  Request& u32(uint16_t type, uint32_t value) {
    nlattr attr{};
    attr.nla_len = uint16_t(kAttrHeader + sizeof(value));
    attr.nla_type = type;
    const size_t at = bytes_.size();
    bytes_.resize(at + aligned(attr.nla_len), 0);
    std::memcpy(bytes_.data() + at, &attr, kAttrHeader);
    std::memcpy(bytes_.data() + at + kAttrHeader, &value, sizeof(value));
    return *this;
  }
  NetlinkBytes finish() {
    const uint32_t length = uint32_t(bytes_.size());
    std::memcpy(bytes_.data() + offsetof(nlmsghdr, nlmsg_len), &length, sizeof(length));
    return std::move(bytes_);
  }

 private:
  NetlinkBytes bytes_;
};

struct Attr {
  uint16_t type = 0;  // without the nested and byte-order flags
  std::span<const uint8_t> payload;
};

// The attributes of one message or nest, in order.
Result<std::vector<Attr>> readAttrs(std::span<const uint8_t> bytes, const std::string& where) {
  std::vector<Attr> out;
  size_t at = 0;
  while (at < bytes.size()) {
    if (bytes.size() - at < kAttrHeader) {
      return Status::corrupt(where + ": " + std::to_string(bytes.size() - at) +
                             " bytes left, too few for an attribute");
    }
    nlattr attr;
    std::memcpy(&attr, bytes.data() + at, kAttrHeader);
    if (attr.nla_len < kAttrHeader || attr.nla_len > bytes.size() - at) {
      return Status::corrupt(where + ": attribute " + std::to_string(attr.nla_type & NLA_TYPE_MASK) + " of length " +
                             std::to_string(attr.nla_len) + " overruns its " + std::to_string(bytes.size() - at) +
                             " bytes");
    }
    out.push_back(
        {uint16_t(attr.nla_type & NLA_TYPE_MASK), bytes.subspan(at + kAttrHeader, attr.nla_len - kAttrHeader)});
    at += std::min(aligned(attr.nla_len), bytes.size() - at);
  }
  return out;
}

std::string attrName(uint16_t type) { return "attribute " + std::to_string(type); }

template <typename T>
Result<T> number(const Attr& attr, const std::string& where) {
  if (attr.payload.size() != sizeof(T)) {
    return Status::corrupt(where + ": " + attrName(attr.type) + " holds " + std::to_string(attr.payload.size()) +
                           " bytes, not the " + std::to_string(sizeof(T)) + " of its number");
  }
  T value;
  std::memcpy(&value, attr.payload.data(), sizeof(T));
  return value;
}

// A NUL-terminated string, as the kernel puts it.
std::string text(const Attr& attr) {
  std::string out(reinterpret_cast<const char*>(attr.payload.data()), attr.payload.size());
  const size_t nul = out.find('\0');
  if (nul != std::string::npos) out.resize(nul);
  return out;
}

// The children of a nest that must all be `entry` nests.
Result<std::vector<std::span<const uint8_t>>> entries(const Attr& table, uint16_t entry, const std::string& where) {
  Result<std::vector<Attr>> children = readAttrs(table.payload, where);
  if (!children.isOk()) return children.status();
  std::vector<std::span<const uint8_t>> out;
  for (const Attr& child : *children) {
    if (child.type != entry) {
      return Status::corrupt(where + ": " + attrName(child.type) + " where only entries (" + attrName(entry) +
                             ") belong");
    }
    out.push_back(child.payload);
  }
  return out;
}

// One message of a reply, its attributes not yet read.
struct Message {
  uint16_t type = 0;
  uint32_t seq = 0;
  std::span<const uint8_t> payload;
};

Result<std::vector<Message>> readMessages(std::span<const uint8_t> bytes) {
  std::vector<Message> out;
  size_t at = 0;
  while (at < bytes.size()) {
    const std::string where = "message at byte " + std::to_string(at);
    if (bytes.size() - at < kHeader) {
      return Status::corrupt(where + ": " + std::to_string(bytes.size() - at) + " bytes, too few for a header");
    }
    nlmsghdr header;
    std::memcpy(&header, bytes.data() + at, kHeader);
    if (header.nlmsg_len < kHeader || header.nlmsg_len > bytes.size() - at) {
      return Status::corrupt(where + ": length " + std::to_string(header.nlmsg_len) + " past the reply's " +
                             std::to_string(bytes.size() - at) + " bytes");
    }
    out.push_back({header.nlmsg_type, header.nlmsg_seq, bytes.subspan(at + kHeader, header.nlmsg_len - kHeader)});
    at += std::min<size_t>(NLMSG_ALIGN(header.nlmsg_len), bytes.size() - at);
  }
  return out;
}

// The error code of an NLMSG_ERROR or NLMSG_DONE (0 when it carries none).
Result<int> errorCode(const Message& message) {
  if (message.payload.empty() && message.type == NLMSG_DONE) return 0;
  if (message.payload.size() < sizeof(int)) return Status::corrupt("netlink error message without its code");
  int code;
  std::memcpy(&code, message.payload.data(), sizeof(code));
  return code;
}

Status kernelError(int code, const std::string& what) {
  // A kernel error is a negative errno; anything else (INT_MIN would not
  // even negate) is a damaged reply.
  if (code >= 0 || code < -4095) {
    return Status::corrupt("RDMA netlink " + what + ": error code " + std::to_string(code) + " is no errno");
  }
  return Status::unavailable("RDMA netlink " + what + ": " + std::strerror(-code) + " (errno " + std::to_string(-code) +
                             ")");
}

// The command messages of a dump, with the kernel's error if it sent one.
Result<std::vector<Message>> dumpMessages(std::span<const uint8_t> reply, uint16_t command, const std::string& what) {
  Result<std::vector<Message>> messages = readMessages(reply);
  if (!messages.isOk()) return messages.status();
  std::vector<Message> out;
  for (const Message& message : *messages) {
    if (message.type == NLMSG_ERROR || message.type == NLMSG_DONE) {
      Result<int> code = errorCode(message);
      if (!code.isOk()) return code.status();
      if (*code < 0) return kernelError(*code, what);
      continue;
    }
    if (message.type == NLMSG_NOOP) continue;
    if (message.type != nldevType(command)) {
      return Status::corrupt(what + ": message of type " + std::to_string(message.type) + ", not " +
                             std::to_string(nldevType(command)));
    }
    out.push_back(message);
  }
  return out;
}

// The device a message is about: its index and name.
Status readDevice(const std::vector<Attr>& attrs, const std::string& where, uint32_t& index, std::string& name) {
  bool have_index = false;
  for (const Attr& attr : attrs) {
    if (attr.type == RDMA_NLDEV_ATTR_DEV_INDEX) {
      Result<uint32_t> value = number<uint32_t>(attr, where);
      if (!value.isOk()) return value.status();
      index = *value;
      have_index = true;
    } else if (attr.type == RDMA_NLDEV_ATTR_DEV_NAME) {
      name = text(attr);
    }
  }
  if (!have_index) return Status::corrupt(where + ": no device index");
  return Status::ok();
}

Status readHwCounters(const Attr& table, const std::string& where, QpCounter& counter) {
  Result<std::vector<std::span<const uint8_t>>> list = entries(table, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, where);
  if (!list.isOk()) return list.status();
  for (std::span<const uint8_t> entry : *list) {
    Result<std::vector<Attr>> attrs = readAttrs(entry, where + " hw counter");
    if (!attrs.isOk()) return attrs.status();
    std::optional<std::string> name;
    std::optional<uint64_t> value;
    for (const Attr& attr : *attrs) {
      if (attr.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME) name = text(attr);
      if (attr.type != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE) continue;
      Result<uint64_t> v = number<uint64_t>(attr, where + " hw counter");
      if (!v.isOk()) return v.status();
      value = *v;
    }
    if (!name || name->empty() || !value) return Status::corrupt(where + ": a hw counter without its name or value");
    counter.hw_counters.emplace_back(std::move(*name), *value);
  }
  return Status::ok();
}

Status readQps(const Attr& table, const std::string& where, QpCounter& counter) {
  Result<std::vector<std::span<const uint8_t>>> list = entries(table, RDMA_NLDEV_ATTR_RES_QP_ENTRY, where);
  if (!list.isOk()) return list.status();
  for (std::span<const uint8_t> entry : *list) {
    Result<std::vector<Attr>> attrs = readAttrs(entry, where + " QP");
    if (!attrs.isOk()) return attrs.status();
    for (const Attr& attr : *attrs) {
      if (attr.type != RDMA_NLDEV_ATTR_RES_LQPN) continue;
      Result<uint32_t> qpn = number<uint32_t>(attr, where + " QP");
      if (!qpn.isOk()) return qpn.status();
      counter.qpns.push_back(*qpn);
    }
  }
  return Status::ok();
}

Status readCounter(std::span<const uint8_t> entry, const std::string& where, QpCounter& counter) {
  Result<std::vector<Attr>> attrs = readAttrs(entry, where);
  if (!attrs.isOk()) return attrs.status();
  bool have_port = false;
  bool have_id = false;
  for (const Attr& attr : *attrs) {
    Status st;
    if (attr.type == RDMA_NLDEV_ATTR_PORT_INDEX || attr.type == RDMA_NLDEV_ATTR_STAT_COUNTER_ID ||
        attr.type == RDMA_NLDEV_ATTR_RES_PID) {
      Result<uint32_t> value = number<uint32_t>(attr, where);
      if (!value.isOk()) return value.status();
      if (attr.type == RDMA_NLDEV_ATTR_PORT_INDEX) counter.port = *value, have_port = true;
      if (attr.type == RDMA_NLDEV_ATTR_STAT_COUNTER_ID) counter.counter_id = *value, have_id = true;
      if (attr.type == RDMA_NLDEV_ATTR_RES_PID) counter.pid = *value;
    } else if (attr.type == RDMA_NLDEV_ATTR_RES_KERN_NAME) {
      counter.kern_name = text(attr);
    } else if (attr.type == RDMA_NLDEV_ATTR_RES_QP) {
      st = readQps(attr, where, counter);
    } else if (attr.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTERS) {
      st = readHwCounters(attr, where, counter);
    }
    if (!st.isOk()) return st;
  }
  if (!have_port || !have_id) return Status::corrupt(where + ": a counter without its port or id");
  return Status::ok();
}

}  // namespace

NetlinkBytes buildPortDumpRequest(uint32_t seq) {
  return Request(nldevType(RDMA_NLDEV_CMD_PORT_GET), NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, seq).finish();
}

NetlinkBytes buildQpCounterDumpRequest(uint32_t seq) {
  return Request(nldevType(RDMA_NLDEV_CMD_STAT_GET), NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, seq)
      .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)
      .finish();
}

NetlinkBytes buildSetAutoPidRequest(uint32_t seq, uint32_t device_index, uint32_t port) {
  return Request(nldevType(RDMA_NLDEV_CMD_STAT_SET), NLM_F_REQUEST | NLM_F_ACK, seq)
      .u32(RDMA_NLDEV_ATTR_DEV_INDEX, device_index)
      .u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)
      .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)
      .u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO)
      .u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMA_COUNTER_MASK_PID)
      .finish();
}

Result<std::vector<RdmaPort>> parsePortDump(std::span<const uint8_t> reply) {
  Result<std::vector<Message>> messages = dumpMessages(reply, RDMA_NLDEV_CMD_PORT_GET, "port dump");
  if (!messages.isOk()) return messages.status();
  std::vector<RdmaPort> out;
  for (const Message& message : *messages) {
    const std::string where = "port dump message " + std::to_string(out.size());
    Result<std::vector<Attr>> attrs = readAttrs(message.payload, where);
    if (!attrs.isOk()) return attrs.status();
    RdmaPort port;
    if (Status st = readDevice(*attrs, where, port.device_index, port.device); !st.isOk()) return st;
    bool have_port = false;
    for (const Attr& attr : *attrs) {
      if (attr.type != RDMA_NLDEV_ATTR_PORT_INDEX) continue;
      Result<uint32_t> value = number<uint32_t>(attr, where);
      if (!value.isOk()) return value.status();
      port.port = *value;
      have_port = true;
    }
    if (!have_port) return Status::corrupt(where + ": no port index");
    out.push_back(std::move(port));
  }
  return out;
}

Result<std::vector<QpCounter>> parseQpCounterDump(std::span<const uint8_t> reply) {
  Result<std::vector<Message>> messages = dumpMessages(reply, RDMA_NLDEV_CMD_STAT_GET, "QP counter dump");
  if (!messages.isOk()) return messages.status();
  std::vector<QpCounter> out;
  for (size_t m = 0; m < messages->size(); ++m) {
    const std::string where = "QP counter dump message " + std::to_string(m);
    Result<std::vector<Attr>> attrs = readAttrs((*messages)[m].payload, where);
    if (!attrs.isOk()) return attrs.status();
    QpCounter device;
    if (Status st = readDevice(*attrs, where, device.device_index, device.device); !st.isOk()) return st;
    for (const Attr& attr : *attrs) {
      if (attr.type != RDMA_NLDEV_ATTR_STAT_COUNTER) continue;
      Result<std::vector<std::span<const uint8_t>>> list = entries(attr, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY, where);
      if (!list.isOk()) return list.status();
      for (std::span<const uint8_t> entry : *list) {
        QpCounter counter;
        counter.device_index = device.device_index;
        counter.device = device.device;
        const std::string at = where + " (" + device.device + ") counter " + std::to_string(out.size());
        if (Status st = readCounter(entry, at, counter); !st.isOk()) return st;
        out.push_back(std::move(counter));
      }
    }
  }
  return out;
}

Status parseAck(std::span<const uint8_t> reply) {
  Result<std::vector<Message>> messages = readMessages(reply);
  if (!messages.isOk()) return messages.status();
  for (const Message& message : *messages) {
    if (message.type != NLMSG_ERROR) continue;
    Result<int> code = errorCode(message);
    if (!code.isOk()) return code.status();
    return *code < 0 ? kernelError(*code, "request") : Status::ok();
  }
  return Status::corrupt("RDMA netlink reply without an acknowledgement");
}

Result<NetlinkBytes> transact(RdmaNetlinkTransport& transport, const NetlinkBytes& request) {
  nlmsghdr sent;
  if (request.size() < kHeader) return Status::invalidArgument("RDMA netlink request shorter than its header");
  std::memcpy(&sent, request.data(), kHeader);
  const bool dump = (sent.nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
  if (Status st = transport.send(request); !st.isOk()) return st;
  NetlinkBytes gathered;
  // A dump of a node's counters is a few datagrams; a bound keeps a
  // misbehaving peer from holding the poll.
  for (int datagrams = 0; datagrams < 4096; ++datagrams) {
    Result<NetlinkBytes> datagram = transport.receive();
    if (!datagram.isOk()) return datagram.status();
    Result<std::vector<Message>> messages = readMessages(*datagram);
    if (!messages.isOk()) return messages.status();
    bool last = messages->empty();
    for (const Message& message : *messages) {
      if (message.seq != sent.nlmsg_seq) {
        return Status::corrupt("RDMA netlink reply of sequence " + std::to_string(message.seq) + ", not " +
                               std::to_string(sent.nlmsg_seq));
      }
      // An error ends any request; an acknowledgement ends a plain one (a
      // dump's ends with NLMSG_DONE, after which the kernel acks no more).
      if (message.type == NLMSG_DONE) last = true;
      if (message.type == NLMSG_ERROR) {
        Result<int> code = errorCode(message);
        if (!dump || !code.isOk() || *code < 0) last = true;
      }
    }
    gathered.insert(gathered.end(), datagram->begin(), datagram->end());
    if (last) return gathered;
  }
  return Status::corrupt("RDMA netlink reply did not end within 4096 datagrams");
}

Result<std::vector<RdmaPort>> listRdmaPorts(RdmaNetlinkTransport& transport, uint32_t seq) {
  Result<NetlinkBytes> reply = transact(transport, buildPortDumpRequest(seq));
  if (!reply.isOk()) return reply.status();
  return parsePortDump(*reply);
}

Result<std::vector<QpCounter>> dumpQpCounters(RdmaNetlinkTransport& transport, uint32_t seq) {
  Result<NetlinkBytes> reply = transact(transport, buildQpCounterDumpRequest(seq));
  if (!reply.isOk()) return reply.status();
  return parseQpCounterDump(*reply);
}

Status setAutoPidMode(RdmaNetlinkTransport& transport, uint32_t seq, const RdmaPort& port) {
  Result<NetlinkBytes> reply = transact(transport, buildSetAutoPidRequest(seq, port.device_index, port.port));
  if (!reply.isOk()) return reply.status();
  Status st = parseAck(*reply);
  if (!st.isOk()) return Status::unavailable(port.device + "/" + std::to_string(port.port) + ": " + st.message());
  return st;
}

}  // namespace rdmagw::southbound::k8s
