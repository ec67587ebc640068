#pragma once
// Which store changes any streaming subscriber could want, checked on the
// store writers' threads before the hub copies a change into its inbox.
//
// Why: subscribers usually ask for a few paths, but every store writer
// calls the hub for every changed leaf. At a million series, copying them
// all into the inbox under one lock made ingest wait on the gNMI server,
// however few leaves the subscribers wanted. This check is lock-free for the writers: the hub
// publishes an immutable ChangeInterest and swaps it when streams come
// and go.
//
// The check is conservative. It compares targets and element names only
// (keys are left to the session's full PathPattern match), and it passes
// any path it cannot read cheaply (an origin, an escape, very deep paths).
// It may let through a change nobody wants; it never drops one that a
// session's pattern matches.

#include <string>
#include <string_view>
#include <vector>

#include "northbound/gnmi/subscription_spec.h"

namespace rdmagw::northbound::gnmi {

class ChangeInterest {
 public:
  struct Pattern {
    std::string target;               // "" or "*": every target
    std::vector<std::string> names;   // element names; "*" one element, "..." any number
    bool operator==(const Pattern&) const = default;
  };

  ChangeInterest() = default;
  explicit ChangeInterest(std::vector<Pattern> patterns);  // repeats are kept once

  bool empty() const { return patterns_.empty(); }
  size_t size() const { return patterns_.size(); }
  bool wants(std::string_view target, std::string_view path) const;

 private:
  std::vector<Pattern> patterns_;
};

// The patterns of a stream's entries that listen to changes (ON_CHANGE and
// TARGET_DEFINED in a STREAM list); none for SAMPLE-only, ONCE and POLL.
std::vector<ChangeInterest::Pattern> interestOf(const SubscriptionSpec& spec);

}  // namespace rdmagw::northbound::gnmi
