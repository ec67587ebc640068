#include "northbound/gnmi/path_pattern.h"

#include <gtest/gtest.h>

namespace rdmagw::northbound::gnmi {
namespace {

::gnmi::Path gp(std::initializer_list<std::pair<std::string, std::map<std::string, std::string>>> elems,
              std::string origin = "", std::string target = "") {
  ::gnmi::Path p;
  p.set_origin(origin);
  p.set_target(target);
  for (const auto& [name, keys] : elems) {
    ::gnmi::PathElem* e = p.add_elem();
    e->set_name(name);
    for (const auto& [k, v] : keys) (*e->mutable_key())[k] = v;
  }
  return p;
}

Path sp(const std::string& s) { return *Path::parse(s); }

const std::string kIn = "/interfaces/interface[name=eth1/1]/state/counters/in-octets";

std::optional<size_t> matchOf(const ::gnmi::Path& prefix, const ::gnmi::Path& path, const std::string& store) {
  Result<PathPattern> p = PathPattern::fromRequest(prefix, path);
  EXPECT_TRUE(p.isOk()) << p.status().message();
  return p.isOk() ? p->match(sp(store)) : std::nullopt;
}

TEST(PathPatternTest, ExactLeafAndContainer) {
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"interface", {{"name", "eth1/1"}}}, {"state", {}},
                            {"counters", {}}, {"in-octets", {}}}), kIn), 5u);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"interface", {{"name", "eth1/1"}}}}), kIn), 2u);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"interface", {{"name", "eth1/2"}}}}), kIn), std::nullopt);
  EXPECT_EQ(matchOf({}, gp({}), kIn), 0u);  // the root: everything
  EXPECT_EQ(matchOf({}, gp({{"qos", {}}}), kIn), std::nullopt);
}

TEST(PathPatternTest, PrefixJoinsPath) {
  EXPECT_EQ(matchOf(gp({{"interfaces", {}}}, "", "leaf01"),
                    gp({{"interface", {{"name", "eth1/1"}}}, {"state", {}}}), kIn), 3u);
}

TEST(PathPatternTest, Wildcards) {
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"interface", {{"name", "*"}}}, {"*", {}}, {"counters", {}}}), kIn), 4u);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"interface", {}}, {"state", {}}}), kIn), 3u);  // keys left out: any
  EXPECT_EQ(matchOf({}, gp({{"...", {}}, {"in-octets", {}}}), kIn), 5u);
  EXPECT_EQ(matchOf({}, gp({{"...", {}}, {"out-octets", {}}}), kIn), std::nullopt);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"...", {}}}), kIn), 1u);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"...", {}}, {"counters", {}}}), kIn), 4u);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}, {"interface", {{"mtu", "*"}}}}), kIn), std::nullopt);
}

// Four "..." before the last element against a deep path: a plain
// backtracking search tries every split of the path (n^4/24 of them: 4e10
// at 1,000 elements, beyond any test timeout); the matcher remembers the splits already found dead.
// The answers must stay those of the plain search.
TEST(PathPatternTest, ManyMultiLevelWildcardsAgainstADeepPathStayCheap) {
  std::string deep;
  for (int i = 0; i < 1000; ++i) deep += "/a";
  const ::gnmi::Path four = gp({{"...", {}}, {"a", {}}, {"...", {}}, {"a", {}}, {"...", {}}, {"a", {}}, {"...", {}}, {"z", {}}});
  EXPECT_EQ(matchOf({}, four, deep), std::nullopt);
  EXPECT_EQ(matchOf({}, four, deep + "/z"), 1001u);
  EXPECT_EQ(matchOf({}, four, deep + "/z/b"), 1001u);
  const ::gnmi::Path two = gp({{"interfaces", {}}, {"...", {}}, {"state", {}}, {"...", {}}, {"in-octets", {}}});
  EXPECT_EQ(matchOf({}, two, kIn), 5u);
  EXPECT_EQ(matchOf({}, two, "/interfaces/interface[name=eth1/1]/counters/in-octets"), std::nullopt);
}

TEST(PathPatternTest, OriginsAndTargets) {
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}}, "openconfig"), kIn), 1u);
  EXPECT_EQ(matchOf({}, gp({{"interfaces", {}}}, "rdmagw"), kIn), 1u);
  Result<PathPattern> p = PathPattern::fromRequest(gp({}, "", "*"), gp({}));
  ASSERT_TRUE(p.isOk());
  EXPECT_TRUE(p->selectsTarget("anything"));
  EXPECT_TRUE(p->singleTarget().empty());
  p = PathPattern::fromRequest(gp({}, "", "leaf01"), gp({}));
  EXPECT_TRUE(p->selectsTarget("leaf01"));
  EXPECT_FALSE(p->selectsTarget("leaf02"));
  EXPECT_EQ(p->singleTarget(), "leaf01");
}

TEST(PathPatternTest, MalformedPathsNameWhatIsWrong) {
  auto err = [](const ::gnmi::Path& prefix, const ::gnmi::Path& path) {
    Result<PathPattern> p = PathPattern::fromRequest(prefix, path);
    EXPECT_FALSE(p.isOk());
    return p.isOk() ? std::string() : p.status().message();
  };
  EXPECT_NE(err({}, gp({{"interfaces", {}}, {"", {}}})).find("path element 1 has an empty name"), std::string::npos);
  EXPECT_NE(err({}, gp({{"interface[name=x]", {}}})).find("contains '['"), std::string::npos);
  EXPECT_NE(err({}, gp({{"...", {{"a", "b"}}}})).find("cannot carry keys"), std::string::npos);
  EXPECT_NE(err({}, gp({{"interface", {{"name", ""}}}})).find("key \"name\" has an empty value"), std::string::npos);
  EXPECT_NE(err({}, gp({}, "device")).find("unknown origin \"device\""), std::string::npos);
  EXPECT_NE(err(gp({}, "openconfig"), gp({}, "rdmagw")).find("differ"), std::string::npos);
  EXPECT_NE(err(gp({}, "", "leaf02"), gp({}, "", "leaf01")).find("whose prefix names target \"leaf02\""),
            std::string::npos);
  ::gnmi::Path many;
  for (int i = 0; i < 5; ++i) many.add_elem()->set_name("...");
  EXPECT_NE(err({}, many).find("5 \"...\" elements; at most 4"), std::string::npos);
  ::gnmi::Path deep;
  for (int i = 0; i < 65; ++i) deep.add_elem()->set_name("a");
  EXPECT_NE(err({}, deep).find("65 elements; at most 64"), std::string::npos);
  ::gnmi::Path old;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  old.add_element("interfaces");
#pragma GCC diagnostic pop
  EXPECT_NE(err({}, old).find("Path.element"), std::string::npos);
}

// Under a prefix that spans every target, a path may name its own: one
// stream asks for a few ports of many targets.
TEST(PathPatternTest, APathsOwnTargetNarrowsAPrefixSpanningEveryTarget) {
  for (const char* prefix_target : {"", "*"}) {
    Result<PathPattern> p = PathPattern::fromRequest(gp({}, "", prefix_target), gp({{"interfaces", {}}}, "", "leaf01"));
    ASSERT_TRUE(p.isOk()) << p.status().message();
    EXPECT_TRUE(p->selectsTarget("leaf01"));
    EXPECT_FALSE(p->selectsTarget("leaf02"));
    EXPECT_EQ(p->singleTarget(), "leaf01");
  }
  Result<PathPattern> same = PathPattern::fromRequest(gp({}, "", "leaf01"), gp({}, "", "leaf01"));
  ASSERT_TRUE(same.isOk());
  EXPECT_EQ(same->singleTarget(), "leaf01");
}

TEST(PathPatternTest, ToGnmiPathKeepsKeys) {
  ::gnmi::Path out;
  toGnmiPath(sp(kIn), &out);
  ASSERT_EQ(out.elem_size(), 5);
  EXPECT_EQ(out.elem(1).key().at("name"), "eth1/1");
  EXPECT_EQ(out.elem(4).name(), "in-octets");
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
