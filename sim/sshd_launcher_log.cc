// What SshdLauncher reads back from the files sshd and the forced commands
// write: the sessions a device saw, the connections they came on, and the
// handshake figures of sshd's log. Starting and stopping sshd is
// sshd_launcher.cc.

#include <filesystem>
#include <set>
#include <sstream>

#include "common/file_text.h"
#include "sim/sshd_launcher.h"
#include "sim/sshd_log_markers.h"

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;
using namespace sshd_log;

// "" when unreadable: a log not written yet, a process gone.
std::string readFile(const std::string& path) { return common::readFileText(path).text; }

}  // namespace

std::vector<std::string> SshdLauncher::sessions(const std::string& device) const {
  std::vector<std::string> out;
  std::istringstream in(readFile(dir_ + "/sessions/" + device + ".log"));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

size_t SshdLauncher::connectionCount(const std::string& device) const {
  // "$SSH_CLIENT" is "client_ip client_port server_port": the client port
  // names the TCP connection (it cannot be reused while in TIME_WAIT).
  std::set<std::string> ports;
  for (const std::string& s : sessions(device)) {
    std::istringstream in(s);
    std::string ip, port;
    in >> ip >> port;
    ports.insert(port);
  }
  return ports.size();
}

std::string SshdLauncher::logText() const { return readFile(dir_ + "/sshd.log"); }

size_t SshdLauncher::logSize() const {
  std::error_code ec;
  const auto n = fs::file_size(dir_ + "/sshd.log", ec);
  return ec ? 0 : size_t(n);
}

SshdHandshakeStats SshdLauncher::handshakeStats(size_t from) const {
  // "Connection from 127.0.0.1 port 40962 on 127.0.0.1 port 2222 ..." (VERBOSE)
  // "Accepted publickey for root from 127.0.0.1 port 40962 ssh2: ..."
  // "Close session: user root from 127.0.0.1 port 40962 id 0" (VERBOSE)
  // "rdmagw-sim: command done port 40962" (our forced command's exit trap)
  // "Connection closed by 127.0.0.1 port 40962 [preauth]", "... reset by ...",
  // "Disconnected from ... port 40962 [preauth]", "Timeout before authentication for ... port 40962"
  SshdHandshakeStats out;
  const std::string text = readFile(dir_ + "/sshd.log");
  std::istringstream in(from < text.size() ? text.substr(from) : std::string());
  std::set<std::string> open;
  std::set<std::string> probes;  // the launcher's own connections, not a client's
  const auto clientPort = [](const std::string& line) -> std::string {
    const size_t p = line.find(" port ");
    if (p == std::string::npos) return "";
    size_t e = p + 6;
    while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
    return line.substr(p + 6, e - (p + 6));
  };
  for (std::string line; std::getline(in, line);) {
    if (line == kStoppedMarker) {
      open.clear();
      continue;
    }
    const std::string port = clientPort(line);
    if (port.empty()) continue;
    if (line.rfind(kProbeMarker, 0) == 0) {
      probes.insert(port);
      continue;
    }
    if (line.rfind("Connection from ", 0) == 0 && probes.erase(port) > 0) continue;
    if (line.rfind("Connection from ", 0) == 0) {
      ++out.accepted;
      open.insert(port);
      out.peak_in_progress = std::max(out.peak_in_progress, open.size());
      continue;
    }
    if (line.rfind("Accepted ", 0) == 0 && line.find(" for ") != std::string::npos) ++out.authenticated;
    if (open.count(port) == 0) continue;
    if (line.rfind("Close session:", 0) == 0 || line.rfind(kCommandDone, 0) == 0 ||
        line.find("[preauth]") != std::string::npos ||
        line.rfind("Connection closed", 0) == 0 || line.rfind("Connection reset", 0) == 0 ||
        line.rfind("Disconnected", 0) == 0 || line.rfind("Timeout before", 0) == 0) {
      open.erase(port);
    }
  }
  return out;
}

}  // namespace rdmagw::sim
