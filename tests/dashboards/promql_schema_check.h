#pragma once
// Checks PromQL written by hand (the Grafana dashboards, the alerting and
// recording rules) against the one schema table: every rdmagw_* name must be
// a family rdmagw exports, every label a query filters, groups or matches by
// must be one that family carries, and counters must only be read through
// rate()/increase() over a range. Shared by tests/dashboards and tests/rules.

#include <map>
#include <set>
#include <string>
#include <vector>

namespace rdmagw::testing {

struct PromFamily {
  std::set<std::string> labels;  // target, the row's keys, the info label
  bool counter = false;
};

// Every family of SchemaTable (device leaves and gateway self-metrics), and
// the kube-state-metrics families the Kubernetes rules join with.
std::map<std::string, PromFamily> schemaFamilies();

// One query and where it sits, for messages.
struct PromQuery {
  std::string where;   // panel title / refId, rule name
  std::string expr;
  std::string legend;  // legendFormat, may be empty
  // Labels the text around the query names ({{ $labels.x }} of an alert's
  // annotations): each must be carried by at least one family of the query.
  std::vector<std::string> annotation_labels;
};

struct QueryPolicy {
  // The range a counter must be read over: "$__rate_interval" for the
  // dashboards (Grafana picks it from the scrape interval); empty: any.
  std::string counter_range;
  // Names recording rules define (level:metric:operation) a query may use.
  std::set<std::string> recorded;
  // The labels of those whose rule ends in an aggregation `by (...)`: their
  // selectors, groupings and legends are checked like a family's.
  std::map<std::string, std::set<std::string>> recorded_labels;
};

// Adds every `record:` of the rules files in `dir` (*.yml) to the policy.
void addRecordingRules(const std::string& dir, QueryPolicy* policy);

// One message per problem; empty when the query is clean.
std::vector<std::string> checkPromQuery(const PromQuery& q, const std::map<std::string, PromFamily>& families,
                                        const QueryPolicy& policy);

}  // namespace rdmagw::testing
