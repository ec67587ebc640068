#pragma once
// `rdmagw-demo --nexus-transport nxapi`: every simulated Nexus leaf also
// answers NX-API (sim/nxapi/nxapi_server.h) over HTTPS on loopback, its
// certificate signed by a CA of the demo's own, and DIR/nxapi-targets.yaml
// holds one `transport: nxapi` target per leaf for the gateway's NX-API
// collector. The demo's own gateway then reads its leaves over NX-API, with
// the SSH CLI behind it when the simulated sshd runs.

#include <memory>
#include <string>
#include <vector>

#include "gateway/config/config.h"
#include "models/status.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_target.h"
#include "sim/nxapi/nxapi_server.h"

namespace rdmagw::gateway {

struct DemoNxapiTarget {
  std::string name;  // leaf01
  uint16_t port = 0;
};
// The targets file's text: a `targets:` list, one nexus target per leaf. The
// password is referenced by its file (mode 0600), never inline, as in
// production configurations; a file rather than the demo's environment so
// a shell can use it too.
std::string nxapiTargetsYaml(const std::vector<DemoNxapiTarget>& leaves, const std::string& ca_file,
                             const std::string& username, const std::string& password_file);

class DemoNxapi {
 public:
  DemoNxapi() = default;
  ~DemoNxapi();  // stop(), and removes the generated PKI
  DemoNxapi(const DemoNxapi&) = delete;
  DemoNxapi& operator=(const DemoNxapi&) = delete;

  // Generates the PKI, starts a server per switch of `fabric` on its files
  // under dir, writes DIR/nxapi-password and the targets file.
  Status start(const std::string& dir, const sim::Fabric& fabric);
  void stop();
  // Moves the leaves of `cfg` to NX-API: transport [nxapi, ssh] for a leaf
  // the SSH setup added (any gNMI dropped: this demo shows NX-API), a new
  // `transport: nxapi` target for a leaf without one.
  void applyTo(GatewayConfig& cfg) const;
  // The lines the demo prints: where each leaf answers and how to ask it.
  std::string howTo() const;
  const std::string& targetsFile() const { return targets_file_; }

 private:
  sim::GnmiTlsFiles pki_;
  std::vector<std::unique_ptr<sim::NxapiServer>> servers_;
  std::vector<DemoNxapiTarget> leaves_;
  std::string targets_file_, password_file_;
};

}  // namespace rdmagw::gateway
