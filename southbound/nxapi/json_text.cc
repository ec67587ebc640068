#include "southbound/nxapi/json_text.h"

namespace rdmagw::southbound::nxapi {
namespace {

using text::JsonNode;

void quoteInto(std::string_view s, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0xf]);
        } else {
          // Bytes >= 0x80 pass through: the reader kept them as UTF-8.
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

// Recursion is bounded by the reader's depth cap (kMaxJsonDepth): a node
// tree deeper than that is never built.
void write(const JsonNode& n, std::string& out) {
  switch (n.kind) {
    case JsonNode::Kind::kNull:
      out += "null";
      return;
    case JsonNode::Kind::kBool:
    case JsonNode::Kind::kNumber:
      out += n.text;
      return;
    case JsonNode::Kind::kString:
      quoteInto(n.text, out);
      return;
    case JsonNode::Kind::kArray:
    case JsonNode::Kind::kObject:
      break;
  }
  const bool object = n.kind == JsonNode::Kind::kObject;
  out.push_back(object ? '{' : '[');
  bool first = true;
  for (const JsonNode& c : n.children()) {
    if (!first) out.push_back(',');
    first = false;
    if (object) {
      quoteInto(c.key, out);
      out.push_back(':');
    }
    write(c, out);
  }
  out.push_back(object ? '}' : ']');
}

}  // namespace

std::string jsonText(const JsonNode& node) {
  std::string out;
  write(node, out);
  return out;
}

std::string jsonQuote(std::string_view s) {
  std::string out;
  quoteInto(s, out);
  return out;
}

}  // namespace rdmagw::southbound::nxapi
