// The poll-transport chain (a Nexus over NX-API with SSH behind it) with
// scripted transports and a hand-moved clock: when it moves on, when it
// returns, and that each poll's batch comes from exactly one transport.

#include "southbound/transport_chain.h"

#include <gtest/gtest.h>

#include <deque>

namespace rdmagw::southbound {
namespace {

using Clock = std::chrono::steady_clock;

// A transport whose next answers are scripted; with none left it repeats
// the last. Each poll writes one leaf naming the transport.
class ScriptedTransport : public PollSource {
 public:
  ScriptedTransport(std::string name, int* polls) : name_(std::move(name)), polls_(polls) {}
  std::string_view transport() const override { return name_; }
  Status poll(PollBatch& batch) override {
    ++*polls_;
    Status st = script_.empty() ? last_ : script_.front();
    if (!script_.empty()) {
      last_ = script_.front();
      script_.pop_front();
    }
    if (st.isOk()) batch.add("/from", Value(name_), 1);
    return st;
  }
  void then(Status st) { script_.push_back(std::move(st)); }
  void always(Status st) {
    script_.clear();
    last_ = std::move(st);
  }

 private:
  std::string name_;
  int* polls_;
  std::deque<Status> script_;
  Status last_ = Status::ok();
};

struct Bed {
  int nxapi_polls = 0, ssh_polls = 0;
  ScriptedTransport* nxapi = nullptr;
  ScriptedTransport* ssh = nullptr;
  Clock::time_point now = Clock::time_point() + std::chrono::hours(1);
  std::unique_ptr<TransportChain> chain;

  Bed() {
    auto a = std::make_unique<ScriptedTransport>("nxapi", &nxapi_polls);
    auto b = std::make_unique<ScriptedTransport>("ssh", &ssh_polls);
    nxapi = a.get();
    ssh = b.get();
    std::vector<PollSourcePtr> list;
    list.push_back(std::move(a));
    list.push_back(std::move(b));
    TransportChainOptions o;
    o.target = "leaf1";
    o.fail_after = 3;
    o.retry_preferred_after = std::chrono::seconds(60);
    o.now = [this] { return now; };
    chain = std::make_unique<TransportChain>(std::move(list), o);
  }
  // One poll; the transport that wrote its batch ("" when none did).
  std::string poll(Status* status = nullptr) {
    PollBatch b;
    Status st = chain->poll(b);
    if (status != nullptr) *status = st;
    if (b.updates.empty()) return "";
    EXPECT_EQ(b.updates.size(), 1u) << "one poll, one transport's batch";
    return std::get<std::string>(b.updates[0].value);
  }
};

TEST(TransportChainTest, StaysOnThePreferredWhileItAnswers) {
  Bed bed;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(bed.poll(), "nxapi");
  EXPECT_EQ(bed.ssh_polls, 0);
  EXPECT_EQ(bed.chain->transport(), "nxapi");
}

TEST(TransportChainTest, MovesOnAfterFailAfterUnreachablePollsAndPollsTheNextAtOnce) {
  Bed bed;
  bed.nxapi->always(Status::unavailable("nxapi leaf1:443: Couldn't connect to server"));
  Status st;
  EXPECT_EQ(bed.poll(&st), "");
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_EQ(bed.poll(), "");
  EXPECT_EQ(bed.ssh_polls, 0) << "two failures are not yet fail_after";
  EXPECT_EQ(bed.poll(&st), "ssh") << "the third failure hands the poll to SSH";
  EXPECT_TRUE(st.isOk());
  EXPECT_EQ(bed.chain->transport(), "ssh");
  EXPECT_EQ(bed.chain->stats().changes, 1u);
}

TEST(TransportChainTest, AnErrorThatIsNotUnreachableNeverMovesOn) {
  Bed bed;
  bed.nxapi->always(Status::ioError("every command failed; first: 400 Input CLI command error"));
  for (int i = 0; i < 6; ++i) bed.poll();
  EXPECT_EQ(bed.ssh_polls, 0) << "the switch answers: its words are the target's error, not a transport change";
  EXPECT_EQ(bed.chain->transport(), "nxapi");
}

TEST(TransportChainTest, ReturnsToThePreferredWhenItAnswersAgain) {
  Bed bed;
  bed.nxapi->always(Status::unavailable("down"));
  for (int i = 0; i < 3; ++i) bed.poll();
  ASSERT_EQ(bed.chain->transport(), "ssh");
  const int tried = bed.nxapi_polls;
  bed.now += std::chrono::seconds(30);
  EXPECT_EQ(bed.poll(), "ssh");
  EXPECT_EQ(bed.nxapi_polls, tried) << "not retried before retry_preferred_after";
  bed.now += std::chrono::seconds(31);
  EXPECT_EQ(bed.poll(), "ssh");
  EXPECT_EQ(bed.nxapi_polls, tried + 1) << "retried once, still down";
  EXPECT_EQ(bed.chain->stats().preferred_retries, 1u);
  bed.nxapi->always(Status::ok());
  bed.now += std::chrono::seconds(1);
  EXPECT_EQ(bed.poll(), "ssh") << "the retry backs off: not due one second later";
  bed.now += std::chrono::minutes(10);
  const int ssh_before = bed.ssh_polls;
  EXPECT_EQ(bed.poll(), "nxapi") << "the preferred's answer is the poll's batch";
  EXPECT_EQ(bed.ssh_polls, ssh_before) << "no SSH poll beside it: one transport per poll";
  EXPECT_EQ(bed.chain->transport(), "nxapi");
  EXPECT_EQ(bed.poll(), "nxapi");
  EXPECT_EQ(bed.chain->stats().changes, 2u);
}

TEST(TransportChainTest, TheLastTransportKeepsFailingWithoutMovingFurther) {
  Bed bed;
  bed.nxapi->always(Status::unavailable("nxapi down"));
  bed.ssh->always(Status::unavailable("ssh down"));
  Status st;
  for (int i = 0; i < 8; ++i) bed.poll(&st);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_EQ(st.message(), "ssh down");
  EXPECT_EQ(bed.chain->transport(), "ssh");
}

}  // namespace
}  // namespace rdmagw::southbound
