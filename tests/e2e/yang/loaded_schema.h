#pragma once
// The schema yanglint compiles from OpenConfig's modules and ours together,
// read from its tree output: every data node by its keyless path (as the
// gateway's schema spells paths: /interfaces/interface/state/mtu), with the
// module that defines it, so a node added by an augment is known as the
// augmenting module's. That is the rule for who owns a leaf: OpenConfig when
// a vendored OpenConfig module defines it at that path, else ours.

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/yang/yanglint_runner.h"

namespace rdmagw::testing {

struct SchemaNode {
  std::string module;       // defining module: "openconfig-if-ethernet", "rdmagw-interfaces"
  std::string type;         // leaf type as the tree prints it ("" for containers and lists)
  bool is_leaf = false;
  bool is_list = false;
  bool is_key = false;      // a list key (its type is printed as "-> target")
  std::string key_target;   // for a key: the leafref path it follows ("../config/name")
};

class LoadedSchema {
 public:
  // Compiles allModules(); error() is non-empty if that or the parse failed.
  static const LoadedSchema& instance() {
    static const LoadedSchema schema;
    return schema;
  }

  const std::string& error() const { return error_; }
  const std::map<std::string, SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode* find(const std::string& keyless_path) const {
    auto it = nodes_.find(keyless_path);
    return it == nodes_.end() ? nullptr : &it->second;
  }

  // The path with each node's module named where it differs from its
  // parent's, as RFC 7951 member names and gNMI paths qualify them:
  // /openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/rdmagw-interfaces:pfc/...
  // Empty when some prefix of the path is not a node.
  std::string qualifiedPath(const std::string& keyless_path) const {
    std::string out, parent_module, prefix;
    std::istringstream in(keyless_path);
    std::string seg;
    while (std::getline(in, seg, '/')) {
      if (seg.empty()) continue;
      prefix += "/" + seg;
      const SchemaNode* n = find(prefix);
      if (n == nullptr) return "";
      out += "/" + (n->module != parent_module ? n->module + ":" : "") + seg;
      parent_module = n->module;
    }
    return out;
  }

  // The module that owns the leaf at the path ("" if none defines it).
  std::string ownerOf(const std::string& keyless_path) const {
    const SchemaNode* n = find(keyless_path);
    return n != nullptr && n->is_leaf ? n->module : "";
  }

 private:
  LoadedSchema() {
    readPrefixes(kYangDir);
    readPrefixes(kOpenconfigDir);
    // -L: no wrapping, one node per line.
    const CommandResult r = runCommand(yanglint("-f tree -L 10000 " + allModules() + " 2>/dev/null"));
    if (r.exit_code != 0) {
      error_ = "yanglint -f tree failed: " + r.output;
      return;
    }
    parseTree(r.output);
  }

  // prefix -> module, from each module's own `prefix` statement.
  void readPrefixes(const std::string& dir) {
    static const std::regex module_re(R"(^\s*module\s+([A-Za-z0-9_.-]+)\s*\{)");
    static const std::regex prefix_re(R"re(^\s*prefix\s+"?([A-Za-z0-9_.-]+)"?\s*;)re");
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".yang") continue;
      std::ifstream in(e.path());
      std::string line, module;
      std::smatch m;
      while (std::getline(in, line)) {
        if (module.empty()) {
          if (std::regex_search(line, m, module_re)) module = m[1];
          continue;
        }
        if (std::regex_search(line, m, prefix_re)) {
          prefix_to_module_[m[1]] = module;
          break;
        }
      }
    }
  }

  // Tree lines: "  <indent>+--ro name?   type", three columns per level, the
  // first character 'x' or 'o' for deprecated or obsolete nodes. Each
  // module's own tree comes first; its augment, rpc and notification sections
  // (printed again, in brief, where they land) are skipped.
  void parseTree(const std::string& tree) {
    std::istringstream in(tree);
    std::string line, module;
    bool in_data_tree = false;
    std::vector<std::pair<std::string, std::string>> stack;  // (name, module)
    static const std::regex node_re(R"(^([ |]*)[+xo]--(\S\S) (\S+)(?:\s+(.*))?$)");
    std::smatch m;
    while (std::getline(in, line)) {
      if (line.starts_with("module: ")) {
        module = line.substr(8);
        in_data_tree = true;
        stack.clear();
        continue;
      }
      if (line.starts_with("  ") && !line.starts_with("  +") && !line.starts_with("  x") &&
          !line.starts_with("  o") && line.find("--") == std::string::npos) {
        in_data_tree = false;  // "  augment /...:", "  rpcs:", "  notifications:"
        continue;
      }
      if (!in_data_tree || !std::regex_match(line, m, node_re)) continue;
      const std::string flags = m[2];
      if (flags != "rw" && flags != "ro") continue;  // actions, notifications, uses
      const size_t depth = (m[1].length() - 2) / 3;
      std::string name = m[3], type = m[4];
      SchemaNode node;
      // A list prints its keys after the name ("interface* [name]"), a
      // leaf-list its type ("dscp-set*   oc-inet:dscp").
      node.is_list = name.back() == '*' && (type.empty() || type.starts_with("["));
      if (name.back() == '?' || name.back() == '*') name.pop_back();
      if (type.starts_with("[")) type.clear();
      node.module = module;
      if (const size_t colon = name.find(':'); colon != std::string::npos) {
        const auto it = prefix_to_module_.find(name.substr(0, colon));
        if (it == prefix_to_module_.end()) {
          error_ += "unknown prefix in tree line: " + line + "\n";
          continue;
        }
        node.module = it->second;
        name = name.substr(colon + 1);
      }
      while (!type.empty() && type.back() == ' ') type.pop_back();
      node.is_leaf = !node.is_list && !type.empty();
      if (type.starts_with("-> ")) {
        node.is_key = true;
        node.key_target = type.substr(3);
      }
      node.type = type;
      if (depth > stack.size()) {
        error_ += "tree line deeper than its parent: " + line + "\n";
        continue;
      }
      stack.resize(depth);
      stack.emplace_back(name, node.module);
      std::string path;
      for (const auto& [seg, mod] : stack) path += "/" + seg;
      // A key prints as "-> ../state/name", as any leafref does (OpenConfig's
      // interface-ref): the list's key list, checked below, tells them apart.
      if (auto [it, fresh] = nodes_.emplace(path, node); !fresh && it->second.module != node.module) {
        error_ += "two modules define " + path + ": " + it->second.module + ", " + node.module + "\n";
      }
      if (node.is_list) list_keys_[path] = m[4];
    }
    // Only list keys are keys.
    for (auto& [path, node] : nodes_) {
      if (!node.is_key) continue;
      const size_t slash = path.rfind('/');
      const auto keys = list_keys_.find(path.substr(0, slash));
      node.is_key = false;
      if (keys != list_keys_.end()) {
        // "[name]", or "[type oui oui-subtype]" for a list with several keys.
        std::istringstream names(keys->second.substr(1, keys->second.size() - 2));
        for (std::string k; names >> k;) node.is_key |= k == path.substr(slash + 1);
      }
      if (!node.is_key) node.key_target.clear();
    }
    if (nodes_.empty()) error_ += "no nodes in the tree output\n";
  }

  std::map<std::string, std::string> prefix_to_module_;
  std::map<std::string, SchemaNode> nodes_;
  std::map<std::string, std::string> list_keys_;  // list path -> "[name]"
  std::string error_;
};

}  // namespace rdmagw::testing
