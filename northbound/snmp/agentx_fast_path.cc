#include "northbound/snmp/agentx_fast_path.h"

#include "northbound/snmp/netsnmp_value.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

// Net-SNMP's AgentX session of this subagent (agent/mibgroup/agentx/
// subagent.c): exported by libnetsnmpagent but not declared in its
// installed headers. It is replaced on every reconnect, hence hook().
extern "C" netsnmp_session* main_session;

namespace rdmagw::northbound::snmp {

// Private access for the C callback below.
struct FastPathAccess {
  static void* original(AgentxFastPath* fp) { return fp->original_callback_; }
  static const ServedContexts* served(AgentxFastPath* fp) { return fp->served_; }
  static void countAnswered(AgentxFastPath* fp) { fp->answered_->fetch_add(1, std::memory_order_relaxed); }
};

namespace {

// AgentX PDU types (RFC 2741 6.1); Net-SNMP keeps them in pdu->command as
// sent, and its constants live in a header it does not install.
constexpr int kAgentxGet = 5;
constexpr int kAgentxGetNext = 6;
constexpr int kAgentxResponse = 18;

// One fast path per process (Net-SNMP's state is process-wide and the
// session callback has no slot for it).
AgentxFastPath* g_fast_path = nullptr;

bool spanLess(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

bool hasPrefix(std::span<const uint32_t> oid, const Oid& prefix) {
  return oid.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), oid.begin());
}

void answerGet(std::span<const ServedTable> tables, netsnmp_variable_list* vb) {
  uint32_t arcs[MAX_OID_LEN];
  std::span<const uint32_t> name(arcs, toArcs(vb->name, vb->name_length, arcs));
  for (const ServedTable& t : tables) {
    if (!hasPrefix(name, t.def->table)) continue;
    std::optional<CellView> cell = getExact(*t.def, *t.data, name);
    if (cell) {
      setVarValue(vb, *cell);
    } else {
      snmp_set_var_typed_value(vb, SNMP_NOSUCHINSTANCE, nullptr, 0);
    }
    return;
  }
  snmp_set_var_typed_value(vb, SNMP_NOSUCHOBJECT, nullptr, 0);
}

void answerGetNext(std::span<const ServedTable> tables, netsnmp_variable_list* vb) {
  uint32_t start_arcs[MAX_OID_LEN];
  uint32_t end_arcs[MAX_OID_LEN];
  std::span<const uint32_t> start(start_arcs, toArcs(vb->name, vb->name_length, start_arcs));
  // The range's end is the value (ASN_PRIV_*_RANGE); Net-SNMP parses the
  // null OID as {0, 0}: no bound.
  size_t end_len = vb->val.objid ? toArcs(vb->val.objid, vb->val_len / sizeof(oid), end_arcs) : 0;
  if (end_len == 2 && end_arcs[0] == 0 && end_arcs[1] == 0) end_len = 0;
  const bool inclusive = vb->type == ASN_PRIV_INCL_RANGE;
  uint32_t found[MAX_OID_LEN];
  CellView value;
  size_t len = agentxGetNext(tables, start, inclusive, {end_arcs, end_len}, found, &value);
  if (len == 0) {
    // Nothing in range: the start OID with endOfMibView (RFC 2741 7.2.3.2).
    snmp_set_var_typed_value(vb, SNMP_ENDOFMIBVIEW, nullptr, 0);
    return;
  }
  oid name[MAX_OID_LEN];
  std::copy(found, found + len, name);
  snmp_set_var_objid(vb, name, len);
  setVarValue(vb, value);
}

// Net-SNMP 5.9's unix-socket receive calls getsockname() and mallocs a
// sockaddr on every read, only to label the PDU with our own socket path
// (used by SNMP-over-unix-socket community mapping, never by AgentX). On
// the AgentX socket that was one of four system calls per varbind; this
// receive is the same read without it.
int recvAgentx(netsnmp_transport* t, void* buf, int size, void** opaque, int* olength) {
  *opaque = nullptr;
  *olength = 0;
  if (t == nullptr || t->sock < 0) return -1;
  int rc = -1;
  while (rc < 0) {
    rc = int(recvfrom(t->sock, buf, size_t(size), MSG_DONTWAIT, nullptr, nullptr));
    if (rc < 0 && errno != EINTR) return rc;
  }
  return rc;
}

bool isUnixStream(const netsnmp_transport* t) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  return t != nullptr && t->sock >= 0 && (t->flags & NETSNMP_TRANSPORT_FLAG_STREAM) != 0 &&
         getsockname(t->sock, reinterpret_cast<sockaddr*>(&addr), &len) == 0 && addr.ss_family == AF_UNIX;
}

int onAgentxPacket(int op, netsnmp_session* session, int reqid, netsnmp_pdu* pdu, void* magic) {
  AgentxFastPath* fp = g_fast_path;
  auto original = reinterpret_cast<netsnmp_callback>(FastPathAccess::original(fp));
  netsnmp_pdu* response = nullptr;
  if (op == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE) response = answerAgentxRequest(*FastPathAccess::served(fp), pdu);
  if (response == nullptr) return original(op, session, reqid, pdu, magic);
  response->version = session->version;
  if (!snmp_send(session, response)) snmp_free_pdu(response);
  FastPathAccess::countAnswered(fp);
  return 1;
}

}  // namespace

snmp_pdu* answerAgentxRequest(const ServedContexts& served, const snmp_pdu* pdu) {
  if (pdu == nullptr || (pdu->command != kAgentxGet && pdu->command != kAgentxGetNext)) return nullptr;
  std::string_view context;
  if (pdu->community != nullptr) context = {reinterpret_cast<const char*>(pdu->community), pdu->community_len};
  auto it = served.find(context);
  if (it == served.end()) return nullptr;
  // The response is the request with its varbinds answered, as Net-SNMP's
  // own send_agentx_error() builds one: same session, transaction and
  // packet ids.
  netsnmp_pdu* response = snmp_clone_pdu(const_cast<netsnmp_pdu*>(pdu));
  if (response == nullptr) return nullptr;
  for (netsnmp_variable_list* vb = response->variables; vb != nullptr; vb = vb->next_variable) {
    if (pdu->command == kAgentxGet) {
      answerGet(it->second, vb);
    } else {
      answerGetNext(it->second, vb);
    }
  }
  response->command = kAgentxResponse;
  response->errstat = SNMP_ERR_NOERROR;
  response->errindex = 0;
  return response;
}

size_t agentxGetNext(std::span<const ServedTable> tables, std::span<const uint32_t> start, bool inclusive,
                     std::span<const uint32_t> end, std::span<uint32_t> oid_out, CellView* value) {
  for (const ServedTable& t : tables) {
    std::optional<CellPos> pos = findNext(*t.def, *t.data, start, inclusive);
    if (!pos) continue;  // the table is before start, or empty past it
    const Oid& entry = t.def->entry;
    std::span<const uint32_t> index = t.data->rowIndex(pos->row);
    const size_t len = entry.size() + 1 + index.size();
    if (len > oid_out.size()) return 0;
    uint32_t* out = std::copy(entry.begin(), entry.end(), oid_out.data());
    *out++ = t.data->columnId(pos->column);
    std::copy(index.begin(), index.end(), out);
    // Tables are in OID order: the first found is the next object overall,
    // and past `end` so is everything after it.
    if (!end.empty() && !spanLess(oid_out.first(len), end)) return 0;
    *value = *t.data->cell(pos->column, pos->row);
    return len;
  }
  return 0;
}

AgentxFastPath::AgentxFastPath(const ServedContexts* served, std::atomic<uint64_t>* answered)
    : served_(served), answered_(answered) {}

AgentxFastPath::~AgentxFastPath() { unhook(); }

void AgentxFastPath::hook() {
  netsnmp_session* session = main_session;
  if (session == nullptr || session->callback == onAgentxPacket) return;
  // A session we have not seen (the first, or one after a reconnect).
  original_callback_ = reinterpret_cast<void*>(session->callback);
  session->callback = onAgentxPacket;
  hooked_session_ = session;
  g_fast_path = this;
  // A unix-socket AgentX (the usual agentXSocket) reads without getsockname;
  // TCP AgentX keeps Net-SNMP's receive.
  netsnmp_transport* t = snmp_sess_transport(snmp_sess_pointer(session));
  if (isUnixStream(t) && t->f_recv != recvAgentx) {
    original_recv_ = reinterpret_cast<void*>(t->f_recv);
    t->f_recv = recvAgentx;
  }
}

void AgentxFastPath::unhook() {
  netsnmp_session* session = main_session;
  if (session != nullptr && session == hooked_session_ && session->callback == onAgentxPacket) {
    session->callback = reinterpret_cast<netsnmp_callback>(original_callback_);
    netsnmp_transport* t = snmp_sess_transport(snmp_sess_pointer(session));
    if (t != nullptr && t->f_recv == recvAgentx && original_recv_ != nullptr) {
      t->f_recv = reinterpret_cast<decltype(t->f_recv)>(original_recv_);
    }
  }
  hooked_session_ = nullptr;
  if (g_fast_path == this) g_fast_path = nullptr;
}

}  // namespace rdmagw::northbound::snmp
