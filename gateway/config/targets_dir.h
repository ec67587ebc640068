#pragma once
// The targets_dir: one YAML file per target or per group of targets, each in
// the schema of `targets:` in the main file, like Prometheus's file-based
// discovery. Operators (or a provisioning tool) add a switch by dropping a
// file and remove it by deleting the file; the gateway re-reads the
// directory on SIGHUP and when it changes (gateway/runtime/reloader.h).
//
// Read: every regular file (or link to one) named *.yaml or *.yml, in name
// order; dot files (editors' and Kubernetes' ..data links) are skipped, as
// are subdirectories.

#include <string>
#include <vector>

#include "gateway/config/target_config.h"
#include "models/status.h"

namespace rdmagw::gateway {

struct TargetsDirContent {
  std::vector<TargetConfig> targets;  // file name order, then order within the file
  std::vector<std::string> files;     // the files read, sorted
  // Every problem of every file, "file:line:col: key.path: message",
  // duplicate names across files included (naming both places). The
  // targets of the good files are still listed, so the caller can check
  // them against its own.
  std::vector<std::string> errors;
};

// notFound when `dir` does not exist (the caller decides whether that is an
// error), invalidArgument when it is not a directory.
Result<TargetsDirContent> readTargetsDir(const std::string& dir);

// The files readTargetsDir would read, sorted; empty when `dir` is missing.
std::vector<std::string> targetsDirFiles(const std::string& dir);

}  // namespace rdmagw::gateway
