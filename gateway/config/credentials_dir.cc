#include "gateway/config/credentials_dir.h"

#include <cstdlib>

namespace rdmagw::gateway {

std::string expandCredentialsDirectory(std::string_view value) {
  for (std::string_view prefix : {std::string_view("$CREDENTIALS_DIRECTORY/"),
                                  std::string_view("${CREDENTIALS_DIRECTORY}/")}) {
    if (!value.starts_with(prefix)) continue;
    const char* dir = std::getenv("CREDENTIALS_DIRECTORY");
    if (dir == nullptr || *dir == '\0') break;
    std::string out(dir);
    if (!out.ends_with('/')) out += '/';
    out += value.substr(prefix.size());
    return out;
  }
  return std::string(value);
}

}  // namespace rdmagw::gateway
