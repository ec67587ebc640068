#include "bench/nexus_transport_devices.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "models/log.h"
#include "sim/device_shell.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/gnmi/gnmi_tls.h"
#include "sim/nxapi/nxapi_server.h"
#include "sim/sim_runner.h"
#include "sim/sshd_launcher.h"

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;

std::string readLine(FILE* f) {
  std::string line;
  int c;
  while ((c = std::fgetc(f)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
  if (c == EOF && line.empty()) return "eof";
  return line;
}

// 50 leaves with a few host ports each: pods of 4 hosts, each pod's two
// rails on their own leaf, so every leaf renders host ports, PFC and QoS
// counters like a leaf of a real pod (not 48 idle ports).
sim::FabricConfig fabricFor(int switches) {
  sim::FabricConfig fc;
  fc.switches = switches;
  fc.devices_per_host = 2;
  fc.hosts_per_leaf = 4;
  fc.hosts = switches * 2;
  fc.esxi_hosts = 0;
  return fc;
}

// The device process: runs until the parent writes "quit" or goes away.
int runDevices(int switches, std::chrono::milliseconds tick, const std::string& password, FILE* in, FILE* out) {
  setLogLevel(LogLevel::kWarn);
  auto fail = [out](const std::string& what) {
    std::fprintf(out, "error %s\n", what.c_str());
    std::fflush(out);
    return 1;
  };
  char tmpl[] = "/tmp/rdmagw-nxbench-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return fail("mkdtemp failed");
  const std::string dir = tmpl;
  const sim::FabricConfig fc = fabricFor(switches);
  if (Status st = fc.validate(); !st.isOk()) return fail(st.message());
  const sim::Fabric shape(fc);

  sim::GnmiTargetOptions gopts;
  gopts.tls = sim::GnmiTls::kTls;
  gopts.username = "admin";
  gopts.password = password;
  sim::GnmiFleet fleet(shape.switches(), gopts);
  sim::SimRunner runner(fc, dir, tick);
  runner.setTickObserver([&fleet](const sim::Fabric& f) { fleet.publish(f, nowNs()); });
  if (Status st = runner.start(); !st.isOk()) return fail("simulator: " + st.message());
  if (Status st = fleet.start(); !st.isOk()) return fail("gNMI targets: " + st.message());

  sim::GnmiTlsFiles tls;
  if (Status st = sim::generateGnmiTlsFiles(&tls); !st.isOk()) return fail("NX-API TLS: " + st.message());
  std::vector<std::unique_ptr<sim::NxapiServer>> nxapi;
  for (const sim::Switch& s : shape.switches()) {
    sim::NxapiServerOptions so;
    so.device_dir = (fs::path(dir) / s.name).string();
    so.cert_file = tls.server_cert;
    so.key_file = tls.server_key;
    so.password = password;
    // One keep-alive connection per leaf: two workers are plenty, and 50
    // servers with civetweb's default would be hundreds of idle threads.
    so.threads = 2;
    nxapi.push_back(std::make_unique<sim::NxapiServer>(so));
    if (Status st = nxapi.back()->start(); !st.isOk()) return fail("NX-API " + s.name + ": " + st.message());
  }

  sim::SshdLauncher sshd;
  std::string ssh_skip;
  const std::string shell = sim::defaultShellPath();
  if (geteuid() != 0) {
    ssh_skip = "sshd needs root";
  } else if (shell.empty()) {
    ssh_skip = "rdmagw-sim-shell not found";
  } else if (Status st = sshd.start(); !st.isOk()) {
    ssh_skip = "sshd: " + st.message();
  }
  const std::string known_hosts = dir + "/.known_hosts";
  if (ssh_skip.empty()) {
    std::ofstream(known_hosts) << sshd.knownHostsLine() << "\n";
    std::fprintf(out, "ssh_port %d\nknown_hosts %s\n", sshd.port(), known_hosts.c_str());
  } else {
    std::fprintf(out, "ssh_skip %s\n", ssh_skip.c_str());
  }
  std::fprintf(out, "nxapi_ca %s\ngnmi_ca %s\n", tls.ca_cert.c_str(), fleet.caFile().c_str());
  for (size_t i = 0; i < shape.switches().size(); ++i) {
    const std::string& name = shape.switches()[i].name;
    std::string key = "-";
    if (ssh_skip.empty()) {
      Result<sim::ClientKey> k = sshd.addDevice(name, shell + " --dir " + dir + " --device " + name);
      if (!k.isOk()) return fail(name + ": " + k.status().message());
      key = k->private_key_file;
    }
    std::fprintf(out, "leaf %s %d %s %s\n", name.c_str(), static_cast<int>(nxapi[i]->port()),
                 fleet.target(i).address().c_str(), key.c_str());
  }
  std::fprintf(out, "ready\n");
  std::fflush(out);

  for (std::string cmd = readLine(in); cmd != "quit" && cmd != "eof"; cmd = readLine(in)) {
    if (cmd == "gnmi") {
      GnmiSent sent;
      for (size_t i = 0; i < fleet.size(); ++i) {
        sent.notifications += fleet.target(i).notificationsSent();
        sent.updates += fleet.target(i).updatesSent();
      }
      std::fprintf(out, "%llu %llu\n", static_cast<unsigned long long>(sent.notifications),
                   static_cast<unsigned long long>(sent.updates));
      std::fflush(out);
    }
  }
  sshd.stop();
  for (auto& n : nxapi) n->stop();
  fleet.stop();
  runner.stop();
  fs::remove_all(tls.dir);
  fs::remove_all(dir);
  return 0;
}

}  // namespace

NexusDeviceProcess::~NexusDeviceProcess() { stop(); }

Status NexusDeviceProcess::start(int switches, std::chrono::milliseconds tick, const std::string& password) {
  int down[2], up[2];
  if (pipe(down) != 0 || pipe(up) != 0) return Status::internal("pipe failed");
  pid_ = fork();
  if (pid_ < 0) return Status::internal("fork failed");
  if (pid_ == 0) {
    close(down[1]);
    close(up[0]);
    FILE* in = fdopen(down[0], "r");
    FILE* out = fdopen(up[1], "w");
    // _exit: the parent's atexit handlers and static destructors are its own.
    _exit(runDevices(switches, tick, password, in, out));
  }
  close(down[0]);
  close(up[1]);
  to_child_ = fdopen(down[1], "w");
  from_child_ = fdopen(up[0], "r");
  for (std::string line = readLine(from_child_); line != "ready"; line = readLine(from_child_)) {
    std::istringstream s(line);
    std::string word;
    s >> word;
    if (word == "eof") return Status::internal("the device process ended before it was ready");
    if (word == "error") return Status::internal("devices: " + line.substr(6));
    if (word == "ssh_skip") endpoints_.ssh_skip = line.substr(9);
    if (word == "ssh_port") s >> endpoints_.ssh_port;
    if (word == "known_hosts") s >> endpoints_.known_hosts;
    if (word == "nxapi_ca") s >> endpoints_.nxapi_ca;
    if (word == "gnmi_ca") s >> endpoints_.gnmi_ca;
    if (word == "leaf") {
      NexusLeafEndpoints leaf;
      s >> leaf.name >> leaf.nxapi_port >> leaf.gnmi_address >> leaf.ssh_key_file;
      if (leaf.ssh_key_file == "-") leaf.ssh_key_file.clear();
      endpoints_.leaves.push_back(std::move(leaf));
    }
  }
  return Status::ok();
}

Result<GnmiSent> NexusDeviceProcess::gnmiSent() {
  if (to_child_ == nullptr) return Status::unavailable("no device process");
  std::fprintf(to_child_, "gnmi\n");
  std::fflush(to_child_);
  std::istringstream s(readLine(from_child_));
  GnmiSent sent;
  if (!(s >> sent.notifications >> sent.updates)) return Status::internal("no gNMI counts from the devices");
  return sent;
}

void NexusDeviceProcess::stop() {
  if (pid_ <= 0) return;
  if (to_child_ != nullptr) {
    std::fprintf(to_child_, "quit\n");
    std::fclose(to_child_);  // EOF ends the child's loop too
    to_child_ = nullptr;
  }
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  if (from_child_ != nullptr) std::fclose(from_child_);
  from_child_ = nullptr;
}

}  // namespace rdmagw::bench
