// The SNMP fast path's request handling (northbound/snmp/agentx_fast_path.h):
// AgentX bytes as snmpd sends them, decoded by Net-SNMP's own AgentX decoder
// (agentx_parse, the one the subagent's session runs), then answered by
// answerAgentxRequest from a snapshot of a store that has a switch, an RDMA
// host and an ESXi host, every context served. Varbind OIDs longer than
// MAX_OID_LEN, arcs past 2^32, ranges that end before they start and unknown
// contexts all arrive this way.
//
// Net-SNMP itself is not instrumented: coverage guides the fuzzer through our
// side only, and ASan sees Net-SNMP's heap through its malloc interposition.

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/store.h"
#include "northbound/snmp/agentx_fast_path.h"
#include "northbound/snmp/if_index_registry.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/snapshot_builder.h"
#include "tests/northbound/snmp/snmp_test_store.h"

// libnetsnmpagent exports it; its declaration lives in a header Net-SNMP
// does not install (agent/mibgroup/agentx/protocol.h).
extern "C" int agentx_parse(netsnmp_session* session, netsnmp_pdu* pdu, u_char* data, size_t len);

using namespace rdmagw;
using namespace rdmagw::northbound::snmp;

namespace {

constexpr long kAgentxVersion1 = 193;  // AGENTX_VERSION_1

struct Served {
  MibSnapshotPtr snapshot;
  ServedContexts contexts;
};

// Every context of the snapshot with its tables in OID order, as the
// subagent registers them (agentx_subagent.cc, rebuildServed).
const Served& served() {
  static const Served* s = [] {
    auto* out = new Served();
    Store store;
    testing::fillStore(&store);
    IfIndexRegistry registry;
    out->snapshot = SnapshotBuilder(store, registry, 1'700'000'000'000'000'000).build();
    const std::span<const TableDef> tables = MibCatalog::instance().tables();
    for (const auto& [context, data] : out->snapshot->contexts) {
      const TableScope scope = context.empty() ? TableScope::kGateway : TableScope::kDevice;
      std::vector<ServedTable>& list = out->contexts[context];
      for (size_t i = 0; i < tables.size() && i < data.tables.size(); ++i) {
        if (tables[i].scope == scope) list.push_back(ServedTable{&tables[i], &data.tables[i]});
      }
      std::sort(list.begin(), list.end(),
                [](const ServedTable& a, const ServedTable& b) { return a.def->table < b.def->table; });
    }
    return out;
  }();
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Served& s = served();
  netsnmp_session session{};
  session.version = kAgentxVersion1;
  netsnmp_pdu* pdu = SNMP_MALLOC_TYPEDEF(netsnmp_pdu);
  if (pdu == nullptr) return 0;
  // agentx_parse reads the buffer in place; a copy of exactly `size` bytes
  // lets ASan see any read past the end.
  std::vector<u_char> bytes(data, data + size);
  if (agentx_parse(&session, pdu, bytes.data(), bytes.size()) == 0) {
    if (netsnmp_pdu* response = answerAgentxRequest(s.contexts, pdu)) {
      size_t answered = 0;
      for (netsnmp_variable_list* vb = response->variables; vb != nullptr; vb = vb->next_variable) {
        if (vb->name_length > MAX_OID_LEN) __builtin_trap();
        ++answered;
      }
      (void)answered;
      snmp_free_pdu(response);
    }
  }
  snmp_free_pdu(pdu);
  return 0;
}
