#include "gateway/fleet/fleet_peer_mirror.h"

#include "northbound/gnmi/member_channels.h"
#include "southbound/gnmi/relay_source.h"

namespace rdmagw::gateway {

Result<southbound::StreamSourcePtr> createFleetPeerMirror(FleetPeerMirrorOptions options, const Fleet& fleet,
                                                          const FleetView& view, Store& peers) {
  southbound::gnmi::PeerRelayOptions po;
  po.paths = std::move(options.paths);
  po.sample_interval = options.sample_interval;
  po.backoff_initial = options.backoff_initial;
  po.backoff_max = options.backoff_max;
  // A fresh MemberChannels per dial: a reconnect reads the TLS files again.
  po.channel = [gnmi = std::move(options.gnmi), address = std::move(options.gnmi_address)] {
    northbound::gnmi::MemberChannels channels(gnmi);
    return channels.channel(address);
  };
  po.ownership = [&view, &fleet] {
    southbound::gnmi::RelayOwnership out;
    const FleetSnapshot snapshot = view.snapshot();
    for (const auto& [target, owner] : snapshot.owners) {
      out.known.insert(target);
      if (owner == fleet.memberName()) out.mine.insert(target);
    }
    return out;
  };
  po.kind = [&fleet](const std::string& target) { return fleet.kindOf(target); };
  return southbound::gnmi::createPeerRelaySource(std::move(po), peers);
}

}  // namespace rdmagw::gateway
