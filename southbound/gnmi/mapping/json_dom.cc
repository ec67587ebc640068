#include "southbound/gnmi/mapping/json_dom.h"

namespace rdmagw::southbound::gnmi {
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

}  // namespace

Status JsonDom::parse(std::string_view text, std::deque<std::string>& arena) {
  nodes_.clear();
  s_ = text;
  pos_ = 0;
  error_.clear();
  arena_ = &arena;
  uint32_t last = kNoNode;
  bool ok = value(kNoNode, last, {}, 0);
  if (ok) {
    skipWs();
    if (pos_ != s_.size()) {
      error_ = "trailing characters";
      ok = false;
    }
  }
  if (ok) return Status::ok();
  nodes_.clear();
  return Status::invalidArgument("bad JSON at offset " + std::to_string(pos_) + ": " + error_);
}

uint32_t JsonDom::member(uint32_t obj, std::string_view key) const {
  if (obj == kNoNode || nodes_[obj].kind != JsonNode::Kind::kObject) return kNoNode;
  for (uint32_t c = nodes_[obj].first; c != kNoNode; c = nodes_[c].next) {
    if (nodes_[c].key == key) return c;
  }
  return kNoNode;
}

void JsonDom::skipWs() {
  while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
}

uint32_t JsonDom::add(JsonNode n, uint32_t parent, uint32_t& last) {
  uint32_t id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(n);
  if (parent != kNoNode) {
    if (last == kNoNode) {
      nodes_[parent].first = id;
    } else {
      nodes_[last].next = id;
    }
    last = id;
  }
  return id;
}

bool JsonDom::string(std::string_view& out) {
  ++pos_;  // '"'
  size_t start = pos_;
  bool escaped = false;
  while (pos_ < s_.size() && s_[pos_] != '"') {
    if (static_cast<unsigned char>(s_[pos_]) < 0x20) {
      error_ = "control character in string";
      return false;
    }
    if (s_[pos_] == '\\') {
      escaped = true;
      ++pos_;
    }
    ++pos_;
  }
  if (pos_ >= s_.size()) {
    error_ = "unterminated string";
    return false;
  }
  std::string_view raw = s_.substr(start, pos_ - start);
  ++pos_;  // closing '"'
  if (!escaped) {
    out = raw;
    return true;
  }
  std::string dec;
  dec.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      dec.push_back(raw[i]);
      continue;
    }
    char e = raw[++i];
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
        auto hex4 = [&](size_t at, uint32_t& cp) {
          if (at + 4 > raw.size()) return false;
          cp = 0;
          for (size_t k = 0; k < 4; ++k) {
            int d = hexDigit(raw[at + k]);
            if (d < 0) return false;
            cp = cp * 16 + uint32_t(d);
          }
          return true;
        };
        uint32_t cp;
        if (!hex4(i + 1, cp)) {
          error_ = "bad \\u escape";
          return false;
        }
        i += 4;
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
        error_ = "bad escape";
        return false;
    }
  }
  arena_->push_back(std::move(dec));
  out = arena_->back();
  return true;
}

bool JsonDom::number(std::string_view& out) {
  size_t start = pos_;
  auto digits = [&] {
    size_t d = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ > d;
  };
  if (s_[pos_] == '-') ++pos_;
  if (!digits()) {
    error_ = "bad number";
    return false;
  }
  if (pos_ < s_.size() && s_[pos_] == '.') {
    ++pos_;
    if (!digits()) {
      error_ = "bad fraction";
      return false;
    }
  }
  if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
    if (!digits()) {
      error_ = "bad exponent";
      return false;
    }
  }
  out = s_.substr(start, pos_ - start);
  return true;
}

bool JsonDom::value(uint32_t parent, uint32_t& last, std::string_view key, int depth) {
  skipWs();
  if (pos_ >= s_.size()) {
    error_ = "unexpected end";
    return false;
  }
  JsonNode n;
  n.key = key;
  char c = s_[pos_];
  if (c == '{' || c == '[') {
    if (depth >= kMaxJsonDepth) {
      error_ = "nested deeper than " + std::to_string(kMaxJsonDepth);
      return false;
    }
    bool object = c == '{';
    n.kind = object ? JsonNode::Kind::kObject : JsonNode::Kind::kArray;
    uint32_t self = add(n, parent, last);
    uint32_t child_last = kNoNode;
    ++pos_;
    skipWs();
    char close = object ? '}' : ']';
    if (pos_ < s_.size() && s_[pos_] == close) {
      ++pos_;
      return true;
    }
    while (true) {
      std::string_view member_key;
      if (object) {
        skipWs();
        if (pos_ >= s_.size() || s_[pos_] != '"') {
          error_ = "expected member name";
          return false;
        }
        if (!string(member_key)) return false;
        skipWs();
        if (pos_ >= s_.size() || s_[pos_] != ':') {
          error_ = "expected ':'";
          return false;
        }
        ++pos_;
      }
      if (!value(self, child_last, member_key, depth + 1)) return false;
      skipWs();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == close) {
        ++pos_;
        return true;
      }
      error_ = object ? "expected ',' or '}'" : "expected ',' or ']'";
      return false;
    }
  }
  if (c == '"') {
    n.kind = JsonNode::Kind::kString;
    if (!string(n.text)) return false;
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    n.kind = JsonNode::Kind::kNumber;
    if (!number(n.text)) return false;
  } else if (s_.substr(pos_, 4) == "true" || s_.substr(pos_, 5) == "false") {
    n.kind = JsonNode::Kind::kBool;
    n.text = s_.substr(pos_, c == 't' ? 4 : 5);
    pos_ += n.text.size();
  } else if (s_.substr(pos_, 4) == "null") {
    n.kind = JsonNode::Kind::kNull;
    pos_ += 4;
  } else {
    error_ = std::string("unexpected character '") + c + "'";
    return false;
  }
  add(n, parent, last);
  return true;
}

}  // namespace rdmagw::southbound::gnmi
