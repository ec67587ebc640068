#include "northbound/prometheus/exposition_cache.h"

#include <malloc.h>

#include "models/log.h"
#include "models/thread_role.h"
#include "northbound/prometheus/gzip_body.h"

namespace rdmagw::northbound::prometheus {
namespace {
constexpr const char* kComponent = "prometheus";
}  // namespace

ExpositionCache::ExpositionCache(const Store& store, const ExpositionWriter& writer,
                                 std::chrono::milliseconds period)
    : store_(store), writer_(writer), period_(period) {}

ExpositionCache::~ExpositionCache() { stop(); }

void ExpositionCache::start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (running_) return;
  running_ = true;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void ExpositionCache::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!running_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  running_ = false;
}

std::shared_ptr<const BuiltExposition> ExpositionCache::latest(std::chrono::milliseconds wait) const {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, wait, [this] { return latest_ != nullptr || stopping_ || !running_; });
  return latest_;
}

void ExpositionCache::run() {
  enterThreadRole("prom-prebuild", ThreadRole::kServe);
  // Fixed rate from each build's start, so the exposition's age stays within
  // one period; a build longer than the period is followed at once by the
  // next, never overlapped.
  auto next = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (cv_.wait_until(lock, next, [this] { return stopping_; })) break;
    next = std::chrono::steady_clock::now() + period_;
    lock.unlock();
    buildOnce();
    lock.lock();
  }
}

void ExpositionCache::buildOnce() {
  auto built = std::make_shared<BuiltExposition>();
  Result<std::string> gz = Status::internal("not built");
  {
    // The text lives only while it is compressed: the pooled buckets are
    // given back to the writer before the gzip is published.
    Exposition text;
    writer_.build(store_, &text);
    built->text_bytes = text.size();
    gz = gzipCompress(text.pieces());
  }
  const bool ok = gz.isOk();
  if (ok) built->gzip = std::move(gz).value();
  bool had_one = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    had_one = latest_ != nullptr;
    // The previous one lives on while a scrape still sends it.
    if (ok) latest_ = std::move(built);
  }
  cv_.notify_all();
  if (!ok) {
    RDMAGW_LOG(kWarn, kComponent) << "prebuilt exposition not refreshed: " << gz.status().message()
                                  << (had_one ? "; serving the previous one" : "");
  }
  // The build's transient blocks (target labels, the previous gzip once its
  // last scrape ends) went back to the heap, which keeps them.
  malloc_trim(0);
}

}  // namespace rdmagw::northbound::prometheus
