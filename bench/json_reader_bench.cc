// The JSON reader on recorded input, in both its forms, beside rapidjson's
// SAX reader: the NX-OS `| json` fixtures (tests/fixtures/nxos/*.json) and
// the gNMI json_val blobs of the fuzz corpus (one of them the DME REST reply
// fixture's body). Each benchmark parses every file of its set once per
// iteration; bytes/s is over the whole set. rapidjson (numbers as strings,
// stop when done) is measured with a handler that only counts, so it is a
// floor for any DOM built on it.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "southbound/text/json_reader.h"

#if __has_include(<rapidjson/reader.h>)
#define RDMAGW_HAVE_RAPIDJSON 1
#include <rapidjson/reader.h>
#endif

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Without the leading '#' lines: fixtures may carry a source note first.
std::string fromJsonStart(std::string s) {
  size_t at = 0;
  while (at < s.size() && s[at] == '#') {
    size_t nl = s.find('\n', at);
    at = nl == std::string::npos ? s.size() : nl + 1;
  }
  return s.substr(at);
}

std::vector<std::string> files(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::vector<fs::path> paths;
  for (const auto& e : fs::directory_iterator(std::string(RDMAGW_SOURCE_DIR) + "/" + dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      paths.push_back(e.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) out.push_back(fromJsonStart(slurp(p)));
  return out;
}

const std::vector<std::string>& nxosSet() {
  static const auto set = files("tests/fixtures/nxos", ".json");
  return set;
}

const std::vector<std::string>& gnmiSet() {
  // dme_rmonDot3Stats.json is the body of the DME REST reply fixture.
  static const auto set = files("fuzz/corpus/gnmi_json", ".json");
  return set;
}

size_t bytesOf(const std::vector<std::string>& set) {
  size_t n = 0;
  for (const auto& s : set) n += s.size();
  return n;
}

const std::vector<std::string>& setOf(int64_t which) { return which == 0 ? nxosSet() : gnmiSet(); }
const char* nameOf(int64_t which) { return which == 0 ? "nxos" : "gnmi"; }

// Damage-tolerant: the device readers' entry (a new parse per reply).
void BM_JsonTolerant(benchmark::State& state) {
  const auto& set = setOf(state.range(0));
  for (auto _ : state) {
    for (const auto& s : set) {
      // Not checked for completeness: it refuses a number that ends the
      // input (scalar blobs), which the strict form accepts.
      auto parsed = southbound::text::parseJson(s);
      benchmark::DoNotOptimize(parsed);
    }
  }
  state.SetLabel(nameOf(state.range(0)));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytesOf(set)));
}
BENCHMARK(BM_JsonTolerant)->Arg(0)->Arg(1);

// Strict: the gNMI mapper's entry (one JsonDom reused across blobs).
void BM_JsonStrict(benchmark::State& state) {
  const auto& set = setOf(state.range(0));
  southbound::text::JsonDom dom;
  std::deque<std::string> arena;
  for (auto _ : state) {
    for (const auto& s : set) {
      arena.clear();
      if (!dom.parse(s, arena).isOk()) state.SkipWithError("parse failed");
      benchmark::DoNotOptimize(dom);
    }
  }
  state.SetLabel(nameOf(state.range(0)));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytesOf(set)));
}
BENCHMARK(BM_JsonStrict)->Arg(0)->Arg(1);

#ifdef RDMAGW_HAVE_RAPIDJSON
struct CountingHandler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, CountingHandler> {
  size_t events = 0;
  bool Default() {
    ++events;
    return true;
  }
};

void BM_RapidjsonSax(benchmark::State& state) {
  const auto& set = setOf(state.range(0));
  rapidjson::Reader reader;
  for (auto _ : state) {
    for (const auto& s : set) {
      CountingHandler h;
      rapidjson::StringStream in(s.c_str());
      constexpr unsigned kFlags = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag;
      if (reader.Parse<kFlags>(in, h).IsError()) state.SkipWithError("parse failed");
      benchmark::DoNotOptimize(h.events);
    }
  }
  state.SetLabel(nameOf(state.range(0)));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytesOf(set)));
}
BENCHMARK(BM_RapidjsonSax)->Arg(0)->Arg(1);
#endif

}  // namespace
}  // namespace rdmagw::bench
