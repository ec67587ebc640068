#include "southbound/text/json_reader.h"

#include <utility>

namespace rdmagw::southbound::text {
namespace {

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(char(cp));
  } else if (cp < 0x800) {
    out.push_back(char(0xC0 | (cp >> 6)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(char(0xE0 | (cp >> 12)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(char(0xF0 | (cp >> 18)));
    out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  }
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool isNumberChar(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

}  // namespace

const JsonNode* JsonNode::get(std::string_view name) const {
  if (kind != Kind::kObject) return nullptr;
  for (const JsonNode* c = firstChild(); c != nullptr; c = c->nextSibling()) {
    if (c->key == name) return c;
  }
  return nullptr;
}

size_t JsonNode::size() const {
  size_t n = 0;
  for (const JsonNode* c = firstChild(); c != nullptr; c = c->nextSibling()) ++n;
  return n;
}

const JsonNode* JsonNode::at(size_t i) const {
  const JsonNode* c = firstChild();
  for (; c != nullptr && i > 0; --i) c = c->nextSibling();
  return c;
}

Status JsonDom::parse(std::string_view text, std::deque<std::string>& arena) {
  if (run<false>(text, arena)) return Status::ok();
  nodes_.clear();
  return Status::invalidArgument("bad JSON at offset " + std::to_string(pos_) + ": " + error_);
}

bool JsonDom::parseDamaged(std::string_view text, std::deque<std::string>& arena) {
  if (run<true>(text, arena)) return true;
  error_ += " at byte " + std::to_string(pos_);
  return false;
}

template <bool kDamaged>
bool JsonDom::run(std::string_view text, std::deque<std::string>& arena) {
  nodes_.clear();
  s_ = text;
  pos_ = 0;
  error_.clear();
  arena_ = &arena;
  uint32_t last = UINT32_MAX;
  if (!value<kDamaged>(UINT32_MAX, last, {}, 0)) return false;
  // Device output over SSH goes on with the next prompt: the document
  // itself is complete. A gNMI blob is the document and nothing else.
  if (kDamaged) return true;
  skipWs();
  return pos_ == s_.size() || fail("trailing characters");
}

bool JsonDom::fail(const char* why) {
  // The innermost failure says why; the containers around it only unwind.
  if (error_.empty()) error_ = why;
  return false;
}

void JsonDom::skipWs() {
  while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
}

uint32_t JsonDom::add(const JsonNode& n, uint32_t parent, uint32_t& last) {
  const uint32_t id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(n);
  if (parent != UINT32_MAX) {
    // Children come after their parent and siblings after each other, so
    // both offsets are positive and 0 is free to mean "none".
    if (last == UINT32_MAX) {
      nodes_[parent].first_off = id - parent;
    } else {
      nodes_[last].next_off = id - last;
    }
    last = id;
  }
  return id;
}

template <bool kDamaged>
bool JsonDom::string(std::string_view& out) {
  ++pos_;  // '"'
  const size_t start = pos_;
  bool escaped = false;
  while (pos_ < s_.size() && s_[pos_] != '"') {
    // Device output is kept whatever bytes it holds; gNMI is held to RFC 8259.
    if (!kDamaged && static_cast<unsigned char>(s_[pos_]) < 0x20) return fail("control character in string");
    if (s_[pos_] == '\\') {
      escaped = true;
      ++pos_;
    }
    ++pos_;
  }
  if (pos_ >= s_.size()) {
    pos_ = s_.size();
    return fail("unterminated string");
  }
  const std::string_view raw = s_.substr(start, pos_ - start);
  ++pos_;  // closing '"'
  if (!escaped) {
    out = raw;
    return true;
  }
  std::string dec;
  if (!decode<kDamaged>(raw, dec)) return false;
  arena_->push_back(std::move(dec));
  out = arena_->back();
  return true;
}

template <bool kDamaged>
bool JsonDom::decode(std::string_view raw, std::string& dec) {
  dec.reserve(raw.size());
  auto hex4 = [&](size_t at, uint32_t& cp) {
    if (at + 4 > raw.size()) return false;
    cp = 0;
    for (size_t k = 0; k < 4; ++k) {
      const int d = hexDigit(raw[at + k]);
      if (d < 0) return false;
      cp = cp * 16 + uint32_t(d);
    }
    return true;
  };
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      dec.push_back(raw[i]);
      continue;
    }
    const char e = raw[++i];  // the scan in string() left no '\\' last
    switch (e) {
      case '"': dec.push_back('"'); break;
      case '\\': dec.push_back('\\'); break;
      case '/': dec.push_back('/'); break;
      case 'b': dec.push_back('\b'); break;
      case 'f': dec.push_back('\f'); break;
      case 'n': dec.push_back('\n'); break;
      case 'r': dec.push_back('\r'); break;
      case 't': dec.push_back('\t'); break;
      case 'u': {
        uint32_t cp;
        if (!hex4(i + 1, cp)) return fail("bad \\u escape");
        i += 4;
        if (kDamaged) {
          // NX-OS, dcb and lldpd keys and values are ASCII; anything else
          // is kept as '?'.
          dec.push_back(cp < 0x80 ? char(cp) : '?');
          break;
        }
        uint32_t lo;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 2 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u' &&
            hex4(i + 3, lo) && lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        }
        appendUtf8(dec, cp);
        break;
      }
      default:
        if (!kDamaged) return fail("bad escape");
        dec.push_back(e);  // device output: an unknown escape is its character
    }
  }
  return true;
}

template <bool kDamaged>
bool JsonDom::number(std::string_view& out) {
  const size_t start = pos_;
  if (kDamaged) {
    // The run of number characters as written; the device readers judge the
    // digits. Digits cut off by the end of the input are not a value.
    while (pos_ < s_.size() && isNumberChar(s_[pos_])) ++pos_;
    if (pos_ >= s_.size()) return fail("number cut off by the end of input");
    out = s_.substr(start, pos_ - start);
    return true;
  }
  auto digits = [&] {
    const size_t d = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ > d;
  };
  if (s_[pos_] == '-') ++pos_;
  if (!digits()) return fail("bad number");
  if (pos_ < s_.size() && s_[pos_] == '.') {
    ++pos_;
    if (!digits()) return fail("bad fraction");
  }
  if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
    if (!digits()) return fail("bad exponent");
  }
  out = s_.substr(start, pos_ - start);
  return true;
}

template <bool kDamaged>
bool JsonDom::value(uint32_t parent, uint32_t& last, std::string_view key, int depth) {
  skipWs();
  if (pos_ >= s_.size()) return fail("unexpected end of input");
  JsonNode n;
  n.key = key;
  const char c = s_[pos_];
  if (c == '{' || c == '[') {
    if (depth >= kMaxJsonDepth) return fail("nested deeper than 64");
    const bool object = c == '{';
    n.kind = object ? JsonNode::Kind::kObject : JsonNode::Kind::kArray;
    const uint32_t self = add(n, parent, last);
    // Kept by parseDamaged with what it holds so far; parse drops them all.
    auto cut = [&](const char* why) {
      nodes_[self].partial = kDamaged;
      return fail(why);
    };
    uint32_t child_last = UINT32_MAX;  // no child yet
    ++pos_;
    skipWs();
    const char close = object ? '}' : ']';
    if (pos_ < s_.size() && s_[pos_] == close) {
      ++pos_;
      return true;
    }
    while (true) {
      std::string_view member_key;
      if (object) {
        skipWs();
        if (pos_ >= s_.size() || s_[pos_] != '"') return cut("expected a member name");
        if (!string<kDamaged>(member_key)) return cut("bad member name");
        skipWs();
        if (pos_ >= s_.size() || s_[pos_] != ':') return cut("expected ':'");
        ++pos_;
      }
      if (!value<kDamaged>(self, child_last, member_key, depth + 1)) return cut("bad value");
      skipWs();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == close) {
        ++pos_;
        return true;
      }
      if (pos_ >= s_.size()) {
        return cut(object ? "unexpected end of input in object" : "unexpected end of input in array");
      }
      return cut(object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
  }
  if (c == '"') {
    n.kind = JsonNode::Kind::kString;
    if (!string<kDamaged>(n.text)) return false;
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    n.kind = JsonNode::Kind::kNumber;
    if (!number<kDamaged>(n.text)) return false;
  } else if (s_.substr(pos_, 4) == "true" || s_.substr(pos_, 5) == "false") {
    n.kind = JsonNode::Kind::kBool;
    n.text = s_.substr(pos_, c == 't' ? 4 : 5);
    pos_ += n.text.size();
  } else if (s_.substr(pos_, 4) == "null") {
    n.kind = JsonNode::Kind::kNull;
    pos_ += 4;
  } else {
    return fail("unexpected character");
  }
  // A scalar is added only once whole: one cut off by damage is dropped,
  // and with it the member it was the value of.
  add(n, parent, last);
  return true;
}

const JsonNode& JsonParse::root() const {
  static const JsonNode kNull;
  const JsonNode* r = dom.root();
  return r != nullptr ? *r : kNull;
}

JsonParse parseJson(std::string_view text) {
  JsonParse out;
  out.complete = out.dom.parseDamaged(text, out.arena);
  if (!out.complete) out.error = out.dom.error();
  return out;
}

void collectRows(const JsonNode& v, std::string_view row_key, std::vector<const JsonNode*>& out) {
  // Iterative walk in document order: fuzzed input can nest to the reader's
  // depth limit. Each entry is a node to visit and whether it is an object's
  // member (only members are matched by name; `v` itself is not).
  std::vector<std::pair<const JsonNode*, bool>> stack;
  auto pushChildren = [&](const JsonNode& n) {
    if (const JsonNode* c = n.firstChild()) stack.emplace_back(c, n.kind == JsonNode::Kind::kObject);
  };
  pushChildren(v);
  while (!stack.empty()) {
    const auto [cur, member] = stack.back();
    stack.pop_back();
    // The next sibling is visited after this node's subtree.
    if (const JsonNode* next = cur->nextSibling()) stack.emplace_back(next, member);
    if (member && cur->key == row_key) {
      if (cur->kind == JsonNode::Kind::kObject) {
        out.push_back(cur);
      } else if (cur->kind == JsonNode::Kind::kArray) {
        for (const JsonNode& item : cur->children()) {
          if (item.kind == JsonNode::Kind::kObject) out.push_back(&item);
        }
      }
      continue;
    }
    if (cur->isContainer()) pushChildren(*cur);
  }
}

}  // namespace rdmagw::southbound::text
