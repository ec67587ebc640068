// ExpositionWriter's part about the targets rather than their leaves: the
// gateway's own families (rdmagw_target_up, _info, poll figures, and the
// scrape's own duration), and each target's label set with its extra
// config labels. The schema's leaves are exposition.cc.

#include <algorithm>

#include "northbound/prometheus/exposition.h"
#include "northbound/prometheus/text_format.h"

namespace rdmagw::northbound::prometheus {
namespace {

using prometheus::appendDouble;
using prometheus::appendLabelValue;
using prometheus::appendUint;

double toSeconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace

void ExpositionWriter::addGatewayFamilies(const SchemaTable& table) {
  struct Source {
    std::string_view id;
    bool (*value)(const TargetStatus&, std::string*);
  };
  static const Source kSources[] = {
      {"target_up", [](const TargetStatus& t, std::string* o) { o->push_back(t.health.up ? '1' : '0'); return true; }},
      {"target_info", [](const TargetStatus&, std::string* o) { o->push_back('1'); return true; }},
      {"poll_duration", [](const TargetStatus& t, std::string* o) { appendDouble(o, toSeconds(t.health.poll_duration_ns)); return true; }},
      {"polls", [](const TargetStatus& t, std::string* o) { appendUint(o, t.health.polls); return true; }},
      {"poll_errors", [](const TargetStatus& t, std::string* o) { appendUint(o, t.health.poll_errors); return true; }},
      {"read_errors", [](const TargetStatus& t, std::string* o) { appendUint(o, t.health.read_errors); return true; }},
      {"last_success", [](const TargetStatus& t, std::string* o) {
         if (t.health.last_success_ns == 0) return false;
         appendDouble(o, toSeconds(t.health.last_success_ns));
         return true;
       }},
      {"series", [](const TargetStatus& t, std::string* o) { appendUint(o, t.series); return true; }},
      {"counter_resets", [](const TargetStatus& t, std::string* o) { appendUint(o, t.counter_resets); return true; }},
      {"rejected_updates", [](const TargetStatus& t, std::string* o) { appendUint(o, t.rejected_updates); return true; }},
      {"scrape_duration", nullptr},  // label-less; written from last_build_ns_
      {"scrape_cpu", nullptr},       // label-less; written from last_build_cpu_ns_
      {"exposition_time", nullptr},  // label-less; this build's start
  };
  for (const Source& src : kSources) {
    const GatewayMetric& m = table.gateway(src.id);  // aborts if the table lost the row
    GatewayFamily g;
    g.header = prometheus::familyHeader(m.prom_name, m.help, m.kind == LeafKind::kCounter);
    g.labels = SchemaTable::splitLabels(m.labels);
    g.prefix = std::string(m.prom_name) + (g.labels.empty() ? " " : "{");
    g.value = src.value;
    if (src.id == "exposition_time") {
      g.build_time = true;
    } else if (g.value == nullptr) {
      g.previous_build_ns = src.id == "scrape_cpu" ? &last_build_cpu_ns_ : &last_build_ns_;
    }
    for (std::string_view label : g.labels) reserved_labels_.emplace_back(label);
    gateway_.push_back(std::move(g));
  }
}

// Extra config labels must not produce an invalid or rejected scrape: names
// are sanitized, and a name the schema already uses (or `__` reserved ones,
// or a repeat) is dropped: Prometheus fails the whole scrape on a duplicate
// label name, so one bad config label would hide every series.
std::vector<ExpositionWriter::TargetLabels> ExpositionWriter::targetLabels(
    const std::vector<TargetStatus>& targets) const {
  std::vector<TargetLabels> out;
  out.reserve(targets.size());
  for (const TargetStatus& t : targets) {
    TargetLabels tl;
    tl.name = t.name;
    appendLabelValue(&tl.escaped, t.name);
    tl.tail = "\"";
    tl.info_tail = "\"";
    std::vector<std::string> used;
    for (const auto& [raw_name, value] : t.health.labels) {
      std::string name = prometheus::sanitizeLabelName(raw_name);
      if (name.empty() || name.starts_with("__") ||
          std::binary_search(reserved_labels_.begin(), reserved_labels_.end(), name) ||
          std::find(used.begin(), used.end(), name) != used.end()) {
        continue;
      }
      std::string label = "," + name + "=\"";
      appendLabelValue(&label, value);
      label.push_back('"');
      tl.tail.append(label);
      if (!std::binary_search(info_labels_.begin(), info_labels_.end(), name)) tl.info_tail.append(label);
      used.push_back(std::move(name));
    }
    tl.tail.append("} ");
    tl.info_tail.append("} ");
    tl.padded_escaped.assign(tl.escaped);
    tl.padded_tail.assign(tl.tail);
    out.push_back(std::move(tl));
  }
  return out;
}

void ExpositionWriter::writeGateway(std::string* out, const std::vector<TargetStatus>& targets,
                                    const std::vector<TargetLabels>& labels, int64_t build_unix_ns) const {
  for (const GatewayFamily& g : gateway_) {
    out->append(g.header);
    if (g.build_time || g.previous_build_ns != nullptr) {  // the exposition's own figures
      const int64_t ns = g.build_time ? build_unix_ns : g.previous_build_ns->load(std::memory_order_relaxed);
      out->append(g.prefix);
      appendDouble(out, toSeconds(ns));
      out->push_back('\n');
      continue;
    }
    for (size_t t = 0; t < targets.size(); ++t) {
      const TargetStatus& ts = targets[t];
      std::string value;
      if (!g.value(ts, &value)) continue;
      out->append(g.prefix);
      for (size_t i = 0; i < g.labels.size(); ++i) {
        std::string_view name = g.labels[i];
        if (i > 0) out->append("\",");
        out->append(name).append("=\"");
        if (name == kTargetLabel) {
          out->append(labels[t].escaped);
        } else if (name == "kind") {
          appendLabelValue(out, ts.health.kind);
        } else if (name == "transport") {
          appendLabelValue(out, ts.health.transport);
        }
      }
      out->append(labels[t].tail);
      out->append(value);
      out->push_back('\n');
    }
  }
}

}  // namespace rdmagw::northbound::prometheus
