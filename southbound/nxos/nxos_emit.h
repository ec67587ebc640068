#pragma once
// Where the NX-OS parsers put their results: model paths (every one a row of
// models/schema.yaml) and a small collector of updates and error lines.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {

// /interfaces/interface[name=X]/state/<leaf> (description, oper-status)
std::string ifStatePath(const std::string& ifname, std::string_view leaf);
// /interfaces/interface[name=X]/state/counters/<leaf>
std::string ifCounterPath(const std::string& ifname, std::string_view leaf);
// /interfaces/interface[name=X]/ethernet/state/counters/<leaf>
std::string ethCounterPath(const std::string& ifname, std::string_view leaf);
// /interfaces/interface[name=X]/ethernet/pfc/state/<leaf>
std::string pfcStatePath(const std::string& ifname, std::string_view leaf);
// /interfaces/interface[name=X]/ethernet/pfc/state/counters/<leaf>
std::string pfcCounterPath(const std::string& ifname, std::string_view leaf);
// /interfaces/interface[name=X]/ethernet/pfc/priorities/priority[id=N]/state/counters/<leaf>
std::string priorityCounterPath(const std::string& ifname, int priority, std::string_view leaf);
// /qos/interfaces/interface[interface-id=X]/output/queues/queue[name=Q]/state/<leaf>
std::string queuePath(const std::string& ifname, const std::string& queue, std::string_view leaf);
// /qos/interfaces/interface[interface-id=X]/input/state/<leaf>
std::string qosInputPath(const std::string& ifname, std::string_view leaf);

// Collects one parse's updates and error lines; every error line is
// prefixed with the format name. finish() turns "nothing parsed" into the
// Status the ParserFormat contract asks for.
class Emitter {
 public:
  Emitter(std::string_view format, TimestampNs ts, PollBatch& out);

  void counter(std::string path, uint64_t v);
  void gauge(std::string path, uint64_t v);
  void text(std::string path, std::string v);
  void error(std::string msg);
  // A device error banner ("% Invalid command ..."): an error line, and the
  // returned Status when nothing else was parsed.
  void deviceError(std::string banner);
  // Reports a counter cell that failed to parse (overflow, garbage).
  void badCell(size_t line_no, std::string_view column, const Status& s);

  size_t emitted() const { return emitted_; }
  Status finish(std::string_view what_was_expected);

 private:
  std::string format_;
  TimestampNs ts_;
  PollBatch& out_;
  size_t emitted_ = 0;
  std::optional<std::string> banner_;
};

// The JSON document of a `| json` reply, parsed; damage is reported on `em`
// and the rows before it are kept. Without a document (an error banner
// instead), every device error line goes to `em` and the result is empty:
// the caller returns em.finish(...).
std::optional<text::JsonParse> openJsonReply(std::string_view text, Emitter& em);

}  // namespace rdmagw::southbound::nxos
