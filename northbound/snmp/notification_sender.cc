#include "northbound/snmp/notification_sender.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "models/log.h"
#include "northbound/snmp/netsnmp_value.h"

namespace rdmagw::northbound::snmp {

namespace {

constexpr auto kReopenInterval = std::chrono::seconds(30);

// SNMPv2-MIB sysUpTime.0 and snmpTrapOID.0: first in every SNMPv2 notification (RFC 3416 4.2.6).
const oid kSysUpTime[] = {1, 3, 6, 1, 2, 1, 1, 3, 0};
const oid kSnmpTrapOid[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};

std::vector<oid> toNetSnmp(const Oid& arcs) { return std::vector<oid>(arcs.begin(), arcs.end()); }

std::vector<oid> parsed(std::string_view text) {
  Result<Oid> o = parseOid(text);
  return o.isOk() ? toNetSnmp(*o) : std::vector<oid>{};
}

void addVar(netsnmp_pdu* pdu, const std::vector<oid>& name, const CellView& value) {
  netsnmp_variable_list* vb = snmp_pdu_add_variable(pdu, name.data(), name.size(), ASN_NULL, nullptr, 0);
  if (vb != nullptr) setVarValue(vb, value);
}

}  // namespace

std::string localEngineIdHex() {
  u_char engine[SNMP_MAXBUF_SMALL];
  size_t len = snmpv3_get_engineID(engine, sizeof engine);
  static const char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  for (size_t i = 0; i < len; ++i) {
    out += kHex[engine[i] >> 4];
    out += kHex[engine[i] & 15];
  }
  return out;
}

namespace {

// SNMPv3 traps name our engine ID and receivers are configured with it, so
// it must survive restarts: Net-SNMP's own is random per process here (its
// persistent state is off), so the first one is kept in the state dir.
void keepEngineId(const std::string& file) {
  std::ifstream in(file);
  std::string hex;
  if (in >> hex && hex.size() > 2 && hex.size() % 2 == 0 && hex.rfind("0x", 0) == 0 &&
      hex.find_first_not_of("0123456789abcdef", 2) == std::string::npos && (hex.size() - 2) / 2 <= MAX_ENGINEID_LENGTH) {
    std::vector<u_char> id;
    for (size_t i = 2; i < hex.size(); i += 2) id.push_back(u_char(std::stoi(hex.substr(i, 2), nullptr, 16)));
    if (set_exact_engineID(id.data(), id.size()) == SNMPERR_SUCCESS) return;
  }
  std::ofstream out(file, std::ios::trunc);
  out << localEngineIdHex() << "\n";
  if (!out) RDMAGW_LOG(kWarn, "snmp") << "cannot write " << file << ": the SNMPv3 engine ID changes at each restart";
}

// The receiver of an inform is the authoritative engine: learn its engine
// ID now, synchronously with the session's (short) open timeout. Left to
// itself Net-SNMP 5.9 delays the discovery to the first send, and when it
// fails there the inform goes out without a request entry: its callback
// never runs and the failure could not be counted.
bool discoverEngineId(netsnmp_session* session) {
  if (session->securityEngineIDLen > 0) return true;
  struct snmp_secmod_def* usm = find_sec_mod(session->securityModel);
  if (usm == nullptr || usm->probe_engineid == nullptr) return false;
  auto* slp = static_cast<struct session_list*>(snmp_sess_pointer(session));
  if (slp == nullptr || usm->probe_engineid(slp, session) != SNMPERR_SUCCESS || session->securityEngineIDLen == 0) {
    return false;
  }
  // The user's keys, localized for the engine now known (what snmp_open
  // does after a discovery of its own).
  return usm->post_probe_engineid == nullptr || usm->post_probe_engineid(slp, session) == SNMPERR_SUCCESS;
}

}  // namespace

NotifyCounters::NotifyCounters(size_t destinations)
    : sent(destinations), failed(destinations), dropped(notificationTable().size()) {
  for (size_t d = 0; d < destinations; ++d) {
    sent[d] = std::vector<std::atomic<uint64_t>>(notificationTable().size());
    failed[d] = std::vector<std::atomic<uint64_t>>(notificationTable().size());
  }
}

struct NotificationSender::Slot {
  NotifyCounters* counters;
  size_t destination;
  size_t type;
};

struct NotificationSender::Destination {
  size_t index;
  const SnmpNotifyDestination* config;
  netsnmp_session* session = nullptr;  // traditional API: in the global list pollOnce serves
  std::chrono::steady_clock::time_point next_open{};
  std::vector<Slot> slots;  // per type; stable addresses for the inform callbacks
};

namespace {

// An inform's answer or its end: counted once, on the first final outcome.
int onInformOutcome(int op, netsnmp_session*, int, netsnmp_pdu*, void* magic) {
  auto* slot = static_cast<NotificationSender::Slot*>(magic);
  switch (op) {
    case NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE:
      slot->counters->sent[slot->destination][slot->type].fetch_add(1);
      break;
    case NETSNMP_CALLBACK_OP_RESEND:
    case NETSNMP_CALLBACK_OP_CONNECT:
      return 1;  // not an outcome
    default:  // timed out after the retries, send failed, security error, disconnect
      slot->counters->failed[slot->destination][slot->type].fetch_add(1);
      break;
  }
  slot->counters->in_flight.fetch_sub(1);
  return 1;
}

}  // namespace

NotificationSender::NotificationSender(const SnmpConfig& config, NotifyCounters* counters)
    : config_(config), counters_(counters) {
  for (size_t i = 0; i < config_.notifications.size(); ++i) {
    auto d = std::make_unique<Destination>();
    d->index = i;
    d->config = &config_.notifications[i];
    for (size_t t = 0; t < notificationTable().size(); ++t) d->slots.push_back(Slot{counters_, i, t});
    destinations_.push_back(std::move(d));
  }
  keepEngineId(config_.state_dir + "/snmp-engine-id");
  for (auto& d : destinations_) open(*d);
}

NotificationSender::~NotificationSender() {
  for (auto& d : destinations_) {
    if (d->session != nullptr) snmp_close(d->session);
  }
}

void NotificationSender::open(Destination& d) {
  const SnmpNotifyDestination& c = *d.config;
  d.next_open = std::chrono::steady_clock::now() + kReopenInterval;
  netsnmp_session s;
  snmp_sess_init(&s);
  std::string peer = "udp:" + c.label();
  s.peername = peer.data();
  s.retries = c.retries;
  s.timeout = long(std::chrono::duration_cast<std::chrono::microseconds>(c.timeout).count());
  const std::string where = "notifications[" + std::to_string(d.index) + "] (" + c.label() + ")";
  auto secret = [&](std::string_view field, const SecretRef& ref) -> std::optional<std::string> {
    Result<std::string> r = config_.read_secret(field, ref);
    if (!r.isOk()) {
      RDMAGW_LOG(kWarn, "snmp") << where << ": " << r.status().message();  // names the variable/file only
      return std::nullopt;
    }
    return std::move(*r);
  };
  std::optional<std::string> community, auth, priv;
  if (c.version == SnmpNotifyDestination::Version::kV2c) {
    community = secret("community", c.community);
    if (!community) return;
    s.version = SNMP_VERSION_2c;
    s.community = reinterpret_cast<u_char*>(community->data());
    s.community_len = community->size();
  } else {
    s.version = SNMP_VERSION_3;
    s.securityName = const_cast<char*>(c.user.c_str());
    s.securityNameLen = c.user.size();
    const bool sha256 = c.auth_protocol == "SHA-256";
    s.securityAuthProto = sha256 ? usmHMAC192SHA256AuthProtocol : usmHMACSHA1AuthProtocol;
    s.securityAuthProtoLen = sha256 ? OID_LENGTH(usmHMAC192SHA256AuthProtocol) : OID_LENGTH(usmHMACSHA1AuthProtocol);
    auth = secret("auth_passphrase", c.auth_passphrase);
    if (!auth) return;
    s.securityAuthKeyLen = USM_AUTH_KU_LEN;
    if (generate_Ku(s.securityAuthProto, s.securityAuthProtoLen, reinterpret_cast<const u_char*>(auth->data()),
                    auth->size(), s.securityAuthKey, &s.securityAuthKeyLen) != SNMPERR_SUCCESS) {
      RDMAGW_LOG(kWarn, "snmp") << where << ": cannot derive the auth key (passphrase shorter than 8 characters?)";
      return;
    }
    s.securityLevel = SNMP_SEC_LEVEL_AUTHNOPRIV;
    if (!c.priv_protocol.empty()) {
      priv = secret("priv_passphrase", c.priv_passphrase);
      if (!priv) return;
      s.securityPrivProto = usmAESPrivProtocol;
      s.securityPrivProtoLen = OID_LENGTH(usmAESPrivProtocol);
      s.securityPrivKeyLen = USM_PRIV_KU_LEN;
      if (generate_Ku(s.securityAuthProto, s.securityAuthProtoLen, reinterpret_cast<const u_char*>(priv->data()),
                      priv->size(), s.securityPrivKey, &s.securityPrivKeyLen) != SNMPERR_SUCCESS) {
        RDMAGW_LOG(kWarn, "snmp") << where << ": cannot derive the priv key (passphrase shorter than 8 characters?)";
        return;
      }
      s.securityLevel = SNMP_SEC_LEVEL_AUTHPRIV;
    }
    if (c.type == SnmpNotifyDestination::Type::kInform) {
      // An inform discovers the receiver's engine ID when the session opens:
      // a synchronous probe on this (the agent) thread. One short try, so a
      // receiver that is down holds AgentX requests up for a second at most;
      // the configured retries apply to the informs themselves.
      s.retries = 0;
      s.timeout = std::min<long>(s.timeout, 1'000'000);
    } else {
      // A trap's sender is the authoritative engine: our engine ID, no
      // discovery.
      static u_char engine[SNMP_MAXBUF_SMALL];
      size_t len = snmpv3_get_engineID(engine, sizeof engine);
      s.securityEngineID = engine;
      s.securityEngineIDLen = len;
      s.flags |= SNMP_FLAGS_DONT_PROBE;
    }
  }
  d.session = snmp_open(&s);  // copies what it keeps (peername, community, keys)
  // Wipe our copies of the secrets and the derived keys on the stack.
  for (std::optional<std::string>* v : {&community, &auth, &priv}) {
    if (*v) std::fill((*v)->begin(), (*v)->end(), '\0');
  }
  std::memset(s.securityAuthKey, 0, sizeof s.securityAuthKey);
  std::memset(s.securityPrivKey, 0, sizeof s.securityPrivKey);
  if (d.session != nullptr && c.version == SnmpNotifyDestination::Version::kV3 &&
      c.type == SnmpNotifyDestination::Type::kInform && !discoverEngineId(d.session)) {
    RDMAGW_LOG(kWarn, "snmp") << where << ": no answer to the SNMPv3 engine ID discovery; retrying in "
                              << kReopenInterval.count() << "s";
    snmp_close(d.session);
    d.session = nullptr;
    return;
  }
  if (d.session != nullptr) {
    d.session->retries = c.retries;
    d.session->timeout = long(std::chrono::duration_cast<std::chrono::microseconds>(c.timeout).count());
  }
  if (d.session == nullptr) {
    int liberr = 0, syserr = 0;
    char* text = nullptr;
    snmp_error(&s, &liberr, &syserr, &text);
    RDMAGW_LOG(kWarn, "snmp") << where << ": cannot open the notification session: " << (text ? text : "?")
                              << "; retrying in " << kReopenInterval.count() << "s";
    free(text);
    return;
  }
  RDMAGW_LOG(kInfo, "snmp") << "notifications to " << c.label() << " (v" << c.versionName() << " " << c.typeName()
                            << ")";
  if (c.version == SnmpNotifyDestination::Version::kV3 && c.type == SnmpNotifyDestination::Type::kTrap) {
    RDMAGW_LOG(kInfo, "snmp") << "SNMPv3 traps to " << c.label() << " carry engine ID " << localEngineIdHex()
                              << ": the receiver needs createUser -e " << localEngineIdHex() << " " << c.user << " ...";
  }
}

void NotificationSender::enqueue(std::vector<PendingNotification> found) {
  for (PendingNotification& n : found) {
    if (queue_.size() >= config_.notification_queue) {
      counters_->dropped[n.def].fetch_add(1);
      continue;
    }
    queue_.push_back(std::move(n));
  }
}

void NotificationSender::pump() {
  if (queue_.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  for (auto& d : destinations_) {
    if (d->session == nullptr && now >= d->next_open) open(*d);
  }
  static const std::vector<oid> target_oid = parsed(notifyTargetOid());
  static const std::vector<oid> port_oid = parsed(notifyPortOid());
  std::span<const NotificationDef> defs = notificationTable();
  const u_long uptime = netsnmp_get_agent_uptime();
  while (!queue_.empty()) {
    PendingNotification n = std::move(queue_.front());
    queue_.pop_front();
    std::vector<oid> trap_oid = parsed(notificationsArc());
    trap_oid.push_back(defs[n.def].sub_id);
    for (auto& d : destinations_) {
      if (d->session == nullptr) {
        counters_->failed[d->index][n.def].fetch_add(1);
        continue;
      }
      const bool inform = d->config->type == SnmpNotifyDestination::Type::kInform;
      netsnmp_pdu* pdu = snmp_pdu_create(inform ? SNMP_MSG_INFORM : SNMP_MSG_TRAP2);
      snmp_pdu_add_variable(pdu, kSysUpTime, OID_LENGTH(kSysUpTime), ASN_TIMETICKS, &uptime, sizeof uptime);
      snmp_pdu_add_variable(pdu, kSnmpTrapOid, OID_LENGTH(kSnmpTrapOid), ASN_OBJECT_ID, trap_oid.data(),
                            trap_oid.size() * sizeof(oid));
      addVar(pdu, target_oid, CellView{SnmpType::kOctetString, 0, n.target});
      addVar(pdu, port_oid, CellView{SnmpType::kOctetString, 0, n.port});
      for (const auto& [name, value] : n.varbinds) addVar(pdu, toNetSnmp(name), value.view());
      Slot* slot = &d->slots[n.def];
      if (inform) {
        counters_->in_flight.fetch_add(1);
        if (snmp_async_send(d->session, pdu, onInformOutcome, slot) == 0) {
          snmp_free_pdu(pdu);
          counters_->in_flight.fetch_sub(1);
          counters_->failed[d->index][n.def].fetch_add(1);
        }
      } else if (snmp_send(d->session, pdu) == 0) {
        snmp_free_pdu(pdu);
        counters_->failed[d->index][n.def].fetch_add(1);
      } else {
        counters_->sent[d->index][n.def].fetch_add(1);
      }
    }
  }
}

}  // namespace rdmagw::northbound::snmp
