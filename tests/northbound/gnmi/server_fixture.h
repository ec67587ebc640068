#pragma once
// A gNMI server on loopback port 0 over a store filled with the known
// leaves of test_store.h, plus the Python client ready to talk to it.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "northbound/gnmi/gnmi_server.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/northbound/gnmi/test_store.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test

class GnmiServerFixture : public ::testing::Test {
 protected:
  static GnmiServerConfig plainConfig() {
    GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    c.min_sample_interval = std::chrono::milliseconds(100);
    c.target_defined_interval = std::chrono::milliseconds(200);
    return c;
  }
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(preparePythonClient(&err)) << err;
    fillTestStore(store_);
  }
  void start(GnmiServerConfig c = plainConfig()) {
    server_ = std::make_unique<GnmiServer>(store_, c);
    Status st = server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  void TearDown() override { server_.reset(); }

  std::vector<std::string> run(const std::string& json) { return runPython(server_->address(), json); }
  std::unique_ptr<PythonClient> spawn(const std::string& json) {
    return std::make_unique<PythonClient>(server_->address(), json);
  }
  static std::string last(const std::vector<std::string>& lines) { return lines.empty() ? "" : lines.back(); }
  static int count(const std::vector<std::string>& lines, const std::string& prefix) {
    int n = 0;
    for (const std::string& l : lines) n += l.rfind(prefix, 0) == 0;
    return n;
  }
  void apply(const std::string& target, std::vector<Update> batch) { store_.apply(target, batch); }

  Store store_;
  std::unique_ptr<GnmiServer> server_;
};

inline std::string ts(TimestampNs t) { return std::to_string(t); }
using Lines = std::vector<std::string>;

}  // namespace rdmagw::testing
