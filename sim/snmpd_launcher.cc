#include "sim/snmpd_launcher.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/file_text.h"
#include "sim/netsnmp_child.h"

namespace rdmagw::sim {

namespace {

int runQuiet(const std::string& command) {
  std::string full = command + " >/dev/null 2>&1";
  int rc = std::system(full.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

SnmpdLauncher::SnmpdLauncher(SnmpdOptions options) : options_(std::move(options)) {}

SnmpdLauncher::~SnmpdLauncher() { stop(); }

std::string SnmpdLauncher::communityFor(const std::string& context) const {
  return context.empty() ? options_.community : options_.context_community_prefix + context;
}

std::string SnmpdLauncher::clientEnv() const {
  // SNMPCONFPATH at our dir: the tools read no system or user snmp.conf.
  std::string env = "SNMP_PERSISTENT_DIR=" + dir_ + "/client SNMPCONFPATH=" + dir_ + "/client";
  if (!options_.mib_dirs.empty()) env += " MIBDIRS=+" + options_.mib_dirs;
  return env;
}

std::string SnmpdLauncher::v2cArgs(const std::string& context) const {
  return "-v2c -c '" + communityFor(context) + "' " + address();
}

std::string SnmpdLauncher::v3Args(const std::string& context) const {
  std::string args = "-v3 -l authPriv -u '" + options_.v3_user + "' -a SHA-256 -A '" + options_.v3_auth_pass +
                     "' -x AES -X '" + options_.v3_priv_pass + "'";
  if (!context.empty()) args += " -n '" + context + "'";
  return args + " " + address();
}

std::string SnmpdLauncher::configText() const {
  std::ostringstream c;
  c << "# snmpd for rdmagw: AgentX master on a unix socket, loopback only.\n"
    << "agentAddress udp:" << address() << "\n"
    << "master agentx\n"
    << "agentXSocket " << agentxSocket() << "\n"
    << "agentXPerms 0660 0770\n"
    << "view all included .1\n"
    << "# v2c: the default context, and one community per device context.\n"
    << "com2sec sec_default 127.0.0.1 " << options_.community << "\n"
    << "group grp_default v2c sec_default\n"
    << "access grp_default \"\" v2c noauth exact all none none\n";
  for (const std::string& ctx : options_.contexts) {
    c << "com2sec -Cn " << ctx << " sec_" << ctx << " 127.0.0.1 " << communityFor(ctx) << "\n"
      << "group grp_" << ctx << " v2c sec_" << ctx << "\n"
      << "access grp_" << ctx << " " << ctx << " v2c noauth exact all none none\n";
  }
  c << "# v3: one authPriv user for every context (-n <device>).\n"
    << "createUser " << options_.v3_user << " SHA-256 \"" << options_.v3_auth_pass << "\" AES \""
    << options_.v3_priv_pass << "\"\n"
    << "group grp_v3 usm " << options_.v3_user << "\n"
    << "access grp_v3 \"\" usm priv prefix all none none\n";
  return c.str();
}

Status SnmpdLauncher::prepare() {
  if (!dir_.empty()) return Status::ok();
  char tmpl[] = "/tmp/rdmagw-snmpd-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return Status::ioError("mkdtemp: " + std::string(std::strerror(errno)));
  dir_ = tmpl;
  std::filesystem::create_directories(dir_ + "/persist");
  std::filesystem::create_directories(dir_ + "/client");
  std::ofstream(dir_ + "/client/snmp.conf") << "mibs :\n";  // tools load MIBs only when asked (-m)
  return Status::ok();
}

Status SnmpdLauncher::spawn() {
  {
    std::ofstream conf(dir_ + "/snmpd.conf", std::ios::trunc);
    conf << configText();
    if (!conf) return Status::ioError("cannot write " + dir_ + "/snmpd.conf");
  }
  std::string conf = dir_ + "/snmpd.conf";
  std::string log = dir_ + "/snmpd.log";
  std::string persist = dir_ + "/persist";
  pid_t pid = fork();
  if (pid < 0) return Status::ioError("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    prepareNetSnmpChild(log, persist);
    execl(options_.snmpd_path.c_str(), "snmpd", "-f", "-Lo", "-C", "-c", conf.c_str(), "-I", "-smux",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  pid_ = pid;
  // Up when the AgentX socket exists and a v2c GET of sysUpTime answers.
  for (int i = 0; i < 300; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return Status::unavailable("snmpd exited at start: " + logText());
    }
    if (std::filesystem::exists(agentxSocket()) && answers()) return Status::ok();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stopServer();
  return Status::unavailable("snmpd did not answer within 30 s: " + logText());
}

bool SnmpdLauncher::answers() const {
  return runQuiet(clientEnv() + " snmpget -r 0 -t 1 " + v2cArgs("") + " .1.3.6.1.2.1.1.3.0") == 0;
}

Status SnmpdLauncher::start() {
  if (running()) return Status::ok();
  if (dir_.empty()) {
    if (Status st = prepare(); !st.isOk()) return st;
  }
  bool fixed_port = port_ != 0;
  Status last;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (!fixed_port) port_ = freeUdpPort();
    last = spawn();
    if (last.isOk() || fixed_port) return last;
  }
  return last;
}

void SnmpdLauncher::stopServer() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void SnmpdLauncher::stop() {
  stopServer();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }
}

Status SnmpdLauncher::restart() {
  stopServer();
  return start();
}

std::string SnmpdLauncher::logText() const { return common::readFileText(dir_ + "/snmpd.log").text; }

}  // namespace rdmagw::sim
