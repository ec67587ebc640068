#pragma once
// Lines the launcher writes into sshd's own log (sshd.log) so that what is
// read back from it can tell sshd's lines from ours: a stop, the end of a
// forced command, a readiness probe's connection.

namespace rdmagw::sim::sshd_log {

inline constexpr const char* kStoppedMarker = "rdmagw-sim: sshd stopped";
inline constexpr const char* kCommandDone = "rdmagw-sim: command done port ";
inline constexpr const char* kProbeMarker = "rdmagw-sim: readiness probe port ";

}  // namespace rdmagw::sim::sshd_log
