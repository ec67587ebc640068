#include "northbound/snmp/agentx_subagent.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/library/large_fd_set.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "models/log.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/netsnmp_value.h"
#include "models/thread_role.h"

namespace rdmagw::northbound::snmp {

struct AgentxSubagent::Binding {
  const AgentxSubagent* agent;
  std::string context;
  size_t table;
};

struct AgentxSubagent::Registered {
  std::vector<std::unique_ptr<Binding>> bindings;
  std::vector<netsnmp_handler_registration*> registrations;
};

namespace {

constexpr char kAppName[] = "rdmagw";

// Net-SNMP's log lines go to ours, so snmpd being away is one warning in
// the gateway log rather than noise on stderr.
// True while Net-SNMP initialises: it then tries to load its default MIB
// modules, which the subagent does not need (it answers by OID) and which
// are not installed; those complaints go to debug.
std::atomic<bool> g_initialising{false};

int onNetSnmpLog(int, int, void* server_arg, void*) {
  auto* msg = static_cast<snmp_log_message*>(server_arg);
  std::string text = msg->msg ? msg->msg : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.empty()) return SNMP_ERR_NOERROR;
  // Net-SNMP registers null placeholders (ccitt, iso, joint-iso-ccitt) in
  // every new context; the master already holds them and answers 263. Our
  // own tables never collide (device contexts hold nothing else), and the
  // integration tests would see one that did.
  if (text == "registering pdu failed: 263!") return SNMP_ERR_NOERROR;
  const bool init_noise = g_initialising.load() && text.find("gentX") == std::string::npos &&
                          text.find("gentx") == std::string::npos;  // AgentX / agentx news stays visible
  LogLevel level = init_noise ? LogLevel::kDebug
                   : msg->priority <= LOG_ERR ? LogLevel::kError
                   : msg->priority == LOG_WARNING ? LogLevel::kWarn
                   : msg->priority <= LOG_INFO ? LogLevel::kInfo
                                               : LogLevel::kDebug;
  if (level < logLevel()) return SNMP_ERR_NOERROR;  // logLine itself does not filter
  logLine(level, "snmp", "net-snmp: " + text);
  return SNMP_ERR_NOERROR;
}

// One handler for every table: the registration's Binding says which
// context and table; the data comes from the snapshot in service. No heap
// work per varbind beyond what Net-SNMP does to store the answer.
int handleTable(netsnmp_mib_handler* handler, netsnmp_handler_registration*, netsnmp_agent_request_info* reqinfo,
                netsnmp_request_info* requests) {
  const auto* b = static_cast<const AgentxSubagent::Binding*>(handler->myvoid);
  const TableDef& def = MibCatalog::instance().tables()[b->table];
  const TableData* data = b->agent->tableFor(*b);
  uint32_t arcs[MAX_OID_LEN];
  oid answer[MAX_OID_LEN];
  for (netsnmp_request_info* r = requests; r != nullptr; r = r->next) {
    if (r->processed) continue;
    netsnmp_variable_list* vb = r->requestvb;
    std::span<const uint32_t> name(arcs, toArcs(vb->name, vb->name_length, arcs));
    switch (reqinfo->mode) {
      case MODE_GET: {
        std::optional<CellView> cell = data ? getExact(def, *data, name) : std::nullopt;
        if (cell) {
          setVarValue(vb, *cell);
        } else {
          netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
        }
        break;
      }
      case MODE_GETNEXT: {
        // Nothing past this OID in the table: leave the varbind untouched
        // and the agent carries on in the next registered subtree.
        std::optional<CellPos> pos = data ? findNext(def, *data, name, r->inclusive != 0) : std::nullopt;
        if (!pos) break;
        std::span<const uint32_t> index = data->rowIndex(pos->row);
        size_t len = def.entry.size() + 1 + index.size();
        if (len > MAX_OID_LEN) break;  // cannot be encoded; never built by the catalog's indexes
        oid* end = std::copy(def.entry.begin(), def.entry.end(), answer);
        *end++ = data->columnId(pos->column);
        std::copy(index.begin(), index.end(), end);
        snmp_set_var_objid(vb, answer, len);
        setVarValue(vb, *data->cell(pos->column, pos->row));
        break;
      }
      default:
        netsnmp_set_request_error(reqinfo, r, SNMP_ERR_NOTWRITABLE);
        break;
    }
  }
  return SNMP_ERR_NOERROR;
}

// One select round: requests, AgentX pings and reconnect alarms. Bounded
// by `cap` so stop() and new snapshots are noticed promptly.
void pollOnce(std::chrono::milliseconds cap) {
  int numfds = 0;
  // In: 1 = "no timeout of the library's own pending" (block). Out: 0 when
  // an alarm or retry is due within `timeout`. Starting from 0 would make
  // every select non-blocking: a busy loop stealing the CPU snmpd needs.
  int block = 1;
  netsnmp_large_fd_set fds;
  netsnmp_large_fd_set_init(&fds, FD_SETSIZE);
  NETSNMP_LARGE_FD_ZERO(&fds);
  timeval timeout{};
  snmp_select_info2(&numfds, &fds, &timeout, &block);
  timeval limit{0, int(cap.count() * 1000)};
  if (block || timercmp(&timeout, &limit, >)) timeout = limit;
  int count = netsnmp_large_fd_set_select(numfds, &fds, nullptr, nullptr, &timeout);
  if (count > 0) {
    snmp_read2(&fds);
  } else if (count == 0) {
    snmp_timeout();
  }
  netsnmp_large_fd_set_cleanup(&fds);
  run_alarms();
  netsnmp_check_outstanding_agent_requests();
}

}  // namespace

AgentxSubagent::AgentxSubagent(SnmpConfig config, SnapshotSource source, std::atomic<uint64_t>* served,
                               std::atomic<uint64_t>* fast_answered, NotifyCounters* notify_counters)
    : config_(std::move(config)),
      source_(std::move(source)),
      served_(served),
      fast_answered_(fast_answered),
      notify_counters_(notify_counters) {}

AgentxSubagent::~AgentxSubagent() { stop(); }

Status AgentxSubagent::start() {
  stop_ = false;
  init_state_ = 0;
  thread_ = std::thread([this] {
    enterThreadRole("snmp-agentx", ThreadRole::kServe);
    run();
  });
  while (init_state_.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (init_state_.load() < 0) {
    thread_.join();
    return Status::internal("Net-SNMP agent initialisation failed");
  }
  return Status::ok();
}

std::string AgentxSubagent::engineIdHex() const {
  std::lock_guard lock(engine_id_mu_);
  return engine_id_hex_;
}

void AgentxSubagent::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

const TableData* AgentxSubagent::tableFor(const Binding& b) const {
  if (!current_) return nullptr;
  auto it = current_->contexts.find(b.context);
  if (it == current_->contexts.end() || b.table >= it->second.tables.size()) return nullptr;
  return &it->second.tables[b.table];
}

void AgentxSubagent::registerContext(const std::string& context) {
  auto reg = std::make_unique<Registered>();
  const TableScope scope = context.empty() ? TableScope::kGateway : TableScope::kDevice;
  std::span<const TableDef> tables = MibCatalog::instance().tables();
  for (size_t i = 0; i < tables.size(); ++i) {
    if (tables[i].scope != scope) continue;
    auto binding = std::make_unique<Binding>(Binding{this, context, i});
    std::vector<oid> root(tables[i].table.begin(), tables[i].table.end());
    netsnmp_handler_registration* r = netsnmp_create_handler_registration(
        tables[i].name.c_str(), handleTable, root.data(), root.size(), HANDLER_CAN_RONLY);
    if (r == nullptr) continue;
    r->handler->myvoid = binding.get();
    if (!context.empty()) r->contextName = strdup(context.c_str());
    if (netsnmp_register_handler(r) != MIB_REGISTERED_OK) {
      // netsnmp_register_handler frees the registration on failure.
      RDMAGW_LOG(kWarn, "snmp") << "cannot register " << tables[i].name << " in context '" << context << "'";
      continue;
    }
    reg->registrations.push_back(r);
    reg->bindings.push_back(std::move(binding));
  }
  RDMAGW_LOG(kDebug, "snmp") << "serving context '" << context << "' (" << reg->registrations.size() << " tables)";
  registered_[context] = std::move(reg);
}

void AgentxSubagent::unregisterContext(const std::string& context) {
  auto it = registered_.find(context);
  if (it == registered_.end()) return;
  // Not netsnmp_unregister_handler(r): it hands the registration's own
  // rootoid and contextName to unregister_mib_context, which frees the
  // registration and then reads the context name again to invalidate its
  // lookup cache (Net-SNMP 5.9, agent_registry.c) — a use-after-free for
  // every non-default context. The same call with copies we own is safe.
  const std::string name = context;
  for (netsnmp_handler_registration* r : it->second->registrations) {
    std::vector<oid> root(r->rootoid, r->rootoid + r->rootoid_len);
    unregister_mib_context(root.data(), root.size(), r->priority, r->range_subid, r->range_ubound,
                           name.empty() ? nullptr : name.c_str());
  }
  registered_.erase(it);
}

void AgentxSubagent::rebuildServed() {
  served_tables_.clear();
  std::span<const TableDef> tables = MibCatalog::instance().tables();
  for (const auto& [context, reg] : registered_) {
    std::vector<ServedTable>& list = served_tables_[context];
    for (const auto& b : reg->bindings) {
      if (const TableData* data = tableFor(*b)) list.push_back(ServedTable{&tables[b->table], data});
    }
    std::sort(list.begin(), list.end(),
              [](const ServedTable& a, const ServedTable& b) { return a.def->table < b.def->table; });
  }
}

void AgentxSubagent::adopt(MibSnapshotPtr snap) {
  current_ = std::move(snap);
  for (const auto& [context, data] : current_->contexts) {
    if (!registered_.count(context)) registerContext(context);
  }
  std::vector<std::string> gone;
  for (const auto& [context, reg] : registered_) {
    if (!current_->contexts.count(context)) gone.push_back(context);
  }
  for (const std::string& context : gone) unregisterContext(context);
  rebuildServed();
  served_->fetch_add(1);
  if (sender_) sender_->enqueue(watcher_.diff(*current_));
}

// Net-SNMP's AgentX session of this subagent (agent/mibgroup/agentx/
// subagent.c): null while snmpd is away, a new one after each reconnect.
extern "C" netsnmp_session* main_session;

namespace {

// Net-SNMP cannot be initialised twice in one process (its subagent
// callback session is set up once), so the library is initialised on the
// first start and kept; stop() only unregisters our tables and ends the
// thread, and the kernel closes the AgentX socket at exit.
std::atomic<bool> g_netsnmp_ready{false};
std::string g_agentx_socket;  // the socket of the first start; fixed for the process

bool initNetSnmp(const SnmpConfig& config) {
  snmp_disable_log();
  netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK, std::getenv("RDMAGW_NETSNMP_DEBUG") ? LOG_DEBUG : LOG_INFO);
  snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING, onNetSnmpLog, nullptr);
  if (const char* dbg = std::getenv("RDMAGW_NETSNMP_DEBUG")) {  // e.g. "agentx/subagent"
    debug_register_tokens(dbg);
    snmp_set_do_debugging(1);
  }
  netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE, 1);  // subagent
  netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_X_SOCKET, config.agentx_socket.c_str());
  // Net-SNMP's own files (none read, none written) under our state dir,
  // and an empty MIB directory: the subagent answers by OID, so parsing the
  // system MIBs would only cost time and log noise.
  std::string conf_dir = config.state_dir + "/net-snmp";
  std::error_code ec;
  std::filesystem::create_directories(conf_dir + "/mibs", ec);
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
  netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_CONFIGURATION_DIR, conf_dir.c_str());
  netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_PERSISTENT_DIR, conf_dir.c_str());
  netsnmp_set_mib_directory((conf_dir + "/mibs").c_str());
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
  g_initialising = true;
  if (init_agent(kAppName) != 0) {
    g_initialising = false;
    return false;
  }
  // After init_agent, which sets its defaults: the ping is what notices a
  // restarted snmpd and reconnects.
  netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL,
                     int(config.agentx_ping_interval.count()));
  init_snmp(kAppName);
  g_initialising = false;
  netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL,
                     int(config.agentx_ping_interval.count()));
  g_agentx_socket = config.agentx_socket;
  return true;
}

}  // namespace

void AgentxSubagent::run() {
  if (!g_netsnmp_ready.load()) {
    if (!initNetSnmp(config_)) {
      init_state_ = -1;
      return;
    }
    g_netsnmp_ready = true;
  } else if (g_agentx_socket != config_.agentx_socket) {
    RDMAGW_LOG(kError, "snmp") << "the AgentX socket cannot change within a process (Net-SNMP initialises once): "
                               << "still using " << g_agentx_socket;
  }
  init_state_ = 1;

  if (config_.agentx_fast_path) fast_path_ = std::make_unique<AgentxFastPath>(&served_tables_, fast_answered_);
  if (notify_counters_ != nullptr && !config_.notifications.empty()) {
    sender_ = std::make_unique<NotificationSender>(config_, notify_counters_);
  }
  {
    std::lock_guard lock(engine_id_mu_);
    engine_id_hex_ = localEngineIdHex();
  }
  while (!stop_.load()) {
    if (MibSnapshotPtr snap = source_(&generation_)) adopt(std::move(snap));
    if (sender_) sender_->pump();
    if (fast_path_) fast_path_->hook();  // a reconnect makes a new AgentX session
    pollOnce(std::chrono::milliseconds(100));
    connected_.store(main_session != nullptr, std::memory_order_relaxed);
  }
  connected_.store(false, std::memory_order_relaxed);
  fast_path_.reset();  // Net-SNMP's handler back before the tables go
  if (sender_) {
    pollOnce(std::chrono::milliseconds(0));  // traps just queued leave before the sessions close
    sender_.reset();
  }

  std::vector<std::string> contexts;
  for (const auto& [context, reg] : registered_) contexts.push_back(context);
  for (const std::string& context : contexts) unregisterContext(context);
  // Let the unregistrations reach snmpd before the thread goes.
  pollOnce(std::chrono::milliseconds(0));
  served_tables_.clear();
  current_.reset();
}

}  // namespace rdmagw::northbound::snmp
