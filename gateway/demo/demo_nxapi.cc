#include "gateway/demo/demo_nxapi.h"

#include <filesystem>
#include <fstream>
#include <random>

#include "sim/gnmi/gnmi_tls.h"

namespace rdmagw::gateway {

std::string nxapiTargetsYaml(const std::vector<DemoNxapiTarget>& leaves, const std::string& ca_file,
                             const std::string& username, const std::string& password_file) {
  std::string out =
      "# rdmagw-demo --nexus-transport nxapi: the simulated leaves over NX-API\n"
      "# (HTTPS POST /ins on loopback, certificates signed by ca_file).\n"
      "targets:\n";
  for (const DemoNxapiTarget& leaf : leaves) {
    out += "  - name: " + leaf.name +
           "\n"
           "    kind: nexus\n"
           "    address: 127.0.0.1\n"
           "    transport: nxapi\n"
           "    credentials: {username: " +
           username + ", password_file: \"" + password_file + "\"" +
           "}\n"
           "    nxapi: {port: " +
           std::to_string(leaf.port) + ", ca_file: \"" + ca_file + "\", dialect: ins_api}\n";
  }
  return out;
}

DemoNxapi::~DemoNxapi() {
  stop();
  if (!pki_.dir.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(pki_.dir, ec);
  }
}

Status DemoNxapi::start(const std::string& dir, const sim::Fabric& fabric) {
  if (Status st = sim::generateGnmiTlsFiles(&pki_); !st.isOk()) return st;
  sim::NxapiServerOptions base;
  base.cert_file = pki_.server_cert;  // SAN IP:127.0.0.1: every leaf listens there
  base.key_file = pki_.server_key;
  base.password = "demo-" + std::to_string(std::random_device{}());
  base.threads = 2;  // one leaf has one collector connection
  password_file_ = (std::filesystem::path(dir) / "nxapi-password").string();
  {
    std::ofstream pw(password_file_);
    std::error_code ec;  // owner only before the secret is in it
    std::filesystem::permissions(password_file_,
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write, ec);
    pw << base.password << "\n";
    if (ec || !pw.flush()) return Status::unavailable("cannot write " + password_file_);
  }
  for (const sim::Switch& sw : fabric.switches()) {
    sim::NxapiServerOptions o = base;
    o.device_dir = (std::filesystem::path(dir) / sw.name).string();
    auto server = std::make_unique<sim::NxapiServer>(o);
    if (Status st = server->start(); !st.isOk()) return Status::unavailable(sw.name + ": " + st.message());
    leaves_.push_back({sw.name, server->port()});
    servers_.push_back(std::move(server));
  }
  targets_file_ = (std::filesystem::path(dir) / "nxapi-targets.yaml").string();
  std::ofstream out(targets_file_);
  out << nxapiTargetsYaml(leaves_, pki_.ca_cert, base.username, password_file_);
  if (!out.flush()) return Status::unavailable("cannot write " + targets_file_);
  return Status::ok();
}

void DemoNxapi::applyTo(GatewayConfig& cfg) const {
  for (const DemoNxapiTarget& leaf : leaves_) {
    TargetConfig* t = nullptr;
    for (TargetConfig& c : cfg.targets) {
      if (c.name == leaf.name) t = &c;
    }
    if (t == nullptr) {
      cfg.targets.emplace_back();
      t = &cfg.targets.back();
      t->name = leaf.name;
      t->kind = "nexus";
      t->address = "127.0.0.1";
      t->transport = "nxapi";
    } else {
      t->transport = "nxapi,ssh";
    }
    southbound::nxapi::NxapiConfig& n = t->nxapi;
    n.host = "127.0.0.1";
    n.port = leaf.port;
    n.username = "admin";
    n.password_file = password_file_;
    n.ca_file = pki_.ca_cert;
  }
}

void DemoNxapi::stop() {
  for (auto& server : servers_) server->stop();
}

std::string DemoNxapi::howTo() const {
  std::string out;
  for (const DemoNxapiTarget& leaf : leaves_) {
    out += "rdmagw demo: nxapi: " + leaf.name + " at https://127.0.0.1:" + std::to_string(leaf.port) + "/ins\n";
  }
  if (leaves_.empty()) return out;
  out += "rdmagw demo: nxapi: targets in " + targets_file_ + "; ask a leaf: curl -s --cacert " + pki_.ca_cert +
         " -u admin:$(cat " + password_file_ +
         ") -H 'Content-Type: application/json' -d '{\"ins_api\":{"
         "\"version\":\"1.0\",\"type\":\"cli_show\",\"chunk\":\"0\",\"sid\":\"1\",\"input\":\"show interface\","
         "\"output_format\":\"json\"}}' https://127.0.0.1:" +
         std::to_string(leaves_.front().port) + "/ins\n";
  return out;
}

}  // namespace rdmagw::gateway
