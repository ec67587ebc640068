#pragma once
// A minimal pretty-printing JSON writer for the simulator's NX-API outputs:
// enough for objects, arrays, strings and unsigned integers, with the
// two-space indent NX-API uses. Keys are written in call order.

#include <cstdint>
#include <string>
#include <vector>

namespace rdmagw::sim {

class JsonWriter {
 public:
  JsonWriter& beginObject(const char* key = nullptr);
  JsonWriter& endObject();
  JsonWriter& beginArray(const char* key);
  JsonWriter& endArray();
  JsonWriter& field(const char* key, const std::string& value);
  JsonWriter& field(const char* key, const char* value) { return field(key, std::string(value)); }
  JsonWriter& field(const char* key, uint64_t value);
  JsonWriter& field(const char* key, int value) { return field(key, uint64_t(value)); }
  std::string take();

 private:
  void prefix(const char* key);
  static std::string quote(const std::string& s);

  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
};

}  // namespace rdmagw::sim
