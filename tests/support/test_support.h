#pragma once
// Plumbing shared by the test folders: scratch directories, whole-file I/O,
// shell commands, free loopback ports, HTTP GET via curl, and lookups of an
// Update in a PollBatch. Domain helpers (fixtures, builders) stay with their
// folder's tests.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/update.h"

namespace rdmagw::testing {

// A fresh directory /tmp/<prefix>-XXXXXX (mkdtemp), removed with its contents
// by the destructor. path() is empty if mkdtemp failed.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "rdmagw-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + rel.
  std::string file(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

// Writes `content` to `path` (binary, truncating); false if that failed.
bool writeFile(const std::string& path, const std::string& content);
// The whole file; empty if it cannot be opened.
std::string readFile(const std::string& path);

struct CommandResult {
  int exit_code = -1;  // -1: could not run, or did not exit normally
  std::string output;  // stdout and stderr together
};
// Runs `command` through the shell (popen, with "2>&1" appended).
CommandResult runCommand(const std::string& command);

// The lines of one family in a /metrics body (samples only: no # lines).
std::vector<std::string> metricsFamily(const std::string& body, const std::string& name);
// A string as an SNMP table index part: its length, then each byte (".3.97.98.99").
std::string snmpStringIndex(const std::string& text);

// How many descriptors this process has open (entries of /proc/self/fd,
// the listing's own included): what a test compares before and after work
// that must not leak one.
size_t openDescriptors();

// A loopback TCP port nothing listens on right now (bind 0, read, close);
// 0 if none could be had.
int freeLoopbackPort();

// The body of `curl -s --max-time 5 <url>` (empty on any failure). The url
// goes to the shell as is.
std::string httpGet(const std::string& url);

// How long a test waits for an event before it gives up: generous, because
// a fresh or loaded machine of this size can be several times slower than
// the one the test was written on; a passing test returns as soon as the
// event happens, so the limit costs nothing when all is well.
inline constexpr std::chrono::seconds kEventWait{90};

// Polls `cond` every `step` until it holds (true) or `limit` passes (false,
// after one last look).
bool waitUntil(const std::function<bool()>& cond, std::chrono::milliseconds limit = kEventWait,
               std::chrono::milliseconds step = std::chrono::milliseconds(25));

// Stops a child the test started as a user would (SIGINT, Ctrl-C) and reaps
// it: its wait status, or nullopt when it did not stop within kEventWait and
// had to be killed (SIGKILL, reaped too).
std::optional<int> interruptChild(int pid);
// The same with another signal and limit (SIGTERM: daemons such as prometheus).
std::optional<int> stopChild(int pid, int signal, std::chrono::milliseconds limit = kEventWait);

// Starts `argv[0]` (a path, no PATH lookup) with `argv` in a child whose
// stdout and stderr append to `log`: the pid, or -1 when fork failed. The
// child does not repeat the test's buffered output.
int spawnLogged(const std::vector<std::string>& argv, const std::string& log);

// A connected stream socket to the unix socket at `path`, or -1.
int connectUnix(const std::string& path);

// The first update at exactly `path`, or nullptr.
const Update* findUpdate(const PollBatch& b, const std::string& path);
// The value at `path` when it is there and of that type.
std::optional<uint64_t> u64At(const PollBatch& b, const std::string& path);
std::optional<std::string> strAt(const PollBatch& b, const std::string& path);

}  // namespace rdmagw::testing
