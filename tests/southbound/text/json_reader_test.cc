// The one JSON reader: the strict form the gNMI mapper uses and the
// damage-tolerant form the NX-OS, dcb and lldpctl readers use.

#include "southbound/text/json_reader.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmagw::southbound::text {
namespace {

using Kind = JsonNode::Kind;

std::vector<std::string_view> keys(const JsonNode& n) {
  std::vector<std::string_view> out;
  for (const JsonNode& c : n.children()) out.push_back(c.key);
  return out;
}

// --- damage-tolerant (device output) ---

TEST(JsonTolerant, ReadsAWholeDocumentInOrder) {
  const std::string doc = R"({"b": 1, "a": [true, false, null, "x"], "c": {"d": -2.5e3}})";
  JsonParse p = parseJson(doc);
  ASSERT_TRUE(p.complete) << p.error;
  EXPECT_TRUE(p.error.empty());
  const JsonNode& r = p.root();
  ASSERT_EQ(r.kind, Kind::kObject);
  EXPECT_EQ(keys(r), (std::vector<std::string_view>{"b", "a", "c"}));
  ASSERT_NE(r.get("a"), nullptr);
  EXPECT_EQ(r.get("a")->size(), 4u);
  EXPECT_EQ(r.get("a")->at(0)->text, "true");
  EXPECT_EQ(r.get("a")->at(1)->kind, Kind::kBool);
  EXPECT_EQ(r.get("a")->at(2)->kind, Kind::kNull);
  EXPECT_EQ(r.get("a")->at(3)->text, "x");
  EXPECT_EQ(r.get("a")->at(4), nullptr);
  EXPECT_EQ(r.get("c")->get("d")->text, "-2.5e3");
  EXPECT_EQ(r.get("missing"), nullptr);
  EXPECT_EQ(r.get("a")->get("0"), nullptr);  // arrays have no members
  EXPECT_FALSE(r.partial);
}

TEST(JsonTolerant, NumbersKeepTheirDigits) {
  JsonParse p = parseJson(R"({"big": 18446744073709551616, "neg": -0, "odd": 1.2.3})");
  ASSERT_TRUE(p.complete) << p.error;
  EXPECT_EQ(p.root().get("big")->text, "18446744073709551616");
  EXPECT_EQ(p.root().get("big")->kind, Kind::kNumber);
  EXPECT_EQ(p.root().get("neg")->text, "-0");
  // The run of number characters as written: the device reader judges it.
  EXPECT_EQ(p.root().get("odd")->text, "1.2.3");
}

TEST(JsonTolerant, DuplicateKeysKeptAndGetFindsTheFirst) {
  JsonParse p = parseJson(R"({"k": 1, "k": 2})");
  ASSERT_TRUE(p.complete);
  EXPECT_EQ(p.root().size(), 2u);
  EXPECT_EQ(p.root().get("k")->text, "1");
}

TEST(JsonTolerant, TextAfterTheDocumentIsIgnored) {
  JsonParse p = parseJson("{\"a\": 1}\nswitch# ");
  EXPECT_TRUE(p.complete) << p.error;
  EXPECT_EQ(p.root().get("a")->text, "1");
}

TEST(JsonTolerant, DamageKeepsWhatWasReadAndMarksTheContainersPartial) {
  const std::string doc = R"({"T": {"R": [{"a": "1", "b": "2"}, {"a": "3", "b": )";
  JsonParse p = parseJson(doc);
  EXPECT_FALSE(p.complete);
  EXPECT_NE(p.error.find("at byte " + std::to_string(doc.size())), std::string::npos) << p.error;
  const JsonNode& r = p.root();
  EXPECT_TRUE(r.partial);
  const JsonNode* rows = r.get("T")->get("R");
  ASSERT_NE(rows, nullptr);
  EXPECT_TRUE(r.get("T")->partial);
  EXPECT_TRUE(rows->partial);
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_FALSE(rows->at(0)->partial);
  EXPECT_EQ(rows->at(0)->get("b")->text, "2");
  // The second row is cut short: its member without a value is dropped.
  EXPECT_TRUE(rows->at(1)->partial);
  EXPECT_EQ(rows->at(1)->get("a")->text, "3");
  EXPECT_EQ(rows->at(1)->get("b"), nullptr);
}

TEST(JsonTolerant, ScalarsCutShortAreDropped) {
  for (std::string_view doc : {R"({"a": "unterminated)", R"({"a": 12)", R"({"a": tru)", R"({"a": 1, "b)"}) {
    JsonParse p = parseJson(doc);
    EXPECT_FALSE(p.complete) << doc;
    EXPECT_FALSE(p.error.empty()) << doc;
    EXPECT_EQ(p.root().get("b"), nullptr) << doc;
    EXPECT_TRUE(p.root().partial) << doc;
  }
  // A number that ends the input may have lost digits: not a value.
  JsonParse n = parseJson("12");
  EXPECT_FALSE(n.complete);
  EXPECT_EQ(n.root().kind, Kind::kNull);
  EXPECT_NE(n.error.find("number cut off"), std::string::npos) << n.error;
  EXPECT_TRUE(parseJson("12\n").complete);
}

TEST(JsonTolerant, NothingReadIsANullRoot) {
  for (std::string_view doc : {"", "   ", "garbage", "\"open"}) {
    JsonParse p = parseJson(doc);
    EXPECT_FALSE(p.complete) << doc;
    EXPECT_EQ(p.root().kind, Kind::kNull) << doc;
    EXPECT_EQ(p.root().get("x"), nullptr);
    EXPECT_TRUE(p.root().children().empty());
  }
}

TEST(JsonTolerant, ErrorSaysWhereWithTheByteOffset) {
  JsonParse p = parseJson(R"({"a" 1})");
  EXPECT_FALSE(p.complete);
  EXPECT_EQ(p.error, "expected ':' at byte 5");
}

TEST(JsonTolerant, StringsAreDecodedLeniently) {
  // Control characters and unknown escapes are kept; \u beyond ASCII is '?'.
  JsonParse p = parseJson("{\"s\": \"a\\q\\u0041\\u00e9\\n\tb\", \"v\": \"plain\"}");
  ASSERT_TRUE(p.complete) << p.error;
  EXPECT_EQ(p.root().get("s")->text, "aqA?\n\tb");
  EXPECT_FALSE(parseJson(R"({"s": "\u00zz"})").complete);
}

TEST(JsonTolerant, DepthIsCapped) {
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_TRUE(parseJson(ok).complete);
  const std::string deep = std::string(65, '[') + std::string(65, ']');
  JsonParse p = parseJson(deep);
  EXPECT_FALSE(p.complete);
  EXPECT_NE(p.error.find("deeper than 64"), std::string::npos) << p.error;
  EXPECT_TRUE(p.root().partial);  // the 64 levels read are kept
}

TEST(JsonTolerant, NodesSurviveAMoveOfTheParse) {
  const std::string doc = R"({"a": {"b": "x\"y"}})";
  std::vector<JsonParse> keep;
  keep.push_back(parseJson(doc));
  for (int i = 0; i < 8; ++i) keep.push_back(parseJson("{}\n"));  // reallocates `keep`
  EXPECT_EQ(keep.front().root().get("a")->get("b")->text, "x\"y");
}

TEST(CollectRows, SingleObjectAndListInDocumentOrder) {
  const std::string doc = R"({"TABLE_i": {"ROW_i": [{"n": "1"}, 7, {"n": "2"}]},
                              "other": {"TABLE_i": {"ROW_i": {"n": "3"}}},
                              "list": [{"ROW_i": {"n": "4"}}]})";
  JsonParse p = parseJson(doc);
  ASSERT_TRUE(p.complete) << p.error;
  std::vector<const JsonNode*> rows;
  collectRows(p.root(), "ROW_i", rows);
  std::vector<std::string_view> names;
  for (const JsonNode* r : rows) names.push_back(r->get("n")->text);
  EXPECT_EQ(names, (std::vector<std::string_view>{"1", "2", "3", "4"}));
}

TEST(CollectRows, RowsInsideARowAreNotCollectedAndTheStartIsNotMatched) {
  JsonParse p = parseJson(R"({"ROW_x": {"n": "outer", "ROW_x": {"n": "inner"}}})");
  ASSERT_TRUE(p.complete);
  std::vector<const JsonNode*> rows;
  collectRows(p.root(), "ROW_x", rows);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]->get("n")->text, "outer");
  // From a row: only its members are looked at.
  std::vector<const JsonNode*> inner;
  collectRows(*rows[0], "ROW_x", inner);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0]->get("n")->text, "inner");
  // Appends to what `out` holds.
  collectRows(p.root(), "ROW_x", inner);
  EXPECT_EQ(inner.size(), 2u);
}

TEST(CollectRows, DeepNestingDoesNotRecurse) {
  std::string doc;
  for (int i = 0; i < 62; ++i) doc += "{\"k\":";
  doc += "{\"ROW_r\":{\"n\":\"deep\"}}";  // levels 63 and 64
  for (int i = 0; i < 62; ++i) doc += "}";
  doc += "\n";
  JsonParse p = parseJson(doc);  // its strings are views into `doc`: it must outlive them
  ASSERT_TRUE(p.complete) << p.error;
  std::vector<const JsonNode*> rows;
  collectRows(p.root(), "ROW_r", rows);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]->get("n")->text, "deep");
}

// --- strict (gNMI json_val / json_ietf_val) ---

TEST(JsonStrict, ParsesAndKeepsViewsIntoTheInput) {
  const std::string blob = R"( {"a": "plain", "b": [1, -2.5e+3, true], "c": null} )";
  JsonDom dom;
  std::deque<std::string> arena;
  ASSERT_TRUE(dom.parse(blob, arena).isOk());
  const JsonNode* r = dom.root();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(keys(*r), (std::vector<std::string_view>{"a", "b", "c"}));
  const std::string_view a = r->get("a")->text;
  EXPECT_EQ(a, "plain");
  EXPECT_TRUE(a.data() >= blob.data() && a.data() < blob.data() + blob.size());
  EXPECT_TRUE(arena.empty());  // nothing to decode
  EXPECT_EQ(r->get("b")->at(1)->text, "-2.5e+3");
  EXPECT_EQ(r->get("b")->at(1)->kind, Kind::kNumber);
  EXPECT_EQ(r->get("c")->kind, Kind::kNull);
  EXPECT_FALSE(r->partial);
}

TEST(JsonStrict, EscapesDecodeToUtf8InTheArena) {
  JsonDom dom;
  std::deque<std::string> arena;
  ASSERT_TRUE(dom.parse(R"({"d":"a\"b\\c\/\u00e9\ud83d\ude00\t"})", arena).isOk());
  EXPECT_EQ(dom.root()->get("d")->text, "a\"b\\c/\xc3\xa9\xf0\x9f\x98\x80\t");
  EXPECT_EQ(arena.size(), 1u);
}

TEST(JsonStrict, MalformedIsAnErrorWithItsOffsetAndNoNodes) {
  for (std::string_view bad : {"", "{", "{\"a\":}", "{\"a\":1,}", "[1,]", "tru", "01x", "\"\\q\"", "{\"a\" 1}",
                               "{\"a\":1} x", "\"\x01\"", "1.", "1e", "-", "[1 2]", "{\"a\":1.2.3}", "{1:2}"}) {
    JsonDom dom;
    std::deque<std::string> arena;
    ASSERT_TRUE(dom.parse("{\"warm\": 1}", arena).isOk());
    Status st = dom.parse(bad, arena);
    EXPECT_FALSE(st.isOk()) << bad;
    EXPECT_NE(st.message().find("bad JSON at offset "), std::string::npos) << st.message();
    EXPECT_EQ(dom.root(), nullptr) << bad;  // nothing from this or the last parse
  }
  JsonDom dom;
  std::deque<std::string> arena;
  EXPECT_EQ(dom.parse("{\"a\":1,}", arena).message(), "bad JSON at offset 7: expected a member name");
  EXPECT_EQ(dom.parse("{\"a\":1} x", arena).message(), "bad JSON at offset 8: trailing characters");
}

TEST(JsonStrict, ScalarsAtTheTopAndNumbersAtTheEnd) {
  JsonDom dom;
  std::deque<std::string> arena;
  ASSERT_TRUE(dom.parse("12", arena).isOk());
  EXPECT_EQ(dom.root()->text, "12");
  ASSERT_TRUE(dom.parse("\"up\"", arena).isOk());
  EXPECT_EQ(dom.root()->kind, Kind::kString);
  EXPECT_EQ(dom.root()->text, "up");
}

TEST(JsonStrict, DepthIsCapped) {
  JsonDom dom;
  std::deque<std::string> arena;
  EXPECT_TRUE(dom.parse(std::string(64, '[') + std::string(64, ']'), arena).isOk());
  EXPECT_FALSE(dom.parse(std::string(65, '[') + std::string(65, ']'), arena).isOk());
  EXPECT_FALSE(dom.parse(std::string(100000, '['), arena).isOk());
}

TEST(JsonStrict, AReusedDomHoldsOnlyTheLastDocument) {
  JsonDom dom;
  std::deque<std::string> arena;
  ASSERT_TRUE(dom.parse(R"({"a":{"b":1,"c":2}})", arena).isOk());
  ASSERT_TRUE(dom.parse(R"({"x":3})", arena).isOk());
  EXPECT_EQ(keys(*dom.root()), (std::vector<std::string_view>{"x"}));
  EXPECT_EQ(dom.root()->get("a"), nullptr);
}

TEST(JsonStrict, DuplicateKeysKeptAndGetFindsTheFirst) {
  JsonDom dom;
  std::deque<std::string> arena;
  ASSERT_TRUE(dom.parse(R"({"k":"first","k":"second"})", arena).isOk());
  EXPECT_EQ(dom.root()->size(), 2u);
  EXPECT_EQ(dom.root()->get("k")->text, "first");
}

}  // namespace
}  // namespace rdmagw::southbound::text
