#include "sim/snmptrapd_launcher.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/file_text.h"
#include "sim/netsnmp_child.h"
#include "sim/snmpd_launcher.h"

namespace rdmagw::sim {
namespace {

constexpr char kTrapPrefix[] = "TRAP ";
constexpr char kSeparator = '|';

// True when something is bound to UDP 127.0.0.1:port (our bind fails).
bool udpPortTaken(int port) {
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(uint16_t(port));
  bool taken = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno == EADDRINUSE;
  ::close(fd);
  return taken;
}

// "" when unreadable: nothing received or logged yet.
std::string readAll(const std::string& path) { return common::readFileText(path).text; }

}  // namespace

std::string ReceivedTrap::value(const std::string& prefix) const {
  for (const auto& [oid, v] : varbinds) {
    if (oid.rfind(prefix, 0) == 0) return v;
  }
  return "";
}

std::string ReceivedTrap::oid(const std::string& prefix) const {
  for (const auto& [oid, v] : varbinds) {
    if (oid.rfind(prefix, 0) == 0) return oid;
  }
  return "";
}

std::string ReceivedTrap::text() const {
  std::string out;
  for (const auto& [oid, v] : varbinds) out += oid + " = " + v + "\n";
  return out;
}

SnmptrapdLauncher::SnmptrapdLauncher(SnmptrapdOptions options) : options_(std::move(options)) {}

SnmptrapdLauncher::~SnmptrapdLauncher() { stop(); }

Status SnmptrapdLauncher::start() {
  if (pid_ > 0) return Status::ok();
  char tmpl[] = "/tmp/rdmagw-snmptrapd-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return Status::ioError("mkdtemp: " + std::string(std::strerror(errno)));
  dir_ = tmpl;
  std::filesystem::create_directories(dir_ + "/persist");
  Status last;
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = options_.port != 0 ? options_.port : freeUdpPort();
    last = spawn();
    if (last.isOk()) return last;
  }
  return last;
}

Status SnmptrapdLauncher::spawn() {
  const std::string conf = dir_ + "/snmptrapd.conf";
  {
    std::ofstream c(conf, std::ios::trunc);
    c << "# snmptrapd for rdmagw's notifications, loopback only.\n"
      << "snmpTrapdAddr udp:" << address() << "\n"
      << "authCommunity log " << options_.community << " 127.0.0.1\n"
      << "createUser " << options_.v3_user << " SHA-256 \"" << options_.v3_auth_pass << "\" AES \""
      << options_.v3_priv_pass << "\"\n"
      << (options_.v3_trap_engine_id.empty() ? ""
                                             : "createUser -e " + options_.v3_trap_engine_id + " " + options_.v3_user +
                                                   " SHA-256 \"" + options_.v3_auth_pass + "\" AES \"" +
                                                   options_.v3_priv_pass + "\"\n")
      << "authUser log " << options_.v3_user << " priv\n"
      << "format2 " << kTrapPrefix << "%V" << kSeparator << "%v\\n\n";
    if (!c) return Status::ioError("cannot write " + conf);
  }
  const std::string out = dir_ + "/received.txt";
  const std::string log = dir_ + "/snmptrapd.log";
  const std::string persist = dir_ + "/persist";
  pid_t pid = fork();
  if (pid < 0) return Status::ioError("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    prepareNetSnmpChild(log, persist);
    // -f foreground, -C only our config, -n numeric addresses, -On -Oq
    // numeric OIDs and "OID value" varbinds, -Lf the received lines.
    execl(options_.snmptrapd_path.c_str(), "snmptrapd", "-f", "-C", "-c", conf.c_str(), "-n", "-On", "-Oq", "-Lf",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  pid_ = pid;
  for (int i = 0; i < 300; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return Status::unavailable("snmptrapd exited at start: " + logText());
    }
    if (udpPortTaken(port_)) return Status::ok();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop();
  return Status::unavailable("snmptrapd did not listen within 30 s: " + logText());
}

void SnmptrapdLauncher::stop() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100 && waitpid(pid_, nullptr, WNOHANG) != pid_; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (i == 99) {
        ::kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
      }
    }
    pid_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }
}

std::vector<ReceivedTrap> SnmptrapdLauncher::received() const {
  std::vector<ReceivedTrap> out;
  std::istringstream in(readAll(dir_ + "/received.txt"));
  for (std::string line; std::getline(in, line);) {
    size_t at = line.find(kTrapPrefix);
    if (at == std::string::npos) continue;
    ReceivedTrap trap;
    std::istringstream vbs(line.substr(at + std::strlen(kTrapPrefix)));
    for (std::string vb; std::getline(vbs, vb, kSeparator);) {
      size_t space = vb.find(' ');
      if (vb.empty()) continue;
      trap.varbinds.emplace_back(vb.substr(0, space), space == std::string::npos ? "" : vb.substr(space + 1));
    }
    out.push_back(std::move(trap));
  }
  return out;
}

std::string SnmptrapdLauncher::logText() const {
  return readAll(dir_ + "/snmptrapd.log") + readAll(dir_ + "/received.txt");
}

}  // namespace rdmagw::sim
