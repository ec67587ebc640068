// jsonText: the compact JSON an NX-API body is handed to the `| json`
// parsers as. Whatever our reader reads, the text written back reads to the
// same tree (round trip), numbers keep their digits, strings are re-escaped.

#include "southbound/nxapi/json_text.h"

#include <gtest/gtest.h>

#include <string>

#include "southbound/text/json_reader.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxapi;  // the code under test
namespace text = rdmagw::southbound::text;
namespace {

std::string compact(const std::string& json) {
  const text::JsonParse doc = text::parseJson(json);
  EXPECT_TRUE(doc.complete) << doc.error;
  return jsonText(doc.root());
}

TEST(JsonTextTest, WritesCompactJsonWithNumbersAsWritten) {
  EXPECT_EQ(compact(" { \"a\" : [ 1 , -2.50 , 1e3 ] ,\n\t\"b\" : { } , \"c\" : [ ] , \"d\" : null ,"
                    " \"e\" : true , \"f\" : false } "),
            R"({"a":[1,-2.50,1e3],"b":{},"c":[],"d":null,"e":true,"f":false})");
  // A 64-bit counter and one beyond: the digits, never a double's rounding.
  EXPECT_EQ(compact(R"({"max":18446744073709551615,"big":12345678901234567890123})"),
            R"({"max":18446744073709551615,"big":12345678901234567890123})");
}

TEST(JsonTextTest, ReEscapesStrings) {
  EXPECT_EQ(compact(R"({"k\"ey":"a\"b\\c\nd\te\r\u0001\/x"})"), R"({"k\"ey":"a\"b\\c\nd\te\r\u0001/x"})");
  EXPECT_EQ(jsonQuote("say \"hi\"\\\n"), R"("say \"hi\"\\\n")");
  EXPECT_EQ(jsonQuote(std::string("\x1f\b\f", 3)), R"("\u001f\b\f")");
  // UTF-8 passes through as bytes.
  EXPECT_EQ(jsonQuote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
}

TEST(JsonTextTest, RoundTripsThroughOurReader) {
  const std::string nested =
      R"({"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1/1","eth_inbytes":317829357349684,)"
      R"("desc":"to \"spine\"\n"},{"interface":"mgmt0","vdc_lvl_in_bytes":"4290202352"}]},"x":[[[]],{"y":{}}]})";
  const std::string once = compact(nested);
  EXPECT_EQ(once, nested);
  EXPECT_EQ(compact(once), once);
  const text::JsonParse doc = text::parseJson(once);
  ASSERT_TRUE(doc.complete);
  std::vector<const text::JsonNode*> rows;
  text::collectRows(doc.root(), "ROW_interface", rows);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]->get("eth_inbytes")->text, "317829357349684");
  EXPECT_EQ(rows[0]->get("desc")->text, "to \"spine\"\n");
  EXPECT_EQ(rows[1]->get("vdc_lvl_in_bytes")->kind, text::JsonNode::Kind::kString);
}

TEST(JsonTextTest, WritesScalarsAndTheNullNode) {
  EXPECT_EQ(compact("42 "), "42");
  EXPECT_EQ(compact("\"s\""), "\"s\"");
  EXPECT_EQ(jsonText(text::JsonNode()), "null");
}

}  // namespace
}  // namespace rdmagw::testing
