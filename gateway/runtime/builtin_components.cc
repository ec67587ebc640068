// The one list of components compiled into rdmagw. Adding a southbound kind
// or a parser means adding a line here.

#include <map>

#include "gateway/runtime/registry.h"
#include "southbound/esxi/esxi_formats.h"
#include "southbound/gnmi/gnmi_factory.h"
#include "southbound/gnmi/relay_source.h"
#include "southbound/gpu/gpu_source.h"
#include "southbound/k8s/pod_attribution_source.h"
#include "southbound/nxapi/nxapi_factory.h"
#include "southbound/nxapi/nxapi_format.h"
#include "southbound/nxos/nxos_formats.h"
#include "southbound/rdma/local_tool.h"
#include "southbound/rdma/parsers.h"
#include "southbound/rdma/rdma_factory.h"
#include "southbound/rdma/remote_dump.h"
#include "southbound/ssh/profiles/esxi_profile.h"
#include "southbound/ssh/profiles/nexus_profile.h"
#include "southbound/ssh/ssh_factory.h"
#include "southbound/transport_chain.h"

namespace rdmagw::gateway {
namespace {

// The target's NX-API client (its counters exported under its name), or
// null when it does not use NX-API.
std::shared_ptr<southbound::nxapi::NxapiHttp> nxapiClient(const TargetConfig& t) {
  for (const std::string& name : nexusTransports(t.transport)) {
    if (name == "nxapi") return std::make_shared<southbound::nxapi::NxapiHttp>(t.nxapi, t.name);
  }
  return nullptr;
}

// A Nexus's polled transports (all but gNMI) in its order of preference, as
// one source: a chain that moves to the next while one cannot reach the
// switch and returns when the preferred answers again. Null: none.
Result<southbound::PollSourcePtr> nexusPollSources(const TargetConfig& t,
                                                   const std::vector<southbound::ssh::CliCommand>& commands,
                                                   std::shared_ptr<southbound::nxapi::NxapiHttp> http,
                                                   const std::string& role = "") {
  std::vector<southbound::PollSourcePtr> chain;
  for (const std::string& name : nexusTransports(t.transport)) {
    Result<southbound::PollSourcePtr> one = southbound::PollSourcePtr();
    if (name == "ssh") one = southbound::ssh::createCliSource(t.ssh, commands);
    if (name == "nxapi") one = southbound::nxapi::createNxapiSource(t.nxapi, commands, http);
    if (!one.isOk()) return one.status();
    if (*one) chain.push_back(std::move(one).value());
  }
  if (chain.size() <= 1) return chain.empty() ? southbound::PollSourcePtr() : std::move(chain.front());
  southbound::TransportChainOptions options;
  options.target = t.name + role;  // its log lines say which of the target's sources moved
  options.retry_preferred_after = t.nxapi.retry_after;
  return southbound::PollSourcePtr(std::make_unique<southbound::TransportChain>(std::move(chain), options));
}

const std::map<std::string, SourceFactory, std::less<>>& sourceFactories() {
  static const std::map<std::string, SourceFactory, std::less<>> factories = {
      {"rdma-host",
       [](const TargetConfig& t) -> Result<southbound::PollSourcePtr> {
         if (t.transport == "ssh") {
           // One round trip: the dump command prints sysfs and ethtool, the
           // same collector code parses it (southbound/rdma/remote_dump.h).
           std::vector<southbound::ssh::CliCommand> dump = {southbound::ssh::CliCommand(
               southbound::rdma::remoteDumpCommand(t.rdma), southbound::rdma::parseRemoteDump)};
           if (!t.gpu.enabled) return southbound::ssh::createCliSource(t.ssh, std::move(dump));
           // The host's GPUs over the same session: its PCI tree in one more
           // round trip, nvidia-smi there.
           Result<southbound::ssh::CliSourceAndRunner> ssh =
               southbound::ssh::createCliSourceAndRunner(t.ssh, std::move(dump));
           if (!ssh.isOk()) return ssh.status();
           southbound::ssh::CliSourceAndRunner parts = std::move(ssh).value();
           std::shared_ptr<southbound::ssh::CommandRunner> runner = parts.runner;
           auto remote = [runner](const std::string& command) -> Result<std::string> {
             Result<southbound::ssh::CommandOutput> out = runner->execute(command);
             if (!out.isOk()) return out.status();
             if (out->exit_status != 0) {
               const std::string& said = out->stderr_text.empty() ? out->text : out->stderr_text;
               return Status::notFound("exit status " + std::to_string(out->exit_status) + ": " +
                                       said.substr(0, said.find('\n')));
             }
             return out->text;
           };
           return southbound::PollSourcePtr(std::make_unique<southbound::gpu::GpuSource>(
               std::move(parts.source), t.gpu, "/sys", remote, /*remote=*/true));
         }
         Result<southbound::PollSourcePtr> host = southbound::rdma::createRdmaSource(t.rdma);
         if (!host.isOk()) return host;
         southbound::PollSourcePtr source = std::move(host).value();
         if (t.kubernetes.enabled) {
           source = std::make_unique<southbound::k8s::PodAttributionSource>(std::move(source), t.kubernetes,
                                                                            t.rdma.sysfs_root);
         }
         if (t.gpu.enabled) {
           source = std::make_unique<southbound::gpu::GpuSource>(
               std::move(source), t.gpu, t.rdma.sysfs_root, [](const std::string& command) {
                 return southbound::rdma::runLocalTool({"/bin/sh", "-c", command}, "nvidia-smi");
               });
         }
         return source;
       }},
      {"nexus",
       [](const TargetConfig& t) { return nexusPollSources(t, southbound::ssh::nexusCommands(), nxapiClient(t)); }},
      {"esxi",
       [](const TargetConfig& t) { return southbound::ssh::createCliSource(t.ssh, southbound::ssh::esxiCommands()); }},
  };
  return factories;
}

// A Nexus over gNMI; its polled transports (SSH with transport auto, or
// NX-API then SSH, as listed) stand by as the fallback while gNMI is down
// (same paths, so the series stay continuous).
Result<southbound::StreamSourcePtr> createNexusStream(const TargetConfig& t, Store& store) {
  // One NX-API client for the fallback and the supplement: one connection
  // and one session on the switch (they are polled by one thread).
  std::shared_ptr<southbound::nxapi::NxapiHttp> http = nxapiClient(t);
  Result<southbound::PollSourcePtr> fallback = nexusPollSources(t, southbound::ssh::nexusCommands(), http);
  if (!fallback.isOk()) return fallback.status();
  southbound::PollSourcePtr supplement;
  if (*fallback) {
    // The CLI-only PFC leaves keep coming while gNMI carries the switch.
    Result<southbound::PollSourcePtr> extra =
        nexusPollSources(t, southbound::ssh::nexusGnmiSupplementCommands(), http, " (CLI supplement)");
    if (!extra.isOk()) return extra.status();
    supplement = std::move(extra).value();
  }
  return southbound::gnmi::createGnmiSource(t.name, t.gnmi, store, std::move(fallback).value(), t.interval, t.labels,
                                            std::move(supplement));
}

}  // namespace

const TargetRoles& targetRoles() {
  static const TargetRoles roles = {
      {"nexus", TargetRole::kSwitch},
      {"rdma-host", TargetRole::kHost},
      {"esxi", TargetRole::kHypervisor},
  };
  return roles;
}

const StreamFactory* findStreamFactory(std::string_view kind, std::string_view transport) {
  static const StreamFactory nexus = createNexusStream;
  // Gateway chaining: another rdmagw's gNMI northbound, all its targets.
  static const StreamFactory rdmagw = [](const TargetConfig& t, Store& store) {
    return southbound::gnmi::createRelaySource(t.name, t.gnmi, store, t.labels);
  };
  if (isGnmiSwitch(kind, transport)) return &nexus;
  if (kind == "rdmagw" && transport == "gnmi") return &rdmagw;
  return nullptr;
}

const SourceFactory* findSourceFactory(std::string_view kind) {
  auto it = sourceFactories().find(kind);
  return it == sourceFactories().end() ? nullptr : &it->second;
}

std::vector<ParserEntry> parserFormats() {
  std::vector<ParserEntry> all;
  for (const auto& f : southbound::rdma::rdmaParserFormats()) all.push_back(f);
  for (const auto& f : southbound::nxos::nxosParserFormats()) all.push_back(f);
  for (const auto& f : southbound::esxi::esxiParserFormats()) all.push_back(f);
  all.push_back({"esxi-bundle", "The ESXi poll's one-round-trip output: nic list plus per-vmnic esxcli and vsish sections.",
                 southbound::ssh::parseEsxiBundle});
  all.push_back({southbound::nxapi::kEnvelopeFormat, southbound::nxapi::kEnvelopeFormatHelp,
                 [](std::string_view text, TimestampNs ts, PollBatch& out) {
                   static const std::vector<southbound::ssh::CliCommand> nexus = southbound::ssh::nexusCommands();
                   return southbound::nxapi::parseCollectorEnvelope(text, nexus, ts, out);
                 }});
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
