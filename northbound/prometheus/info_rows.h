#pragma once
// Info rows (InfoRowSchema in models/schema.h): a list entry's string leaves
// that label one series, `name{target,keys...,labels...} 1`, so a dashboard
// joins on one series instead of one per leaf.
//
// A target's series come from the store in insertion order, not path order,
// so an entry's leaves need not be neighbours: a build gathers them per
// entry (the store interns an entry's key values, so their address names the
// entry within one target's visit) and writes the target's rows when the
// visit moves on. Entries are few (a node's pods), so a small map is enough.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/schema.h"

namespace rdmagw::northbound::prometheus {

// What the schema says, built once per writer.
class InfoRowLayout {
 public:
  static constexpr uint16_t kNone = UINT16_MAX;
  struct Family {
    std::string header;                         // # HELP / # TYPE gauge
    std::string prefix;                         // name{target="
    std::vector<std::string> key_separators;    // ",device=" per key, path order
    std::vector<std::string> label_separators;  // ",namespace=" per label leaf, schema order
  };
  struct Slot {
    uint16_t family = kNone;
    uint16_t label = 0;
  };

  explicit InfoRowLayout(const SchemaTable& table);
  const std::vector<Family>& families() const { return families_; }
  // The family and label a leaf fills; family kNone for every other leaf.
  Slot slotOf(size_t leaf_index) const { return slots_[leaf_index]; }
  // Key and label names, for the writer's reserved labels.
  std::vector<std::string> labelNames() const { return names_; }

 private:
  std::vector<Family> families_;
  std::vector<Slot> slots_;  // by SchemaTable::leaves() index
  std::vector<std::string> names_;
};

// One build's rows.
class InfoRowBuilder {
 public:
  explicit InfoRowBuilder(const InfoRowLayout& layout);
  // One label leaf of the target being visited.
  void add(InfoRowLayout::Slot slot, std::span<const std::string> keys, std::string_view value);
  // Writes the visited target's rows: `target_text` is the escaped target
  // value, `tail` what closes the label set ("} with extra target labels).
  void endTarget(std::string_view target_text, std::string_view tail);
  // Each family with rows: header, then its rows.
  void appendTo(std::string* out) const;
  size_t rows() const { return rows_; }

 private:
  struct Entry {
    std::span<const std::string> keys;
    std::vector<std::string> values;  // one per label, "" when the leaf is absent
  };
  const InfoRowLayout& layout_;
  // Per family: the visited target's entries in the order first seen, and
  // their index by their keys' address.
  struct Pending {
    std::vector<Entry> entries;
    std::map<const std::string*, size_t> by_keys;
  };
  std::vector<Pending> pending_;
  std::vector<std::string> text_;  // per family: rows written so far
  size_t rows_ = 0;
};

}  // namespace rdmagw::northbound::prometheus
