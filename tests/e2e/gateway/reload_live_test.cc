// Live reloads end to end, with real peers: the simulated fabric's host
// trees, a Nexus leaf's gNMI server, ESXi hosts behind a real sshd, a real
// Prometheus scraping every second, and an independent gNMI client
// (python3-grpcio) subscribed ON_CHANGE. Targets are added, removed,
// changed and a broken file is dropped in, each through the targets_dir and
// the file watch; the targets nobody touched keep their sessions and
// streams, their counters and every scrape.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/gateway/prometheus_process.h"
#include "tests/gateway/reload_bed.h"
#include "tests/northbound/gnmi/python_client.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test
namespace {

using std::chrono::milliseconds;
using testing::PythonClient;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

ReloadResult waitReload(ReloadBed& bed, uint64_t before) {
  EXPECT_TRUE(bed.reloader().waitForReloads(before + 1, testing::kEventWait)) << "no reload after a file changed";
  return bed.reloader().lastResult();
}

std::string metrics(ReloadBed& bed) {
  return testing::httpGet("http://127.0.0.1:" + std::to_string(bed.pipeline().prometheusPort()) + "/metrics");
}

TEST(ReloadLiveTest, AddRemoveChangeAndBreakWhileScrapedAndSubscribed) {
  if (!PrometheusProcess::installed()) GTEST_SKIP() << PrometheusProcess::kBinary << " not installed";
  BedOptions opts;
  opts.gnmi_northbound = true;
  ReloadBed bed(opts);
  const std::string peers = bed.startPeers();
  if (contains(peers, "needs root")) GTEST_SKIP() << peers;
  ASSERT_EQ(peers, "");
  std::string error;
  ASSERT_TRUE(testing::preparePythonClient(&error)) << error;

  const std::vector<std::string> kept = {"host01", "host02", "host03", "leaf01", "esx01"};
  auto base = [&bed](const std::string& esx02_labels) {
    return bed.hostYaml(1) + bed.hostYaml(2) + bed.hostYaml(3) + bed.leafYaml() + bed.esxiYaml(1) +
           bed.esxiYaml(2, esx02_labels);
  };
  bed.writeTargets("base.yaml", base(""));
  ASSERT_EQ(bed.startGateway(), "");
  ASSERT_TRUE(bed.waitUp({"host01", "host02", "host03", "leaf01", "esx01", "esx02"}));

  PrometheusProcess prom(bed.pipeline().prometheusPort());
  ASSERT_TRUE(prom.started());
  ASSERT_TRUE(prom.waitFor("rdmagw_target_up{target=\"leaf01\"}", "1")) << prom.lastResponse() << prom.log();
  ASSERT_TRUE(prom.waitFor("rdmagw_target_up{target=\"esx02\"}", "1")) << prom.lastResponse();
  const auto since = std::chrono::system_clock::now();

  const sim::ConnectionCounts leaf_before = bed.leaf().connectionCounts();
  const size_t esx01_before = bed.sshd().connectionCount("esx01");
  const size_t esx02_before = bed.sshd().connectionCount("esx02");
  ASSERT_GE(leaf_before.subscribes, 1u);
  ASSERT_GE(esx01_before, 1u);

  // Add 5: one new file.
  uint64_t done = bed.reloader().reloadsDone();
  std::string added;
  for (int h = 4; h <= 8; ++h) added += bed.hostYaml(h);
  bed.writeTargets("added.yaml", added);
  ReloadResult r = waitReload(bed, done);
  ASSERT_TRUE(r.ok) << r.summary();
  EXPECT_EQ(r.added, 5u);
  EXPECT_EQ(r.unchanged, 6u);
  ASSERT_TRUE(bed.waitUp({"host04", "host05", "host06", "host07", "host08"}));
  EXPECT_TRUE(prom.waitFor("rdmagw_target_up{target=\"host08\"}", "1")) << prom.lastResponse();

  // A subscriber of one of them, ON_CHANGE, until it goes.
  PythonClient sub(bed.pipeline().gnmiAddress(),
                   R"({"rpc": "sub", "target": "host06", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 120})");
  std::vector<std::string> initial = sub.until("SYNC");
  ASSERT_FALSE(initial.empty());
  ASSERT_EQ(initial.back(), "SYNC");

  // Remove 5: the file goes.
  done = bed.reloader().reloadsDone();
  bed.removeTargets("added.yaml");
  r = waitReload(bed, done);
  ASSERT_TRUE(r.ok) << r.summary();
  EXPECT_EQ(r.removed, 5u);
  EXPECT_EQ(bed.status("host06").name, "");
  const std::string body = metrics(bed);
  EXPECT_FALSE(contains(body, "target=\"host06\"")) << "a removed target is still exported";
  EXPECT_TRUE(contains(body, "target=\"host01\""));
  std::vector<std::string> after_removal = sub.until("D ");
  ASSERT_FALSE(after_removal.empty());
  EXPECT_EQ(after_removal.back().rfind("D ", 0), 0u) << "the ON_CHANGE subscriber got no delete";
  EXPECT_TRUE(prom.waitFor("rdmagw_target_up{target=\"host06\"}", "")) << prom.lastResponse();

  // Change 1: esx02 gets a label; it alone reconnects.
  done = bed.reloader().reloadsDone();
  bed.writeTargets("base.yaml", base(", rack: r9"));
  r = waitReload(bed, done);
  ASSERT_TRUE(r.ok) << r.summary();
  EXPECT_EQ(r.changed, 1u);
  EXPECT_EQ(r.unchanged, 5u);
  EXPECT_TRUE(testing::waitUntil([&] {
    return bed.status("esx02").health.up && bed.sshd().connectionCount("esx02") > esx02_before;
  })) << "esx02 did not restart";
  EXPECT_TRUE(prom.waitFor("rdmagw_target_up{target=\"esx02\",rack=\"r9\"}", "1")) << prom.lastResponse();

  // Break a file: refused as a whole, everything keeps running.
  done = bed.reloader().reloadsDone();
  bed.writeTargets("broken.yaml", bed.hostYaml(7) + "  intervall: 5s\n");
  r = waitReload(bed, done);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.errors.size(), 1u) << r.summary();
  EXPECT_EQ(r.errors[0], bed.targetsDir() + "/broken.yaml:10:3: targets[0].intervall: unknown key "
                         "(allowed: name, kind, address, transport, interval, stale_after, labels, placement_group, "
                         "credentials, rdma, kubernetes, gpu, ssh, gnmi, nxapi)");
  EXPECT_EQ(bed.running(), (std::vector<std::string>{"esx01", "esx02", "host01", "host02", "host03", "leaf01"}));
  EXPECT_EQ(bed.status("host07").name, "");
  EXPECT_TRUE(contains(metrics(bed), "rdmagw_config_last_reload_successful 0"));
  EXPECT_TRUE(contains(metrics(bed), "rdmagw_config_reloads_total{result=\"failure\"} 1"));
  done = bed.reloader().reloadsDone();
  bed.removeTargets("broken.yaml");
  r = waitReload(bed, done);
  EXPECT_TRUE(r.ok) << r.summary();
  EXPECT_EQ(r.unchanged, 6u);
  EXPECT_TRUE(prom.waitFor("rdmagw_config_last_reload_successful", "1")) << prom.lastResponse();
  EXPECT_TRUE(prom.waitFor("rdmagw_config_reloads_total{result=\"success\"}", "4")) << prom.lastResponse();

  // The untouched targets: no reconnect, no counter reset, in every scrape.
  const sim::ConnectionCounts leaf_after = bed.leaf().connectionCounts();
  EXPECT_EQ(leaf_after.subscribes, leaf_before.subscribes) << "leaf01 re-subscribed";
  EXPECT_EQ(leaf_after.connections, leaf_before.connections) << "leaf01 reconnected";
  EXPECT_EQ(bed.sshd().connectionCount("esx01"), esx01_before) << "esx01 reconnected";
  for (const std::string& t : kept) {
    EXPECT_EQ(bed.status(t).counter_resets, 0u) << t;
    EXPECT_TRUE(bed.status(t).health.up) << t;
  }
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - since);
  const std::string window = "[" + std::to_string(secs.count()) + "s]";
  std::optional<std::string> min_up = prom.query("min_over_time(up{job=\"rdmagw\"}" + window + ")");
  EXPECT_EQ(min_up.value_or("none"), "1") << "a scrape failed: " << prom.lastResponse();
  std::optional<std::string> scrapes = prom.query("count_over_time(up{job=\"rdmagw\"}" + window + ")");
  ASSERT_TRUE(scrapes.has_value()) << prom.lastResponse();
  // How many scrapes a window holds depends on how much CPU Prometheus got;
  // two make the comparisons below mean something.
  EXPECT_GE(std::stoi(*scrapes), 2);
  for (const std::string& t : kept) {
    // Present in every scrape of the window, and no counter of it went back.
    // One expression, so both counts see the same window: two queries are
    // evaluated at two instants, and a scrape at the window's edge can be
    // inside one and outside the other.
    EXPECT_EQ(prom.query("count_over_time(up{job=\"rdmagw\"}" + window + ") - on(job, instance) "
                         "count_over_time(rdmagw_target_up{target=\"" + t + "\"}" + window + ")")
                  .value_or("none"),
              "0")
        << t << " missed a scrape: " << prom.lastResponse();
    // resets() drops the metric name; the subquery keeps it as a label so
    // that every counter family of the target is one series.
    const std::string counters = "label_replace({target=\"" + t + "\",__name__=~\".+_total\"}, \"family\", \"$1\", "
                                 "\"__name__\", \"(.+)\")";
    EXPECT_EQ(prom.query("sum(resets(" + counters + "[" + std::to_string(secs.count()) + "s:1s]))").value_or("none"),
              "0") << t << ": " << prom.lastResponse();
  }
}

}  // namespace
}  // namespace rdmagw::testing
