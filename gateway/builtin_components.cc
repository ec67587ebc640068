// The one list of components compiled into rdmagw. Adding a southbound kind
// or a parser means adding a line here.

#include <map>

#include "gateway/registry.h"
#include "southbound/rdma/parsers.h"
#include "southbound/rdma/rdma_factory.h"

namespace rdmagw::gateway {
namespace {

const std::map<std::string, SourceFactory, std::less<>>& sourceFactories() {
  static const std::map<std::string, SourceFactory, std::less<>> factories = {
      {"rdma-host",
       [](const TargetConfig& t) { return southbound::rdma::createRdmaSource(t.rdma); }},
  };
  return factories;
}

}  // namespace

const SourceFactory* findSourceFactory(std::string_view kind) {
  auto it = sourceFactories().find(kind);
  return it == sourceFactories().end() ? nullptr : &it->second;
}

std::vector<ParserEntry> parserFormats() {
  std::vector<ParserEntry> all;
  for (const auto& f : southbound::rdma::rdmaParserFormats()) all.push_back(f);
  return all;
}

const ParserEntry* findParser(std::string_view name) {
  static const std::vector<ParserEntry> all = parserFormats();
  for (const ParserEntry& p : all) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace rdmagw::gateway
