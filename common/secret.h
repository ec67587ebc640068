#pragma once
// A password, passphrase or token held in memory: it has no stream operator
// and no implicit conversion to text, so it cannot slip into a log line or a
// Status by accident, and its memory is wiped when it goes away. Where a
// secret comes from (an environment variable, a file) is the caller's
// business; error texts name that source, never the content.
//
// A secret is made from text implicitly, so a config struct sets it like any
// other field; it never turns back into text except through reveal().
// Copies are allowed, because a config struct holding a secret is copied
// whole (one config per client, per retry); every copy is wiped in turn. A
// moved-from secret is wiped at once.

#include <string>

namespace rdmagw::common {

class Secret {
 public:
  Secret() = default;
  Secret(std::string value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Secret(const char* value) : value_(value) {}             // NOLINT: implicit by design
  ~Secret() { wipe(); }
  Secret(Secret&& other) noexcept : value_(std::move(other.value_)) { other.wipeMovedFrom(value_.size()); }
  Secret& operator=(Secret&& other) noexcept;
  Secret(const Secret& other) : value_(other.value_) {}
  Secret& operator=(const Secret& other);

  bool empty() const { return value_.empty(); }
  // For the one library call that needs it (libssh, gRPC metadata, etcd's
  // Authenticate); never log or format the result.
  const char* reveal() const { return value_.c_str(); }

  // Replaces every occurrence of the secret in `text` (defence in depth for
  // error texts that come from libraries we do not control).
  std::string scrub(std::string text) const;

 private:
  void wipe();
  // After value_ was moved out: `moved` bytes may remain in its buffer.
  void wipeMovedFrom(size_t moved) noexcept;
  std::string value_;
};

}  // namespace rdmagw::common
