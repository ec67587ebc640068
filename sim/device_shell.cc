#include "sim/device_shell.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "common/file_text.h"
#include "sim/cli_names.h"

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

struct Token {
  std::string text;
  size_t column;
};

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
    } else if (line[i] == '|') {
      out.push_back({"|", i++});
    } else {
      const size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '|') ++i;
      out.push_back({line.substr(start, i - start), start});
    }
  }
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  }
  return s;
}

bool keywordMatches(const std::string& typed, const std::string& keyword) {
  const std::string t = lower(typed);
  if (t == keyword) return true;
  if (keyword == "queuing" && t == "queueing") return true;
  return t.size() >= 2 && keyword.compare(0, t.size(), t) == 0;
}

ShellResult fromFile(const std::string& device_dir, const std::string& command) {
  ShellResult r;
  if (!readWholeFile(device_dir + "/cli/" + commandSlug(command), &r.out)) {
    r.err = "rdmagw-sim-shell: no rendered output for '" + command + "' under " + device_dir + "\n";
    r.exit_code = 1;
  }
  return r;
}

}  // namespace

NxosMatch matchNxos(const std::string& line) {
  const std::vector<Token> typed = tokenize(line);
  std::vector<std::vector<std::string>> candidates;
  for (const std::string& c : nxosCommands()) {
    std::vector<std::string> words;
    for (const Token& t : tokenize(c)) words.push_back(t.text);
    candidates.push_back(std::move(words));
  }
  NxosMatch m;
  if (typed.empty()) {
    m.kind = NxosMatch::Kind::kIncomplete;
    return m;
  }
  std::vector<size_t> alive(candidates.size());
  for (size_t i = 0; i < alive.size(); ++i) alive[i] = i;
  for (size_t pos = 0; pos < typed.size(); ++pos) {
    std::vector<size_t> next;
    for (size_t c : alive) {
      if (pos < candidates[c].size() && keywordMatches(typed[pos].text, candidates[c][pos])) {
        next.push_back(c);
      }
    }
    if (next.empty()) {
      m.kind = NxosMatch::Kind::kInvalid;
      m.marker = typed[pos].column;
      return m;
    }
    alive = std::move(next);
  }
  for (size_t c : alive) {
    if (candidates[c].size() == typed.size()) {
      m.kind = NxosMatch::Kind::kOk;
      m.command = nxosCommands()[c];
      return m;
    }
  }
  m.kind = NxosMatch::Kind::kIncomplete;
  m.marker = line.find_last_not_of(" \t") + 1;
  return m;
}

ShellResult runNxos(const std::string& device_dir, const std::string& line) {
  const NxosMatch m = matchNxos(line);
  if (m.kind == NxosMatch::Kind::kOk) return fromFile(device_dir, m.command);
  ShellResult r;
  r.exit_code = 1;
  r.out = std::string(m.marker, ' ') + "^\n";
  r.out += m.kind == NxosMatch::Kind::kIncomplete ? "% Incomplete command at '^' marker.\n"
                                                  : "% Invalid command at '^' marker.\n";
  return r;
}

ShellResult runEsxcli(const std::string& device_dir, const std::vector<std::string>& args) {
  // esxcli [global options] namespace... command [options]
  std::vector<std::string> words;
  std::string nic;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-n" || a == "--nic-name") {
      if (i + 1 < args.size()) nic = args[++i];
    } else if (a.rfind("--nic-name=", 0) == 0) {
      nic = a.substr(11);
    } else {
      words.push_back(a);
    }
  }
  auto joined = [&words](size_t n) {
    std::string s;
    for (size_t i = 0; i < n && i < words.size(); ++i) s += (i ? " " : "") + words[i];
    return s;
  };
  static const std::vector<std::vector<std::string>> kCommands = {
      {"network", "nic", "list"}, {"network", "nic", "stats", "get"}, {"network", "nic", "dcb", "status", "get"}};
  ShellResult r;
  for (const auto& cmd : kCommands) {
    if (words == cmd) {
      if (cmd.size() == 3) return fromFile(device_dir, "esxcli network nic list");
      if (nic.empty()) {
        r.out = "Error: Missing required parameter -n|--nic-name\n";
        r.exit_code = 1;
        return r;
      }
      r = fromFile(device_dir, "esxcli " + joined(cmd.size()) + " -n " + nic);
      if (r.exit_code != 0) {
        r.err.clear();
        r.out = "Error: Invalid NIC name: " + nic + "\n";  // nic not on this host
      }
      return r;
    }
  }
  // Find how far the words follow a known path, for the error message.
  size_t known = 0;
  for (const auto& cmd : kCommands) {
    size_t k = 0;
    while (k < words.size() && k < cmd.size() && words[k] == cmd[k]) ++k;
    known = std::max(known, k);
  }
  r.out = "Error: Unknown command or namespace " + joined(std::min(words.size(), known + 1)) + "\n";
  r.exit_code = 1;
  return r;
}

ShellResult runVsish(const std::string& device_dir, const std::vector<std::string>& args) {
  // vsish -e <cat|get> <path>  (also -pe: the rendered layout is the -pe one)
  ShellResult r;
  if (args.size() == 3 && (args[0] == "-e" || args[0] == "-pe") &&
      (args[1] == "cat" || args[1] == "get")) {
    std::string path = args[2];
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    r = fromFile(device_dir, "vsish -e cat " + path);
    if (r.exit_code == 0) return r;
    r.err.clear();
    r.out = "VSISHCmdGetInt():Get failed: Not found\n";
    return r;
  }
  r.out = "vsish: only '-e cat <path>' and '-e get <path>' are simulated\n";
  r.exit_code = 1;
  return r;
}

bool readWholeFile(const std::string& path, std::string* out) {
  common::FileText text = common::readFileText(path);
  if (!text.ok()) return false;
  *out = std::move(text.text);
  return true;
}

Status installShims(const std::string& device_dir, const std::string& shell_binary,
                    std::initializer_list<const char*> names) {
  if (shell_binary.empty()) return Status::invalidArgument("sim: no rdmagw-sim-shell binary");
  std::error_code ec;
  const fs::path bin = fs::path(device_dir) / "bin";
  fs::create_directories(bin, ec);
  if (ec) return Status::ioError(bin.string() + ": " + ec.message());
  const fs::path target = fs::absolute(shell_binary, ec);
  for (const char* name : names) {
    const fs::path link = bin / name;
    if (fs::is_symlink(link, ec) && fs::read_symlink(link, ec) == target) continue;
    fs::remove(link, ec);
    fs::create_symlink(target, link, ec);
    if (ec) return Status::ioError(link.string() + ": " + ec.message());
  }
  return Status::ok();
}

Status installEsxiShims(const std::string& device_dir, const std::string& shell_binary) {
  return installShims(device_dir, shell_binary, {"esxcli", "vsish"});
}

std::string defaultShellPath() {
  if (const char* env = std::getenv("RDMAGW_SIM_SHELL"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& p : {self.parent_path() / "rdmagw-sim-shell",
                              self.parent_path().parent_path() / "sim" / "rdmagw-sim-shell"}) {
      if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
#ifdef RDMAGW_SIM_SHELL_BUILD_PATH
  if (::access(RDMAGW_SIM_SHELL_BUILD_PATH, X_OK) == 0) return RDMAGW_SIM_SHELL_BUILD_PATH;
#endif
  return "";
}

}  // namespace rdmagw::sim
