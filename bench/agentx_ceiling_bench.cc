// The AgentX ceiling: how many varbinds/s snmpbulkwalk gets through snmpd
// when the subagent behind it does next to nothing. A raw Net-SNMP handler
// answers GETNEXT in a synthetic table by arithmetic (no snapshot, no
// lookups), so what remains is snmpd's master side, the AgentX round trip
// per repetition (agentx/master.c turns each GETBULK repetition into one
// GETNEXT to the subagent) and Net-SNMP's request processing in the
// subagent. rdmagw_snmp_bench's BM_SnmpBulkWalkLargeContext compares to it.
//
//   BM_AgentxNullSubagent/R/S  R = max-repetitions; S = 0: through Net-SNMP's
//                              subagent (handler registered as usual), 1:
//                              answered on the AgentX session's callback and
//                              read without getsockname, as rdmagw's fast
//                              path does (agentx_fast_path.h).
//                              varbinds/s and the subagent's CPU per varbind
// Run: ./build-rel/bench/rdmagw_agentx_ceiling_bench
// Its own binary: Net-SNMP initialises once per process.

#include <benchmark/benchmark.h>
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <stdlib.h>

#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "bench/bulkwalk.h"
#include "models/schema.h"
#include "sim/snmpd_launcher.h"

// Net-SNMP's AgentX session (exported by libnetsnmpagent, not in its headers).
extern "C" netsnmp_session* main_session;

namespace rdmagw::bench {
namespace {

// Same size and shape as the large context of rdmagw_snmp_bench (~8k
// objects per column set): 10 columns x 3000 rows of Counter64 under our
// MIB's root (the schema's enterprise arc) at 99.1, an arc RDMAGW-MIB leaves
// unused, in context "null".
struct EntryOid {
  oid arcs[MAX_OID_LEN];
  size_t len = 0;
  std::string dotted;  // with a leading dot, as the tools take it
};
EntryOid makeEntry() {
  EntryOid e;
  std::string root(SchemaTable::instance().mibRoot());
  for (size_t pos = 0; pos < root.size() && e.len + 2 < MAX_OID_LEN;) {
    size_t dot = root.find('.', pos);
    if (dot == std::string::npos) dot = root.size();
    e.arcs[e.len++] = oid(std::strtoul(root.substr(pos, dot - pos).c_str(), nullptr, 10));
    pos = dot + 1;
  }
  e.arcs[e.len++] = 99;
  e.arcs[e.len++] = 1;
  for (size_t i = 0; i < e.len; ++i) e.dotted += "." + std::to_string(e.arcs[i]);
  return e;
}
const EntryOid kEntryOid = makeEntry();
const oid* const kEntry = kEntryOid.arcs;
const size_t kEntryLen = kEntryOid.len;
constexpr oid kColumns = 10;
constexpr oid kRows = 3000;
constexpr char kContext[] = "null";

// entry.column.row, columns 1..kColumns, rows 1..kRows: the next object
// after `name` by arithmetic; false past the table.
bool nextOf(const oid* name, size_t len, oid* column, oid* row) {
  bool under = len >= kEntryLen && netsnmp_oid_equals(name, kEntryLen, kEntry, kEntryLen) == 0;
  if (!under) {
    if (snmp_oid_compare(name, len, kEntry, kEntryLen) < 0) {
      *column = 1;
      *row = 1;
      return true;
    }
    return false;
  }
  oid c = len > kEntryLen ? name[kEntryLen] : 0;
  oid r = len > kEntryLen + 1 ? name[kEntryLen + 1] : 0;
  if (c == 0) {
    c = 1;
    r = 0;
  }
  // Below an object (c.r.x): its successor is c.(r+1), as for c.r itself.
  if (r + 1 > kRows) {
    ++c;
    r = 0;
  }
  if (c > kColumns) return false;
  *column = c;
  *row = r + 1;
  return true;
}

// The answer to one GetNext varbind, shared by both paths.
void answerNext(netsnmp_variable_list* vb) {
  oid column = 0, row = 0;
  if (!nextOf(vb->name, vb->name_length, &column, &row)) {
    snmp_set_var_typed_value(vb, SNMP_ENDOFMIBVIEW, nullptr, 0);
    return;
  }
  oid out[MAX_OID_LEN + 2];
  std::copy(kEntry, kEntry + kEntryLen, out);
  out[kEntryLen] = column;
  out[kEntryLen + 1] = row;
  snmp_set_var_objid(vb, out, kEntryLen + 2);
  counter64 c{};
  c.low = u_long(row);
  snmp_set_var_typed_value(vb, ASN_COUNTER64, &c, sizeof(c));
}

int handleNull(netsnmp_mib_handler*, netsnmp_handler_registration*, netsnmp_agent_request_info* reqinfo,
               netsnmp_request_info* requests) {
  for (netsnmp_request_info* r = requests; r != nullptr; r = r->next) {
    netsnmp_variable_list* vb = r->requestvb;
    if (reqinfo->mode != MODE_GETNEXT) {
      netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
      continue;
    }
    oid column = 0, row = 0;
    if (!nextOf(vb->name, vb->name_length, &column, &row)) continue;  // the agent moves on
    answerNext(vb);
  }
  return SNMP_ERR_NOERROR;
}

// The session-callback path: GetNext (AgentX type 6) answered where the
// AgentX PDU arrives, the rest handed to Net-SNMP. A bench-only copy of the
// idea in northbound/snmp/agentx_fast_path.cc (no range ends: one table).
std::atomic<bool> g_on_session{false};
netsnmp_callback g_original = nullptr;

// And its receive without getsockname (agentx_fast_path.cc recvAgentx).
decltype(netsnmp_transport::f_recv) g_original_recv = nullptr;

int recvNull(netsnmp_transport* t, void* buf, int size, void** opaque, int* olength) {
  if (!g_on_session.load(std::memory_order_relaxed)) return g_original_recv(t, buf, size, opaque, olength);
  *opaque = nullptr;
  *olength = 0;
  int rc = -1;
  while (rc < 0) {
    rc = int(recvfrom(t->sock, buf, size_t(size), MSG_DONTWAIT, nullptr, nullptr));
    if (rc < 0 && errno != EINTR) return rc;
  }
  return rc;
}

int onSession(int op, netsnmp_session* session, int reqid, netsnmp_pdu* pdu, void* magic) {
  if (!g_on_session.load(std::memory_order_relaxed) || op != NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE ||
      pdu == nullptr || pdu->command != 6) {
    return g_original(op, session, reqid, pdu, magic);
  }
  netsnmp_pdu* response = snmp_clone_pdu(pdu);
  for (netsnmp_variable_list* vb = response->variables; vb != nullptr; vb = vb->next_variable) answerNext(vb);
  response->command = 18;  // AgentX Response
  response->version = session->version;
  response->errstat = 0;
  response->errindex = 0;
  if (!snmp_send(session, response)) snmp_free_pdu(response);
  return 1;
}

struct Rig {
  std::unique_ptr<sim::SnmpdLauncher> snmpd;
  std::thread agent;
  std::string error;

  Rig() {
    sim::SnmpdOptions opts;
    opts.contexts = {kContext};
    snmpd = std::make_unique<sim::SnmpdLauncher>(opts);
    if (Status st = snmpd->start(); !st.isOk()) {
      error = st.message();
      return;
    }
    std::string conf = snmpd->dir() + "/null-subagent";
    std::filesystem::create_directories(conf);
    snmp_disable_log();
    netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE, 1);
    netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_X_SOCKET, snmpd->agentxSocket().c_str());
    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
    netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_PERSISTENT_DIR, conf.c_str());
    netsnmp_set_mib_directory(conf.c_str());
    if (init_agent("rdmagw-null") != 0) {
      error = "init_agent failed";
      return;
    }
    init_snmp("rdmagw-null");
    netsnmp_handler_registration* reg = netsnmp_create_handler_registration(
        "nullTable", handleNull, kEntry, kEntryLen - 1, HANDLER_CAN_RONLY);
    reg->contextName = strdup(kContext);
    if (netsnmp_register_handler(reg) != MIB_REGISTERED_OK) {
      error = "register failed";
      return;
    }
    // The agent loop lives until the process exits (Net-SNMP has no
    // clean shutdown for a subagent thread that we need here).
    agent = std::thread([] {
      for (;;) {
        if (main_session != nullptr && main_session->callback != onSession) {
          g_original = main_session->callback;
          main_session->callback = onSession;
          netsnmp_transport* t = snmp_sess_transport(snmp_sess_pointer(main_session));
          if (t != nullptr && t->f_recv != recvNull) {  // the bench's AgentX socket is a unix socket
            g_original_recv = t->f_recv;
            t->f_recv = recvNull;
          }
        }
        agent_check_and_process(1);
      }
    });
    agent.detach();
    for (int i = 0; i < 100 && walk(10, (kEntryOid.dotted + ".1").c_str()) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  size_t walk(int repetitions, const char* root = nullptr) {
    const std::string table = kEntryOid.dotted.substr(0, kEntryOid.dotted.rfind('.'));
    return bulkWalk(*snmpd, kContext, repetitions, root != nullptr ? root : table.c_str());
  }
};

Rig& rig() {
  static Rig* r = new Rig();  // never destroyed: the agent thread runs until exit
  return *r;
}

void BM_AgentxNullSubagent(benchmark::State& state) {
  Rig& r = rig();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  g_on_session = state.range(1) != 0;
  size_t varbinds = 0;
  const double cpu0 = processCpuSeconds();
  for (auto _ : state) varbinds += r.walk(int(state.range(0)));
  reportWalks(state, varbinds, processCpuSeconds() - cpu0);
}
BENCHMARK(BM_AgentxNullSubagent)->ArgsProduct({{10, 50}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
}  // namespace rdmagw::bench
