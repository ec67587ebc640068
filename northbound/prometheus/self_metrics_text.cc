#include "northbound/prometheus/self_metrics_text.h"

#include <map>

#include "models/schema.h"
#include "models/self_metrics.h"
#include "northbound/prometheus/text_format.h"

namespace rdmagw::northbound::prometheus {

void appendSelfMetrics(std::string* out) {
  std::vector<SelfMetricSample> samples = SelfMetrics::instance().collect();
  if (samples.empty()) return;
  std::map<std::string_view, std::vector<const SelfMetricSample*>> by_id;
  for (const SelfMetricSample& s : samples) by_id[s.id].push_back(&s);
  // Table order, so the exposition is stable from scrape to scrape.
  for (const GatewayMetric& m : SchemaTable::instance().gatewayMetrics()) {
    auto it = by_id.find(m.id);
    if (it == by_id.end()) continue;
    const std::vector<std::string_view> labels = SchemaTable::splitLabels(m.labels);
    out->append("# HELP ").append(m.prom_name).push_back(' ');
    prometheus::appendHelpText(out, m.help);
    out->append("\n# TYPE ").append(m.prom_name);
    out->append(m.kind == LeafKind::kCounter ? " counter\n" : " gauge\n");
    for (const SelfMetricSample* s : it->second) {
      if (s->label_values.size() != labels.size()) continue;  // a reporter bug: never a broken line
      out->append(m.prom_name);
      for (size_t i = 0; i < labels.size(); ++i) {
        out->append(i == 0 ? "{" : ",").append(labels[i]).append("=\"");
        prometheus::appendLabelValue(out, s->label_values[i]);
        out->push_back('"');
      }
      if (!labels.empty()) out->push_back('}');
      out->push_back(' ');
      prometheus::appendDouble(out, s->value);
      out->push_back('\n');
    }
  }
}

}  // namespace rdmagw::northbound::prometheus
