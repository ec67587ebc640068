#include "models/store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace rdmagw {
namespace {

const char* kCnp = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent";
const char* kOob = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/out-of-buffer";
const char* kFw = "/rdma/devices/device[name=mlx5_0]/state/fw-version";
const char* kPause = "/interfaces/interface[name=ens1f0np0]/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames";

Update up(std::string path, Value v, TimestampNs ts = 1, CounterSource src = {}) {
  return Update{std::move(path), std::move(v), ts, src};
}

TEST(StoreTest, KeepsLatestValueWithSchemaAndLabels) {
  Store store;
  std::vector<Update> batch = {up(kCnp, uint64_t{5}, 10), up(kCnp, uint64_t{9}, 20), up(kPause, uint64_t{3})};
  auto r = store.apply("host01", batch);
  EXPECT_EQ(r.applied, 3u);
  EXPECT_EQ(r.rejected, 0u);
  auto s = store.get("host01", kCnp);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(std::get<uint64_t>(s->value), 9u);
  EXPECT_EQ(s->timestamp_ns, 20);
  ASSERT_NE(s->schema, nullptr);
  EXPECT_EQ(s->schema->prom_name, "rdmagw_rdma_port_np_cnp_sent_total");
  EXPECT_EQ(s->label_values, (std::vector<std::string>{"mlx5_0", "1"}));
  auto p = store.get("host01", kPause);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->label_values, (std::vector<std::string>{"ens1f0np0", "3"}));
  EXPECT_EQ(store.seriesCount(), 2u);
}

TEST(StoreTest, RejectsBadUpdatesButKeepsTheRest) {
  Store store;
  std::vector<Update> batch = {
      up("/bad[path", uint64_t{1}),
      up(kCnp, std::string("not a number")),  // string into a counter
      up("/rdma/devices/device/ports/port[port-num=1]/state/hw-counters/np-cnp-sent", uint64_t{1}),  // key missing
      up(kFw, std::string("16.35.2000")),
  };
  auto r = store.apply("h", batch);
  EXPECT_EQ(r.applied, 1u);
  EXPECT_EQ(r.rejected, 3u);
  EXPECT_NE(r.first_error.find("bad path"), std::string::npos) << r.first_error;
  EXPECT_TRUE(store.get("h", kFw).has_value());
  EXPECT_FALSE(store.get("h", kCnp).has_value());
  EXPECT_EQ(store.targets().at(0).rejected_updates, 3u);
}

TEST(StoreTest, SeriesPerTargetAreCappedAndRefusalsCounted) {
  Store store(2);
  std::vector<Update> batch = {up(kCnp, uint64_t{1}), up(kPause, uint64_t{1}), up(kFw, std::string("x"))};
  auto r = store.apply("h", batch);
  EXPECT_EQ(r.applied, 2u);
  EXPECT_EQ(r.rejected, 1u);
  EXPECT_NE(r.first_error.find("per-target limit"), std::string::npos) << r.first_error;
  // Known leaves keep updating at the cap; other targets have their own.
  std::vector<Update> again = {up(kCnp, uint64_t{5})};
  EXPECT_EQ(store.apply("h", again).applied, 1u);
  EXPECT_EQ(std::get<uint64_t>(store.get("h", kCnp)->value), 5u);
  EXPECT_EQ(store.apply("g", batch).applied, 2u);
  EXPECT_EQ(store.targets()[1].rejected_updates, 1u);
}

TEST(StoreTest, UnknownLeavesAreKeptWithoutSchema) {
  Store store;
  std::vector<Update> batch = {up("/System/some/native[id=1]/leaf", int64_t{-4})};
  EXPECT_EQ(store.apply("sw1", batch).applied, 1u);
  auto s = store.get("sw1", "/System/some/native[id=1]/leaf");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->schema, nullptr);
}

TEST(StoreTest, CountersAreMadeMonotonicAndResetsCounted) {
  Store store;
  auto wrap = CounterSource::wrapping(32);
  std::vector<Update> b1 = {up(kOob, uint64_t{4294967290u}, 1, wrap), up(kCnp, uint64_t{1000}, 1)};
  std::vector<Update> b2 = {up(kOob, uint64_t{6}, 2, wrap), up(kCnp, uint64_t{3}, 2)};  // wrap; reboot
  store.apply("h", b1);
  store.apply("h", b2);
  EXPECT_EQ(std::get<uint64_t>(store.get("h", kOob)->value), 4294967296ull + 6);
  auto cnp = store.get("h", kCnp);
  EXPECT_EQ(std::get<uint64_t>(cnp->value), 1003u);
  EXPECT_EQ(cnp->discontinuity_ns, 2);
  EXPECT_EQ(store.targets().at(0).counter_resets, 1u);
}

TEST(StoreTest, RemovePrefixAndTarget) {
  Store store;
  std::vector<Update> batch = {up(kCnp, uint64_t{1}), up(kFw, std::string("x")), up(kPause, uint64_t{1})};
  store.apply("h", batch);
  store.apply("g", batch);
  EXPECT_EQ(store.remove("h", *Path::parse("/rdma/devices/device[name=mlx5_0]/ports")), 1u);
  EXPECT_FALSE(store.get("h", kCnp).has_value());
  EXPECT_TRUE(store.get("h", kFw).has_value());
  store.removeTarget("g");
  EXPECT_EQ(store.targets().size(), 1u);
  EXPECT_EQ(store.seriesCount(), 2u);
}

TEST(StoreTest, ExpireDataKeepsHealth) {
  Store store;
  TargetHealth h;
  h.kind = "rdma-host";
  h.up = false;
  store.setHealth("h", h);
  std::vector<Update> batch = {up(kCnp, uint64_t{1})};
  store.apply("h", batch);
  store.expireData("h");
  auto t = store.targets();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].series, 0u);
  EXPECT_EQ(t[0].health.kind, "rdma-host");
}

class RecordingListener : public ChangeListener {
 public:
  void onChanges(std::string_view target, std::span<const Change> changes) override {
    std::lock_guard lock(mu);
    for (const Change& c : changes) seen.push_back(std::string(target) + " " + c.path + (c.deleted ? " deleted" : ""));
  }
  std::mutex mu;
  std::vector<std::string> seen;
};

TEST(StoreTest, NotifiesChangesOnlyWhenValuesChange) {
  Store store;
  RecordingListener l;
  uint64_t id = store.addListener(&l);
  std::vector<Update> b = {up(kFw, std::string("a"))};
  store.apply("h", b);
  store.apply("h", b);  // same value: no change
  std::vector<Update> b2 = {up(kFw, std::string("b"))};
  store.apply("h", b2);
  store.remove("h", *Path::parse("/rdma"));
  store.removeListener(id);
  store.apply("h", b);
  ASSERT_EQ(l.seen.size(), 3u);
  EXPECT_EQ(l.seen[0], std::string("h ") + kFw);
  EXPECT_EQ(l.seen[2], std::string("h ") + kFw + " deleted");
}

TEST(StoreTest, RemovingOneLeafTakesOnlyThatLeafAndSaysSo) {
  Store store;
  RecordingListener l;
  std::vector<Update> batch = {up(kCnp, uint64_t{1}), up(kFw, std::string("x")), up(kPause, uint64_t{1})};
  store.apply("h", batch);
  uint64_t id = store.addListener(&l);
  EXPECT_EQ(store.remove("h", *Path::parse(kCnp)), 1u);
  EXPECT_EQ(store.remove("h", *Path::parse(kCnp)), 0u);  // gone: nothing left to remove
  store.removeListener(id);
  EXPECT_FALSE(store.get("h", kCnp).has_value());
  EXPECT_TRUE(store.get("h", kFw).has_value());
  EXPECT_TRUE(store.get("h", kPause).has_value());
  ASSERT_EQ(l.seen.size(), 1u);
  EXPECT_EQ(l.seen[0], std::string("h ") + kCnp + " deleted");
}

TEST(StoreTest, ExpiringOrRemovingATargetNotifiesDeletes) {
  Store store;
  RecordingListener l;
  uint64_t id = store.addListener(&l);
  std::vector<Update> b = {up(kFw, std::string("a")), up(kCnp, uint64_t{3})};
  store.apply("h", b);
  store.apply("g", b);
  store.expireData("h");
  store.removeTarget("g");
  store.removeTarget("absent");
  store.removeListener(id);
  ASSERT_EQ(l.seen.size(), 8u);  // 2 + 2 applied, then 2 + 2 deleted
  std::vector<std::string> tail(l.seen.begin() + 6, l.seen.end());
  std::sort(tail.begin(), tail.end());
  EXPECT_EQ(tail[0], std::string("g ") + kCnp + " deleted");
  EXPECT_EQ(tail[1], std::string("g ") + kFw + " deleted");
  std::vector<std::string> mid(l.seen.begin() + 4, l.seen.begin() + 6);
  std::sort(mid.begin(), mid.end());
  EXPECT_EQ(mid[0], std::string("h ") + kCnp + " deleted");
  EXPECT_EQ(mid[1], std::string("h ") + kFw + " deleted");
  EXPECT_EQ(store.seriesCount(), 0u);
}

// A poll that reads a table whole deletes the rows the device dropped, and
// only under the subtrees it names: a sibling table and other targets keep
// theirs.
TEST(StoreTest, ReplacedSubtreeLosesTheRowsThePollNoLongerWrites) {
  const std::string map = "/interfaces/interface[name=ens1f0np0]/ethernet/dcb/dscp-priorities";
  const auto rule = [&](int dscp) {
    return map + "/dscp-priority[dscp=" + std::to_string(dscp) + "]/state/priority";
  };
  const std::string tc = "/interfaces/interface[name=ens1f0np0]/ethernet/dcb/traffic-classes/traffic-class[id=3]/state/tsa";
  Store store;
  PollBatch first;
  for (int dscp : {24, 26, 48}) first.add(rule(dscp), Value{uint64_t{3}}, 1);
  first.add(tc, Value{std::string("ets")}, 1);
  first.replaceSubtree(map);
  store.apply("h", first);
  store.apply("g", first);
  ASSERT_EQ(store.seriesCount(), 8u);

  RecordingListener l;
  const uint64_t id = store.addListener(&l);
  PollBatch second;  // DSCP 24's rule and the TC are gone from this reading
  second.add(rule(26), Value{uint64_t{3}}, 2);
  second.add(rule(48), Value{uint64_t{6}}, 2);
  second.replaceSubtree(map);
  Store::ApplyResult r = store.apply("h", second);
  store.removeListener(id);
  EXPECT_EQ(r.applied, 2u);
  EXPECT_FALSE(store.get("h", rule(24)).has_value());
  ASSERT_TRUE(store.get("h", rule(48)).has_value());
  EXPECT_EQ(std::get<uint64_t>(store.get("h", rule(48))->value), 6u);
  EXPECT_TRUE(store.get("h", tc).has_value()) << "not under the replaced subtree";
  EXPECT_TRUE(store.get("g", rule(24)).has_value()) << "another target";
  ASSERT_EQ(l.seen.size(), 2u);  // 48 changed, 24 deleted
  EXPECT_EQ(l.seen[1], "h " + rule(24) + " deleted");

  // A batch that names no subtree deletes nothing; a bad subtree neither.
  PollBatch partial;
  partial.add(rule(26), Value{uint64_t{3}}, 3);
  partial.replaceSubtree("/interfaces/interface[name=");
  store.apply("h", partial);
  EXPECT_TRUE(store.get("h", rule(48)).has_value());
  // The prefix is a whole path element: dscp-priorities-x is not under it.
  EXPECT_EQ(store.removeUnwritten("h", std::vector<std::string>{map.substr(0, map.size() - 2)}, {}), 0u);
}

// A "*" key names the subtree under every row of a list: each interface's
// watchdog goes unless written, while the interfaces' other leaves, a
// written row and a path that only starts alike stay.
TEST(StoreTest, ReplacedSubtreeWithAStarKeySpansEveryRow) {
  const auto wd = [](const std::string& port) {
    return "/interfaces/interface[name=" + port + "]/ethernet/pfc/watchdog/state/enabled";
  };
  const std::string mtu = "/interfaces/interface[name=Ethernet1/2]/state/mtu";
  const std::string alike = "/interfaces/interface[name=Ethernet1/2]/ethernet/pfc/watchdog-interval";
  Store store;
  PollBatch first;
  for (const char* port : {"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}) first.add(wd(port), Value{uint64_t{1}}, 1);
  first.add(mtu, Value{uint64_t{9216}}, 1);
  first.add(alike, Value{std::string("on")}, 1);
  store.apply("leaf01", first);

  PollBatch second;
  second.add(wd("Ethernet1/3"), Value{uint64_t{0}}, 2);
  second.replaceSubtree("/interfaces/interface[name=*]/ethernet/pfc/watchdog");
  store.apply("leaf01", second);
  EXPECT_FALSE(store.get("leaf01", wd("Ethernet1/1")).has_value());
  EXPECT_FALSE(store.get("leaf01", wd("Ethernet1/2")).has_value());
  ASSERT_TRUE(store.get("leaf01", wd("Ethernet1/3")).has_value());
  EXPECT_EQ(std::get<uint64_t>(store.get("leaf01", wd("Ethernet1/3"))->value), 0u);
  EXPECT_TRUE(store.get("leaf01", mtu).has_value());
  EXPECT_TRUE(store.get("leaf01", alike).has_value()) << "watchdog-interval is not under watchdog";
}

// Path prefixes and their label values are interned once per store and
// shared by every target; readers use them without the interning lock. Churn
// them from several writers (series come and go, targets expire) while a
// reader checks that every series' labels still match its path.
TEST(StoreTest, SharedPathPiecesStayConsistentUnderChurn) {
  Store store;
  std::atomic<bool> done{false};
  auto pathOf = [](int dev, int port) {
    return "/rdma/devices/device[name=mlx5_" + std::to_string(dev) + "]/ports/port[port-num=" +
           std::to_string(port) + "]/state/hw-counters/np-cnp-sent";
  };
  std::vector<std::thread> writers;
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&, w] {
      const std::string target = "host" + std::to_string(w);
      for (int round = 0; round < 200; ++round) {
        std::vector<Update> b;
        for (int d = 0; d < 4; ++d) b.push_back(up(pathOf((d + round) % 6, round % 3), uint64_t(round)));
        store.apply(target, b);
        if (round % 7 == 0) store.remove(target, *Path::parse("/rdma/devices/device[name=mlx5_" + std::to_string(round % 6) + "]"));
        if (round % 31 == 0) store.expireData(target);
      }
    });
  }
  std::atomic<size_t> checked{0};
  std::thread reader([&] {
    while (!done) {
      store.forEach([&](const SeriesView& v) {
        ASSERT_EQ(v.label_values.size(), 2u);
        const std::string want = "[name=" + v.label_values[0] + "]/ports/port[port-num=" + v.label_values[1] + "]";
        ASSERT_NE(v.path.find(want), std::string_view::npos) << v.path;
        ++checked;
      });
    }
  });
  for (auto& t : writers) t.join();
  done = true;
  reader.join();
  for (int w = 0; w < 3; ++w) {
    for (const SeriesSnapshot& s : store.snapshot("host" + std::to_string(w))) {
      EXPECT_NE(s.path.find("[name=" + s.label_values[0] + "]"), std::string::npos) << s.path;
    }
  }
}

TEST(StoreTest, ConcurrentWritersAndReaders) {
  Store store;
  std::atomic<bool> done{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&store, w] {
      std::string target = "host" + std::to_string(w);
      for (uint64_t i = 1; i <= 2000; ++i) {
        std::vector<Update> b = {up(kCnp, i, int64_t(i)), up(kPause, i * 2, int64_t(i))};
        store.apply(target, b);
      }
    });
  }
  std::thread reader([&] {
    while (!done) {
      store.forEach([](const SeriesView& v) {
        // Counters never go down while written concurrently.
        ASSERT_TRUE(std::holds_alternative<uint64_t>(v.value));
      });
    }
  });
  for (auto& t : writers) t.join();
  done = true;
  reader.join();
  EXPECT_EQ(store.seriesCount(), 8u);
  for (int w = 0; w < 4; ++w) {
    EXPECT_EQ(std::get<uint64_t>(store.get("host" + std::to_string(w), kCnp)->value), 2000u);
  }
}

}  // namespace
}  // namespace rdmagw
