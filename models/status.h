#pragma once
// Errors are values (LevelDB style): the collection path never throws.
// Result<T> stands in for std::expected, which g++ 12 does not ship.

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rdmagw {

class Status {
 public:
  enum class Code { kOk, kInvalidArgument, kNotFound, kIoError, kUnavailable, kCorrupt, kInternal };

  Status() = default;
  static Status ok() { return Status(); }
  static Status invalidArgument(std::string msg) { return {Code::kInvalidArgument, std::move(msg)}; }
  static Status notFound(std::string msg) { return {Code::kNotFound, std::move(msg)}; }
  static Status ioError(std::string msg) { return {Code::kIoError, std::move(msg)}; }
  static Status unavailable(std::string msg) { return {Code::kUnavailable, std::move(msg)}; }
  static Status corrupt(std::string msg) { return {Code::kCorrupt, std::move(msg)}; }
  static Status internal(std::string msg) { return {Code::kInternal, std::move(msg)}; }

  bool isOk() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string toString() const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}                // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}         // NOLINT: must not be ok()
  bool isOk() const { return std::holds_alternative<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  Status status() const { return isOk() ? Status::ok() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace rdmagw
