#include "tests/sim/nxapi/nxapi_test_util.h"

#include <atomic>
#include <sstream>

namespace rdmagw::testing {

std::string CurlResult::cookie() const {
  const std::string key = "nxapi_auth=";
  const size_t at = headers.find(key);
  if (at == std::string::npos) return "";
  const size_t start = at + key.size();
  return headers.substr(start, headers.find_first_of(";\r\n", start) - start);
}

CurlResult curlPost(const TempDir& scratch, const CurlRequest& req) {
  static std::atomic<int> serial{0};
  const std::string n = std::to_string(serial.fetch_add(1));
  const std::string body_in = scratch.file("req" + n), headers = scratch.file("hdr" + n);
  writeFile(body_in, req.body);
  std::string cmd = "curl -s --max-time 60 -X POST -H 'Content-Type: " + req.content_type + "' --data-binary @" +
                    body_in + " -D " + headers + " -w '%{http_code} %{num_connects}\\n'";
  if (!req.user.empty()) cmd += " -u '" + req.user + ":" + req.password + "'";
  if (!req.cookie.empty()) cmd += " -b 'nxapi_auth=" + req.cookie + "'";
  if (req.cookie_engine) cmd += " -b ''";
  if (!req.ca_file.empty()) cmd += " --cacert " + req.ca_file;
  for (int i = 0; i < req.urls; ++i) cmd += " -o " + scratch.file("body" + n + "-" + std::to_string(i)) + " " + req.url;
  const CommandResult run = runCommand(cmd);
  CurlResult r;
  r.exit_code = run.exit_code;
  std::istringstream lines(run.output);
  for (int code = 0, connects = 0; lines >> code >> connects;) {
    if (code != 0) r.http.push_back(code);
    r.connects += connects;
  }
  r.body = readFile(scratch.file("body" + n + "-0"));
  r.headers = readFile(headers);
  return r;
}

std::string insApi(const std::string& type, const std::string& input) {
  return nlohmann::json{
      {"ins_api",
       {{"version", "1.0"}, {"type", type}, {"chunk", "0"}, {"sid", "1"}, {"input", input}, {"output_format", "json"}}}}
      .dump();
}

std::string rpcCall(const std::string& method, const std::string& cmd, int id) {
  return nlohmann::json{{"jsonrpc", "2.0"}, {"method", method}, {"params", {{"cmd", cmd}, {"version", 1}}}, {"id", id}}
      .dump();
}

std::string rpcBatch(const std::vector<std::string>& calls) {
  std::string out = "[";
  for (size_t i = 0; i < calls.size(); ++i) out += (i ? "," : "") + calls[i];
  return out + "]";
}

}  // namespace rdmagw::testing
