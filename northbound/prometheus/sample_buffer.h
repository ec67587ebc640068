#pragma once
// The exposition's per-family bucket. Unlike std::string it never zero-fills.
// The writer reserves the worst case for a whole sample line once and then
// copies the pieces through a raw pointer: one capacity check per line
// instead of one per piece.
//
// Memory: a page fault costs ~14 us on the 2-core VM this project measures
// on, so a cold scrape of a million series (buckets plus text, ~230 MB of
// 4 KiB pages) spent ~0.8 s in faults alone. Buckets past 2 MiB are their own
// 2 MiB-aligned mappings with transparent huge pages asked for (one fault
// per 2 MiB where the kernel has them: ~0.3 us per 4 KiB), and grow into a
// new mapping rather than through realloc's heap copies.
//
// Longer than a header should be because the buffer is on the exposition's hot
// path and stays inline.

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace rdmagw::northbound::prometheus {

inline constexpr size_t kHugePage = size_t{2} << 20;

// Asks for transparent huge pages over the whole 2 MiB pages inside
// [data, data + size). Advice only: a no-op where THP is off.
inline void adviseHugePages(void* data, size_t size) {
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

class SampleBuffer {
 public:
  SampleBuffer() = default;
  ~SampleBuffer() { release(); }
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
    if (mapped_) {
      munmap(data_, cap_);
    } else {
      std::free(data_);
    }
    data_ = nullptr;
    size_ = cap_ = 0;
    mapped_ = false;
  }

 private:
  void grow(size_t need) {
    size_t cap = cap_ * 2 > need ? cap_ * 2 : need;
    if (cap < 4096) cap = 4096;
    if (cap < kHugePage) {
      void* p = std::realloc(data_, cap);  // small: stays on the heap (never mapped_ here)
      if (p == nullptr) std::abort();      // out of memory mid-scrape: nothing sane left to do
      data_ = static_cast<char*>(p);
      cap_ = cap;
      return;
    }
    cap = (cap + kHugePage - 1) & ~(kHugePage - 1);
    // Map one huge page more than needed and trim to a 2 MiB boundary.
    void* raw = mmap(nullptr, cap + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) std::abort();
    const uintptr_t base = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (base + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > base) munmap(raw, aligned - base);
    const uintptr_t tail = aligned + cap;
    if (base + cap + kHugePage > tail) munmap(reinterpret_cast<void*>(tail), base + cap + kHugePage - tail);
    char* p = reinterpret_cast<char*>(aligned);
    madvise(p, cap, MADV_HUGEPAGE);
    if (size_ != 0) std::memcpy(p, data_, size_);
    const size_t size = size_;
    release();
    data_ = p;
    size_ = size;
    cap_ = cap;
    mapped_ = true;
  }

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
  bool mapped_ = false;
};

// Text copied with putPadded: the bytes plus kPad readable bytes after them,
// so a copy moves whole 16-byte blocks with no call and no length switch.
inline constexpr size_t kPad = 16;
class PaddedText {
 public:
  PaddedText() { buf_.assign(kPad, '\0'); }
  explicit PaddedText(std::string_view s) { assign(s); }
  void assign(std::string_view s) {
    buf_.assign(s);
    buf_.append(kPad, '\0');
  }
  std::string_view view() const { return {buf_.data(), buf_.size() - kPad}; }
  size_t size() const { return buf_.size() - kPad; }
  const char* data() const { return buf_.data(); }

 private:
  std::string buf_;
};

// Copies `s` in 16-byte blocks: writes up to kPad - 1 bytes past the end, so
// the caller's room() must count kPad spare bytes (later writes overwrite them).
inline char* putPadded(char* p, const PaddedText& s) {
  const char* src = s.data();
  const size_t n = s.size();
  for (size_t i = 0; i < n; i += kPad) std::memcpy(p + i, src + i, kPad);
  return p + n;
}

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

}  // namespace rdmagw::northbound::prometheus
