#pragma once
// The client side of the admin socket (northbound/admin/admin_server.h):
// sends one request line and returns the reply, for `rdmagw status`.

#include <chrono>
#include <string>

#include "models/status.h"

namespace rdmagw::gateway {

// A reply this large is not a status: the client stops reading there.
inline constexpr size_t kMaxStatusReplyBytes = 64u << 20;

// The reply to `request` (a line without its newline) from the socket at
// `path`. Errors say what failed: no such socket, nobody listening,
// permission denied, no reply within `timeout`.
Result<std::string> askAdminSocket(const std::string& path, const std::string& request,
                                   std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace rdmagw::gateway
