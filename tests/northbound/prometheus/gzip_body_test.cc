#include "northbound/prometheus/gzip_body.h"

#include <zlib.h>

#include <gtest/gtest.h>

namespace rdmagw::northbound::prometheus {
namespace {

std::string gunzip(const std::string& in) {
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[1 << 16];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK);
  inflateEnd(&zs);
  EXPECT_EQ(rc, Z_STREAM_END);
  return out;
}

TEST(GzipBodyTest, AcceptEncodingParsing) {
  EXPECT_TRUE(acceptsGzip("gzip"));
  EXPECT_TRUE(acceptsGzip("deflate, GZIP"));
  EXPECT_TRUE(acceptsGzip("gzip;q=0.5, identity"));
  EXPECT_TRUE(acceptsGzip("*"));
  EXPECT_FALSE(acceptsGzip(nullptr));
  EXPECT_FALSE(acceptsGzip(""));
  EXPECT_FALSE(acceptsGzip("identity"));
  EXPECT_FALSE(acceptsGzip("gzip;q=0"));
  EXPECT_FALSE(acceptsGzip("gzip; q=0.000, identity"));
  EXPECT_FALSE(acceptsGzip("x-gzip2"));
}

TEST(GzipBodyTest, RoundTripsEmptySmallAndLargeBodies) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{5} << 20}) {
    std::string in;
    in.reserve(n);
    // Mostly repetitive like an exposition, with some noise so it does not
    // compress to nothing.
    for (size_t i = 0; i < n; ++i) in.push_back(i % 97 == 0 ? char('a' + (i * 7919) % 26) : "metric{x=\"1\"} 42\n"[i % 17]);
    Result<std::string> gz = gzipCompress(in);
    ASSERT_TRUE(gz.isOk()) << gz.status().toString();
    EXPECT_EQ(gunzip(*gz), in) << n;
    if (n > 1000) {
      EXPECT_LT(gz->size(), in.size() / 3);
    }
  }
}

TEST(GzipBodyTest, IncompressibleInputStillFits) {
  std::string in(1 << 20, '\0');
  uint64_t x = 88172645463325252ull;
  for (char& c : in) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = char(x);
  }
  Result<std::string> gz = gzipCompress(in);
  ASSERT_TRUE(gz.isOk());
  EXPECT_EQ(gunzip(*gz), in);
}

// An exposition is compressed as its pieces: the result is the gzip of
// their concatenation, whatever their sizes (empty ones included).
TEST(GzipBodyTest, PiecesCompressAsTheirConcatenation) {
  std::string big(3 << 20, 'x');
  for (size_t i = 0; i < big.size(); i += 101) big[i] = char('a' + i % 26);
  // A view of big, not big.substr(): a temporary string would be freed
  // before the views are read.
  const std::vector<std::string_view> pieces = {"", "# HELP a b\n", big, "", "a 1\n", std::string_view(big).substr(7, 1000), ""};
  std::string joined;
  for (std::string_view p : pieces) joined.append(p);
  Result<std::string> gz = gzipCompress(pieces);
  ASSERT_TRUE(gz.isOk()) << gz.status().toString();
  EXPECT_EQ(gunzip(*gz), joined);

  Result<std::string> none = gzipCompress(std::vector<std::string_view>{});
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(gunzip(*none), "");
}

// A prebuilt exposition is kept gzipped and inflated as a plain scrape is
// sent: in slices, stopping when the client leaves, and refusing a body that
// is cut or damaged instead of sending a wrong one.
TEST(GzipBodyTest, GunzipToHandsTheTextOutInSlices) {
  std::string in(3 << 20, 'y');
  for (size_t i = 0; i < in.size(); i += 89) in[i] = char('a' + i % 26);
  Result<std::string> gz = gzipCompress(in);
  ASSERT_TRUE(gz.isOk());
  std::string out;
  size_t slices = 0;
  Status st = gunzipTo(*gz, [&](std::string_view s) {
    EXPECT_LE(s.size(), size_t{256} * 1024);
    out.append(s);
    ++slices;
    return true;
  });
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(out, in);
  EXPECT_GE(slices, 12u);

  // The sink stops it: not an error, and nothing more is handed out.
  size_t taken = 0;
  st = gunzipTo(*gz, [&](std::string_view s) {
    taken += s.size();
    return false;
  });
  EXPECT_TRUE(st.isOk()) << st.toString();
  EXPECT_LE(taken, size_t{256} * 1024);
  EXPECT_GT(taken, 0u);
}

TEST(GzipBodyTest, GunzipToRefusesTruncatedAndCorruptInput) {
  std::string in(100000, 'z');
  for (size_t i = 0; i < in.size(); i += 7) in[i] = char('0' + i % 10);
  Result<std::string> gz = gzipCompress(in);
  ASSERT_TRUE(gz.isOk());
  auto sink = [](std::string_view) { return true; };

  Status cut = gunzipTo(std::string_view(*gz).substr(0, gz->size() / 2), sink);
  EXPECT_FALSE(cut.isOk());
  EXPECT_NE(cut.message().find("truncated"), std::string::npos) << cut.message();

  std::string damaged = *gz;
  damaged[damaged.size() - 6] ^= 0x5a;  // inside the CRC-32 trailer
  Status bad = gunzipTo(damaged, sink);
  EXPECT_FALSE(bad.isOk());
  EXPECT_NE(bad.message().find("corrupt"), std::string::npos) << bad.message();

  EXPECT_FALSE(gunzipTo("not gzip at all", sink).isOk());
  EXPECT_FALSE(gunzipTo("", sink).isOk());
}

}  // namespace
}  // namespace rdmagw::northbound::prometheus
