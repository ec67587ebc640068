#include "southbound/transport_chain.h"

#include <algorithm>

#include "models/log.h"

namespace rdmagw::southbound {

TransportChain::TransportChain(std::vector<PollSourcePtr> chain, TransportChainOptions options)
    : chain_(std::move(chain)),
      opts_(std::move(options)),
      retry_backoff_(opts_.retry_preferred_after,
                     std::max(opts_.retry_preferred_after, std::chrono::milliseconds(600000))) {}

void TransportChain::moveTo(size_t index, const std::string& why) {
  RDMAGW_LOG(kInfo, "poll") << opts_.target << ": transport " << chain_[active_]->transport() << " -> "
                            << chain_[index]->transport() << " (" << why << ")";
  active_ = index;
  failures_ = 0;
  ++stats_.changes;
  if (index == 0) {
    retry_backoff_.reset();
  } else {
    next_retry_ = opts_.now() + opts_.retry_preferred_after;
  }
}

Status TransportChain::poll(PollBatch& batch) {
  // The preferred transports first, when their retry is due: the first
  // that answers carries the device again and its batch is this poll's.
  if (active_ > 0 && opts_.now() >= next_retry_) {
    for (size_t i = 0; i < active_; ++i) {
      ++stats_.preferred_retries;
      PollBatch trial;
      Status st = chain_[i]->poll(trial);
      if (st.isOk() || st.code() != Status::Code::kUnavailable) {
        const std::string why = std::string(chain_[i]->transport()) + " answers again";
        moveTo(i, why);
        batch = std::move(trial);
        return st;
      }
    }
    next_retry_ = opts_.now() + retry_backoff_.next();
  }
  for (;;) {
    Status st = chain_[active_]->poll(batch);
    if (st.isOk() || st.code() != Status::Code::kUnavailable) {
      failures_ = 0;
      return st;
    }
    if (++failures_ < opts_.fail_after || active_ + 1 == chain_.size()) return st;
    // Unreachable fail_after times in a row: the next transport takes over
    // and is polled now, so this poll still yields data when it can.
    batch = PollBatch();
    moveTo(active_ + 1, std::to_string(opts_.fail_after) + " polls unreachable: " + st.message());
  }
}

}  // namespace rdmagw::southbound
