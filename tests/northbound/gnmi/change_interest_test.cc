#include "northbound/gnmi/change_interest.h"

#include <gtest/gtest.h>

#include "northbound/gnmi/path_pattern.h"

namespace rdmagw::northbound::gnmi {
namespace {

using Pattern = ChangeInterest::Pattern;

const std::string kIn = "/interfaces/interface[name=eth1/1]/state/counters/in-octets";
const std::string kPfc = "/qos/interfaces/interface[interface-id=eth1/1]/pfc/priorities/priority[id=3]/state/rx-pause";

TEST(ChangeInterestTest, EmptyWantsNothing) {
  ChangeInterest none;
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.wants("leaf01", kIn));
}

TEST(ChangeInterestTest, NamesAndTargetsDecide) {
  ChangeInterest i({Pattern{"leaf01", {"interfaces", "interface", "state"}}});
  EXPECT_TRUE(i.wants("leaf01", kIn));    // a container selects the leaves beneath
  EXPECT_FALSE(i.wants("leaf02", kIn));   // another target
  EXPECT_FALSE(i.wants("leaf01", kPfc));  // another subtree
  EXPECT_FALSE(i.wants("leaf01", "/interfaces/interface[name=eth1/1]/config/mtu"));
  EXPECT_FALSE(i.wants("leaf01", "/interfaces"));  // shallower than the pattern

  ChangeInterest any({Pattern{"*", {"interfaces"}}, Pattern{"", {"interfaces"}}});
  EXPECT_EQ(any.size(), 1u);  // "*" and "" are the same target selector: kept once
  EXPECT_TRUE(any.wants("leaf02", kIn));
  EXPECT_TRUE(ChangeInterest({Pattern{"", {}}}).wants("x", kPfc));  // the root
}

TEST(ChangeInterestTest, WildcardsMatchAsInPathPatterns) {
  ChangeInterest star({Pattern{"", {"*", "interface", "*", "counters"}}});
  EXPECT_TRUE(star.wants("leaf01", kIn));
  EXPECT_FALSE(star.wants("leaf01", kPfc));
  ChangeInterest dots({Pattern{"", {"...", "priority", "state", "rx-pause"}}});
  EXPECT_TRUE(dots.wants("leaf01", kPfc));
  EXPECT_FALSE(dots.wants("leaf01", kIn));
  EXPECT_TRUE(ChangeInterest({Pattern{"", {"qos", "..."}}}).wants("leaf01", kPfc));
  EXPECT_TRUE(ChangeInterest({Pattern{"", {"qos", "..."}}}).wants("leaf01", "/qos"));  // zero elements
}

TEST(ChangeInterestTest, KeysAreSkippedEvenWithSlashesAndEscapes) {
  ChangeInterest i({Pattern{"", {"interfaces", "interface", "state", "counters", "in-octets"}}});
  EXPECT_TRUE(i.wants("leaf01", "/interfaces/interface[name=phys-[eth1/1\\]]/state/counters/in-octets"));
  EXPECT_TRUE(i.wants("leaf01", "/interfaces/interface[a=x/y][b=\\\\]/state/counters/in-octets"));
  EXPECT_FALSE(i.wants("leaf01", "/interfaces/interface[name=eth1/1]/state/counters/out-octets"));
}

TEST(ChangeInterestTest, WhatTheScanCannotReadIsPassed) {
  ChangeInterest i({Pattern{"", {"qos"}}});
  EXPECT_TRUE(i.wants("t", "openconfig:/interfaces/interface[name=a]"));  // an origin
  EXPECT_TRUE(i.wants("t", "/inter\\/faces/x"));                         // an escaped name
  EXPECT_TRUE(i.wants("t", "/interfaces/interface[name=eth1/1"));         // an unterminated key
  std::string deep;
  for (int k = 0; k < 40; ++k) deep += "/a";
  EXPECT_TRUE(i.wants("t", deep));
  EXPECT_FALSE(i.wants("other", kIn));  // but a plain path outside /qos is not
}

::gnmi::Path gp(std::vector<std::string> names, std::map<std::string, std::string> keys_of_second = {}) {
  ::gnmi::Path p;
  for (size_t k = 0; k < names.size(); ++k) {
    ::gnmi::PathElem* e = p.add_elem();
    e->set_name(names[k]);
    if (k == 1) for (const auto& [key, v] : keys_of_second) (*e->mutable_key())[key] = v;
  }
  return p;
}

// The promise the hub relies on: whatever a session's full match selects,
// the interest built from the same request passes.
TEST(ChangeInterestTest, NeverRefusesWhatAPathPatternMatches) {
  const std::vector<::gnmi::Path> requests = {
      gp({}), gp({"interfaces"}), gp({"interfaces", "interface"}, {{"name", "eth1/1"}}),
      gp({"interfaces", "interface"}, {{"name", "*"}}), gp({"*", "*", "state"}), gp({"...", "in-octets"}),
      gp({"qos", "...", "priority", "...", "rx-pause"}), gp({"...", "counters", "..."}),
      gp({"qos", "interfaces", "interface", "pfc"}), gp({"rdma", "devices"})};
  const std::vector<std::string> leaves = {
      kIn, kPfc, "/interfaces/interface[name=eth1/2]/state/oper-status",
      "/interfaces/interface[name=phys-[eth1/1\\]]/state/counters/in-octets",
      "/rdma/devices/device[name=mlx5_0]/ports/port[id=1]/hw-counters/np-cnp-sent", "/system/state/hostname"};
  int matched = 0;
  for (const char* target : {"leaf01", "*", ""}) {
    for (const ::gnmi::Path& req : requests) {
      ::gnmi::Path prefix;
      prefix.set_target(target);
      Result<PathPattern> pattern = PathPattern::fromRequest(prefix, req);
      ASSERT_TRUE(pattern.isOk()) << pattern.status().message();
      Pattern p{pattern->target(), {}};
      for (const PathElem& e : pattern->elems()) p.names.push_back(e.name);
      ChangeInterest interest({p});
      for (const char* store_target : {"leaf01", "leaf02"}) {
        for (const std::string& leaf : leaves) {
          if (!pattern->selectsTarget(store_target) || !pattern->match(*Path::parse(leaf))) continue;
          ++matched;
          EXPECT_TRUE(interest.wants(store_target, leaf)) << pattern->toString() << " @" << target
                                                          << " vs " << store_target << " " << leaf;
        }
      }
    }
  }
  EXPECT_GT(matched, 40);  // the loop really compared something
}

TEST(ChangeInterestTest, OnlyStreamEntriesThatListenToChanges) {
  auto specOf = [](::gnmi::SubscriptionList::Mode list_mode, std::vector<SubscriptionEntry::Mode> modes) {
    SubscriptionSpec spec;
    spec.list_mode = list_mode;
    for (SubscriptionEntry::Mode m : modes) {
      ::gnmi::Path prefix;
      prefix.set_target("leaf01");
      SubscriptionEntry e{*PathPattern::fromRequest(prefix, gp({"interfaces", "interface"}, {{"name", "eth1/1"}}))};
      e.mode = m;
      spec.entries.push_back(std::move(e));
    }
    return spec;
  };
  using M = SubscriptionEntry::Mode;
  EXPECT_TRUE(interestOf(specOf(::gnmi::SubscriptionList::STREAM, {M::kSample})).empty());
  EXPECT_TRUE(interestOf(specOf(::gnmi::SubscriptionList::ONCE, {M::kOnChange})).empty());
  EXPECT_TRUE(interestOf(specOf(::gnmi::SubscriptionList::POLL, {M::kOnChange})).empty());
  const std::vector<Pattern> got =
      interestOf(specOf(::gnmi::SubscriptionList::STREAM, {M::kSample, M::kOnChange, M::kTargetDefined}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], (Pattern{"leaf01", {"interfaces", "interface"}}));
  EXPECT_EQ(got[1], got[0]);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
