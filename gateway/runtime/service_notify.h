#pragma once
// The systemd service-manager protocol (sd_notify(3)) for a Type=notify
// unit: readiness, reload, stop, a status line and the watchdog. Every
// function is a no-op when the process was not started with NOTIFY_SOCKET
// (a shell, a test, another supervisor), so callers need no checks.

#include <chrono>
#include <optional>
#include <string_view>

namespace rdmagw::gateway::service_notify {

// READY=1: every configured northbound listens. Also ends a reload.
void ready();
// RELOADING=1 with MONOTONIC_USEC (systemd 253+ pairs them to time the
// reload; 252 takes RELOADING=1 alone): follow with ready() when done.
void reloading();
// STOPPING=1: a stop request was received; the drain has begun.
void stopping();
// STATUS=<text>: the one line `systemctl status` shows.
void status(std::string_view text);
// WATCHDOG=1: the pipeline is alive (see gateway/runtime/pipeline_watchdog.h).
void watchdog();
// WatchdogSec= of the unit when it applies to this process, else nothing.
std::optional<std::chrono::microseconds> watchdogInterval();

}  // namespace rdmagw::gateway::service_notify
