#include "gateway/config/config.h"
#include "gateway/runtime/registry.h"

#include <gtest/gtest.h>

namespace rdmagw::gateway {
namespace {

const char* kGood = R"(log_level: debug
max_concurrent_polls: 4
targets:
  - name: host01
    kind: rdma-host
    interval: 5s
    labels: {rack: r12}
    rdma:
      sysfs_root: /tmp/sim/host01/sys
      devices: {include: ["mlx5_*"], exclude: ["mlx5_3"]}
      ethtool: text
      ethtool_dir: /tmp/sim/host01/ethtool
northbound:
  prometheus:
    listen: 127.0.0.1:9999
    path: /metrics
)";

TEST(ConfigTest, ParsesAGoodConfig) {
  auto cfg = parseConfig(kGood, "gw.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->log_level, LogLevel::kDebug);
  EXPECT_EQ(cfg->max_concurrent_polls, 4u);
  ASSERT_EQ(cfg->targets.size(), 1u);
  const TargetConfig& t = cfg->targets[0];
  EXPECT_EQ(t.name, "host01");
  EXPECT_EQ(t.transport, "sysfs");
  EXPECT_EQ(t.interval.count(), 5000);
  ASSERT_EQ(t.labels.size(), 1u);
  EXPECT_EQ(t.labels[0].second, "r12");
  EXPECT_EQ(t.rdma.sysfs_root, "/tmp/sim/host01/sys");
  EXPECT_EQ(t.rdma.include_devices, std::vector<std::string>{"mlx5_*"});
  EXPECT_EQ(t.rdma.exclude_devices, std::vector<std::string>{"mlx5_3"});
  EXPECT_EQ(t.rdma.ethtool, southbound::rdma::RdmaConfig::EthtoolMode::kText);
  EXPECT_EQ(cfg->prometheus.listen, "127.0.0.1:9999");
  EXPECT_EQ(cfg->prometheus.refresh_period.count(), 0);  // built on every scrape unless asked
}

TEST(ConfigTest, PrometheusRefreshPeriodIsReadAndChecked) {
  auto cfg = parseConfig("northbound:\n  prometheus:\n    refresh_period: 5s\n", "p.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->prometheus.refresh_period.count(), 5000);
  auto bad = parseConfig("northbound:\n  prometheus:\n    refresh_period: 10ms\n", "p.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("p.yaml:3:5: northbound.prometheus: refresh_period: 10ms is too short"),
            std::string::npos)
      << bad.status().message();
  auto garbled = parseConfig("northbound:\n  prometheus:\n    refresh_period: often\n", "p.yaml");
  ASSERT_FALSE(garbled.isOk());
  EXPECT_NE(garbled.status().message().find("refresh_period: bad duration \"often\""), std::string::npos)
      << garbled.status().message();
}

// Every problem is reported at once, each with file:line:col and key path.
TEST(ConfigTest, CollectsEveryErrorWithFileLineAndKey) {
  const char* bad = R"(targets:
  - name: host01
    kind: rdma-host
    intervall: 5s
    interval: 5 seconds
    rdma:
      ethtool: sometimes
  - name: host01
    kind: router
northbound:
  prometheus:
    listen: nowhere
)";
  // (rdma.lldp is checked below, on a config of its own: line numbers above stay.)
  auto cfg = parseConfig(bad, "bad.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("bad.yaml:4:5: targets[0].intervall: unknown key"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:5:15: targets[0].interval: bad duration \"5 seconds\""), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:7:16: targets[0].rdma.ethtool: must be ioctl, text or none"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:8:11: targets[1].name: duplicate target name \"host01\""), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:9:11: targets[1].kind: unknown kind \"router\""), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:12:5: northbound.prometheus:"), std::string::npos) << m;
}

TEST(ConfigTest, RdmaLldpModeIsAutoOnOrOff) {
  auto cfg = parseConfig("targets:\n  - {name: h1, kind: rdma-host, rdma: {lldp: off}}\n"
                         "  - {name: h2, kind: rdma-host, rdma: {sysfs_root: /tmp/tree}}\n", "l.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->targets[0].rdma.lldp, southbound::rdma::RdmaConfig::LldpMode::kOff);
  EXPECT_FALSE(cfg->targets[0].rdma.lldpWanted());
  // auto: lldpctl only when reading the host's own /sys, not a copied tree.
  EXPECT_FALSE(cfg->targets[1].rdma.lldpWanted());
  EXPECT_TRUE(southbound::rdma::RdmaConfig{}.lldpWanted());
  auto bad = parseConfig("targets:\n  - name: h1\n    kind: rdma-host\n    rdma: {lldp: sometimes}\n", "b.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("b.yaml:4:18: targets[0].rdma.lldp: must be auto, on or off"), std::string::npos)
      << bad.status().message();
}

TEST(ConfigTest, RdmaConfigIntervalIsADurationDefaultingToAMinute) {
  auto cfg = parseConfig("targets:\n  - {name: h1, kind: rdma-host, rdma: {config_interval: 5m}}\n"
                         "  - {name: h2, kind: rdma-host, rdma: {config_interval: 0s}}\n"
                         "  - {name: h3, kind: rdma-host}\n", "c.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->targets[0].rdma.config_interval, std::chrono::minutes(5));
  EXPECT_EQ(cfg->targets[1].rdma.config_interval, std::chrono::milliseconds(0));
  EXPECT_EQ(cfg->targets[2].rdma.config_interval, std::chrono::minutes(1));
  auto bad = parseConfig("targets:\n  - {name: h1, kind: rdma-host, rdma: {config_interval: often}}\n", "b.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("targets[0].rdma.config_interval"), std::string::npos)
      << bad.status().message();
}

TEST(ConfigTest, IngestNiceIsZeroToNineteenDefaultingToZero) {
  auto dflt = parseConfig("targets: []\n", "d.yaml");
  ASSERT_TRUE(dflt.isOk()) << dflt.status().message();
  EXPECT_EQ(dflt->ingest_nice, 0);
  auto on = parseConfig("ingest_nice: 10\ntargets: []\n", "o.yaml");
  ASSERT_TRUE(on.isOk()) << on.status().message();
  EXPECT_EQ(on->ingest_nice, 10);
  auto bad = parseConfig("ingest_nice: 25\ntargets: []\n", "b.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("ingest_nice"), std::string::npos) << bad.status().message();
}

// Each gNMI switch's first dial is offset within its own sample interval, in
// the order the switches are listed; SSH-only switches and hosts take no place.
TEST(ConfigTest, SpreadFirstDialsOffsetsOnlyTheGnmiSwitches) {
  const std::string targets = R"(targets:
  - {name: leaf1, kind: nexus, transport: gnmi, address: 192.0.2.1, credentials: {username: a, password_env: P}}
  - {name: leaf2, kind: nexus, transport: ssh, address: 192.0.2.2, credentials: {username: a, password_env: P}}
  - {name: h1, kind: rdma-host}
  - {name: leaf3, kind: nexus, transport: auto, address: 192.0.2.3, interval: 20s, credentials: {username: a, password_env: P}}
  - {name: leaf4, kind: nexus, transport: gnmi, address: 192.0.2.4, credentials: {username: a, password_env: P}}
)";
  auto on = parseConfig(targets, "on.yaml");
  ASSERT_TRUE(on.isOk()) << on.status().message();
  EXPECT_TRUE(on->spread_subscriptions);
  using std::chrono::milliseconds;
  std::vector<TargetConfig> t = on->targets;
  for (const TargetConfig& each : t) EXPECT_EQ(each.gnmi.first_dial_delay, milliseconds(0)) << "parsed as written";
  spreadFirstDials(t);
  EXPECT_EQ(t[0].gnmi.first_dial_delay, milliseconds(0));
  EXPECT_EQ(t[1].gnmi.first_dial_delay, milliseconds(0));  // SSH only
  EXPECT_EQ(t[2].gnmi.first_dial_delay, milliseconds(0));  // a host
  EXPECT_EQ(t[3].gnmi.first_dial_delay, milliseconds(12360));  // 2nd switch: 0.618 x its 20 s
  EXPECT_EQ(t[4].gnmi.first_dial_delay, milliseconds(2360));   // 3rd: 0.236 x 10 s
  auto off = parseConfig("spread_subscriptions: false\n" + targets, "off.yaml");
  ASSERT_TRUE(off.isOk()) << off.status().message();
  EXPECT_FALSE(off->spread_subscriptions);
  auto bad = parseConfig("spread_subscriptions: yes\ntargets: []\n", "bad.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("spread_subscriptions: must be true or false"), std::string::npos)
      << bad.status().message();
}

TEST(ConfigTest, InlineSecretsAreRefused) {
  const char* text = R"(targets:
  - name: sw1
    kind: rdma-host
    credentials:
      username: admin
      password: hunter2
)";
  auto cfg = parseConfig(text, "s.yaml");
  ASSERT_FALSE(cfg.isOk());
  EXPECT_NE(cfg.status().message().find("inline secrets are not allowed"), std::string::npos);
  EXPECT_EQ(cfg.status().message().find("hunter2"), std::string::npos) << "the secret must not be echoed";
}

TEST(ConfigTest, RejectsReservedAndInvalidLabels) {
  const char* text = R"(targets:
  - name: h
    kind: rdma-host
    labels: {device: x, "bad-name": y}
)";
  auto cfg = parseConfig(text, "l.yaml");
  ASSERT_FALSE(cfg.isOk());
  EXPECT_NE(cfg.status().message().find("targets[0].labels.device: is set by rdmagw itself"), std::string::npos);
  EXPECT_NE(cfg.status().message().find("targets[0].labels.bad-name: not a valid Prometheus label name"), std::string::npos);
}

TEST(ConfigTest, YamlSyntaxErrorNamesThePosition) {
  auto cfg = parseConfig("targets: [\n  - name: x\n", "broken.yaml");
  ASSERT_FALSE(cfg.isOk());
  EXPECT_NE(cfg.status().message().find("broken.yaml:"), std::string::npos);
  EXPECT_NE(cfg.status().message().find("YAML syntax error"), std::string::npos);
}

TEST(ConfigTest, OneTargetEntryOnItsOwn) {
  auto t = parseTargetConfig("name: leaf01\nkind: nexus\naddress: 10.0.0.1\ntransport: ssh\n"
                             "credentials: {username: admin, password_env: LEAF_PW}\n",
                             "leaf01.yaml");
  ASSERT_TRUE(t.isOk()) << t.status().message();
  EXPECT_EQ(t->name, "leaf01");
  EXPECT_EQ(t->transport, "ssh");
  EXPECT_EQ(t->ssh.host, "10.0.0.1");
  // The same checks as inside `targets:`, positions from the target's file.
  auto bad = parseTargetConfig("name: x\nkind: toaster\n", "t.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("t.yaml:2:"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("target.kind: unknown kind"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(parseTargetConfig("- name: x\n", "t.yaml").isOk());
  EXPECT_FALSE(parseTargetConfig("", "t.yaml").isOk());
  EXPECT_FALSE(parseTargetConfig("{name: [", "t.yaml").isOk());
}

// A scalar where a block belongs used to throw out of yaml-cpp and stop the
// gateway (inputs in fuzz/regressions/config_yaml and target_yaml).
TEST(ConfigTest, AScalarWhereABlockBelongsIsAnError) {
  for (const char* text : {"northbound: 5\n", "northbound:\n  prometheus: -1s\n",
                           "northbound:\n  snmp: on\n  gnmi: yes\n",
                           "targets:\n  - {name: a, kind: rdma-host, rdma: 5, credentials: x}\n"}) {
    auto cfg = parseConfig(text, "s.yaml");
    ASSERT_FALSE(cfg.isOk()) << text;
    EXPECT_NE(cfg.status().message().find("must be a mapping"), std::string::npos) << cfg.status().message();
  }
  auto t = parseTargetConfig("name: esx01\nkind: esxi\naddress: h\ncredentials: root\n", "t.yaml");
  ASSERT_FALSE(t.isOk());
  EXPECT_NE(t.status().message().find("t.yaml:4:14: target.credentials: must be a mapping"), std::string::npos)
      << t.status().message();
}

TEST(ConfigTest, MissingRequiredKeys) {
  auto cfg = parseConfig("targets:\n  - interval: 1s\n", "m.yaml");
  ASSERT_FALSE(cfg.isOk());
  EXPECT_NE(cfg.status().message().find("targets[0].name: required key is missing"), std::string::npos);
  EXPECT_NE(cfg.status().message().find("targets[0].kind: required key is missing"), std::string::npos);
}

TEST(ConfigTest, EmptyAndMissingFiles) {
  EXPECT_FALSE(parseConfig("", "e.yaml").isOk());
  auto missing = loadConfigFile("/nonexistent/rdmagw.yaml");
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.status().message().find("/nonexistent/rdmagw.yaml"), std::string::npos);
}

TEST(ConfigTest, SshTargetsTakeAddressAndCredentialReferences) {
  const char* text = R"(max_concurrent_ssh: 4
max_concurrent_gnmi_handshakes: 3
targets:
  - name: leaf1
    kind: nexus
    address: 192.0.2.10
    credentials: {username: admin, password_env: NEXUS_PASSWORD}
    ssh: {port: 2222, known_hosts: /etc/rdmagw/known_hosts, command_timeout: 20s}
  - name: esx01
    kind: esxi
    address: esx01.example
    credentials: {username: root, key_file: /etc/rdmagw/esx.key}
  - name: gpu7
    kind: rdma-host
    address: gpu7.example
    credentials: {username: mon, key_file: /etc/rdmagw/gpu.key}
    rdma: {devices: {exclude: ["mlx5_4"]}}
)";
  auto cfg = parseConfig(text, "ssh.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->max_concurrent_ssh, 4u);
  EXPECT_EQ(cfg->max_concurrent_gnmi_handshakes, 3u);
  const TargetConfig& leaf = cfg->targets[0];
  EXPECT_EQ(leaf.transport, "auto") << "a Nexus defaults to gNMI with SSH fallback";
  EXPECT_EQ(leaf.gnmi.address, "192.0.2.10:50051");
  EXPECT_EQ(leaf.gnmi.username, "admin");
  EXPECT_EQ(leaf.gnmi.password_env, "NEXUS_PASSWORD");
  EXPECT_EQ(leaf.ssh.host, "192.0.2.10");
  EXPECT_EQ(leaf.ssh.port, 2222);
  EXPECT_EQ(leaf.ssh.username, "admin");
  EXPECT_EQ(leaf.ssh.password_env, "NEXUS_PASSWORD");
  EXPECT_EQ(leaf.ssh.known_hosts_file, "/etc/rdmagw/known_hosts");
  EXPECT_EQ(leaf.ssh.command_timeout.count(), 20000);
  EXPECT_FALSE(leaf.ssh.accept_unknown_host_key);
  EXPECT_EQ(cfg->targets[1].ssh.key_file, "/etc/rdmagw/esx.key");
  EXPECT_EQ(cfg->targets[2].transport, "ssh") << "a remote rdma-host defaults to ssh";
  EXPECT_EQ(cfg->targets[2].rdma.exclude_devices, std::vector<std::string>{"mlx5_4"});
}

TEST(ConfigTest, LimitsOnWhatAPeerMaySendAreConfigKeys) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    address: 192.0.2.10
    credentials: {username: admin, password_env: NEXUS_PASSWORD}
    gnmi: {max_message_bytes: 8388608, sync_timeout: 2m}
    ssh: {max_output_bytes: 1048576}
  - name: leaf2
    kind: nexus
    address: 192.0.2.11
    credentials: {username: admin, password_env: NEXUS_PASSWORD}
)";
  auto cfg = parseConfig(text, "limits.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->targets[0].gnmi.max_message_bytes, 8388608u);
  EXPECT_EQ(cfg->targets[0].gnmi.sync_timeout.count(), 120000);
  EXPECT_EQ(cfg->targets[0].ssh.max_output_bytes, 1048576u);
  EXPECT_EQ(cfg->targets[1].gnmi.max_message_bytes, size_t{64} << 20);  // defaults
  EXPECT_EQ(cfg->targets[1].gnmi.sync_timeout.count(), 60000);
  EXPECT_EQ(cfg->targets[1].ssh.max_output_bytes, size_t{64} << 20);

  auto tiny = parseConfig(std::string(text).replace(std::string(text).find("8388608"), 7, "100"), "tiny.yaml");
  ASSERT_FALSE(tiny.isOk());
  EXPECT_NE(tiny.status().message().find("max_message_bytes"), std::string::npos) << tiny.status().message();
}

TEST(ConfigTest, SshTargetsNeedAddressUserAndSecretReference) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    transport: telnet
  - name: leaf2
    kind: nexus
    ssh: {port: 0}
  - name: h1
    kind: rdma-host
    ssh: {port: 22}
)";
  auto cfg = parseConfig(text, "bad-ssh.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("targets[0].transport: nexus supports transport auto, gnmi, nxapi or ssh"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[1].address: transport ssh needs the device's address"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[1].credentials.username: transport ssh needs a username"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[1].credentials: transport ssh needs key_file, password_env or password_file"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[1].ssh.port: must be between 1 and 65535"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[2].ssh: only for transport ssh or auto"), std::string::npos) << m;
}

TEST(ConfigTest, NexusOverGnmiWithTlsAndSubscriptions) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    transport: gnmi
    address: 192.0.2.10
    interval: 5s
    credentials: {username: admin, password_file: /etc/rdmagw/nexus.pw}
    gnmi:
      port: 50052
      ca_file: /etc/rdmagw/ca.pem
      encoding: json
      retry_gnmi_after: 2m
      subscriptions:
        - {path: "openconfig:/interfaces/interface/state/counters", mode: sample, sample_interval: 10s}
        - {path: "openconfig:/interfaces/interface/state/oper-status", mode: on_change}
)";
  auto cfg = parseConfig(text, "gnmi.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  const auto& g = cfg->targets[0].gnmi;
  EXPECT_EQ(g.address, "192.0.2.10:50052");
  EXPECT_EQ(g.ca_file, "/etc/rdmagw/ca.pem");
  EXPECT_EQ(g.password_file, "/etc/rdmagw/nexus.pw");
  EXPECT_EQ(g.encoding, southbound::gnmi::EncodingChoice::kJson);
  EXPECT_EQ(g.sample_interval.count(), 5000) << "defaults to the target's interval";
  EXPECT_EQ(g.retry_gnmi_after.count(), 120000);
  ASSERT_EQ(g.subscriptions.size(), 2u);
  EXPECT_EQ(g.subscriptions[1].mode, southbound::gnmi::SubscriptionMode::kOnChange);
  EXPECT_EQ(g.subscriptions[0].sample_interval.count(), 10000);
}

TEST(ConfigTest, GnmiErrorsNameTheirKeys) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    transport: gnmi
    address: 192.0.2.10
    credentials: {username: admin, password_env: P}
    gnmi: {encoding: xml, subscriptions: [{path: "/a", mode: sometimes}]}
  - name: esx1
    kind: esxi
    address: 192.0.2.11
    credentials: {username: root, key_file: /k}
    gnmi: {port: 50051}
)";
  auto cfg = parseConfig(text, "g.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("g.yaml:7:22: targets[0].gnmi.encoding:"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[0].gnmi.subscriptions[0].mode:"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[1].gnmi: only for transport gnmi or auto"), std::string::npos) << m;
}

TEST(ConfigTest, SnmpNorthbound) {
  const char* text = R"(northbound:
  snmp:
    agentx_socket: tcp:127.0.0.1:705
    state_dir: /var/lib/rdmagw
    refresh_period: 2s
)";
  auto cfg = parseConfig(text, "s.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_TRUE(cfg->snmp_enabled);
  EXPECT_FALSE(cfg->prometheus_enabled);
  EXPECT_EQ(cfg->snmp.agentx_socket, "tcp:127.0.0.1:705");
  EXPECT_EQ(cfg->snmp.refresh_period.count(), 2000);
  auto off = parseConfig("targets: []\n", "d.yaml");
  ASSERT_TRUE(off.isOk()) << off.status().message();
  EXPECT_FALSE(off->snmp_enabled);  // SNMP only when configured
}

// ifIndex numbering: a lone gateway keeps its state file's numbers (its
// NMS history), a fleet member derives them from the names unless told.
TEST(ConfigTest, SnmpIfIndexSequentialAloneDerivedInAFleet) {
  const std::string snmp = "northbound:\n  snmp: {agentx_socket: /tmp/agentx";
  const std::string cluster = "cluster:\n  endpoints: [\"http://127.0.0.1:2379\"]\n  name: f\n  member: m1\n";
  using northbound::snmp::IfIndexScheme;
  auto scheme = [](const std::string& text) {
    auto cfg = parseConfig(text, "s.yaml");
    EXPECT_TRUE(cfg.isOk()) << cfg.status().message();
    return cfg.isOk() ? cfg->snmp.if_index : IfIndexScheme::kSequential;
  };
  EXPECT_EQ(scheme(snmp + "}\n"), IfIndexScheme::kSequential);
  EXPECT_EQ(scheme(snmp + "}\n" + cluster), IfIndexScheme::kDerived);
  EXPECT_EQ(scheme(cluster + snmp + "}\n"), IfIndexScheme::kDerived);  // the blocks in either order
  EXPECT_EQ(scheme(snmp + ", if_index: derived}\n"), IfIndexScheme::kDerived);
  EXPECT_EQ(scheme(snmp + ", if_index: sequential}\n" + cluster), IfIndexScheme::kSequential);
  auto bad = parseConfig(snmp + ", if_index: hashed}\n", "s.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("northbound.snmp.if_index: must be sequential or derived"), std::string::npos)
      << bad.status().message();
}

TEST(ConfigTest, SnmpErrorsCarryFileLineAndKey) {
  const char* text = R"(northbound:
  snmp:
    agentx_socket: agentx.sock
    state_dir: relative/dir
    refresh_period: 10ms
    community: public
)";
  auto cfg = parseConfig(text, "s.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("s.yaml:6:5: northbound.snmp.community: unknown key (allowed: enabled, agentx_socket, state_dir, "
                   "if_index, refresh_period, notifications)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("s.yaml:3:5: northbound.snmp: agentx_socket:"), std::string::npos) << m;
  EXPECT_NE(m.find("state_dir: 'relative/dir' must be an absolute path"), std::string::npos) << m;
  EXPECT_NE(m.find("refresh_period: must be between 100ms and 1h"), std::string::npos) << m;
}

}  // namespace
}  // namespace rdmagw::gateway

namespace rdmagw::gateway {
namespace {

TEST(ConfigTest, GnmiNorthboundBlock) {
  auto cfg = parseConfig(
      "northbound:\n"
      "  gnmi:\n"
      "    listen: 127.0.0.1:19339\n"
      "    insecure: true\n"
      "    users_env: GNMI_USERS\n"
      "    min_sample_interval: 250ms\n"
      "    limits: {max_subscriptions: 10, max_subscriptions_per_client: 2, max_queued_updates: 1000}\n",
      "g.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_TRUE(cfg->gnmi_enabled);
  EXPECT_FALSE(cfg->prometheus_enabled);
  EXPECT_EQ(cfg->gnmi.listen, "127.0.0.1:19339");
  EXPECT_TRUE(cfg->gnmi.insecure);
  EXPECT_EQ(cfg->gnmi.users_env, "GNMI_USERS");
  EXPECT_EQ(cfg->gnmi.min_sample_interval, std::chrono::milliseconds(250));
  EXPECT_EQ(cfg->gnmi.max_subscriptions_per_client, 2u);
  EXPECT_EQ(cfg->gnmi.max_queued_updates, 1000u);
}

TEST(ConfigTest, GnmiNorthboundErrorsCarryFileAndLine) {
  auto cfg = parseConfig(
      "northbound:\n"
      "  gnmi:\n"
      "    listen: 0.0.0.0:9339\n"
      "    insecure: yes-please\n"
      "    tls: {cert: /x.crt, kee: /x.key}\n"
      "    limits: {max_subscriptions: 0}\n",
      "g.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();  // a copy: status() is a temporary
  EXPECT_NE(m.find("g.yaml:4:15: northbound.gnmi.insecure: must be true or false"), std::string::npos) << m;
  EXPECT_NE(m.find("northbound.gnmi.tls"), std::string::npos) << m;
  EXPECT_NE(m.find("kee"), std::string::npos) << m;
  EXPECT_NE(m.find("g.yaml:6:"), std::string::npos) << m;
  EXPECT_NE(m.find("g.yaml:3:5: northbound.gnmi: "), std::string::npos) << m;
  EXPECT_NE(m.find("tls: cert and key go together"), std::string::npos) << m;
}

}  // namespace
}  // namespace rdmagw::gateway

namespace rdmagw::gateway {
namespace {

TEST(ConfigTest, RdmagwTargetRelaysAnotherGateway) {
  auto cfg = parseConfig(
      "targets:\n"
      "  - name: site-a\n"
      "    kind: rdmagw\n"
      "    address: gw-a.example.net\n"
      "    credentials: {username: relay, password_env: GW_A_PASSWORD}\n"
      "    gnmi: {ca_file: /etc/rdmagw/site-ca.crt}\n",
      "r.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  ASSERT_EQ(cfg->targets.size(), 1u);
  EXPECT_EQ(cfg->targets[0].transport, "gnmi");
  EXPECT_EQ(cfg->targets[0].gnmi.address, "gw-a.example.net:9339");
  EXPECT_EQ(cfg->targets[0].gnmi.kind, "rdmagw");
  EXPECT_NE(findStreamFactory("rdmagw", "gnmi"), nullptr);
  auto bad = parseConfig("targets:\n  - {name: x, kind: rdmagw, address: h, transport: ssh}\n", "r.yaml");
  ASSERT_FALSE(bad.isOk());
  const std::string m = bad.status().message();
  EXPECT_NE(m.find("r.yaml:2:"), std::string::npos) << m;
  EXPECT_NE(m.find("rdmagw supports transport gnmi"), std::string::npos) << m;
}

}  // namespace
}  // namespace rdmagw::gateway
