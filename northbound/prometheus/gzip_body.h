#pragma once
// HTTP response compression for /metrics. Prometheus always asks for gzip,
// and the text format compresses ~10x, so a large scrape crosses the wire
// in a tenth of the bytes.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::northbound::prometheus {

// True when an Accept-Encoding header value admits gzip: a `gzip` or `*`
// token whose q is not 0. Null or empty: no.
bool acceptsGzip(const char* accept_encoding);

// gzip (RFC 1952) of `in` at the fastest level: the scrape is latency bound
// and level 1 already gets most of the ratio on this repetitive text.
Result<std::string> gzipCompress(std::string_view in);
// The same over the concatenation of `pieces`, without joining them first.
Result<std::string> gzipCompress(const std::vector<std::string_view>& pieces);

// Decompresses a whole gzip member, handing the text to `sink` in slices of
// at most 256 KiB as it goes: a prebuilt exposition is kept compressed and
// served plain this way without ever holding the ~100 MB text. `sink`
// returns false to stop early (the client went away): that is not an error.
// Corrupt or truncated input is an error; what was already handed out stays.
Status gunzipTo(std::string_view gz, const std::function<bool(std::string_view)>& sink);

}  // namespace rdmagw::northbound::prometheus
