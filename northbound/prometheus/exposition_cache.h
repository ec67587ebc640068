#pragma once
// A prebuilt /metrics exposition, rebuilt on a thread of its own every
// refresh period and served, already gzipped, to every scrape meanwhile.
//
// Why: at a million series a build is ~60-90 ms of CPU and its gzip ~175 ms
// more, and on a gateway whose ingest keeps its cores busy a scrape built on
// demand waited for a CPU for 0.1-2 s (docs/performance.md). Prebuilt, a
// scrape only sends ~5 MB of gzip, and its time no longer grows with the
// fabric nor with how busy ingest is. The price is age: a scrape sees the
// store as it was at most one refresh period ago (the exposition says when:
// rdmagw_exposition_timestamp_seconds), which is why it is off by default
// and meant for large gateways whose devices sample every 10 s or slower.
//
// Memory: the text is only held while one build is compressed (the writer's
// pooled buckets, as a scrape built on demand holds them); between builds
// the cache keeps the gzip, ~1/18 of the text, and the previous one until
// its last reader lets it go.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "models/store.h"
#include "northbound/prometheus/exposition.h"

namespace rdmagw::northbound::prometheus {

// One built exposition, immutable once published.
struct BuiltExposition {
  std::string gzip;       // the whole text as one gzip member
  size_t text_bytes = 0;  // the text's own size (a plain scrape's Content-Length)
};

class ExpositionCache {
 public:
  // `store` and `writer` must outlive the cache. `period` > 0.
  ExpositionCache(const Store& store, const ExpositionWriter& writer, std::chrono::milliseconds period);
  ~ExpositionCache();
  ExpositionCache(const ExpositionCache&) = delete;
  ExpositionCache& operator=(const ExpositionCache&) = delete;

  // Starts the builder thread; its first build begins at once.
  void start();
  // Stops and joins it, after the build in progress (a latest() waiting for
  // the first build returns null).
  void stop();

  // The newest exposition. Before the first one is built, waits for it up to
  // `wait`; null when it did not come (stopped, or a build that failed).
  std::shared_ptr<const BuiltExposition> latest(std::chrono::milliseconds wait) const;

 private:
  void run();
  void buildOnce();

  const Store& store_;
  const ExpositionWriter& writer_;
  const std::chrono::milliseconds period_;

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::shared_ptr<const BuiltExposition> latest_;
  bool stopping_ = false;
  bool running_ = false;
  std::thread thread_;
};

}  // namespace rdmagw::northbound::prometheus
