#include "northbound/prometheus/exposition.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <map>

#include "northbound/prometheus/sample_buffer.h"
#include "northbound/prometheus/self_metrics_text.h"
#include "northbound/prometheus/text_format.h"

namespace rdmagw::northbound::prometheus {
namespace {

using prometheus::appendDouble;
using prometheus::appendHelpText;
using prometheus::appendLabelValue;
using prometheus::appendUint;

// The leaf's own name as a label: last path element, '-' -> '_'
// (fw-version -> fw_version).
std::string infoLabelName(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view leaf = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return prometheus::sanitizeLabelName(leaf);
}

}  // namespace

struct ExpositionWriter::Family {
  std::string header;                   // # HELP ...\n# TYPE ...\n
  std::string prefix;                   // name{target="
  PaddedText padded_prefix;             // the same, for putPadded
  std::vector<std::string> separators;  // ",device=" per row label
  uint32_t layout = 0;                  // rows with equal separators share it
  std::string info_separator;           // ",fw_version=" for string rows, else empty
  bool is_info = false;
  bool integer_ok = true;  // scale 1: integers print as integers
  // Scaling: divide by an exact integer when the scale is one's reciprocal
  // (us -> s is /1e6) so 1500000 us prints as 1.5, not 1.4999999999999998.
  double divisor = 0;
  double multiplier = 1;


  double scale(double v) const { return divisor != 0 ? v / divisor : v * multiplier; }
  char* putValue(char* p, const Value& v) const;
};

namespace {
// "-1.2345678901234567e-308" is 24; to_chars of any integer fits in 20.
constexpr size_t kMaxNumberChars = 32;
}  // namespace

// The sample value: integers as integers when unscaled, otherwise the
// shortest round-trip double; info rows are always 1. The caller checked
// that a string only reaches an info row.
char* ExpositionWriter::Family::putValue(char* p, const Value& v) const {
  const Family& f = *this;
  if (f.is_info) {
    *p++ = '1';
    return p;
  }
  char* end = p + kMaxNumberChars;
  if (const uint64_t* u = std::get_if<uint64_t>(&v); u != nullptr && f.integer_ok) {
    return std::to_chars(p, end, *u).ptr;
  }
  if (const int64_t* i = std::get_if<int64_t>(&v); i != nullptr && f.integer_ok) {
    return std::to_chars(p, end, *i).ptr;
  }
  double d = 0;
  valueAsDouble(v, &d);
  d = f.scale(d);
  if (std::isnan(d)) return putRaw(p, "NaN");
  if (std::isinf(d)) return putRaw(p, d > 0 ? "+Inf" : "-Inf");
  return std::to_chars(p, end, d).ptr;
}

namespace {

// CPU time of the calling thread: the build runs on it alone, so this is
// the build's own cost, apart from the time other threads and processes
// took the CPU from it.
int64_t threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

ExpositionWriter::ExpositionWriter() {
  const SchemaTable& table = SchemaTable::instance();
  std::span<const LeafSchema> leaves = table.leaves();
  pool_ = std::make_unique<SampleBuffer[]>(leaves.size());
  first_leaf_ = leaves.data();
  families_.resize(leaves.size());
  reserved_labels_.emplace_back(kTargetLabel);
  std::map<std::string, uint32_t> layouts;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const LeafSchema& row = leaves[i];
    Family& f = families_[i];
    f.is_info = row.kind == LeafKind::kString;
    // String leaves become info-style gauges (value 1, the string as a label).
    f.header = prometheus::familyHeader(row.prom_name, row.help, !f.is_info && row.kind == LeafKind::kCounter);
    f.prefix = std::string(row.prom_name) + "{" + std::string(kTargetLabel) + "=\"";
    for (std::string_view label : SchemaTable::splitLabels(row.labels)) {
      f.separators.push_back("\"," + std::string(label) + "=\"");
      reserved_labels_.emplace_back(label);
    }
    if (f.is_info && row.prom_info_label.empty()) {  // an info row's label has no family of its own
      std::string label = infoLabelName(row.path);
      f.info_separator = "\"," + label + "=\"";
      reserved_labels_.push_back(label);
    }
    f.padded_prefix.assign(f.prefix);
    std::string joined;
    for (const std::string& sep : f.separators) joined += sep;
    f.layout = layouts.emplace(joined, uint32_t(layouts.size())).first->second;
    f.integer_ok = row.prom_scale == 1.0;
    double inverse = 1.0 / row.prom_scale;
    if (row.prom_scale < 1.0 && std::abs(inverse - std::round(inverse)) < 1e-9 * inverse) {
      f.divisor = std::round(inverse);
    } else {
      f.multiplier = row.prom_scale;
    }
  }

  info_labels_ = info_layout_.labelNames();
  std::sort(info_labels_.begin(), info_labels_.end());
  addGatewayFamilies(table);
  std::sort(reserved_labels_.begin(), reserved_labels_.end());
  reserved_labels_.erase(std::unique(reserved_labels_.begin(), reserved_labels_.end()),
                         reserved_labels_.end());

  size_hints_ = std::make_unique<std::atomic<size_t>[]>(families_.size());
  for (size_t i = 0; i < families_.size(); ++i) size_hints_[i] = 0;
}

ExpositionWriter::~ExpositionWriter() = default;

std::string Exposition::join() const {
  std::string text;
  text.reserve(size_);
  for (std::string_view piece : pieces_) text.append(piece);
  return text;
}

std::string ExpositionWriter::build(const Store& store, ExpositionStats* stats) const {
  Exposition e;
  build(store, &e, stats);
  return e.join();
}

void ExpositionWriter::build(const Store& store, Exposition* out, ExpositionStats* stats) const {
  const auto start = std::chrono::steady_clock::now();
  const int64_t start_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::system_clock::now().time_since_epoch()).count();
  const int64_t cpu_start = threadCpuNs();
  ExpositionStats st;
  // Health first: a target that is down and has no series still needs its
  // labels for target_up. targets() is sorted by name, as forEach visits.
  const std::vector<TargetStatus> targets = store.targets();
  const std::vector<TargetLabels> labels = targetLabels(targets);

  // One scrape at a time reuses the pooled buckets, so a steady scrape takes
  // no page faults (at 1M series fresh buckets cost ~100k faults a scrape);
  // a concurrent scrape builds into buckets of its own.
  out->pieces_.clear();
  out->local_.reset();
  if (out->pool_lock_.owns_lock()) out->pool_lock_.unlock();  // built again: let go of the last one's
  out->pool_lock_ = std::unique_lock(pool_mu_, std::try_to_lock);
  SampleBuffer* buckets = pool_.get();
  if (!out->pool_lock_.owns_lock()) {
    out->local_ = std::make_unique<SampleBuffer[]>(families_.size());
    buckets = out->local_.get();
  }
  for (size_t i = 0; i < families_.size(); ++i) {
    buckets[i].clear();
    size_t hint = size_hints_[i].load(std::memory_order_relaxed);
    if (hint != 0) buckets[i].reserve(hint + hint / 8);
  }

  const TargetLabels* current = nullptr;
  std::string_view current_name;
  TargetLabels fallback;  // a target that appeared after targets() was read
  // The escaped label section (`",device="mlx5_0",port="1`) of the last
  // series, reused while the next one has the same label values and label
  // names: the store interns label values, so within one target's visit equal
  // label_values addresses mean equal values (store.h). Leaves of one device
  // or port come together, so most series copy this instead of escaping.
  const std::string* labels_key = nullptr;
  uint32_t labels_layout = 0;
  PaddedText labels_text;
  std::string labels_scratch;
  InfoRowBuilder info(info_layout_);

  store.forEach([&](const SeriesView& s) {
    const size_t row = s.schema == nullptr ? families_.size() : size_t(s.schema - first_leaf_);
    if (row >= families_.size()) {
      ++st.unknown_skipped;
      return;
    }
    const Family& f = families_[row];
    const size_t nlabels = f.separators.size();
    // The store binds one value per schema label; a string on a number row
    // has no sample form. Neither writes half a line.
    if (s.label_values.size() != nlabels ||
        (!f.is_info && std::holds_alternative<std::string>(s.value))) {
      ++st.invalid_skipped;
      return;
    }
    if (current == nullptr || s.target.data() != current_name.data() ||
        s.target.size() != current_name.size()) {
      if (current != nullptr) info.endTarget(current->escaped, current->info_tail);
      current_name = s.target;
      auto it = std::lower_bound(labels.begin(), labels.end(), s.target,
                                 [](const TargetLabels& a, std::string_view b) { return a.name < b; });
      if (it != labels.end() && it->name == s.target) {
        current = &*it;
      } else {
        fallback = TargetLabels{std::string(s.target), "", "\"} ", "\"} ", {}, {}};
        appendLabelValue(&fallback.escaped, s.target);
        fallback.padded_escaped.assign(fallback.escaped);
        fallback.padded_tail.assign(fallback.tail);
        current = &fallback;
      }
      labels_key = nullptr;  // label storage is only known stable within one target
    }
    if (const InfoRowLayout::Slot slot = info_layout_.slotOf(row); slot.family != InfoRowLayout::kNone) {
      const std::string* text = std::get_if<std::string>(&s.value);
      info.add(slot, s.label_values, text != nullptr ? *text : valueToString(s.value));
      return;
    }
    if (labels_key == nullptr || s.label_values.data() != labels_key || f.layout != labels_layout) {
      labels_scratch.clear();
      for (size_t i = 0; i < nlabels; ++i) {
        labels_scratch.append(f.separators[i]);
        appendLabelValue(&labels_scratch, s.label_values[i]);
      }
      labels_text.assign(labels_scratch);
      labels_key = s.label_values.data();
      labels_layout = f.layout;
    }

    std::string scratch;
    std::string_view info;
    if (f.is_info) {
      if (const std::string* str = std::get_if<std::string>(&s.value)) {
        info = *str;
      } else {
        scratch = valueToString(s.value);
        info = scratch;
      }
    }

    // Worst case: the info value all escaped, the longest number, and the
    // block copies' overrun.
    const size_t need = f.prefix.size() + current->escaped.size() + labels_text.size() +
                        f.info_separator.size() + 2 * info.size() + current->tail.size() +
                        kMaxNumberChars + 1 + kPad;
    SampleBuffer& bucket = buckets[row];
    char* p = bucket.room(need);
    p = putPadded(p, f.padded_prefix);
    p = putPadded(p, current->padded_escaped);
    p = putPadded(p, labels_text);
    if (f.is_info) {
      p = putRaw(p, f.info_separator);
      p = putEscaped(p, info);
    }
    p = putPadded(p, current->padded_tail);
    p = f.putValue(p, s.value);
    *p++ = '\n';
    bucket.commit(p);
    ++st.series;
  });

  std::string& head = out->head_;
  head.clear();  // keeps its capacity for the next scrape
  writeGateway(&head, targets, labels, start_unix_ns);
  appendSelfMetrics(&head);  // components' own counters (gNMI server...)
  out->pieces_.push_back(head);
  if (current != nullptr) info.endTarget(current->escaped, current->info_tail);
  out->info_rows_.clear();
  info.appendTo(&out->info_rows_);
  if (!out->info_rows_.empty()) out->pieces_.push_back(out->info_rows_);
  st.series += info.rows();
  for (size_t i = 0; i < families_.size(); ++i) {
    size_hints_[i].store(buckets[i].size(), std::memory_order_relaxed);
    if (buckets[i].empty()) continue;  // no samples, no HELP/TYPE
    out->pieces_.push_back(families_[i].header);
    out->pieces_.push_back(buckets[i].view());
  }
  out->size_ = 0;
  for (std::string_view piece : out->pieces_) out->size_ += piece.size();

  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - start).count();
  last_build_ns_.store(ns, std::memory_order_relaxed);
  st.build_cpu_ns = threadCpuNs() - cpu_start;
  last_build_cpu_ns_.store(st.build_cpu_ns, std::memory_order_relaxed);
  st.bytes = out->size_;
  st.build_ns = ns;
  if (stats != nullptr) *stats = st;
}

}  // namespace rdmagw::northbound::prometheus
