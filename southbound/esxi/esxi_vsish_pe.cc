#include "southbound/esxi/esxi_vsish_pe.h"

namespace rdmagw::southbound::esxi {
namespace {

constexpr int kMaxDepth = 8;

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  PeParse run() {
    // The object starts at the first line whose first non-blank is '{'.
    size_t start = std::string_view::npos;
    for (size_t pos = 0; pos < s_.size();) {
      size_t nl = s_.find('\n', pos);
      size_t first = s_.find_first_not_of(" \t\r", pos);
      if (first != std::string_view::npos && first < (nl == std::string_view::npos ? s_.size() : nl) &&
          s_[first] == '{') {
        start = first;
        break;
      }
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
    if (start == std::string_view::npos) {
      out_.error = "no '{' starting a line";
      return std::move(out_);
    }
    pos_ = start;
    if (!object("", 0) && out_.error.empty()) out_.error = "syntax error";
    return std::move(out_);
  }

 private:
  // Line of pos; positions only move forward, so count incrementally.
  size_t lineAt(size_t pos) {
    if (pos < line_pos_) line_pos_ = 0, line_ = 1;
    for (; line_pos_ < pos && line_pos_ < s_.size(); ++line_pos_) line_ += s_[line_pos_] == '\n';
    return line_;
  }

  bool fail(const std::string& what) {
    if (out_.error.empty()) {
      out_.error = what + " at line " + std::to_string(lineAt(pos_));
    }
    return false;
  }

  void blanks() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r' ||
                                s_[pos_] == '\n')) {
      ++pos_;
    }
  }

  bool peek(char c) {
    blanks();
    return pos_ < s_.size() && s_[pos_] == c;
  }

  bool string(std::string* out) {
    if (!peek('"')) return fail("expected '\"'");
    ++pos_;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': break;
        case 'u':  // \uXXXX: not expected in stats; keep a placeholder
          pos_ = pos_ + 4 <= s_.size() ? pos_ + 4 : s_.size();
          out->push_back('?');
          break;
        default: out->push_back(e); break;
      }
    }
    return fail("unterminated string");
  }

  bool scalar(std::string* out) {
    blanks();
    size_t b = pos_;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == ',' || c == '}' || c == ']' || c == '\n' || c == '\r' || c == ' ' || c == '\t') break;
      ++pos_;
    }
    if (pos_ == b) return fail("expected a value");
    *out = std::string(s_.substr(b, pos_ - b));
    return true;
  }

  // After a value: ',' then a key or the close, or the close itself. Only
  // then is the member complete ("1,234" fails here).
  bool separator(char close, bool* closed) {
    if (peek(close)) {
      ++pos_;
      *closed = true;
      return true;
    }
    if (!peek(',')) return fail(std::string("expected ',' or '") + close + "'");
    ++pos_;
    blanks();
    if (pos_ < s_.size() && s_[pos_] == close) {  // trailing comma
      ++pos_;
      *closed = true;
      return true;
    }
    if (close == '}' && !peek('"')) return fail("expected a key after ','");
    *closed = false;
    return true;
  }

  bool skipArray(int depth) {
    ++pos_;  // '['
    if (peek(']')) {
      ++pos_;
      return true;
    }
    for (;;) {
      std::string ignored;
      if (peek('{')) {
        if (!object("", depth + 1, /*keep=*/false)) return false;
      } else if (peek('[')) {
        if (depth + 1 > kMaxDepth) return fail("nested too deep");
        if (!skipArray(depth + 1)) return false;
      } else if (peek('"')) {
        if (!string(&ignored)) return false;
      } else if (!scalar(&ignored)) {
        return false;
      }
      bool closed = false;
      if (!separator(']', &closed)) return false;
      if (closed) return true;
    }
  }

  bool object(const std::string& parent, int depth, bool keep = true) {
    if (depth > kMaxDepth) return fail("nested too deep");
    if (!peek('{')) return fail("expected '{'");
    ++pos_;
    if (peek('}')) {
      ++pos_;
      return true;
    }
    for (;;) {
      PeMember m;
      m.parent = parent;
      blanks();
      m.line = lineAt(pos_);
      if (!string(&m.key)) return false;
      if (!peek(':')) return fail("expected ':' after \"" + m.key.substr(0, 40) + "\"");
      ++pos_;
      if (peek('{')) {
        if (!object(m.key, depth + 1, keep)) return false;
      } else if (peek('[')) {
        if (!skipArray(depth + 1)) return false;
      } else if (peek('"')) {
        m.kind = PeMember::Kind::kString;
        if (!string(&m.text)) return false;
      } else {
        if (!scalar(&m.text)) return false;
        bool digits = !m.text.empty();
        for (char c : m.text) digits = digits && (c >= '0' && c <= '9');
        m.kind = digits ? PeMember::Kind::kNumber : PeMember::Kind::kOther;
      }
      bool closed = false;
      if (!separator('}', &closed)) return false;
      if (keep && !m.key.empty()) out_.members.push_back(std::move(m));
      if (closed) return true;
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  size_t line_pos_ = 0;
  size_t line_ = 1;
  PeParse out_;
};

}  // namespace

PeParse parsePeObject(std::string_view text) { return Reader(text).run(); }

}  // namespace rdmagw::southbound::esxi
