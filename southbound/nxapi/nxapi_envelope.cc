#include "southbound/nxapi/nxapi_envelope.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "southbound/nxapi/json_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxapi {
namespace {

using text::JsonNode;

constexpr std::string_view kNoOutput = "no output for this command";
// The switch's words are quoted in errors and logs: a page of HTML or a
// runaway message must not fill them.
constexpr size_t kQuoted = 200;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string quoted(std::string_view s) {
  s = trim(s);
  return s.size() <= kQuoted ? std::string(s) : std::string(s.substr(0, kQuoted)) + "...";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A scalar's text; empty for anything else (a member the switch left out).
std::string scalar(const JsonNode* n) { return n != nullptr && n->isScalar() ? std::string(n->text) : std::string(); }

// NX-API sends the code as a string ("200"); a number is read alike, since
// its meaning is the same. Anything else is no code.
std::optional<int> codeOf(const JsonNode* n) {
  if (n == nullptr || (n->kind != JsonNode::Kind::kString && n->kind != JsonNode::Kind::kNumber)) return std::nullopt;
  std::string_view t = trim(n->text);
  const bool negative = t.starts_with('-');
  if (negative) t.remove_prefix(1);
  if (t.empty() || t.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

// A body as the caller hands it to a parser: an object as compact JSON
// text, a string as its text.
std::string bodyText(const JsonNode* b) {
  if (b == nullptr || b->kind == JsonNode::Kind::kNull) return "";
  if (b->kind == JsonNode::Kind::kString) return std::string(b->text);
  return jsonText(*b);
}

std::string htmlTitle(std::string_view page) {
  const std::string low = lower(page.substr(0, 4096));
  const size_t open = low.find("<title>");
  if (open == std::string::npos) return "";
  const size_t close = low.find("</title>", open);
  if (close == std::string::npos) return "";
  return quoted(page.substr(open + 7, close - open - 7));
}

Status insOutput(const JsonNode& o, size_t n, CommandOutput& out) {
  const std::string where = "ins_api output " + std::to_string(n);
  if (o.kind != JsonNode::Kind::kObject) return Status::corrupt(where + " is not an object");
  std::optional<int> code = codeOf(o.get("code"));
  if (!code) return Status::corrupt(where + ": no code, or a code that is not a number");
  out.code = *code;
  out.msg = scalar(o.get("msg"));
  out.clierror = scalar(o.get("clierror"));
  out.input = scalar(o.get("input"));
  out.body = bodyText(o.get("body"));
  return Status::ok();
}

Result<Envelope> insApi(const JsonNode& ins) {
  if (ins.kind != JsonNode::Kind::kObject) return Status::corrupt("NX-API response: ins_api is not an object");
  Envelope env;
  env.dialect = Dialect::kInsApi;
  env.format = scalar(ins.get("type")) == "cli_show_ascii" ? OutputFormat::kAscii : OutputFormat::kJson;
  const JsonNode* outputs = ins.get("outputs");
  const JsonNode* output = outputs != nullptr ? outputs->get("output") : nullptr;
  if (output == nullptr) {
    // Some refusals come as a code and msg beside, not inside, outputs.
    const std::string msg = scalar(ins.get("msg"));
    return Status::corrupt("NX-API response without ins_api.outputs.output" +
                           (msg.empty() ? std::string() : ": " + scalar(ins.get("code")) + " " + quoted(msg)));
  }
  if (output->kind == JsonNode::Kind::kObject) {
    CommandOutput one;
    if (Status st = insOutput(*output, 1, one); !st.isOk()) return st;
    env.outputs.push_back(std::move(one));
  } else if (output->kind == JsonNode::Kind::kArray) {
    size_t n = 0;
    for (const JsonNode& o : output->children()) {
      CommandOutput each;
      if (Status st = insOutput(o, ++n, each); !st.isOk()) return st;
      env.outputs.push_back(std::move(each));
    }
  } else {
    return Status::corrupt("NX-API response: ins_api.outputs.output is neither an object nor a list");
  }
  return env;
}

struct RpcReply {
  std::optional<int> id;
  CommandOutput out;
};

// One JSON-RPC reply; `json`/`ascii` note which kind of result it held.
Status rpcReply(const JsonNode& r, size_t n, RpcReply& reply, bool& json, bool& ascii) {
  const std::string where = "JSON-RPC reply " + std::to_string(n);
  if (r.kind != JsonNode::Kind::kObject) return Status::corrupt(where + " is not an object");
  const JsonNode* id = r.get("id");
  if (id != nullptr && id->kind == JsonNode::Kind::kNumber) reply.id = codeOf(id);
  CommandOutput& out = reply.out;
  if (const JsonNode* err = r.get("error"); err != nullptr && err->kind == JsonNode::Kind::kObject) {
    std::optional<int> code = codeOf(err->get("code"));
    const std::string message = scalar(err->get("message"));
    const JsonNode* data = err->get("data");
    out.clierror = data != nullptr ? scalar(data->get("msg")) : std::string();
    out.msg = trim(out.clierror).empty() ? message : message + ": " + quoted(out.clierror);
    // id null: the switch did not get as far as any command.
    if (id == nullptr || id->kind == JsonNode::Kind::kNull) {
      return Status::invalidArgument("NX-API refused the request: " + (code ? std::to_string(*code) + " " : "") +
                                     quoted(out.msg));
    }
    if (!code) return Status::corrupt(where + ": an error without a numeric code: " + quoted(out.msg));
    out.code = *code;
    return Status::ok();
  }
  const JsonNode* result = r.get("result");
  if (result == nullptr) return Status::corrupt(where + " holds neither result nor error");
  out.code = 200;
  if (result->kind == JsonNode::Kind::kObject) {
    if (const JsonNode* body = result->get("body")) {
      out.body = bodyText(body);
      json = true;
    } else if (const JsonNode* msg = result->get("msg")) {
      out.body = scalar(msg);
      ascii = true;
    }
  } else if (result->kind != JsonNode::Kind::kNull) {
    return Status::corrupt(where + ": result is neither an object nor null");
  }
  return Status::ok();
}

Result<Envelope> jsonRpc(const JsonNode& root, size_t expected) {
  std::vector<const JsonNode*> items;
  if (root.kind == JsonNode::Kind::kArray) {
    for (const JsonNode& r : root.children()) items.push_back(&r);
  } else {
    items.push_back(&root);
  }
  if (items.empty()) return Status::corrupt("JSON-RPC response: an empty list");
  std::vector<RpcReply> replies(items.size());
  bool json = false;
  bool ascii = false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (Status st = rpcReply(*items[i], i + 1, replies[i], json, ascii); !st.isOk()) return st;
  }
  Envelope env;
  env.dialect = Dialect::kJsonRpc;
  env.format = ascii && !json ? OutputFormat::kAscii : OutputFormat::kJson;
  // The switch numbers the calls as we sent them (1..n) but a batch answer
  // need not come in that order, nor hold every call: each reply goes to
  // its id's place and a missing id's place says so. Ids that are not
  // numbers in 1..n, or repeat, leave the document order.
  const size_t slots = std::max(items.size(), expected);
  std::vector<bool> seen(slots + 1, false);
  bool by_id = true;
  for (const RpcReply& r : replies) {
    if (!r.id || *r.id < 1 || size_t(*r.id) > slots || seen[size_t(*r.id)]) {
      by_id = false;
      break;
    }
    seen[size_t(*r.id)] = true;
  }
  if (!by_id) {
    for (RpcReply& r : replies) env.outputs.push_back(std::move(r.out));
    return env;
  }
  size_t last = 0;
  for (const RpcReply& r : replies) last = std::max(last, size_t(*r.id));
  env.outputs.resize(last);
  for (size_t i = 0; i < last; ++i) {
    if (!seen[i + 1]) env.outputs[i].msg = std::string(kNoOutput);
  }
  for (RpcReply& r : replies) env.outputs[size_t(*r.id) - 1] = std::move(r.out);
  return env;
}

}  // namespace

std::string requestBody(Dialect dialect, OutputFormat format, const std::vector<std::string>& commands) {
  if (dialect == Dialect::kInsApi) {
    // One request runs several commands joined with " ;", the separator
    // NX-API splits its input on.
    std::string input;
    for (const std::string& c : commands) input += (input.empty() ? "" : " ;") + c;
    return std::string(R"({"ins_api":{"version":"1.0","type":")") +
           (format == OutputFormat::kJson ? "cli_show" : "cli_show_ascii") + R"(","chunk":"0","sid":"1","input":)" +
           jsonQuote(input) + R"(,"output_format":"json"}})";
  }
  std::string out = "[";
  const char* method = format == OutputFormat::kJson ? "cli" : "cli_ascii";
  for (size_t i = 0; i < commands.size(); ++i) {
    if (i > 0) out += ',';
    out += std::string(R"({"jsonrpc":"2.0","method":")") + method + R"(","params":{"cmd":)" + jsonQuote(commands[i]) +
           R"(,"version":1},"id":)" + std::to_string(i + 1) + "}";
  }
  return out + "]";
}

std::string_view contentType(Dialect dialect) {
  return dialect == Dialect::kInsApi ? "application/json" : "application/json-rpc";
}

bool structuredUnsupported(const CommandOutput& out) {
  if (out.code == 501) return true;
  constexpr std::string_view kWords = "structured output unsupported";
  return lower(out.msg).find(kWords) != std::string::npos || lower(out.clierror).find(kWords) != std::string::npos;
}

Result<Envelope> parseEnvelope(std::string_view text, size_t expected) {
  const std::string_view t = trim(text);
  if (t.empty()) return Status::corrupt("empty NX-API response");
  if (t.front() == '<') {
    // A web server's page (401 from nginx before NX-API, a proxy's error).
    const std::string title = htmlTitle(t);
    return Status::unavailable("NX-API answered with an HTML page, not JSON" +
                               (title.empty() ? std::string() : ": " + title));
  }
  if (t.front() != '{' && t.front() != '[') {
    return Status::corrupt("NX-API response is not JSON: '" + quoted(t.substr(0, 60)) + "'");
  }
  const text::JsonParse doc = text::parseJson(t);
  if (!doc.complete) return Status::corrupt("NX-API response truncated or damaged: " + doc.error);
  const JsonNode& root = doc.root();
  Result<Envelope> env = Status::corrupt("");
  if (const JsonNode* ins = root.kind == JsonNode::Kind::kObject ? root.get("ins_api") : nullptr) {
    env = insApi(*ins);
  } else if (root.kind == JsonNode::Kind::kArray || root.get("jsonrpc") != nullptr || root.get("result") != nullptr ||
             root.get("error") != nullptr) {
    env = jsonRpc(root, expected);
  } else {
    return Status::corrupt("NX-API response is neither ins_api nor JSON-RPC");
  }
  if (!env.isOk()) return env;
  while (env->outputs.size() < expected) {
    CommandOutput missing;
    missing.msg = std::string(kNoOutput);
    env.value().outputs.push_back(std::move(missing));
  }
  return env;
}

}  // namespace rdmagw::southbound::nxapi
