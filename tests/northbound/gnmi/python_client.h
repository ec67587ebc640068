#pragma once
// Runs tests/northbound/gnmi/python_client.py (an independent gNMI client
// on Debian's python3-grpcio) against a server, one request per run. The
// message modules are generated once per test binary, from proto/.

#include <cstdio>
#include <string>
#include <vector>

namespace rdmagw::testing {

// Generates the Python modules into a temp dir; false (with a reason in
// *error) when protoc or the plugin failed.
bool preparePythonClient(std::string* error);
// Where the generated modules are (after preparePythonClient).
const std::string& pythonModuleDir();

// A running client: its output lines, read as they come.
class PythonClient {
 public:
  // `request_json`: see python_client.py (rpc, target, paths, subs...).
  PythonClient(const std::string& address, const std::string& request_json);
  ~PythonClient();
  PythonClient(const PythonClient&) = delete;
  PythonClient& operator=(const PythonClient&) = delete;

  // The next line; "" once the client exited, or was killed after 150 s
  // without output (its own deadlines are shorter).
  std::string next();
  // Lines until one starts with `prefix` (included), or the end.
  std::vector<std::string> until(const std::string& prefix);
  // Every remaining line.
  std::vector<std::string> rest();

 private:
  FILE* pipe_ = nullptr;
  std::string buffered_;  // read from the pipe, not yet returned as a line
  int pid_ = -1;  // the python process: killed by the destructor if still running
  std::string request_file_;
};

// Runs one request to completion; returns every line.
std::vector<std::string> runPython(const std::string& address, const std::string& request_json);

}  // namespace rdmagw::testing
