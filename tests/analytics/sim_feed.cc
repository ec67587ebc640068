#include "tests/analytics/sim_feed.h"
#include "tests/analytics/small_fabric.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "sim/cli_catalog.h"
#include "sim/gnmi/nxos_tree.h"
#include "southbound/gnmi/mapping/notification_mapper.h"
#include "sim/tree_writer.h"
#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/rdma_collector.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "southbound/ssh/profiles/esxi_profile.h"
#include "southbound/ssh/profiles/nexus_profile.h"

namespace rdmagw::testing {
using namespace rdmagw::analytics;  // the helpers speak the vocabulary of the code they test
namespace {

// The simulator's cabling as static links, as gateway/demo/demo_config.cc's
// addSimAnalytics makes them (that file is the gateway's; this test stays
// below it).
std::vector<LinkConfig> simLinks(const sim::Fabric& f) {
  std::vector<LinkConfig> links;
  for (int e = 0; e < f.endpointCount(); ++e) {
    const std::string name = f.endpointName(e);
    const size_t colon = name.find(':');
    LinkConfig l;
    l.a = LinkEnd{f.switches()[f.attachment(e).sw].name, LinkEnd::Kind::kInterface, f.switchPortOf(e).name};
    l.b = e < f.deviceCount()
              ? LinkEnd{name.substr(0, colon), LinkEnd::Kind::kRdmaPort, name.substr(colon + 1) + "/1"}
              : LinkEnd{name.substr(0, colon), LinkEnd::Kind::kNic, name.substr(colon + 1)};
    links.push_back(l);
  }
  return links;
}

AnalyticsConfig withLinks(AnalyticsConfig c, const sim::FabricConfig& fc, bool static_links) {
  if (static_links) c.links = simLinks(sim::Fabric(fc));
  c.no_drop_priorities = {fc.roce_priority};
  return c;
}

const std::string* rendered(const std::vector<sim::RenderedCommand>& outputs, const std::string& command) {
  for (const sim::RenderedCommand& r : outputs) {
    if (r.command == command) return &r.output;
  }
  return nullptr;
}

}  // namespace

sim::FabricConfig SimFeed::calmFabric() {
  sim::FabricConfig c;
  c.calm = true;
  return c;
}

AnalyticsConfig SimFeed::config() {
  AnalyticsConfig c;
  c.roles = testing::fabricRoles();
  c.period = std::chrono::milliseconds(1000);
  c.window = std::chrono::milliseconds(4000);
  c.pause_storm_percent = 90;
  c.pause_storm_for = std::chrono::milliseconds(3000);
  return c;
}

namespace {

std::string makeTreeDir() {
  for (const char* base : {"/dev/shm", ""}) {
    std::string tmpl = (base[0] ? std::filesystem::path(base) : std::filesystem::temp_directory_path()).string() +
                       "/rdmagw-simfeed-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) return tmpl;
  }
  ADD_FAILURE() << "no temporary directory";
  return "/nonexistent";
}

}  // namespace

SimFeed::SimFeed(sim::FabricConfig fabric, AnalyticsConfig config, SimFeedOptions options)
    : options_(options),
      fabric_(fabric),
      dir_(makeTreeDir()),
      writer_(dir_),
      engine_(store_, withLinks(std::move(config), fabric, options.static_links)) {}

SimFeed::~SimFeed() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void SimFeed::apply(const std::string& target, const std::string& kind, PollBatch& batch) {
  TargetHealth h;
  h.kind = kind;
  h.up = true;
  store_.setHealth(target, h);
  for (const std::string& e : batch.errors) ADD_FAILURE() << target << ": " << e;
  const Store::ApplyResult r = store_.apply(target, batch.updates);
  EXPECT_EQ(r.rejected, 0u) << target << ": " << r.first_error;
}

void SimFeed::collect() {
  ASSERT_TRUE(writer_.write(fabric_).isOk());
  const TimestampNs ts = now_;
  for (size_t h = 0; h < fabric_.hosts().size(); ++h) {
    const sim::Host& host = fabric_.hosts()[h];
    const std::string root = dir_ + "/" + host.name;
    southbound::rdma::RdmaCollector collector(
        std::make_unique<southbound::rdma::SysfsReaderImpl>(root + "/sys"), southbound::rdma::DeviceFilter(),
        std::make_unique<southbound::rdma::EthtoolText>(root + "/ethtool"), [ts] { return ts; });
    // The host's lldpd: its leaf ports heard from the host side too.
    collector.setLldp(std::make_unique<southbound::rdma::LldpText>(fabric_.lldpctlJson(int(h))));
    PollBatch batch;
    ASSERT_TRUE(collector.poll(batch).isOk()) << host.name;
    apply(host.name, "rdma-host", batch);
  }
  for (const sim::Switch& sw : fabric_.switches()) {
    PollBatch batch;
    if (options_.gnmi) {
      collectSwitchGnmi(sw, ts, batch);
      collectSwitchCli(sw, southbound::ssh::nexusGnmiSupplementCommands(), ts, batch);
    } else {
      collectSwitchCli(sw, southbound::ssh::nexusCommands(), ts, batch);
    }
    apply(sw.name, "nexus", batch);
  }
  for (const sim::EsxiHost& esx : fabric_.esxiHosts()) {
    const std::vector<sim::RenderedCommand> outputs = sim::renderEsxi(fabric_, esx);
    std::string bundle = *rendered(outputs, "esxcli network nic list");
    for (const sim::Vmnic& nic : esx.nics) {
      bundle += "\n@@rdmagw nic-stats " + nic.name + "\n" +
                *rendered(outputs, "esxcli network nic stats get -n " + nic.name);
      bundle += "\n@@rdmagw vsish " + nic.name + "\n" + *rendered(outputs, "vsish -e cat /net/pNics/" + nic.name + "/stats");
      bundle += "\n@@rdmagw dcb " + nic.name + "\n" + *rendered(outputs, "esxcli network nic dcb status get -n " + nic.name);
    }
    PollBatch batch;
    ASSERT_TRUE(southbound::ssh::parseEsxiBundle(bundle, ts, batch).isOk()) << esx.name;
    apply(esx.name, "esxi", batch);
  }
}

void SimFeed::collectSwitchCli(const sim::Switch& sw, const std::vector<southbound::ssh::CliCommand>& commands,
                               TimestampNs ts, PollBatch& batch) {
  const std::vector<sim::RenderedCommand> outputs = sim::renderSwitch(fabric_, sw);
  for (const southbound::ssh::CliCommand& c : commands) {
    // The first form the leaf answers and that parses, as the CLI source does.
    std::vector<southbound::ssh::CliAlternative> forms = {{c.command, c.parse}};
    forms.insert(forms.end(), c.alternatives.begin(), c.alternatives.end());
    for (const auto& form : forms) {
      const std::string* text = rendered(outputs, form.command);
      if (text != nullptr && form.parse(*text, ts, batch).isOk()) break;
    }
  }
}

void SimFeed::collectSwitchGnmi(const sim::Switch& sw, TimestampNs ts, PollBatch& batch) {
  // What the gateway subscribes on an NX-OS target, served from the
  // simulated target's tree and mapped as the gNMI source maps it.
  const auto snap = sim::gnmi_tree::build(sw, ts, uint64_t(fabric_.tick()), {});
  std::set<sim::gnmi_tree::Selection> selected;
  for (const std::string& path : southbound::gnmi::nxosSubscriptionPaths()) {
    for (const auto& s : sim::gnmi_tree::select(*snap, sim::gnmi_tree::parsePath(path), false)) selected.insert(s);
  }
  const std::vector<sim::gnmi_tree::Selection> sel(selected.begin(), selected.end());
  for (const gnmi::Notification& n : sim::gnmi_tree::render(*snap, sel, {})) {
    southbound::gnmi::MappedNotification m;
    ASSERT_TRUE(southbound::gnmi::mapNotification(n, ts, m).isOk());
    for (const std::string& e : m.errors) ADD_FAILURE() << sw.name << ": " << e;
    for (Update& u : m.updates) batch.updates.push_back(std::move(u));
  }
}

void SimFeed::tick() {
  fabric_.step();
  for (const sim::PauseEvent& e : fabric_.lastTick().pauses) paused_.insert(e.sender);
  now_ += kTickNs;
  collect();
  const RunStats stats = engine_.runOnce(now_);
  ASSERT_EQ(stats.rejected, 0u) << "a derived leaf the schema refuses";
}

void SimFeed::ticks(int n) {
  for (int i = 0; i < n; ++i) tick();
}

bool SimFeed::tickUntil(const std::function<bool()>& done, int max_ticks) {
  for (int i = 0; i < max_ticks; ++i) {
    if (done()) return true;
    tick();
  }
  return done();
}

std::map<std::string, std::string> SimFeed::derived(const std::string& leaf) const {
  std::map<std::string, std::string> out;
  store_.forEach([&](const SeriesView& s) {
    if (!s.path.starts_with("/fabric/") || !s.path.ends_with("/" + leaf)) return;
    std::string key(s.target);
    for (const std::string& l : s.label_values) key += ":" + l;
    const auto* text = std::get_if<std::string>(&s.value);
    out[key] = text ? *text : valueToString(s.value);
  });
  return out;
}

std::map<std::string, std::string> SimFeed::flagged(const std::string& leaf, const std::string& normal) const {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : derived(leaf)) {
    if (v != normal) out[k] = v;
  }
  return out;
}

std::string SimFeed::hostPort(int e) const {
  const std::string name = fabric_.endpointName(e);
  if (e >= fabric_.deviceCount()) return name;
  return name.substr(0, name.find(':')) + ":" + fabric_.device(e).netdev;
}

std::string SimFeed::switchPort(int e) const {
  return fabric_.switches()[fabric_.attachment(e).sw].name + ":" + fabric_.switchPortOf(e).name;
}

std::string SimFeed::rdmaPort(int e) const { return fabric_.endpointName(e) + ":1"; }

}  // namespace rdmagw::testing
