#include "southbound/nxos/nxos_emit.h"

#include "models/path.h"
#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {

using text::JsonParse;
using text::parseJson;

namespace {

Path ifBase(const std::string& ifname) {
  Path p;
  p.add("interfaces").add("interface", {{"name", ifname}});
  return p;
}

Path qosBase(const std::string& ifname) {
  Path p;
  p.add("qos").add("interfaces").add("interface", {{"interface-id", ifname}});
  return p;
}

}  // namespace

std::string ifStatePath(const std::string& ifname, std::string_view leaf) {
  return ifBase(ifname).add("state").add(std::string(leaf)).toString();
}

std::string ifCounterPath(const std::string& ifname, std::string_view leaf) {
  return ifBase(ifname).add("state").add("counters").add(std::string(leaf)).toString();
}

std::string ethCounterPath(const std::string& ifname, std::string_view leaf) {
  return ifBase(ifname).add("ethernet").add("state").add("counters").add(std::string(leaf)).toString();
}

std::string pfcStatePath(const std::string& ifname, std::string_view leaf) {
  return ifBase(ifname).add("ethernet").add("pfc").add("state").add(std::string(leaf)).toString();
}

std::string pfcCounterPath(const std::string& ifname, std::string_view leaf) {
  return ifBase(ifname)
      .add("ethernet")
      .add("pfc")
      .add("state")
      .add("counters")
      .add(std::string(leaf))
      .toString();
}

std::string priorityCounterPath(const std::string& ifname, int priority, std::string_view leaf) {
  return ifBase(ifname)
      .add("ethernet")
      .add("pfc")
      .add("priorities")
      .add("priority", {{"id", std::to_string(priority)}})
      .add("state")
      .add("counters")
      .add(std::string(leaf))
      .toString();
}

std::string queuePath(const std::string& ifname, const std::string& queue, std::string_view leaf) {
  return qosBase(ifname)
      .add("output")
      .add("queues")
      .add("queue", {{"name", queue}})
      .add("state")
      .add(std::string(leaf))
      .toString();
}

std::string qosInputPath(const std::string& ifname, std::string_view leaf) {
  return qosBase(ifname).add("input").add("state").add(std::string(leaf)).toString();
}

Emitter::Emitter(std::string_view format, TimestampNs ts, PollBatch& out)
    : format_(format), ts_(ts), out_(out) {}

void Emitter::counter(std::string path, uint64_t v) {
  out_.add(std::move(path), Value{v}, ts_, CounterSource::monotonic64());
  ++emitted_;
}

void Emitter::gauge(std::string path, uint64_t v) {
  out_.add(std::move(path), Value{v}, ts_);
  ++emitted_;
}

void Emitter::text(std::string path, std::string v) {
  out_.add(std::move(path), Value{std::move(v)}, ts_);
  ++emitted_;
}

void Emitter::error(std::string msg) { out_.error(format_ + ": " + msg); }

void Emitter::deviceError(std::string banner) {
  if (!banner_) banner_ = banner;
  error("device error: " + banner);
}

void Emitter::badCell(size_t line_no, std::string_view column, const Status& s) {
  error("line " + std::to_string(line_no) + ", column '" + std::string(column) +
        "': " + s.message() + " (no value)");
}

Status Emitter::finish(std::string_view what_was_expected) {
  if (emitted_ > 0) return Status::ok();
  if (banner_) return Status::invalidArgument(format_ + ": device error: " + *banner_);
  return Status::corrupt(format_ + ": no " + std::string(what_was_expected) + " found");
}

std::optional<JsonParse> openJsonReply(std::string_view text, Emitter& em) {
  const size_t js = jsonStart(text);
  if (js == std::string_view::npos) {
    for (std::string_view line : splitLines(text)) {
      if (auto banner = deviceErrorLine(line)) em.deviceError(*banner);
    }
    return std::nullopt;
  }
  JsonParse doc = parseJson(text.substr(js));
  if (!doc.complete) em.error("JSON damaged (" + doc.error + "); rows read before the damage are kept");
  return doc;
}

}  // namespace rdmagw::southbound::nxos
