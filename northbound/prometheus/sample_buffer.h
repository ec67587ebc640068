#pragma once
// The exposition's per-family bucket. Unlike std::string it never zero-fills
// and grows through realloc, which remaps large blocks instead of copying
// them. The writer reserves the worst case for a whole sample line once and
// then copies the pieces through a raw pointer: one capacity check per line
// instead of one per piece.

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace rdmagw::northbound {

class SampleBuffer {
 public:
  SampleBuffer() = default;
  ~SampleBuffer() { std::free(data_); }
  SampleBuffer(const SampleBuffer&) = delete;
  SampleBuffer& operator=(const SampleBuffer&) = delete;

  // Room for at least n more bytes at the end; write, then commit().
  char* room(size_t n) {
    if (cap_ - size_ < n) grow(size_ + n);
    return data_ + size_;
  }
  void commit(const char* end) { size_ = static_cast<size_t>(end - data_); }
  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }

  std::string_view view() const { return {data_, size_}; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }  // keeps the memory for the next scrape
  void release() {
    std::free(data_);
    data_ = nullptr;
    size_ = cap_ = 0;
  }

 private:
  void grow(size_t need) {
    size_t cap = cap_ * 2 > need ? cap_ * 2 : need;
    if (cap < 4096) cap = 4096;
    void* p = std::realloc(data_, cap);
    if (p == nullptr) std::abort();  // out of memory mid-scrape: nothing sane left to do
    data_ = static_cast<char*>(p);
    cap_ = cap;
  }

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
};

inline char* putRaw(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// Label-value escaping (`\`, `"`, newline) into room of 2 * s.size().
inline char* putEscaped(char* p, std::string_view s) {
  for (char c : s) {
    if (c == '\\' || c == '"') {
      *p++ = '\\';
      *p++ = c;
    } else if (c == '\n') {
      *p++ = '\\';
      *p++ = 'n';
    } else {
      *p++ = c;
    }
  }
  return p;
}

}  // namespace rdmagw::northbound
