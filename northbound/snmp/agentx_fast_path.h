#pragma once
// Answers the master's AgentX Get and GetNext PDUs straight from the
// snapshot, on the AgentX session's own callback.
//
// Why: Net-SNMP's subagent hands every AgentX request to its internal agent
// through a "callback" session, whose transport is a pipe: per varbind that
// is two extra select rounds, two pipe writes and two pipe reads, plus PDU
// clones and the agent's request bookkeeping. Profiled in the bulkwalk
// bench, those syscalls were most of the ~35 us the subagent spent per
// varbind; our own lookup was under 1 %. Answering on the AgentX session
// leaves one read and one write per request; on a unix-socket AgentX the
// read also skips Net-SNMP 5.9's per-read getsockname() (see recvAgentx).
//
// Everything else (Open, Register, Ping, responses to our own PDUs,
// disconnects, and any request for a context not yet served) still goes to
// Net-SNMP's handler, and the Net-SNMP table handlers stay registered, so
// the master sees the same registrations and the same answers.
//
// Agent thread only, like everything that calls Net-SNMP.

#include <atomic>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "northbound/snmp/mib_snapshot.h"

struct snmp_pdu;  // Net-SNMP's netsnmp_pdu; its headers stay out of this one

namespace rdmagw::northbound::snmp {

// One table as served in one context, in OID order among its context's.
struct ServedTable {
  const TableDef* def;
  const TableData* data;
};

// The tables registered per context, each list sorted by table OID (the
// order GetNext walks). Rebuilt whenever a snapshot is adopted.
using ServedContexts = std::map<std::string, std::vector<ServedTable>, std::less<>>;

class AgentxFastPath {
 public:
  // `served` must outlive the hook; it may change between poll rounds.
  // `answered` counts the requests answered here (read from any thread).
  AgentxFastPath(const ServedContexts* served, std::atomic<uint64_t>* answered);
  ~AgentxFastPath();

  // (Re)installs the hook on Net-SNMP's current AgentX session; a new
  // session appears after every reconnect. Cheap: call every poll round.
  void hook();
  // Restores Net-SNMP's own handler.
  void unhook();

 private:
  friend struct FastPathAccess;
  const ServedContexts* served_;
  void* hooked_session_ = nullptr;
  void* original_callback_ = nullptr;
  void* original_recv_ = nullptr;  // the unix transport's, while replaced
  std::atomic<uint64_t>* answered_;
};

// Answers an AgentX Get or GetNext PDU, as Net-SNMP decoded it, from the
// tables `served` in its context: the response PDU (the caller sets its
// version, then sends or frees it), or null when the request is not one
// the fast path answers (another PDU type, a context not served) and goes
// to Net-SNMP's own handler.
snmp_pdu* answerAgentxRequest(const ServedContexts& served, const snmp_pdu* request);

// The GetNext search of AgentX (RFC 2741 7.2.3.2) over one context's tables:
// the first present object after `start` (at or after when `inclusive`),
// below `end` unless `end` is empty. Out: the object's OID in `oid_out`
// (its length returned; 0 when none) and its value.
size_t agentxGetNext(std::span<const ServedTable> tables, std::span<const uint32_t> start, bool inclusive,
                     std::span<const uint32_t> end, std::span<uint32_t> oid_out, CellView* value);

}  // namespace rdmagw::northbound::snmp
