#include "northbound/gnmi/capabilities.h"

namespace rdmagw::northbound::gnmi_server {
namespace {

constexpr std::string_view kOpenconfig = "OpenConfig working group";
constexpr std::string_view kRdmagw = "rdmagw project";

// OpenConfig versions: the releases whose leaves the schema table mirrors
// (the same ones NX-OS 10.x lists, which the simulator copies).
constexpr ServedModel kModels[] = {
    {"openconfig-interfaces", kOpenconfig, "2.4.3"},
    {"openconfig-if-ethernet", kOpenconfig, "2.11.0"},
    {"openconfig-qos", kOpenconfig, "0.2.3"},
    {"openconfig-lldp", kOpenconfig, "0.2.1"},  // NX-OS 10.x: revision 2018-11-21
    {"rdmagw-interfaces", kRdmagw, "2026-11-23"},
    {"rdmagw-qos", kRdmagw, "2024-06-02"},
    {"rdmagw-rdma", kRdmagw, "2024-06-01"},
    {"rdmagw-hypervisor-nic", kRdmagw, "2024-06-01"},
    {"rdmagw-fabric", kRdmagw, "2026-11-23"},  // leaves analytics/ derives
    {"rdmagw-lldp", kRdmagw, "2026-11-24"},
};

}  // namespace

std::span<const ServedModel> servedModels() { return kModels; }

void fillCapabilities(gnmi::CapabilityResponse* out) {
  for (const ServedModel& m : kModels) {
    gnmi::ModelData* md = out->add_supported_models();
    md->set_name(std::string(m.name));
    md->set_organization(std::string(m.organization));
    md->set_version(std::string(m.version));
  }
  out->add_supported_encodings(gnmi::JSON);
  out->add_supported_encodings(gnmi::JSON_IETF);
  out->add_supported_encodings(gnmi::PROTO);
  out->set_gnmi_version(std::string(kGnmiVersion));
}

}  // namespace rdmagw::northbound::gnmi_server
