#include "northbound/prometheus/info_rows.h"

#include "northbound/prometheus/text_format.h"

namespace rdmagw::northbound::prometheus {

InfoRowLayout::InfoRowLayout(const SchemaTable& table) {
  std::span<const LeafSchema> leaves = table.leaves();
  slots_.resize(leaves.size());
  for (const InfoRowSchema& info : table.infoRows()) {
    const uint16_t family = uint16_t(families_.size());
    Family f;
    f.header = familyHeader(info.prom_name, info.help, /*counter=*/false);
    f.prefix = std::string(info.prom_name) + "{" + std::string(kTargetLabel) + "=\"";
    for (size_t i = 0; i < leaves.size(); ++i) {
      const LeafSchema& leaf = leaves[i];
      if (leaf.prom_info_label.empty() || leaf.prom_name != info.prom_name) continue;
      if (f.label_separators.empty()) {  // the generator checked every member has the same keys
        for (std::string_view key : SchemaTable::splitLabels(leaf.labels)) {
          f.key_separators.push_back("\"," + std::string(key) + "=\"");
          names_.emplace_back(key);
        }
      }
      slots_[i] = Slot{family, uint16_t(f.label_separators.size())};
      f.label_separators.push_back("\"," + std::string(leaf.prom_info_label) + "=\"");
      names_.emplace_back(leaf.prom_info_label);
    }
    families_.push_back(std::move(f));
  }
}

InfoRowBuilder::InfoRowBuilder(const InfoRowLayout& layout)
    : layout_(layout), pending_(layout.families().size()), text_(layout.families().size()) {}

void InfoRowBuilder::add(InfoRowLayout::Slot slot, std::span<const std::string> keys, std::string_view value) {
  const InfoRowLayout::Family& f = layout_.families()[slot.family];
  if (keys.size() != f.key_separators.size()) return;  // the store binds one value per key
  Pending& p = pending_[slot.family];
  auto [it, added] = p.by_keys.emplace(keys.data(), p.entries.size());
  if (added) p.entries.push_back(Entry{keys, std::vector<std::string>(f.label_separators.size())});
  p.entries[it->second].values[slot.label] = value;
}

void InfoRowBuilder::endTarget(std::string_view target_text, std::string_view tail) {
  for (size_t fi = 0; fi < pending_.size(); ++fi) {
    const InfoRowLayout::Family& f = layout_.families()[fi];
    std::string& out = text_[fi];
    for (const Entry& e : pending_[fi].entries) {
      out.append(f.prefix).append(target_text);
      for (size_t k = 0; k < e.keys.size(); ++k) {
        out.append(f.key_separators[k]);
        appendLabelValue(&out, e.keys[k]);
      }
      for (size_t l = 0; l < e.values.size(); ++l) {
        out.append(f.label_separators[l]);
        appendLabelValue(&out, e.values[l]);
      }
      out.append(tail).append("1\n");
      ++rows_;
    }
    pending_[fi] = Pending{};
  }
}

void InfoRowBuilder::appendTo(std::string* out) const {
  for (size_t fi = 0; fi < text_.size(); ++fi) {
    if (text_[fi].empty()) continue;  // no rows, no HELP/TYPE
    out->append(layout_.families()[fi].header).append(text_[fi]);
  }
}

}  // namespace rdmagw::northbound::prometheus
