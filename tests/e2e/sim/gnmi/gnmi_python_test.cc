// The simulated NX-OS gNMI target driven by an independent gNMI peer:
// Debian's python3-grpcio with modules protoc generates from our .proto files
// at test time. The client prints one line per response; the test reads them.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/gnmi/gnmi_target.h"
#include "tests/sim/gnmi/gnmi_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::sim;  // the helpers speak the vocabulary of the code they test
namespace {

using std::chrono::milliseconds;

// Arguments: addr mode encoding count [key=value ...]; mode is caps, once,
// poll:<n>, sample:<interval_ms> or onchange; count = responses to read
// before cancelling (stream modes). Output lines:
//   CAPS <version> <encodings> <models>, UPDATE <path> <kind> <value>,
//   SYNC, KEEPALIVE, STATUS <code name>
constexpr const char* kClient = R"PY(
import sys, grpc
sys.path.insert(0, sys.argv[1])
import gnmi_pb2, gnmi_pb2_grpc
from gnmi_path_text import path_of, show

addr, mode, enc, count = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
opts = dict(a.split('=', 1) for a in sys.argv[6:])
paths = [p for p in opts.get('paths', '').split(',') if p]
md = []
if 'user' in opts:
    md = [('username', opts['user']), ('password', opts.get('pass', ''))]
if 'ca' in opts:
    rd = lambda p: open(p, 'rb').read() if p else None
    creds = grpc.ssl_channel_credentials(rd(opts['ca']), rd(opts.get('key')), rd(opts.get('cert')))
    ch = grpc.secure_channel(addr, creds)
else:
    ch = grpc.insecure_channel(addr)
stub = gnmi_pb2_grpc.gNMIStub(ch)

def emit(resp):
    kind = resp.WhichOneof('response')
    if kind == 'update':
        for u in resp.update.update:
            v = u.val.WhichOneof('value')
            print('UPDATE', show(u.path, empty=''), v, getattr(u.val, v).decode() if v == 'json_val' else getattr(u.val, v))
    elif kind == 'sync_response':
        print('SYNC')
    else:
        print('KEEPALIVE')
    sys.stdout.flush()

try:
    if mode == 'caps':
        r = stub.Capabilities(gnmi_pb2.CapabilityRequest(), metadata=md, timeout=20)
        print('CAPS', r.gNMI_version, ','.join(gnmi_pb2.Encoding.Name(e) for e in r.supported_encodings),
              ','.join(m.name for m in r.supported_models))
    else:
        lm = {'once': 'ONCE', 'poll': 'POLL'}.get(mode.split(':')[0], 'STREAM')
        sl = gnmi_pb2.SubscriptionList(mode=gnmi_pb2.SubscriptionList.Mode.Value(lm),
                                       encoding=gnmi_pb2.Encoding.Value(enc))
        for p in paths:
            s = sl.subscription.add(path=path_of(p))
            if mode.startswith('sample:'):
                s.mode = gnmi_pb2.SAMPLE
                s.sample_interval = int(mode.split(':')[1]) * 1000000
            elif mode == 'onchange':
                s.mode = gnmi_pb2.ON_CHANGE
        polls = int(mode.split(':')[1]) if mode.startswith('poll:') else 0
        import queue, threading
        q = queue.Queue()
        q.put(gnmi_pb2.SubscribeRequest(subscribe=sl))
        def reqs():
            while True:
                r = q.get()
                if r is None:
                    return
                yield r
        call = stub.Subscribe(reqs(), metadata=md, timeout=60)
        seen = 0
        syncs = 0
        for resp in call:
            emit(resp)
            seen += 1
            if resp.WhichOneof('response') == 'sync_response':
                syncs += 1
                if syncs <= polls:
                    q.put(gnmi_pb2.SubscribeRequest(poll=gnmi_pb2.Poll()))
                elif polls:
                    break
            if count and seen >= count:
                break
        q.put(None)
        call.cancel()
    print('STATUS OK')
except grpc.RpcError as e:
    print('STATUS', e.code().name)
)PY";

class GnmiPythonTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/rdmagw-gnmi-py-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = new std::string(tmpl);
    const std::string cmd = "protoc -I " RDMAGW_SOURCE_DIR "/proto --python_out=" + *dir_ +
                            " --grpc_python_out=" + *dir_ +
                            " --plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin"
                            " gnmi.proto gnmi_ext.proto";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ofstream(*dir_ + "/client.py") << kClient;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(*dir_, ec);
    delete dir_;
  }

  void startTarget(GnmiTargetOptions o) {
    o.min_sample_interval = milliseconds(100);
    target_ = std::make_unique<GnmiTarget>("leaf01", o);
    feed_ = std::make_unique<FabricFeed>(target_.get());
    feed_->step();
    ASSERT_TRUE(target_->start().isOk());
  }
  void TearDown() override {
    if (feed_) feed_->stopThread();
    target_.reset();
  }

  // Runs the client; returns its stdout lines.
  std::vector<std::string> run(const std::string& mode, const std::string& enc, int count,
                               const std::string& extra = "") {
    // PYTHONPATH: tests/support/gnmi_path_text.py, shared with the northbound's client.
    const std::string cmd = "PYTHONPATH=" RDMAGW_SOURCE_DIR "/tests/support /usr/bin/python3 " + *dir_ + "/client.py " + *dir_ + " " +
                            target_->address() + " " + mode + " " + enc + " " +
                            std::to_string(count) + " " + extra + " 2>" + *dir_ + "/stderr.txt";
    std::vector<std::string> lines;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) return lines;
    char buf[4096];
    std::string cur;
    while (std::fgets(buf, sizeof buf, p) != nullptr) {
      cur += buf;
      if (!cur.empty() && cur.back() == '\n') {
        cur.pop_back();
        lines.push_back(cur);
        cur.clear();
      }
    }
    ::pclose(p);
    return lines;
  }
  static std::string status(const std::vector<std::string>& lines) {
    return lines.empty() ? "" : lines.back();
  }
  static int countPrefix(const std::vector<std::string>& lines, const std::string& prefix) {
    int n = 0;
    for (const auto& l : lines) n += l.rfind(prefix, 0) == 0;
    return n;
  }

  static std::string* dir_;
  std::unique_ptr<GnmiTarget> target_;
  std::unique_ptr<FabricFeed> feed_;
};

std::string* GnmiPythonTest::dir_ = nullptr;

const std::string kInOctets = "openconfig:/interfaces/interface[name=eth1/1]/state/counters/in-octets";

TEST_F(GnmiPythonTest, Capabilities) {
  startTarget({});
  auto out = run("caps", "PROTO", 0);
  ASSERT_EQ(status(out), "STATUS OK") << ::testing::PrintToString(out);
  EXPECT_EQ(out[0].rfind("CAPS 0.5.0 JSON,PROTO ", 0), 0u) << out[0];
  EXPECT_NE(out[0].find("Cisco-NX-OS-device"), std::string::npos);
}

TEST_F(GnmiPythonTest, OnceProtoAndJson) {
  startTarget({});
  const Switch sw = feed_->current();
  auto out = run("once", "PROTO", 0, "paths=" + kInOctets);
  ASSERT_EQ(status(out), "STATUS OK") << ::testing::PrintToString(out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], "UPDATE " + kInOctets + " uint_val " + std::to_string(sw.ports[0].in_octets));
  EXPECT_EQ(out[1], "SYNC");
  const std::string blob = "device:/System/intf-items/phys-items/PhysIf-list[id=eth1/1]/dbgDot3Stats-items";
  out = run("once", "JSON", 0, "paths=" + blob);
  ASSERT_EQ(status(out), "STATUS OK");
  EXPECT_EQ(out[0], "UPDATE " + blob + " json_val {\"inPauseFrames\":0,\"outPauseFrames\":0}");
}

TEST_F(GnmiPythonTest, Poll) {
  startTarget({});
  feed_->startThread(milliseconds(50));
  auto out = run("poll:2", "PROTO", 0,
                 "paths=/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue/state/transmit-pkts");
  ASSERT_EQ(status(out), "STATUS OK") << ::testing::PrintToString(out);
  EXPECT_EQ(countPrefix(out, "SYNC"), 3);  // initial + two polls
  EXPECT_EQ(countPrefix(out, "UPDATE"), 3 * kQosGroups);
}

TEST_F(GnmiPythonTest, StreamSampleAndKeepalives) {
  GnmiTargetOptions o;
  o.quirks.keepalive_interval = milliseconds(150);
  startTarget(o);
  feed_->startThread(milliseconds(50));
  auto out = run("sample:100", "PROTO", 12, "paths=" + kInOctets);
  ASSERT_EQ(status(out), "STATUS OK") << ::testing::PrintToString(out);
  EXPECT_EQ(countPrefix(out, "SYNC"), 1);
  EXPECT_GE(countPrefix(out, "UPDATE"), 2);
  uint64_t first = 0, last = 0;
  for (const auto& l : out) {
    if (l.rfind("UPDATE", 0) != 0) continue;
    const uint64_t v = std::stoull(l.substr(l.rfind(' ') + 1));
    if (first == 0) first = v;
    last = v;
  }
  EXPECT_GT(last, first);
}

TEST_F(GnmiPythonTest, OnChangeGetsTheFullSetThenChanges) {
  GnmiTargetOptions o;
  o.quirks.keepalive_interval = milliseconds(0);
  startTarget(o);
  feed_->startThread(milliseconds(100));
  auto out = run("onchange", "PROTO", 4, "paths=/interfaces/interface[name=eth1/1]/state/counters");
  ASSERT_EQ(status(out), "STATUS OK") << ::testing::PrintToString(out);
  EXPECT_EQ(out[15], "SYNC");  // 15 counters first
}

TEST_F(GnmiPythonTest, WrongCredentialsAndPrefixAndTls) {
  GnmiTargetOptions o;
  o.username = "admin";
  o.password = "pw";
  o.tls = GnmiTls::kMutualTls;
  startTarget(o);
  const GnmiTlsFiles& f = target_->tlsFiles();
  const std::string mtls = "ca=" + f.ca_cert + " cert=" + f.client_cert + " key=" + f.client_key;
  EXPECT_EQ(status(run("caps", "PROTO", 0, mtls + " user=admin pass=bad")), "STATUS UNAUTHENTICATED");
  EXPECT_EQ(status(run("caps", "PROTO", 0, mtls + " user=admin pass=pw")).substr(0, 9), "STATUS OK");
  EXPECT_EQ(status(run("caps", "PROTO", 0, "ca=" + f.ca_cert + " user=admin pass=pw")),
            "STATUS UNAVAILABLE");  // no client cert
  auto out = run("once", "PROTO", 0, mtls + " user=admin pass=pw paths=" + kInOctets);
  EXPECT_EQ(status(out), "STATUS OK") << ::testing::PrintToString(out);
  EXPECT_EQ(countPrefix(out, "UPDATE"), 1);
}

TEST_F(GnmiPythonTest, UnimplementedAndRefused) {
  startTarget({});
  target_->setCapabilitiesUnimplemented(true);
  EXPECT_EQ(status(run("caps", "PROTO", 0)), "STATUS UNIMPLEMENTED");
  target_->stop();
  EXPECT_EQ(status(run("caps", "PROTO", 0)), "STATUS UNAVAILABLE");
}

}  // namespace
}  // namespace rdmagw::testing
