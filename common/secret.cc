#include "common/secret.h"

namespace rdmagw::common {

Secret& Secret::operator=(Secret&& other) noexcept {
  if (this != &other) {
    wipe();
    value_ = std::move(other.value_);
    other.wipeMovedFrom(value_.size());
  }
  return *this;
}

Secret& Secret::operator=(const Secret& other) {
  if (this != &other) {
    wipe();
    value_ = other.value_;
  }
  return *this;
}

void Secret::wipe() {
  // volatile stores so the compiler cannot drop the wipe as a dead store.
  volatile char* p = value_.data();
  for (size_t i = 0; i < value_.size(); ++i) p[i] = 0;
  value_.clear();
}

void Secret::wipeMovedFrom(size_t moved) noexcept {
  // Moving a short string copies the bytes out of its inline buffer and
  // leaves them there, only the length set to zero. Growing the moved-from
  // string back over them (within its capacity, so nothing is allocated)
  // makes them its own again, and wipe() zeroes them.
  if (moved <= value_.capacity()) value_.assign(moved, '\0');
  wipe();
}

std::string Secret::scrub(std::string text) const {
  if (value_.empty()) return text;
  for (size_t pos = text.find(value_); pos != std::string::npos; pos = text.find(value_, pos)) {
    text.replace(pos, value_.size(), "***");
    pos += 3;
  }
  return text;
}

}  // namespace rdmagw::common
