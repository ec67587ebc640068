// flattenJson: the public JSON -> (path, value) flattener.

#include <gtest/gtest.h>

#include "models/path.h"
#include "southbound/gnmi/mapping/notification_mapper.h"

namespace rdmagw::southbound::gnmi {
namespace {

std::vector<std::string> flat(std::string_view json, std::string_view base, Status* st = nullptr) {
  std::vector<std::pair<Path, Value>> out;
  Status s = flattenJson(json, *Path::parse(base), 0, out);
  if (st) *st = s;
  std::vector<std::string> lines;
  for (const auto& [p, v] : out) {
    lines.push_back(p.toString() + "=" + valueToString(v));  // strings come quoted
  }
  return lines;
}

using Lines = std::vector<std::string>;

TEST(FlattenJson, NestedObjectsAndTypes) {
  EXPECT_EQ(flat(R"({"a":{"b":1,"c":-2,"d":1.5,"e":true,"f":"12","g":null,"h":{}}})", "/r"),
            (Lines{"/r/a/b=1", "/r/a/c=-2", "/r/a/d=1.5", "/r/a/e=true", "/r/a/f=\"12\""}));
}

TEST(FlattenJson, ListsWithKeys) {
  EXPECT_EQ(flat(R"({"QueuingStats-list":[{"statType":"ucast","cmapName":"c-out-8q-q3","pfcTxPpp":12}],)"
                 R"("interface":[{"name":"eth1/1","state":{"mtu":9216}}],"x":[{"id":7,"v":1}]})",
                 "/b"),
            (Lines{"/b/QueuingStats-list[cmapName=c-out-8q-q3][statType=ucast]/statType=\"ucast\"",
                   "/b/QueuingStats-list[cmapName=c-out-8q-q3][statType=ucast]/cmapName=\"c-out-8q-q3\"",
                   "/b/QueuingStats-list[cmapName=c-out-8q-q3][statType=ucast]/pfcTxPpp=12",
                   "/b/interface[name=eth1/1]/name=\"eth1/1\"", "/b/interface[name=eth1/1]/state/mtu=9216",
                   "/b/x[id=7]/id=7", "/b/x[id=7]/v=1"}));
}

TEST(FlattenJson, TopLevelArrayKeysTheBaseList) {
  EXPECT_EQ(flat(R"([{"name":"a","v":1},{"name":"b","v":2}])", "/l/item"),
            (Lines{"/l/item[name=a]/name=\"a\"", "/l/item[name=a]/v=1", "/l/item[name=b]/name=\"b\"",
                   "/l/item[name=b]/v=2"}));
}

TEST(FlattenJson, DmeRestShapeUnwrapped) {
  EXPECT_EQ(flat(R"({"rmonDot3Stats":{"attributes":{"inPauseFrames":"3","dn":"sys/intf/phys-[eth1/1]/dbgDot3Stats"},)"
                 R"("children":[{"rmonX":{"attributes":{"rn":"x-[a/b]","n":"1"}}}]}})",
                 R"(/sys/intf/phys-\[eth1\/1\]/dbgDot3Stats)"),
            (Lines{R"(/sys/intf/phys-\[eth1\/1\]/dbgDot3Stats/inPauseFrames="3")",
                   R"(/sys/intf/phys-\[eth1\/1\]/dbgDot3Stats/dn="sys/intf/phys-[eth1/1]/dbgDot3Stats")",
                   R"(/sys/intf/phys-\[eth1\/1\]/dbgDot3Stats/x-\[a\/b\]/rn="x-[a/b]")",
                   R"(/sys/intf/phys-\[eth1\/1\]/dbgDot3Stats/x-\[a\/b\]/n="1")"}));
}

TEST(FlattenJson, EscapesAndUnicode) {
  EXPECT_EQ(flat(R"({"d":"a\"b\\c\u00e9\ud83d\ude00"})", "/r"), (Lines{"/r/d=\"a\"b\\c\xc3\xa9\xf0\x9f\x98\x80\""}));
}

TEST(FlattenJson, BadJsonIsAnErrorAndAddsNothing) {
  for (std::string_view bad : {"", "{", "{\"a\":}", "{\"a\":1,}", "[1,]", "tru", "01x", "\"\\q\"", "{\"a\" 1}",
                               "{\"a\":1} x", "\"\x01\""}) {
    Status st;
    EXPECT_TRUE(flat(bad, "/r", &st).empty()) << bad;
    EXPECT_FALSE(st.isOk()) << bad;
  }
  Status st;
  flat(std::string(65, '[') + std::string(65, ']'), "/r", &st);
  EXPECT_FALSE(st.isOk());
}

TEST(FlattenJson, KeylessEntriesSkippedWithStatus) {
  Status st;
  EXPECT_EQ(flat(R"({"l":[{"v":1},{"name":"n","v":2}]})", "/r", &st), (Lines{"/r/l[name=n]/name=\"n\"", "/r/l[name=n]/v=2"}));
  EXPECT_FALSE(st.isOk());
  EXPECT_EQ(flat(R"({"m":[1,{"a":1}]})", "/r", &st), Lines{});
  EXPECT_FALSE(st.isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
