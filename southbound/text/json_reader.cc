#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::text {

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

namespace {

constexpr int kMaxDepth = 64;

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  bool value(JsonValue& out, int depth) {
    skipWs();
    if (pos_ >= s_.size()) return fail("unexpected end of input");
    if (depth > kMaxDepth) return fail("nesting deeper than 64");
    char c = s_[pos_];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') {
      out.type = JsonValue::Type::kString;
      return string(out.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number(out);
    if (literal("true")) return scalar(out, JsonValue::Type::kBool, "true");
    if (literal("false")) return scalar(out, JsonValue::Type::kBool, "false");
    if (literal("null")) return scalar(out, JsonValue::Type::kNull, "");
    return fail("unexpected character");
  }

  void skipWs() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  size_t pos() const { return pos_; }
  const std::string& error() const { return error_; }

 private:
  bool fail(const char* why) {
    if (error_.empty()) error_ = std::string(why) + " at byte " + std::to_string(pos_);
    return false;
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  static bool scalar(JsonValue& out, JsonValue::Type t, const char* text) {
    out.type = t;
    out.text = text;
    return true;
  }

  bool object(JsonValue& out, int depth) {
    out.type = JsonValue::Type::kObject;
    ++pos_;
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skipWs();
      std::string key;
      if (pos_ >= s_.size() || s_[pos_] != '"' || !string(key)) return partial(out, "expected a member name");
      skipWs();
      if (pos_ >= s_.size() || s_[pos_] != ':') return partial(out, "expected ':'");
      ++pos_;
      JsonValue v;
      if (!value(v, depth + 1)) {
        if (v.type == JsonValue::Type::kObject || v.type == JsonValue::Type::kArray) {
          out.members.emplace_back(std::move(key), std::move(v));
        }
        return partial(out, "bad member value");
      }
      out.members.emplace_back(std::move(key), std::move(v));
      skipWs();
      if (pos_ >= s_.size()) return partial(out, "unexpected end of input in object");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return partial(out, "expected ',' or '}'");
    }
  }

  bool array(JsonValue& out, int depth) {
    out.type = JsonValue::Type::kArray;
    ++pos_;
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      JsonValue v;
      if (!value(v, depth + 1)) {
        if (v.type == JsonValue::Type::kObject || v.type == JsonValue::Type::kArray) {
          out.items.push_back(std::move(v));
        }
        return partial(out, "bad array element");
      }
      out.items.push_back(std::move(v));
      skipWs();
      if (pos_ >= s_.size()) return partial(out, "unexpected end of input in array");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return partial(out, "expected ',' or ']'");
    }
  }

  bool partial(JsonValue& out, const char* why) {
    out.partial = true;
    return fail(why);
  }

  // A number is kept only when a delimiter follows it: digits cut off by the
  // end of the input are not a value.
  bool number(JsonValue& out) {
    size_t start = pos_;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        ++pos_;
      } else {
        break;
      }
    }
    if (pos_ >= s_.size()) return fail("number cut off by the end of input");
    out.type = JsonValue::Type::kNumber;
    out.text = std::string(s_.substr(start, pos_ - start));
    return true;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool string(std::string& out) {
    ++pos_;  // opening quote
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': {
          if (pos_ + 4 > s_.size()) return fail("bad \\u escape");
          unsigned cp = 0;
          for (int i = 0; i < 4; ++i) {
            int h = hex(s_[pos_ + i]);
            if (h < 0) return fail("bad \\u escape");
            cp = cp * 16 + static_cast<unsigned>(h);
          }
          pos_ += 4;
          // NX-OS keys and values are ASCII; anything else is kept as '?'.
          out.push_back(cp < 0x80 ? static_cast<char>(cp) : '?');
          break;
        }
        default: out.push_back(e); break;  // \" \\ \/
      }
    }
    return fail("unterminated string");
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

const JsonValue* JsonValue::get(std::string_view key) const {
  for (const auto& [k, v] : members) {
    if (k == key) return &v;
  }
  return nullptr;
}

JsonParse parseJson(std::string_view text) {
  JsonParse out;
  Reader r(text);
  bool ok = r.value(out.root, 0);
  if (ok) {
    // Anything after the document (NX-OS over SSH prints the next prompt)
    // is ignored: the document itself is complete.
    out.complete = true;
    return out;
  }
  out.error = r.error();
  return out;
}

void collectRows(const JsonValue& v, std::string_view row_key, std::vector<const JsonValue*>& out) {
  // Iterative walk: fuzzed input can nest to the reader's depth limit.
  std::vector<const JsonValue*> stack{&v};
  std::vector<const JsonValue*> found;
  while (!stack.empty()) {
    const JsonValue* cur = stack.back();
    stack.pop_back();
    if (cur->type == JsonValue::Type::kArray) {
      for (auto it = cur->items.rbegin(); it != cur->items.rend(); ++it) stack.push_back(&*it);
      continue;
    }
    if (cur->type != JsonValue::Type::kObject) continue;
    for (auto it = cur->members.rbegin(); it != cur->members.rend(); ++it) {
      const auto& [k, child] = *it;
      if (k == row_key) {
        if (child.type == JsonValue::Type::kObject) {
          found.push_back(&child);
        } else if (child.type == JsonValue::Type::kArray) {
          for (const JsonValue& item : child.items) {
            if (item.type == JsonValue::Type::kObject) found.push_back(&item);
          }
        }
      } else {
        stack.push_back(&child);
      }
    }
  }
  // Children are pushed in reverse, so `found` is in document order.
  out.insert(out.end(), found.begin(), found.end());
}

}  // namespace rdmagw::southbound::text
