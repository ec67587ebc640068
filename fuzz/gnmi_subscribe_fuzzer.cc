// The gNMI server's Subscribe validation: a SubscribeRequest decoded from the
// fuzz bytes as protobuf goes through what a stream does with its first
// request (subscribe_session.cc): a SubscriptionList checked into a spec
// (subscription_spec.h), the change filter derived from it
// (change_interest.h), then each entry's pattern matched against the
// store's leaves. The filter may pass too much, never too little.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gnmi.pb.h"
#include "models/path.h"
#include "northbound/gnmi/change_interest.h"
#include "northbound/gnmi/leaf_cache.h"
#include "northbound/gnmi/subscription_spec.h"
#include "tests/northbound/gnmi/test_store.h"

using namespace rdmagw;
using namespace rdmagw::northbound::gnmi;

namespace {

struct Leaf {
  std::string target;
  std::string path;
};

const std::vector<Leaf>& storeLeaves() {
  using namespace rdmagw::testing;
  static const std::vector<Leaf> leaves = [] {
    std::vector<Leaf> out;
    for (const char* host : {"host01", "host02"}) {
      for (const std::string* p : {&kHostIfIn, &kHostIfOut, &kHostFw, &kHostPortState, &kHostPortRate, &kHostXmit}) {
        out.push_back({host, *p});
      }
    }
    for (const std::string* p : {&kLeafIn1, &kLeafIn2, &kLeafQueue}) out.push_back({"leaf01", *p});
    return out;
  }();
  return leaves;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static LeafCache* cache = new LeafCache(64);
  gnmi::SubscribeRequest request;
  if (!request.ParseFromArray(data, int(size)) || !request.has_subscribe()) return 0;
  SubscriptionSpec spec;
  grpc::Status st = parseSubscriptionList(request.subscribe(), SampleLimits{}, &spec);
  if (!st.ok()) {
    if (st.error_message().empty()) __builtin_trap();
    return 0;
  }
  for (const SubscriptionEntry& e : spec.entries) {
    (void)formatDuration(e.interval);
    (void)formatDuration(e.heartbeat);
  }
  const ChangeInterest interest(interestOf(spec));
  for (const Leaf& leaf : storeLeaves()) {
    ParsedLeafPtr parsed = cache->lookup(leaf.path);
    if (!parsed) __builtin_trap();  // the store's own paths always parse
    for (const SubscriptionEntry& e : spec.entries) {
      if (!e.pattern.selectsTarget(leaf.target)) continue;
      std::optional<size_t> m = e.pattern.match(parsed->path);
      if (!m) continue;
      if (*m > parsed->path.elems().size()) __builtin_trap();
      const bool listens = spec.list_mode == gnmi::SubscriptionList::STREAM &&
                           e.mode != SubscriptionEntry::Mode::kSample;
      if (listens && !interest.wants(leaf.target, leaf.path)) __builtin_trap();
    }
  }
  return 0;
}
