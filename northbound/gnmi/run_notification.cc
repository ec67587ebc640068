#include "northbound/gnmi/run_notification.h"

#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/gnmi/path_pattern.h"
#include "northbound/gnmi/typed_value.h"

namespace rdmagw::northbound::gnmi {

size_t fillNotification(const std::vector<PendingLeaf>& run, ::gnmi::Encoding encoding, ::gnmi::Notification* n,
                        std::vector<int64_t>* seen_ns) {
  const bool ietf = encoding == ::gnmi::JSON_IETF;
  n->set_timestamp(run.front().timestamp_ns);
  n->mutable_prefix()->set_target(run.front().target);
  for (const PendingLeaf& leaf : run) {
    if (leaf.seen_ns != 0) seen_ns->push_back(leaf.seen_ns);
    if (leaf.deleted) {
      toGnmiPath(leaf.leaf->path, n->add_delete_());
      continue;
    }
    // RFC 7951 has no encoding for a leaf the YANG modules do not define.
    if (ietf && leaf.leaf->yang == nullptr) continue;
    ::gnmi::Update* u = n->add_update();
    if (!setTypedValue(leaf.value, encoding, u->mutable_val(), leaf.leaf->yang)) {
      n->mutable_update()->RemoveLast();
      reportIetfMismatch(leaf.path, *leaf.leaf->yang, leaf.value);
      continue;
    }
    toGnmiPath(leaf.leaf->path, u->mutable_path());
  }
  return size_t(n->update_size() + n->delete__size());
}

}  // namespace rdmagw::northbound::gnmi
