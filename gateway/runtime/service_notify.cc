#include "gateway/runtime/service_notify.h"

#include <systemd/sd-daemon.h>
#include <time.h>

#include <cstdint>
#include <string>

namespace rdmagw::gateway::service_notify {
namespace {

// sd_notify() itself returns 0 without NOTIFY_SOCKET; unset_environment
// stays 0 so a reload's later messages still reach systemd.
void send(const std::string& state) { sd_notify(0, state.c_str()); }

uint64_t monotonicUsec() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000u + uint64_t(ts.tv_nsec) / 1000u;
}

}  // namespace

void ready() { send("READY=1"); }

void reloading() { send("RELOADING=1\nMONOTONIC_USEC=" + std::to_string(monotonicUsec())); }

void stopping() { send("STOPPING=1"); }

void status(std::string_view text) {
  std::string line(text);
  // A newline would start another KEY=VALUE assignment.
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  send("STATUS=" + line);
}

void watchdog() { send("WATCHDOG=1"); }

std::optional<std::chrono::microseconds> watchdogInterval() {
  uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return std::nullopt;
  return std::chrono::microseconds(usec);
}

}  // namespace rdmagw::gateway::service_notify
