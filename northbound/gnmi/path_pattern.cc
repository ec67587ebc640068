#include "northbound/gnmi/path_pattern.h"

namespace rdmagw::northbound::gnmi {
namespace {

Status invalid(const std::string& what) { return Status::invalidArgument(what); }

// Bounds that keep matching cheap whatever a client sends: each "..." can
// try every position, so their number is what makes matching expensive.
constexpr size_t kMaxElems = 64;
constexpr size_t kMaxMultiLevel = 4;

bool knownOrigin(const std::string& origin) {
  return origin.empty() || origin == kOriginOpenconfig || origin == kOriginRdmagw;
}

// Characters the store's path form reserves; in a gNMI name they would
// make an element no store path can hold.
bool badNameChar(char c) { return c == '/' || c == '[' || c == ']' || c == '='; }

Status checkElem(const ::gnmi::PathElem& e, size_t index) {
  const std::string where = "path element " + std::to_string(index);
  if (e.name().empty()) return invalid(where + " has an empty name");
  for (char c : e.name()) {
    if (badNameChar(c)) {
      return invalid(where + " \"" + e.name() + "\" contains '" + std::string(1, c) +
                     "' (keys go in PathElem.key, not in the name)");
    }
  }
  if (e.name() == "..." && e.key_size() > 0) {
    return invalid(where + ": \"...\" cannot carry keys");
  }
  for (const auto& [k, v] : e.key()) {
    if (k.empty()) return invalid(where + " \"" + e.name() + "\" has a key with an empty name");
    if (v.empty()) {
      return invalid(where + " \"" + e.name() + "\" key \"" + k + "\" has an empty value (use \"*\" for any)");
    }
  }
  return Status::ok();
}

}  // namespace

Result<PathPattern> PathPattern::fromRequest(const ::gnmi::Path& prefix, const ::gnmi::Path& path) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  // Checked only to refuse it: Path.element is the pre-0.4 string form.
  const bool deprecated_elements = prefix.element_size() > 0 || path.element_size() > 0;
#pragma GCC diagnostic pop
  if (deprecated_elements) {
    return invalid("Path.element (deprecated string elements) is not supported; use Path.elem");
  }
  // A path's own target narrows a list whose prefix spans every target:
  // one stream can then ask for a few ports of many targets (a fleet
  // member's copy of its links' far ends) instead of one stream per target.
  // gNMI puts the target in the prefix only; this is our extension, and a
  // path target that contradicts the prefix's is still refused.
  const bool prefix_spans_all = prefix.target().empty() || prefix.target() == "*";
  if (!path.target().empty() && !prefix_spans_all && path.target() != prefix.target()) {
    return invalid("target \"" + path.target() + "\" is set in a path whose prefix names target \"" + prefix.target() +
                   "\"");
  }
  if (!knownOrigin(prefix.origin()) || !knownOrigin(path.origin())) {
    const std::string& o = knownOrigin(prefix.origin()) ? path.origin() : prefix.origin();
    return invalid("unknown origin \"" + o + "\"; this server serves \"openconfig\" (or empty) and \"rdmagw\"");
  }
  if (!prefix.origin().empty() && !path.origin().empty() && prefix.origin() != path.origin()) {
    return invalid("prefix origin \"" + prefix.origin() + "\" and path origin \"" + path.origin() + "\" differ");
  }
  if (size_t(prefix.elem_size() + path.elem_size()) > kMaxElems) {
    return invalid("path has " + std::to_string(prefix.elem_size() + path.elem_size()) +
                   " elements; at most " + std::to_string(kMaxElems) + " are accepted");
  }
  size_t multi = 0;
  for (const ::gnmi::Path* part : {&prefix, &path}) {
    for (const ::gnmi::PathElem& e : part->elem()) multi += e.name() == "...";
  }
  if (multi > kMaxMultiLevel) {
    return invalid("path has " + std::to_string(multi) + " \"...\" elements; at most " +
                   std::to_string(kMaxMultiLevel) + " are accepted");
  }
  PathPattern p;
  p.target_ = path.target().empty() ? prefix.target() : path.target();
  size_t index = 0;
  for (const ::gnmi::Path* part : {&prefix, &path}) {
    for (const ::gnmi::PathElem& e : part->elem()) {
      if (Status st = checkElem(e, index); !st.isOk()) return st;
      PathElem elem;
      elem.name = e.name();
      for (const auto& [k, v] : e.key()) elem.keys.emplace(k, v);
      p.elems_.push_back(std::move(elem));
      ++index;
    }
  }
  for (size_t i = 0; i + 1 < p.elems_.size(); ++i) p.inner_multi_ += p.elems_[i].name == "...";
  return p;
}

std::optional<size_t> PathPattern::match(const Path& path) const {
  if (inner_multi_ < 2) return matchFrom(path.elems(), 0, 0, nullptr);
  std::vector<bool> dead((elems_.size() + 1) * (path.elems().size() + 1));
  return matchFrom(path.elems(), 0, 0, &dead);
}

std::optional<size_t> PathPattern::matchFrom(const std::vector<PathElem>& elems, size_t pi, size_t ei,
                                             std::vector<bool>* dead) const {
  while (pi < elems_.size()) {
    const PathElem& p = elems_[pi];
    if (p.name == "...") {
      if (pi + 1 == elems_.size()) return ei;  // trailing: the rest, whatever it is
      for (size_t skip = ei; skip <= elems.size(); ++skip) {
        const size_t state = (pi + 1) * (elems.size() + 1) + skip;
        if (dead != nullptr && (*dead)[state]) continue;
        if (auto m = matchFrom(elems, pi + 1, skip, dead)) return m;
        if (dead != nullptr) (*dead)[state] = true;
      }
      return std::nullopt;
    }
    if (ei >= elems.size()) return std::nullopt;  // the pattern is deeper than the leaf
    const PathElem& e = elems[ei];
    if (p.name != "*" && p.name != e.name) return std::nullopt;
    for (const auto& [k, v] : p.keys) {
      auto it = e.keys.find(k);
      if (it == e.keys.end() || (v != "*" && it->second != v)) return std::nullopt;
    }
    ++pi;
    ++ei;
  }
  return ei;
}

std::string PathPattern::toString() const {
  std::string out;
  for (const PathElem& e : elems_) {
    out += '/';
    out += e.name;
    for (const auto& [k, v] : e.keys) {
      out += '[' + k + '=';
      appendEscapedKeyValue(&out, v);
      out += ']';
    }
  }
  return out.empty() ? "/" : out;
}

Path leadingElems(const Path& path, size_t n) {
  return Path(std::vector<PathElem>(path.elems().begin(), path.elems().begin() + n));
}

void toGnmiPath(const std::vector<PathElem>& elems, size_t begin, size_t end, ::gnmi::Path* out) {
  for (size_t i = begin; i < end; ++i) {
    ::gnmi::PathElem* e = out->add_elem();
    e->set_name(elems[i].name);
    for (const auto& [k, v] : elems[i].keys) (*e->mutable_key())[k] = v;
  }
}

void toGnmiPath(const Path& path, ::gnmi::Path* out) {
  toGnmiPath(path.elems(), 0, path.elems().size(), out);
}

}  // namespace rdmagw::northbound::gnmi
