#include "northbound/gnmi/capabilities.h"

#include <vector>

#include "models/schema.h"

namespace rdmagw::northbound::gnmi {

std::span<const ServedModel> servedModels() {
  static const std::vector<ServedModel> models = [] {
    std::vector<ServedModel> out;
    for (const YangModule& m : SchemaTable::instance().modules()) out.push_back({m.name, m.organization, m.version});
    return out;
  }();
  return models;
}

void fillCapabilities(::gnmi::CapabilityResponse* out) {
  for (const ServedModel& m : servedModels()) {
    ::gnmi::ModelData* md = out->add_supported_models();
    md->set_name(std::string(m.name));
    md->set_organization(std::string(m.organization));
    md->set_version(std::string(m.version));
  }
  out->add_supported_encodings(::gnmi::JSON);
  out->add_supported_encodings(::gnmi::JSON_IETF);
  out->add_supported_encodings(::gnmi::PROTO);
  out->set_gnmi_version(std::string(kGnmiVersion));
}

}  // namespace rdmagw::northbound::gnmi
