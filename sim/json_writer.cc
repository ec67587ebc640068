#include "sim/json_writer.h"

#include <cstdio>

namespace rdmagw::sim {

void JsonWriter::prefix(const char* key) {
  if (!first_.empty()) {
    out_ += first_.back() ? "\n" : ",\n";
    first_.back() = false;
    out_.append(first_.size() * 2, ' ');
  }
  if (key != nullptr) out_ += quote(key) + ": ";
}

std::string JsonWriter::quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
      q += buf;
    } else {
      q += c;
    }
  }
  return q + "\"";
}

JsonWriter& JsonWriter::beginObject(const char* key) {
  prefix(key);
  out_ += "{";
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) {
    out_ += "\n";
    out_.append(first_.size() * 2, ' ');
  }
  out_ += "}";
  return *this;
}

JsonWriter& JsonWriter::beginArray(const char* key) {
  prefix(key);
  out_ += "[";
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) {
    out_ += "\n";
    out_.append(first_.size() * 2, ' ');
  }
  out_ += "]";
  return *this;
}

JsonWriter& JsonWriter::field(const char* key, const std::string& value) {
  prefix(key);
  out_ += quote(value);
  return *this;
}

JsonWriter& JsonWriter::field(const char* key, uint64_t value) {
  prefix(key);
  out_ += std::to_string(value);
  return *this;
}

std::string JsonWriter::take() {
  out_ += "\n";
  return std::move(out_);
}

}  // namespace rdmagw::sim
