#pragma once
// Helpers for the simulated NX-API tests: a one-leaf fabric written to a
// temp dir, test PKI, and the real `curl` CLI as the client, so the wire
// (TLS, HTTP, cookies, keep-alive) is what an independent client sees.

#include <nlohmann/json.hpp>
#include <string>

#include "sim/gnmi/gnmi_tls.h"
#include "sim/nxapi/nxapi_server.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {

// One curl invocation's outcome.
struct CurlResult {
  int exit_code = -1;
  std::vector<int> http;  // one status per transfer
  int connects = 0;       // new connections curl opened over all transfers
  std::string body;       // the first transfer's body
  std::string headers;    // every transfer's response headers
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
  std::string cookie() const;  // the nxapi_auth value of Set-Cookie, or ""
};

struct CurlRequest {
  std::string url;
  int urls = 1;  // the same request to the same URL this many times in one curl run
  std::string content_type = "application/json";
  std::string body;
  std::string user, password;  // basic auth when user is set
  std::string cookie;          // sent as nxapi_auth=<cookie> when set
  bool cookie_engine = false;  // curl keeps cookies between its own transfers
  std::string ca_file;         // --cacert; empty: plain http or no CA given
};

CurlResult curlPost(const TempDir& scratch, const CurlRequest& req);

// Request bodies of both dialects.
std::string insApi(const std::string& type, const std::string& input);
std::string rpcCall(const std::string& method, const std::string& cmd, int id);
std::string rpcBatch(const std::vector<std::string>& calls);

}  // namespace rdmagw::testing
