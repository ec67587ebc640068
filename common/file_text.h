#pragma once
// The one whole-file read: a config, a PEM file, a secret's file, a recorded
// device output, a child process's log. The file is read to its end in one
// call; a failure to open or to read is reported with its errno, never as an
// empty text. Not for sysfs or /proc (southbound reads those without
// blocking and with a size cap).

#include <string>

namespace rdmagw::common {

struct FileText {
  std::string text;        // the file's content; empty when the read failed
  std::string error;       // "cannot read <path>: <reason>"; empty when read
  int error_number = 0;    // errno of the failed open or read; 0 when read
  bool ok() const { return error.empty(); }
};

FileText readFileText(const std::string& path);

}  // namespace rdmagw::common
