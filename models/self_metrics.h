#pragma once
// Gateway self-metrics that a component reports about itself (the gNMI
// server's subscribers, notifications, errors...), for any northbound to
// export without knowing the component: a component adds a source that
// appends samples, each naming a GatewayMetric row of the schema table by
// id with label values in the row's label order. The Prometheus northbound
// reads them with collect(); no northbound knows who wrote them.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw {

struct SelfMetricSample {
  std::string_view id;                    // a GatewayMetric id, e.g. "gnmi_updates_sent"
  std::vector<std::string> label_values;  // one per label of the row, in order
  double value = 0;
};

class SelfMetrics {
 public:
  using Source = std::function<void(std::vector<SelfMetricSample>*)>;

  // The process's registry (components and exporters meet here).
  static SelfMetrics& instance();

  // Returns an id for remove(). A source runs on the collecting thread and
  // must only read (atomics, short locks).
  uint64_t add(Source source);
  // Returns once no collect() runs the source any more.
  void remove(uint64_t id);
  std::vector<SelfMetricSample> collect() const;

 private:
  mutable std::mutex mu_;  // held while sources run, so remove() waits for them
  std::map<uint64_t, Source> sources_;  // guarded by mu_
  uint64_t next_id_ = 1;                // guarded by mu_
};

}  // namespace rdmagw
