#include "northbound/prometheus/gzip_body.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <climits>

namespace rdmagw::northbound::prometheus {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// "q=0", "q=0.0", "q=0.000": the client refuses the coding.
bool isZeroQ(std::string_view params) {
  size_t q = params.find("q=");
  if (q == std::string_view::npos) return false;
  std::string_view v = trim(params.substr(q + 2));
  if (v.empty() || v[0] != '0') return false;
  return v.find_first_not_of("0.") == std::string_view::npos;
}

}  // namespace

bool acceptsGzip(const char* accept_encoding) {
  if (accept_encoding == nullptr) return false;
  std::string_view rest(accept_encoding);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t semi = item.find(';');
    std::string_view coding = trim(item.substr(0, semi));
    std::string_view params = semi == std::string_view::npos ? std::string_view() : item.substr(semi + 1);
    if ((iequals(coding, "gzip") || coding == "*") && !isZeroQ(params)) return true;
  }
  return false;
}

Result<std::string> gzipCompress(std::string_view in) {
  return gzipCompress(std::vector<std::string_view>{in});
}

Result<std::string> gzipCompress(const std::vector<std::string_view>& pieces) {
  z_stream zs{};
  // windowBits 15 + 16: gzip header and trailer instead of zlib's.
  if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::internal("gzip: deflateInit2 failed");
  }
  size_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  // Start at an eighth of the input and double when full: an exposition
  // compresses ~18x, and sizing for the worst case (deflateBound) zero-filled
  // ~90 MB per scrape at a million series only to use 5 of them.
  std::string out;
  out.resize(std::min<size_t>(deflateBound(&zs, total), total / 8 + 4096));
  // Pieces in order; avail_in is 32-bit, so a piece over 4 GiB goes in slices.
  size_t piece = 0;
  std::string_view left = pieces.empty() ? std::string_view() : pieces[0];
  int rc = Z_OK;
  while (rc == Z_OK) {
    while (zs.avail_in == 0 && left.empty() && piece + 1 < pieces.size()) left = pieces[++piece];
    if (zs.avail_in == 0 && !left.empty()) {
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(left.data()));
      zs.avail_in = static_cast<uInt>(std::min<size_t>(left.size(), UINT_MAX));
      left.remove_prefix(zs.avail_in);
    }
    if (zs.avail_out == 0) {
      size_t used = zs.total_out;
      if (used == out.size()) out.resize(out.size() * 2);
      zs.next_out = reinterpret_cast<Bytef*>(out.data() + used);
      zs.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - used, UINT_MAX));
    }
    const bool last = left.empty() && piece + 1 >= pieces.size();
    rc = deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
  }
  size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::internal("gzip: deflate failed (" + std::to_string(rc) + ")");
  out.resize(produced);
  return out;
}

Status gunzipTo(std::string_view gz, const std::function<bool(std::string_view)>& sink) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return Status::internal("gunzip: inflateInit2 failed");
  std::string buf(256 * 1024, '\0');
  int rc = Z_OK;
  while (rc == Z_OK) {
    if (zs.avail_in == 0 && !gz.empty()) {
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
      zs.avail_in = static_cast<uInt>(std::min<size_t>(gz.size(), UINT_MAX));
      gz.remove_prefix(zs.avail_in);
    }
    zs.next_out = reinterpret_cast<Bytef*>(buf.data());
    zs.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&zs, Z_NO_FLUSH);
    const size_t produced = buf.size() - zs.avail_out;
    if ((rc == Z_OK || rc == Z_STREAM_END) && produced > 0 && !sink(std::string_view(buf.data(), produced))) {
      inflateEnd(&zs);
      return Status::ok();
    }
    // Z_BUF_ERROR with input left means no progress was possible: input ended early.
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && gz.empty()) break;
  }
  const std::string why = zs.msg != nullptr ? zs.msg : "zlib code " + std::to_string(rc);
  inflateEnd(&zs);
  if (rc == Z_STREAM_END) return Status::ok();
  if (rc == Z_BUF_ERROR || rc == Z_OK) return Status::corrupt("gunzip: truncated input");
  return Status::corrupt("gunzip: corrupt input (" + why + ")");
}

}  // namespace rdmagw::northbound::prometheus
