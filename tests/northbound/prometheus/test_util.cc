#include "tests/northbound/prometheus/test_util.h"

#include <gtest/gtest.h>

namespace rdmagw::testing {

void put(Store* store, const std::string& target, const std::string& path, Value v) {
  Update u{path, std::move(v), nowNs(), CounterSource::monotonic64()};
  Store::ApplyResult r = store->apply(target, std::span<const Update>(&u, 1));
  ASSERT_EQ(r.rejected, 0u) << path << ": " << r.first_error;
}

void fillStore(Store* store) {
  put(store, "host01", kCnpPath, uint64_t{42});
  put(store, "host01", kPfcPath, uint64_t{7});
  put(store, "host01", kPfcDurationPath, uint64_t{1500000});
  put(store, "host01", kFwPath, std::string("14.28.2006"));
  put(store, "host01", kRatePath, uint64_t{100000000000});
  put(store, "host01", kUnknownPath, uint64_t{5});

  TargetHealth up;
  up.kind = "rdma-host";
  up.transport = "sysfs";
  up.up = true;
  up.last_attempt_ns = 1700000000'000000000;
  up.last_success_ns = 1700000000'500000000;
  up.poll_duration_ns = 250'000'000;
  up.polls = 10;
  up.poll_errors = 1;
  up.read_errors = 2;
  up.labels = {{"rack", "r1"}};
  store->setHealth("host01", up);

  TargetHealth down;
  down.kind = "nexus";
  down.transport = "gnmi";
  down.up = false;
  down.polls = 3;
  down.poll_errors = 3;
  down.last_error = "connection refused";
  store->setHealth("down1", down);
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

}  // namespace rdmagw::testing
