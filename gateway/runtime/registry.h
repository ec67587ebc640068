#pragma once
// Name -> factory lookups for the components compiled into this binary.
// The one explicit list lives in builtin_components.cc (no static
// self-registration: static libraries drop such initializers).

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/config/config.h"
#include "models/status.h"
#include "southbound/parser_format.h"
#include "models/store.h"
#include "models/target_role.h"
#include "southbound/poll_source.h"
#include "southbound/stream_source.h"

namespace rdmagw::gateway {

using SourceFactory = std::function<Result<southbound::PollSourcePtr>(const TargetConfig&)>;
// Streaming sources write the store themselves (data and health).
using StreamFactory = std::function<Result<southbound::StreamSourcePtr>(const TargetConfig&, Store&)>;

// The polled source for a target kind ("rdma-host"), or null when none is built in.
const SourceFactory* findSourceFactory(std::string_view kind);
// The streaming source for a kind and transport ("nexus", "auto"), or null:
// then the target is polled.
const StreamFactory* findStreamFactory(std::string_view kind, std::string_view transport);

// What each built-in kind is in the fabric: the analytics judge switches,
// hosts and hypervisors by role, never by kind.
const TargetRoles& targetRoles();

// A parser `rdmagw parse --format NAME` can run on a saved device output.
using ParserEntry = southbound::ParserFormat;
std::vector<ParserEntry> parserFormats();
const ParserEntry* findParser(std::string_view name);

}  // namespace rdmagw::gateway
