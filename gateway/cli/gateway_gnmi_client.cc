#include "gateway/cli/gateway_gnmi_client.h"

#include <cstdio>
#include <optional>

#include "gateway/config/yaml_reader.h"
#include "gnmi.grpc.pb.h"
#include "southbound/gnmi/gnmi_channel.h"
#include "southbound/secret_source.h"

namespace rdmagw::gateway {

const std::string& gatewayGnmiOptionsUsage() {
  static const std::string usage =
      "  --address HOST:PORT    the gateway's gNMI server (default 127.0.0.1:9339,\n"
      "                         where `rdmagw-demo` serves it)\n"
      "  --insecure             no TLS at all (the demo's plain-text loopback server)\n"
      "  --skip-verify          TLS without checking the server's certificate\n"
      "  --ca-file FILE         CA that signed the server's certificate (default:\n"
      "                         the system roots)\n"
      "  --cert-file FILE       client certificate (mTLS), with --key-file\n"
      "  --key-file FILE        its private key\n"
      "  --server-name NAME     name checked in the server's certificate\n"
      "  --username NAME        user of the gNMI server's users file\n"
      "  --password-env VAR     environment variable holding the password\n"
      "  --password-file FILE   file holding the password\n"
      "  --timeout DURATION     give up after this long (default 10s)\n";
  return usage;
}

CommandSpec withGatewayGnmiOptions(CommandSpec spec) {
  for (const char* f : {"--address", "--ca-file", "--cert-file", "--key-file", "--server-name", "--username",
                        "--password-env", "--password-file", "--timeout"}) {
    spec.value_flags.push_back(f);
  }
  spec.bool_flags.push_back("--insecure");
  spec.bool_flags.push_back("--skip-verify");
  return spec;
}

Result<GatewayGnmiClient> gatewayGnmiClientFromArgs(const Args& args) {
  GatewayGnmiClient client;
  southbound::gnmi::GnmiConfig& cfg = client.config;
  cfg.address = "127.0.0.1:9339";
  flagValue(args, "--address", &cfg.address);
  cfg.plaintext = hasFlag(args, "--insecure");
  cfg.tls = !cfg.plaintext;
  cfg.insecure_skip_verify = hasFlag(args, "--skip-verify");
  flagValue(args, "--ca-file", &cfg.ca_file);
  flagValue(args, "--cert-file", &cfg.cert_file);
  flagValue(args, "--key-file", &cfg.key_file);
  flagValue(args, "--server-name", &cfg.server_name_override);
  flagValue(args, "--username", &cfg.username);
  flagValue(args, "--password-env", &cfg.password_env);
  flagValue(args, "--password-file", &cfg.password_file);
  if (std::string text; flagValue(args, "--timeout", &text)) {
    std::optional<std::chrono::milliseconds> d = YamlReader::parseDuration(text);
    if (!d || d->count() <= 0) return Status::invalidArgument("--timeout: '" + text + "' is not a duration like 10s");
    client.timeout = *d;
  }
  if (cfg.plaintext && (cfg.insecure_skip_verify || !cfg.ca_file.empty() || !cfg.cert_file.empty())) {
    return Status::invalidArgument("--insecure (no TLS) conflicts with --skip-verify, --ca-file and --cert-file");
  }
  if (Status st = cfg.validate(); !st.isOk()) return Status::invalidArgument(st.message());
  return client;
}

Result<::gnmi::GetResponse> gatewayGet(const GatewayGnmiClient& client, const std::string& target,
                                       const std::vector<std::string>& elems) {
  const southbound::gnmi::GnmiConfig& cfg = client.config;
  Result<std::shared_ptr<grpc::Channel>> channel = southbound::gnmi::makeChannel(cfg);
  if (!channel.isOk()) return Status::unavailable(channel.status().message());
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + client.timeout);
  if (!cfg.username.empty()) {
    Result<common::Secret> password = southbound::resolveSecret(
        "--password-env", cfg.password_env, "--password-file", cfg.password_file);
    if (!password.isOk()) return Status::unavailable(password.status().message());
    ctx.AddMetadata("username", cfg.username);
    ctx.AddMetadata("password", password->reveal());
  }
  ::gnmi::GetRequest req;
  req.mutable_prefix()->set_target(target);
  ::gnmi::Path* path = req.add_path();
  for (const std::string& e : elems) path->add_elem()->set_name(e);
  req.set_encoding(::gnmi::PROTO);
  req.set_type(::gnmi::GetRequest::STATE);
  ::gnmi::GetResponse resp;
  grpc::Status st = ::gnmi::gNMI::NewStub(*channel)->Get(&ctx, req, &resp);
  if (st.error_code() == grpc::StatusCode::NOT_FOUND) return Status::notFound(st.error_message());
  if (!st.ok()) {
    return Status::unavailable("gNMI Get from " + cfg.address + " failed: " +
                               southbound::gnmi::statusCodeName(st.error_code()) + ": " + st.error_message());
  }
  return resp;
}

bool isMissingMemberNotice(const ::gnmi::Notification& n) {
  if (n.prefix().target() != "*" || n.update_size() != 1) return false;
  const ::gnmi::Path& p = n.update(0).path();
  return p.elem_size() == 3 && p.elem(0).name() == "fleet" && p.elem(1).name() == "member" &&
         p.elem(1).key().count("name") && p.elem(2).name() == "error";
}

std::vector<MissingMember> missingMembers(const ::gnmi::GetResponse& response) {
  std::vector<MissingMember> out;
  for (const ::gnmi::Notification& n : response.notification()) {
    if (!isMissingMemberNotice(n)) continue;
    out.push_back({n.update(0).path().elem(1).key().at("name"), typedValueText(n.update(0).val())});
  }
  return out;
}

std::string typedValueText(const ::gnmi::TypedValue& v) {
  char buf[64];
  switch (v.value_case()) {
    case ::gnmi::TypedValue::kStringVal: return v.string_val();
    case ::gnmi::TypedValue::kUintVal: return std::to_string(v.uint_val());
    case ::gnmi::TypedValue::kIntVal: return std::to_string(v.int_val());
    case ::gnmi::TypedValue::kBoolVal: return v.bool_val() ? "true" : "false";
    case ::gnmi::TypedValue::kDoubleVal:
      std::snprintf(buf, sizeof buf, "%.6g", v.double_val());
      return buf;
    default: return "?";
  }
}

}  // namespace rdmagw::gateway
