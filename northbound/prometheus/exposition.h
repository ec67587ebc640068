#pragma once
// Writes the Prometheus text exposition (format 0.0.4) straight from the
// Store at scrape time. Built fresh on every scrape, so a series that left
// the store leaves /metrics and goes stale in Prometheus.
//
// Speed is the point of this file (prometheus-cpp's serializer needs ~1 s
// per million series): one pass over the store, appending each sample to a
// per-family buffer indexed by schema row so every family comes out
// contiguous; everything that depends only on the schema row (HELP/TYPE
// header, `name{target="` prefix, `",label="` separators, scaling) or only
// on the target (escaped name, extra labels) is built once, not per sample.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "models/schema.h"
#include "models/store.h"
#include "northbound/prometheus/info_rows.h"
#include "northbound/prometheus/sample_buffer.h"

namespace rdmagw::northbound::prometheus {

struct ExpositionStats {
  size_t series = 0;           // device samples written (gateway families not counted)
  size_t unknown_skipped = 0;  // series with no schema row: kept in the store, never named
  size_t invalid_skipped = 0;  // a value the row cannot show (a string on a counter row)
  size_t bytes = 0;
  int64_t build_ns = 0;
  int64_t build_cpu_ns = 0;  // the building thread's CPU time: build_ns minus what others took
};

// One built exposition as pieces in order: the gateway's own families,
// then each family's HELP/TYPE header and its samples. The server writes
// (or compresses) the pieces as they are: joining them would copy the whole
// text (~90 MB at a million series) and keep a second buffer that size.
// Holds the writer's pooled sample buckets until it is destroyed or built
// again, so send it, then let it go.
class Exposition {
 public:
  Exposition() = default;
  Exposition(const Exposition&) = delete;
  Exposition& operator=(const Exposition&) = delete;

  const std::vector<std::string_view>& pieces() const { return pieces_; }
  size_t size() const { return size_; }
  std::string join() const;

 private:
  friend class ExpositionWriter;
  std::string head_;                       // the gateway's and components' own families
  std::string info_rows_;                  // the info rows' families (info_rows.h)
  std::unique_lock<std::mutex> pool_lock_;  // the writer's buckets, lent to this exposition
  std::unique_ptr<SampleBuffer[]> local_;   // buckets of its own when the pool was busy
  std::vector<std::string_view> pieces_;
  size_t size_ = 0;
};

class ExpositionWriter {
 public:
  ExpositionWriter();
  ~ExpositionWriter();
  ExpositionWriter(const ExpositionWriter&) = delete;
  ExpositionWriter& operator=(const ExpositionWriter&) = delete;

  // Thread-safe: concurrent scrapes each build their own exposition. Takes
  // no lock of its own beyond the bucket pool's (a busy pool means buckets
  // of its own); only the per-target locks Store::forEach takes.
  void build(const Store& store, Exposition* out, ExpositionStats* stats = nullptr) const;
  // The same joined into one string: for tests and small stores.
  std::string build(const Store& store, ExpositionStats* stats = nullptr) const;

 private:
  struct Family;
  struct GatewayFamily {
    std::string header;
    std::string prefix;                    // name{  (or name for the label-less family)
    std::vector<std::string_view> labels;  // target, kind, transport...
    // Appends the sample value; false omits the sample (last_success never happened).
    bool (*value)(const TargetStatus&, std::string*) = nullptr;
    // A label-less family about the exposition itself: the previous build's
    // figure in ns (value is null then)...
    const std::atomic<int64_t>* previous_build_ns = nullptr;
    // ...or this build's own start, in Unix ns.
    bool build_time = false;
  };

  // Everything a sample needs from its target, built once per scrape.
  struct TargetLabels {
    std::string name;
    std::string escaped;  // label-escaped target name
    std::string tail;     // "` + extra labels + `} : closes the last label value
    // The same for info rows: without the extra labels an info row names
    // itself (a target labelled pod=... keeps it everywhere else).
    std::string info_tail;
    PaddedText padded_escaped;
    PaddedText padded_tail;
  };

  // The gateway families (exposition_gateway.cc), their labels reserved.
  void addGatewayFamilies(const SchemaTable& table);
  std::vector<TargetLabels> targetLabels(const std::vector<TargetStatus>& targets) const;
  void writeGateway(std::string* out, const std::vector<TargetStatus>& targets,
                    const std::vector<TargetLabels>& labels, int64_t build_unix_ns) const;

  std::vector<Family> families_;           // one per SchemaTable::leaves() row, same index
  InfoRowLayout info_layout_{SchemaTable::instance()};
  std::vector<GatewayFamily> gateway_;     // in exposition order
  std::vector<std::string> reserved_labels_;  // extra labels may not reuse these names
  std::vector<std::string> info_labels_;      // sorted: the info rows' own label names
  const LeafSchema* first_leaf_ = nullptr;

  // Per-family buckets kept between scrapes (peak memory: about twice the
  // text) and the lock that lends them to one scrape at a time.
  mutable std::mutex pool_mu_;
  std::unique_ptr<SampleBuffer[]> pool_;

  // Bucket sizes of the previous build, to reserve once instead of regrowing.
  std::unique_ptr<std::atomic<size_t>[]> size_hints_;
  mutable std::atomic<int64_t> last_build_ns_{0};      // exported as the scrape duration
  mutable std::atomic<int64_t> last_build_cpu_ns_{0};  // exported as the scrape CPU time
};

}  // namespace rdmagw::northbound::prometheus
